package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/search"
	"selfplay/engines/uciserver"
)

// cmdSearch searches one position and prints UCI-style info lines, the
// search counters and the best move.
func cmdSearch(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "search", "[-fen FEN] [-moves \"e2e4 ...\"] (-depth N | -nodes N | -movetime D) [-variant SPEC] [-hash MiB]")
	fen := fs.String("fen", "startpos", `position in FEN, or "startpos"`)
	moves := fs.String("moves", "", "UCI moves played from the position first, space separated")
	depth := fs.Int("depth", 0, fmt.Sprintf("depth limit (1..%d)", maxSearchDepth))
	nodes := fs.Int64("nodes", 0, "node limit")
	movetime := durationVar(fs, "movetime", 0, "time limit, e.g. 500ms")
	variant := fs.String("variant", "plain", "variant preset, optionally with switches: preset:key=value:...")
	hash := fs.Int("hash", search.DefaultHashMiB, "transposition table size in MiB")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["depth"] {
		if err := checkDepth(*depth); err != nil {
			return err
		}
	}
	switch {
	case given["nodes"] && *nodes < 1:
		return usageErrorf("-nodes %d is out of range: want >= 1", *nodes)
	case given["movetime"] && *movetime <= 0:
		return usageErrorf("-movetime %v: want a positive duration, such as 500ms", *movetime)
	case !given["depth"] && !given["nodes"] && !given["movetime"]:
		return usageErrorf("give a limit: -depth N, -nodes N or -movetime D")
	}
	if err := checkHashFlag(*hash); err != nil {
		return err
	}
	b, err := positionFlag(*fen)
	if err != nil {
		return usageErrorf("-fen: %w", err)
	}
	if err := b.ApplyUCI(strings.Fields(*moves)); err != nil {
		return usageErrorf("-moves: %w", err)
	}
	opts, err := search.ParseVariant(*variant)
	if err != nil {
		return usageError(err)
	}
	s, err := search.New(opts, *hash)
	if err != nil {
		return usageError(err)
	}
	lim := engines.Limits{Depth: *depth, Nodes: *nodes, MoveTime: *movetime,
		OnIteration: func(i engines.Info) { fmt.Fprintln(e.stdout, uciserver.FormatInfo(i)) }}
	res, err := s.Search(ctx, b, lim)
	if errors.Is(err, search.ErrNoLegalMove) {
		// The position given has no move to search: bad input, said as
		// what it is.
		what := "stalemate"
		if b.InCheck() {
			what = "checkmate"
		}
		return usageErrorf("the position is %s: no move to search", what)
	}
	if err != nil {
		return err
	}
	i := res.Info
	fmt.Fprintf(e.stdout, "nodes %d\n", i.Nodes)
	fmt.Fprintf(e.stdout, "time %d\n", i.Elapsed.Milliseconds())
	fmt.Fprintf(e.stdout, "nps %d\n", uciserver.NPS(i.Nodes, i.Elapsed))
	for _, c := range res.Counters.Fields() {
		fmt.Fprintf(e.stdout, "%s %d\n", c.Name, c.Value)
	}
	fmt.Fprintf(e.stdout, "bestmove %s\n", res.Move.UCI())
	if ctx.Err() != nil {
		return interruptedError(nil) // the lines above end where it stopped
	}
	return nil
}

// maxSearchDepth is the deepest iteration the search makes (it needs room
// for extensions and quiescence below it, within engines.MaxPly).
const maxSearchDepth = search.MaxDepth

// checkDepth checks a -depth of search and bench: a depth the search would
// silently cap, or none, is bad input.
func checkDepth(depth int) error {
	if depth < 1 || depth > maxSearchDepth {
		return usageErrorf("-depth %d is out of range: want 1..%d", depth, maxSearchDepth)
	}
	return nil
}

// checkHashFlag checks a -hash of search and bench: a table larger than
// the machine is bad input.
func checkHashFlag(hash int) error {
	if err := config.CheckHash(int64(hash)); err != nil {
		return usageErrorf("-hash: %w", err)
	}
	return nil
}
