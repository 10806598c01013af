// Package engines is the contract between the runner and its players: the
// Engine interface, the limits of a search, what a search reports, and the
// kinds of engine faults. It imports nothing of the project, so the runner
// depends on the contract alone, not on any engine.
//
// Implementations: engines/local (the in-process search of engines/search)
// and engines/uci (external UCI engines). engines/uciserver serves the
// in-process search as a UCI engine.
package engines

import (
	"context"
	"errors"
	"time"
)

// Engine is a player. An instance plays one game at a time; NewGame clears
// whatever it learned in the previous game.
type Engine interface {
	Name() string
	// NewGame prepares a new game (ucinewgame); an error is a fault of the
	// engine (restart failed, engine closed).
	NewGame(ctx context.Context) error
	// Search from startFEN after the UCI moves already played (openings
	// included). Faults of the engine wrap ErrCrashed, ErrTimeout or
	// ErrProtocol where they are of those kinds.
	Search(ctx context.Context, startFEN string, moves []string, lim Limits) (Result, error)
	Close() error
}

// Result is an engine's answer: its move in UCI notation and the search info.
type Result struct {
	Move string
	Info Info
}

// Limits bound one search. Zero values mean "no limit"; with none set the
// engine searches until its context is cancelled (the in-process search
// also stops at its deepest iteration).
type Limits struct {
	Depth    int           // maximum iteration depth
	Nodes    int64         // node budget (the in-process search stops the moment it is spent)
	MoveTime time.Duration // time for this move, used in full
	Clock    *Clock        // game clock; the engine's time manager decides
	// OnIteration, if set, is called after every completed iteration (the
	// in-process search also calls it once for an interrupted iteration
	// whose best move changed).
	OnIteration func(Info)
}

// Clock is a game clock for both sides, as UCI's go wtime/btime/winc/binc/movestogo.
type Clock struct {
	WhiteTime, BlackTime time.Duration
	WhiteInc, BlackInc   time.Duration
	MovesToGo            int // moves to the next time control; 0 = rest of the game
}

// Info describes the state of a search after an iteration.
type Info struct {
	Depth    int
	SelDepth int
	Score    Score
	Bound    Bound
	Nodes    int64
	Elapsed  time.Duration
	PV       []string // UCI moves
	// What an external engine's last exact info line said besides (UCI
	// hashfull, tbhits, nps; zero when it said nothing), and the time of
	// its last info line that had one (UCI time): fastchess's PGN fields
	// hashfull=, tbhits=, nps= and latency= (the move's time less this)
	// come from them. The in-process search leaves them zero.
	HashFull   int
	TBHits     int64
	NPS        int64
	EngineTime time.Duration
}

// Bound says whether a score is exact or only a bound (UCI's lowerbound and
// upperbound; the in-process search reports exact scores).
type Bound uint8

// Bounds.
const (
	BoundNone Bound = iota
	BoundUpper
	BoundLower
	BoundExact
)

// Kinds of engine faults: errors.Is(err, engines.ErrCrashed) and so on
// classify an Engine's error, whatever engine produced it.
var (
	// ErrCrashed: the engine's process exited or closed its pipes, or could
	// not be (re)started.
	ErrCrashed = errors.New("engine crashed")
	// ErrTimeout: the engine did not answer in time.
	ErrTimeout = errors.New("engine timed out")
	// ErrProtocol: the engine wrote something else where a reply was expected.
	ErrProtocol = errors.New("UCI protocol error")
	// ErrBeforeSearch marks, beside one of the kinds above, a fault that
	// came before the search started and the engine's clock with it (an
	// external engine's restart, or its readiness check before go): such a
	// timeout is a fault of the engine, never a loss on time.
	ErrBeforeSearch = errors.New("before the search")
)

// IsMoveText reports whether s is a move in UCI's long algebraic notation
// (syntax only: e2e4, e7e8q; castling as the king's move or king takes rook).
// The null move 0000 is not move text.
func IsMoveText(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	for i := 0; i < 4; i += 2 {
		if s[i] < 'a' || s[i] > 'h' || s[i+1] < '1' || s[i+1] > '8' {
			return false
		}
	}
	return len(s) == 4 || (s[4] == 'n' || s[4] == 'b' || s[4] == 'r' || s[4] == 'q')
}
