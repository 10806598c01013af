package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"selfplay/engines/board"
	"selfplay/engines/uciserver"
)

// cmdPerft counts the move tree's leaves: a move-generator check against
// published counts and a speed measurement (see ../shared/tools/perft-ratio).
// An interruption is noticed between root moves (exit 130, no totals).
func cmdPerft(ctx context.Context, e env, args []string) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fen := fs.String("fen", "startpos", `position in FEN, or "startpos"`)
	depth := fs.Int("depth", 5, "depth in plies (>= 1)")
	divide := fs.Bool("divide", false, "also print the count below each move")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if *depth < 1 {
		fmt.Fprintln(e.stderr, "selfplay perft: -depth must be >= 1")
		return exitUsage
	}
	b, err := positionFlag(*fen)
	if err != nil {
		fmt.Fprintf(e.stderr, "selfplay perft: %v\n", err)
		return exitUsage
	}
	start := time.Now()
	var nodes int64
	// Board.Divide's loop, with a look at ctx before each root move.
	var root board.MoveList
	b.Generate(&root, board.All)
	lists := make([]board.MoveList, *depth)
	for _, m := range root.Slice() {
		if ctx.Err() != nil {
			fmt.Fprintln(e.stderr, "selfplay perft: interrupted")
			return exitInterrupted
		}
		b.MakeMove(m)
		n := b.Perft(*depth-1, lists)
		b.UnmakeMove()
		if *divide {
			fmt.Fprintf(e.stdout, "%s %d\n", m, n)
		}
		nodes += n
	}
	elapsed := time.Since(start)
	fmt.Fprintf(e.stdout, "nodes %d\n", nodes)
	fmt.Fprintf(e.stdout, "time %d\n", elapsed.Milliseconds())
	fmt.Fprintf(e.stdout, "nps %d\n", uciserver.NPS(nodes, elapsed))
	return exitOK
}

// positionFlag parses a -fen flag value ("startpos" or empty = initial position).
func positionFlag(fen string) (*board.Board, error) {
	if fen == "" || fen == "startpos" {
		fen = board.StartFEN
	}
	return board.FromFEN(fen)
}

// parseFlags parses a command's flags; done is true when the command must
// return code right away (-h, or a bad flag, which flag already reported).
func parseFlags(fs *flag.FlagSet, args []string) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK, true
		}
		return exitUsage, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "selfplay %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return exitUsage, true
	}
	return 0, false
}
