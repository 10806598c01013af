// Package local is the in-process player: one variant of engines/search
// behind the engines.Engine contract. The search speaks the contract's
// limits and scores; what local adds is the game: the position from a FEN
// and the moves (reusing the previous call's board), the move as UCI text,
// and no panic crossing into the runner.
package local

import (
	"context"
	"fmt"
	"slices"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/search"
)

// Engine is an in-process engine: one variant of the search with its own
// transposition table and state. It is not safe for concurrent use; use one
// instance per game side.
type Engine struct {
	name string
	s    *search.Searcher

	// The position of the previous call, so a game's next search only plays
	// the new moves instead of replaying the whole game.
	b         *board.Board
	lastFEN   string
	lastMoves []string
}

var _ engines.Engine = (*Engine)(nil)

// New creates an in-process engine from search options and a
// transposition table size in MiB.
func New(name string, opts search.Options, hashMiB int) (*Engine, error) {
	s, err := search.New(opts, hashMiB)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", name, err)
	}
	return &Engine{name: name, s: s}, nil
}

// NewVariant creates an in-process engine from a variant spec such as
// "fhr" or "nmr-r3-4:dr=2" (see search.ParseVariant).
func NewVariant(name, spec string, hashMiB int) (*Engine, error) {
	opts, err := search.ParseVariant(spec)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", name, err)
	}
	return New(name, opts, hashMiB)
}

// Name returns the engine's name.
func (l *Engine) Name() string { return l.name }

// Options returns the variant's search options.
func (l *Engine) Options() search.Options { return l.s.Options() }

// NewGame empties the transposition table (a new epoch, in which older
// entries count as empty), history and killers; it cannot fail.
func (l *Engine) NewGame(context.Context) error {
	l.s.NewGame()
	l.b, l.lastFEN, l.lastMoves = nil, "", nil
	return nil
}

// Close releases nothing; it exists for the Engine interface.
func (l *Engine) Close() error { return nil }

// Search implements engines.Engine. Bad input (FEN, illegal move) is an
// error, and so is a panic inside the search: it never crosses this
// boundary.
func (l *Engine) Search(ctx context.Context, startFEN string, moves []string, lim engines.Limits) (res engines.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			l.b, l.lastFEN, l.lastMoves = nil, "", nil
			err = fmt.Errorf("engine %s: internal error: %v", l.name, r)
		}
	}()
	b, err := l.position(startFEN, moves)
	if err != nil {
		return engines.Result{}, fmt.Errorf("engine %s: %w", l.name, err)
	}
	r, err := l.s.Search(ctx, b, lim)
	if err != nil {
		return engines.Result{}, fmt.Errorf("engine %s: %w", l.name, err)
	}
	return engines.Result{Move: r.Move.UCI(), Info: r.Info}, nil
}

// position returns the board after moves, reusing the previous call's board
// when the game merely went on.
func (l *Engine) position(startFEN string, moves []string) (*board.Board, error) {
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
