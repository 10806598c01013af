package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"selfplay/engines/uci"
)

// cmdCompliance checks an external engine's UCI: fastchess's --compliance
// steps and selfplay's own, each printed as OK, FAIL (with the reason and
// the engine's last lines) or SKIP. Exit codes: 0 when every step passed,
// 1 when one failed, 2 on a bad command line.
func cmdCompliance(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "compliance", "[-timeout D] [-margin D] ENGINE_COMMAND [ARGS...]")
	timeout := durationVar(fs, "timeout", 10e9, "the longest wait for uciok, readyok, quit and a search without a clock (go depth, go nodes)")
	margin := durationVar(fs, "margin", 1e9, "time allowed over a search's clock or movetime, and for bestmove after stop")
	dir := fs.String("dir", "", "the engine's working directory")
	// Flags come before the engine's command; what follows it is its
	// arguments, flags included.
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return errFlagsReported
	}
	words := fs.Args()
	if len(words) == 0 {
		return usageErrorf("want the engine's command, e.g. selfplay compliance stockfish")
	}
	if *timeout <= 0 || *margin <= 0 {
		return usageErrorf("-timeout and -margin must be positive")
	}
	cfg := uci.Config{Name: filepath.Base(words[0]), Command: words[0], Args: words[1:], Dir: *dir,
		InitTimeout: *timeout, StopTimeout: *margin}
	fmt.Fprintf(e.stdout, "UCI compliance of %q\n", words)
	steps := 0
	failed := uci.CheckCompliance(ctx, cfg, func(s uci.ComplianceStep) {
		steps++
		printComplianceStep(e, s)
	})
	if ctx.Err() != nil {
		return interruptedErrorf("interrupted")
	}
	if failed > 0 {
		fmt.Fprintf(e.stdout, "%d of %d steps failed\n", failed, steps)
		return &cmdError{kind: kindFailure} // the line above says it
	}
	fmt.Fprintf(e.stdout, "all %d steps passed\n", steps)
	return nil
}

func printComplianceStep(e env, s uci.ComplianceStep) {
	switch {
	case s.Skipped:
		fmt.Fprintf(e.stdout, "SKIP %2d %s\n", s.Number, s.Name)
	case s.Err != nil:
		fmt.Fprintf(e.stdout, "FAIL %2d %s: %v\n", s.Number, s.Name, s.Err)
		for _, l := range s.Lines {
			fmt.Fprintf(e.stdout, "          engine: %s\n", l)
		}
	default:
		fmt.Fprintf(e.stdout, "OK   %2d %s: %s\n", s.Number, s.Name, s.Detail)
	}
}
