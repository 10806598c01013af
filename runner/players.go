package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/uci"
)

// NewEngine creates the player of a config entry: an in-process variant, or
// an external UCI engine whose stderr is appended to logDir/NAME.log (when
// logDir is not empty), up to uci.DefaultLogLimit.
func NewEngine(ctx context.Context, e config.Engine, logDir string) (engines.Engine, error) {
	if !e.External() {
		return engines.NewLocal(e.Name, e.Options, e.Hash)
	}
	cfg := uci.Config{Name: e.Name, Command: e.Command, Args: e.Args, Dir: e.Dir, InitTimeout: e.InitTimeout, PingTimeout: e.PingTimeout}
	names := make([]string, 0, len(e.UCIOptions))
	for n := range e.UCIOptions {
		names = append(names, n)
	}
	sort.Strings(names) // a TOML table has no order; sorted is at least the same every run
	for _, n := range names {
		cfg.Options = append(cfg.Options, uci.Option{Name: n, Value: e.UCIOptions[n]})
	}
	var log *uci.Log
	if logDir != "" {
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			return nil, fmt.Errorf("engine %s: log directory: %w", e.Name, err)
		}
		f, err := uci.OpenLog(filepath.Join(logDir, e.Name+".log"), uci.DefaultLogLimit)
		if err != nil {
			return nil, fmt.Errorf("engine %s: log: %w", e.Name, err)
		}
		log = f
		cfg.StderrLog = f
	}
	eng, err := uci.Start(ctx, cfg)
	if err != nil {
		if log != nil {
			log.Close()
		}
		return nil, err
	}
	return &loggedEngine{Engine: eng, log: log}, nil
}

// loggedEngine closes the engine's stderr log with the engine.
type loggedEngine struct {
	*uci.Engine
	log *uci.Log // nil without a log directory
}

func (l *loggedEngine) Close() error {
	err := l.Engine.Close()
	if l.log != nil {
		err = errors.Join(err, l.log.Close())
	}
	return err
}

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
		eng, err := opts.NewEngine(ctx, e)
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
