// Package players starts the player of a config entry: an in-process
// variant (engines/local) or an external UCI engine (engines/uci) whose
// stderr goes to a log file. The runner receives it as a function and
// knows only the engines.Engine contract.
package players

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/local"
	"selfplay/engines/uci"
)

// New creates the player of a config entry: an in-process variant, or an
// external UCI engine whose stderr is appended to logDir/logFileName(name)
// (when logDir is not empty), up to uci.DefaultLogLimit.
func New(ctx context.Context, e config.Engine, logDir string) (engines.Engine, error) {
	return NewDebugged(ctx, e, logDir, Debug{})
}

// Debug are the debugging aids of an external engine (uci.Config's
// fields of the same names); the zero value has none.
type Debug struct {
	Traffic    *uci.TrafficLog // the UCI traffic log
	PVWarnings io.Writer       // warnings on unsound PVs (-check-mate-pvs)
}

// NewDebugged is New whose external engine has the debugging aids of d.
func NewDebugged(ctx context.Context, e config.Engine, logDir string, d Debug) (engines.Engine, error) {
	if !e.External() {
		return local.New(e.Name, e.Options, e.Hash)
	}
	cfg := uci.Config{Name: e.Name, Command: e.Command, Args: e.Args, Dir: e.Dir, InitTimeout: e.InitTimeout, PingTimeout: e.PingTimeout,
		Traffic: d.Traffic, PVWarnings: d.PVWarnings, CPUs: engines.CPUsOf(ctx)}
	names := make([]string, 0, len(e.UCIOptions))
	for n := range e.UCIOptions {
		names = append(names, n)
	}
	sort.Strings(names) // a TOML table has no order; sorted is at least the same every run
	for _, n := range names {
		cfg.Options = append(cfg.Options, uci.Option{Name: n, Value: e.UCIOptions[n]})
	}
	var log *uci.Log
	var made []string // the log file and folder this call created
	if logDir != "" {
		if _, err := os.Stat(logDir); errors.Is(err, fs.ErrNotExist) {
			made = append(made, logDir)
		}
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			return nil, fmt.Errorf("engine %s: log directory: %w", e.Name, err)
		}
		path := filepath.Join(logDir, logFileName(e.Name))
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			made = append([]string{path}, made...)
		}
		f, err := uci.OpenLog(path, uci.DefaultLogLimit)
		if errors.Is(err, fs.ErrNotExist) {
			// Another run's engine that failed to start removed the empty
			// folder meanwhile (removeEmpty): once more.
			if err = os.MkdirAll(logDir, 0o755); err == nil {
				f, err = uci.OpenLog(path, uci.DefaultLogLimit)
			}
		}
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
			removeEmpty(made)
		}
		return nil, err
	}
	return &loggedEngine{Engine: eng, log: log}, nil
}

// removeEmpty removes the files and folders of paths (files first) that
// are empty: an engine that could not be started and said nothing leaves
// no empty log behind. A folder that is not empty stays.
func removeEmpty(paths []string) {
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && (fi.IsDir() || fi.Size() == 0) {
			os.Remove(p)
		}
	}
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

// logFileName is the file name of an engine's stderr log: the name with
// ".log" added, escaped so that any engine name is one plain file inside
// the log directory and two different names never share a file, also on a
// case-insensitive file system. Lower-case letters, digits, '-', '_' and
// '.' (but a leading '.') stay as they are; an upper-case letter becomes
// '!' and the letter in lower case (as in Go's module cache); every other
// byte becomes %XX. So "stockfish" logs to stockfish.log, "Stockfish 16"
// to !stockfish%2016.log and "../x" to %2E.%2Fx.log. A name whose escaped
// form is longer than maxLogStem bytes is cut there and given '~' and 16
// hex digits of its SHA-256, which keeps it within file-name limits (such
// names share a file only if 64 bits of their hashes collide).
func logFileName(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_', c == '.' && i > 0:
			b.WriteByte(c)
		case 'A' <= c && c <= 'Z':
			b.WriteByte('!')
			b.WriteByte(c + 'a' - 'A')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	stem := b.String()
	if len(stem) > maxLogStem {
		cut := maxLogStem - 17
		// Do not cut an escape in two.
		if i := strings.LastIndexAny(stem[max(cut-2, 0):cut], "%!"); i >= 0 {
			cut = max(cut-2, 0) + i
		}
		sum := sha256.Sum256([]byte(name))
		stem = stem[:cut] + "~" + hex.EncodeToString(sum[:8])
	}
	return stem + ".log"
}

// maxLogStem bounds a log file's name before ".log" (file systems allow
// 255 bytes).
const maxLogStem = 200
