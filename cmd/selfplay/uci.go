package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"

	"selfplay/config"
	"selfplay/engines/search"
	"selfplay/engines/uciserver"
)

// cmdUCI runs one variant as a UCI engine on stdin/stdout, for
// cutechess-cli, fastchess or a GUI.
func cmdUCI(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "uci", "[-variant SPEC] [-hash MiB] [-cpuprofile FILE]")
	variant := fs.String("variant", "plain", "variant preset, optionally with switches: preset:key=value:...")
	hash := fs.Int("hash", search.DefaultHashMiB, "transposition table size in MiB")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this engine process to `file` (for go tool pprof)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := config.CheckHash(int64(*hash)); err != nil {
		return usageErrorf("-hash: %w", err)
	}
	srv, err := uciserver.New(*variant, *hash)
	if err != nil {
		return usageError(err)
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return inputError(err)
		}
		defer func() {
			if err := stop(); err != nil {
				fmt.Fprintf(e.stderr, "selfplay uci: %v\n", err)
			}
		}()
	}
	in, out := e.stdin, e.stdout
	if in == os.Stdin && out == os.Stdout {
		// The engine process itself (not a test): pipes from a GUI or a
		// tournament runner are read and written raw (uciserver.Stdio).
		var restore func()
		in, out, restore = uciserver.Stdio()
		defer restore()
	}
	// Run fails only when ctx is cancelled (the end of input and quit are
	// normal ends).
	if err := srv.Run(ctx, in, out); err != nil {
		return interruptedError(nil)
	}
	return nil
}

// startCPUProfile starts a CPU profile into path and returns its stop.
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		return nil
	}, nil
}
