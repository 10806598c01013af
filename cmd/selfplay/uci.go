package main

import (
	"context"
	"flag"
	"fmt"

	"selfplay/config"
	"selfplay/engines/search"
	"selfplay/engines/uciserver"
)

// cmdUCI runs one variant as a UCI engine on stdin/stdout, for
// cutechess-cli, fastchess or a GUI.
func cmdUCI(ctx context.Context, e env, args []string) int {
	fs := flag.NewFlagSet("uci", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	variant := fs.String("variant", "plain", "variant preset, optionally with switches: preset:key=value:...")
	hash := fs.Int("hash", search.DefaultHashMiB, "transposition table size in MiB")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if err := config.CheckHash(int64(*hash)); err != nil {
		fmt.Fprintf(e.stderr, "selfplay uci: -hash: %v\n", err)
		return exitUsage
	}
	srv, err := uciserver.New(*variant, *hash)
	if err != nil {
		fmt.Fprintf(e.stderr, "selfplay uci: %v\n", err)
		return exitUsage
	}
	// Run fails only when ctx is cancelled (the end of input and quit are
	// normal ends).
	if err := srv.Run(ctx, e.stdin, e.stdout); err != nil {
		return exitInterrupted
	}
	return exitOK
}
