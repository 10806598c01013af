// Package players starts the player of a config entry: an in-process
// variant (engines/local) or an external UCI engine (engines/uci) whose
// stderr goes to a log file. The runner receives it as a function and
// knows only the engines.Engine contract.
package players

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/local"
	"selfplay/engines/uci"
)

// New creates the player of a config entry: an in-process variant, or an
// external UCI engine whose stderr is appended to logDir/NAME.log (when
// logDir is not empty).
func New(ctx context.Context, e config.Engine, logDir string) (engines.Engine, error) {
	if !e.External() {
		return local.New(e.Name, e.Options, e.Hash)
	}
	cfg := uci.Config{Name: e.Name, Command: e.Command, Args: e.Args, Dir: e.Dir, InitTimeout: e.InitTimeout}
	names := make([]string, 0, len(e.UCIOptions))
	for n := range e.UCIOptions {
		names = append(names, n)
	}
	sort.Strings(names) // a TOML table has no order; sorted is at least the same every run
	for _, n := range names {
		cfg.Options = append(cfg.Options, uci.Option{Name: n, Value: e.UCIOptions[n]})
	}
	var log *os.File
	if logDir != "" {
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			return nil, fmt.Errorf("engine %s: log directory: %w", e.Name, err)
		}
		f, err := os.OpenFile(filepath.Join(logDir, e.Name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
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
	log io.Closer
}

func (l *loggedEngine) Close() error {
	err := l.Engine.Close()
	if l.log != nil {
		err = errors.Join(err, l.log.Close())
	}
	return err
}
