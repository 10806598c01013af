package uci

import (
	"errors"
	"fmt"
	"strings"

	"selfplay/engines"
)

// Kinds of engine faults. Every error the adapter returns for a fault of the
// engine is an *engineError whose Kind is engines.ErrCrashed, ErrTimeout or
// ErrProtocol (the contract's kinds, which callers test with errors.Is), or
// one of the adapter's own two below.
//
//   - engines.ErrCrashed: the process exited or closed its pipes, or could not
//     be (re)started. The error carries the exit status and the last lines of
//     the engine's stderr when they are known.
//   - engines.ErrTimeout: the engine did not answer in time: no bestmove
//     within StopTimeout after stop (the process was killed), no uciok or
//     readyok within InitTimeout, no readyok before go within PingTimeout, or
//     the context's deadline (counted from go) passed during a search.
//   - engines.ErrProtocol: the engine wrote something else where a UCI reply
//     was expected: no uciok but other text, a malformed bestmove, a flood of
//     lines that are not UCI.
var (
	// ErrOption: a configured option is not among those the engine
	// advertises (a configuration error, reported by Start before any game).
	ErrOption = errors.New("unknown engine option")
	// errClosed: Close was called; the engine plays no more.
	errClosed = errors.New("engine closed")
)

// engineError is a fault of an external engine.
type engineError struct {
	Engine string   // the engine's configured name
	Kind   error    // engines.ErrCrashed, ErrTimeout, ErrProtocol; ErrOption or errClosed
	Op     string   // what the adapter was doing: "start", "uci", "isready", "search", ...
	Detail string   // what happened, e.g. "exit status 3" or the offending line
	Stderr []string // last lines the engine wrote to stderr (crashes)
	Err    error    // underlying cause, if any (exec error, context error)
}

func (e *engineError) Error() string {
	var b strings.Builder
	if e.Op == opStart && e.Kind == engines.ErrCrashed {
		// A process that never ran did not crash: its detail says why
		// ("cannot start CMD"), though it counts as a crash.
		fmt.Fprintf(&b, "engine %q: %s", e.Engine, e.Op)
	} else {
		fmt.Fprintf(&b, "engine %q: %s: %v", e.Engine, e.Op, e.Kind)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, " (%v)", e.Err)
	}
	if len(e.Stderr) > 0 {
		b.WriteString("; stderr: ")
		b.WriteString(strings.Join(e.Stderr, " | "))
	}
	return b.String()
}

// Unwrap returns the kind and the cause, for errors.Is and errors.As.
// A fault before go was written (Op other than "search": a restart, the
// ping before go) also unwraps to engines.ErrBeforeSearch: the engine's
// clock had not started.
func (e *engineError) Unwrap() []error {
	errs := []error{e.Kind}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	if e.Op != opSearch {
		errs = append(errs, engines.ErrBeforeSearch)
	}
	return errs
}
