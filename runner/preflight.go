package runner

import (
	"context"
	"errors"
	"fmt"

	"selfplay/config"
	"selfplay/engines"
)

// ErrEngineSetup marks a player that cannot be started with its config
// (missing command, unknown UCI option): a bad-input error, found before the
// tournament's first game.
var ErrEngineSetup = errors.New("engine setup")

// preflight starts every external engine of the tournament once, so a wrong
// command or an unknown option is reported before any game is played.
func preflight(ctx context.Context, cfg *config.File, t *config.Tournament, opts Options) error {
	for _, name := range t.Engines {
		e, ok := cfg.Engine(name)
		if !ok || !e.External() {
			continue
		}
		eng, err := opts.NewEngine(engines.WithGame(ctx, engines.Game{Tournament: t.Name}), e)
		if ctx.Err() != nil {
			if err == nil {
				eng.Close()
			}
			return ErrInterrupted
		}
		if err != nil {
			return fmt.Errorf("%w: tournament %s: %w", ErrEngineSetup, t.Name, err)
		}
		eng.Close()
	}
	return nil
}
