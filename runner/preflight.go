package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/store/record"
)

// ErrEngineSetup marks a player that cannot be started with its config
// (missing command, unknown UCI option): a bad-input error, found before the
// tournament's first game.
var ErrEngineSetup = errors.New("engine setup")

// preflight starts every external engine of the tournament once, so a wrong
// command or an unknown option is reported before any game is played, and
// so is an engine that says another id name or author than it did in the
// tournament's stored games (stored: the last of each engine's). The
// engines it started are kept for the workers (see spares): a start costs
// an engine such as Stockfish 0.1-0.3 s of loading its network and
// clearing its hash, which the first games would otherwise pay again.
func preflight(ctx context.Context, cfg *config.File, t *config.Tournament, opts Options, stored map[string]record.EngineID) (*spares, error) {
	s := &spares{idle: map[string]engines.Engine{}}
	for _, name := range t.Engines {
		e, ok := cfg.Engine(name)
		if !ok || !e.External() {
			continue
		}
		if _, started := s.idle[name]; started {
			continue
		}
		eng, err := opts.NewEngine(engines.WithGame(ctx, engines.Game{Tournament: t.Name}), e)
		if ctx.Err() != nil {
			if err == nil {
				eng.Close()
			}
			s.close()
			return nil, ErrInterrupted
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("%w: tournament %s: %w", ErrEngineSetup, t.Name, err)
		}
		s.idle[name] = eng
		if change := identityChange(name, stored[name], eng); change != "" {
			s.close()
			return nil, &ConfigChangedError{Tournament: t.Name, Changes: []string{change}}
		}
	}
	if len(opts.Affinity) > 0 {
		s.close() // started on any CPU: the workers start their own, pinned
		return nil, nil
	}
	return s, nil
}

// spares are the engines the preflight started, each handed to the first
// worker that needs an engine of its name; the rest are closed at the end.
// A started engine has done its handshake and nothing else, the state of
// one a worker starts itself, so the games are the same.
type spares struct {
	mu   sync.Mutex
	idle map[string]engines.Engine
}

// take returns the spare engine of that name, if there is one left.
func (s *spares) take(name string) (engines.Engine, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.idle[name]
	delete(s.idle, name)
	return e, ok
}

// close closes the engines no worker took, together (each waits for its
// process to quit).
func (s *spares) close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	idle := s.idle
	s.idle = map[string]engines.Engine{}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range idle {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.Close()
		}()
	}
	wg.Wait()
}

// identityChange describes how the engine of config entry name, just
// started, differs from what it said in the stored games (was; nothing to
// compare when either says nothing): the same command now runs another
// engine (a new binary, or another program at the path), whose games
// would mix with the old ones under one name. "" when it does not.
func identityChange(name string, was record.EngineID, e engines.Engine) string {
	now := reportedIdentity(e)
	if was == (record.EngineID{}) || now == (record.EngineID{}) || now == was {
		return ""
	}
	return fmt.Sprintf("engine %s: its stored games were played by %s, and its command now starts %s", name, idText(was), idText(now))
}

// idText is an engine identity as the change describes it.
func idText(id record.EngineID) string {
	return fmt.Sprintf("id name %q, id author %q", id.Name, id.Author)
}
