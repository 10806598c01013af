// Package engines holds the players of a tournament: the Engine interface the
// runner talks to and its in-process implementation over the search
// sub-package. Sub-packages: board (position and move generation), eval
// (evaluation with Feldmann's threat function), search (NegaScout and the
// variants of the three papers).
package engines

import (
	"context"
	"fmt"
	"slices"

	"selfplay/engines/board"
	"selfplay/engines/search"
)

// The contract types are those of the search package, so in-process and
// external engines report in the same units.
type (
	// Limits bound one search.
	Limits = search.Limits
	// Clock is the game clock of both sides.
	Clock = search.Clock
	// Info describes a search's progress or result.
	Info = search.Info
	// Score is a search value in centipawns or a mate distance.
	Score = search.Score
	// Counters are the per-variant search statistics.
	Counters = search.Counters
)

// Result is an engine's answer: its move in UCI notation and the search info.
type Result struct {
	Move string
	Info Info
}

// Engine is a player. An instance plays one game at a time; NewGame clears
// whatever it learned in the previous game.
type Engine interface {
	Name() string
	NewGame()
	// Search from startFEN after the UCI moves already played (openings included).
	Search(ctx context.Context, startFEN string, moves []string, lim Limits) (Result, error)
	Close() error
}

// Local is an in-process engine: one variant of the search with its own
// transposition table and state. It is not safe for concurrent use; use one
// instance per game side.
type Local struct {
	name string
	s    *search.Searcher

	// The position of the previous call, so a game's next search only plays
	// the new moves instead of replaying the whole game.
	b         *board.Board
	lastFEN   string
	lastMoves []string
}

// NewLocal creates an in-process engine from search options and a
// transposition table size in MiB.
func NewLocal(name string, opts search.Options, hashMiB int) (*Local, error) {
	s, err := search.New(opts, hashMiB)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", name, err)
	}
	return &Local{name: name, s: s}, nil
}

// NewVariant creates an in-process engine from a variant spec such as
// "fhr" or "nmr-r3-4:dr=2" (see search.ParseVariant).
func NewVariant(name, spec string, hashMiB int) (*Local, error) {
	opts, err := search.ParseVariant(spec)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", name, err)
	}
	return NewLocal(name, opts, hashMiB)
}

// Name returns the engine's name.
func (l *Local) Name() string { return l.name }

// Options returns the variant's search options.
func (l *Local) Options() search.Options { return l.s.Options() }

// NewGame clears the transposition table, history and killers.
func (l *Local) NewGame() {
	l.s.NewGame()
	l.b, l.lastFEN, l.lastMoves = nil, "", nil
}

// Close releases nothing; it exists for the Engine interface.
func (l *Local) Close() error { return nil }

// Search implements Engine. Bad input (FEN, illegal move) is an error, and
// so is a panic inside the search: it never crosses this boundary.
func (l *Local) Search(ctx context.Context, startFEN string, moves []string, lim Limits) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			l.b, l.lastFEN, l.lastMoves = nil, "", nil
			err = fmt.Errorf("engine %s: internal error: %v", l.name, r)
		}
	}()
	b, err := l.position(startFEN, moves)
	if err != nil {
		return Result{}, fmt.Errorf("engine %s: %w", l.name, err)
	}
	r, err := l.s.Search(ctx, b, lim)
	if err != nil {
		return Result{}, fmt.Errorf("engine %s: %w", l.name, err)
	}
	return Result{Move: r.Move.UCI(), Info: r.Info}, nil
}

// position returns the board after moves, reusing the previous call's board
// when the game merely went on.
func (l *Local) position(startFEN string, moves []string) (*board.Board, error) {
	if l.b != nil && startFEN == l.lastFEN && len(moves) >= len(l.lastMoves) && slices.Equal(moves[:len(l.lastMoves)], l.lastMoves) {
		if err := l.b.ApplyUCI(moves[len(l.lastMoves):]); err != nil {
			l.b = nil
			return nil, err
		}
	} else {
		b, err := board.FromFEN(startFEN)
		if err != nil {
			return nil, err
		}
		if err := b.ApplyUCI(moves); err != nil {
			return nil, err
		}
		l.b = b
	}
	l.lastFEN = startFEN
	l.lastMoves = append(l.lastMoves[:0], moves...)
	return l.b, nil
}
