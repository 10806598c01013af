package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"selfplay/internal/termtext"
	"selfplay/pgnrate"
	"selfplay/pgnscan"
	"selfplay/standings"
	"selfplay/stats"
)

// cmdRatings rates the games of PGN files (cutechess-cli, fastchess, a GUI,
// selfplay export) and prints the report `report` prints for a stored
// tournament. Malformed games are reported on standard error with their
// file and line and skipped. Exit codes: 2 for bad flags, a file that
// cannot be read (or is not valid gzip), no rated game, an unknown anchor;
// 1 when writing fails; 130 when interrupted.
func cmdRatings(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "ratings", "[flags] FILE.pgn[.gz]... (- for standard input)")
	format := fs.String("format", "text", "output format: text, json or html")
	out := fs.String("o", "", "output file (default: standard output)")
	level := fs.Float64("level", stats.DefaultLevel, "confidence level of the intervals, in (0, 1)")
	anchor := fs.String("anchor", "", "engine rated 0 (default: the average is 0)")
	anchorRating := anchorRatingFlag(fs)
	window := fs.Int("pair-window", pgnrate.DefaultWindow, "unpaired games searched back for a game's colour-swapped partner")
	quiet := fs.Bool("q", false, "do not list malformed games on standard error (they are still counted)")
	files, err := parseFlagsAndFiles(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return withUsage(fs, nil)
	}
	write, ok := reportWriters()[*format]
	if !ok {
		return usageErrorf("unknown -format %q (want text, json or html)", *format)
	}
	if !(*level > 0 && *level < 1) {
		return usageErrorf("-level %v is not in (0, 1)", *level)
	}
	if err := checkAnchorRating(*anchorRating); err != nil {
		return err
	}
	if *window < 1 {
		return usageErrorf("-pair-window %d: want at least 1", *window)
	}
	if err := checkDistinctFiles(files, "its games would count twice"); err != nil {
		return err
	}

	pool := pgnrate.NewPool(*window)
	for _, path := range files {
		if err := readPGNFile(ctx, e, pool, "ratings", path, *quiet); err != nil {
			return err
		}
	}
	in := pool.Input()
	if in.Malformed > 0 {
		fmt.Fprintf(e.stderr, "selfplay ratings: %d malformed games skipped\n", in.Malformed)
	}
	if in.Rated == 0 {
		return inputErrorf("no rated games in %d games read (%d without a result, %d malformed)",
			in.Games, in.Unfinished, in.Malformed)
	}
	r, err := pool.Report(*level, *anchor)
	if errors.Is(err, standings.ErrNotFound) {
		return inputError(err)
	}
	if err != nil {
		return err
	}
	r.OffsetRatings(*anchorRating)
	return writeOutput(e, *out, func(w io.Writer) error { return write(w, r) }, files...)
}

// readPGNFile reads a PGN file (- for standard input) into pool for the
// command cmd: malformed games are listed on standard error unless quiet;
// an interruption or a file that cannot be read is the command's error.
func readPGNFile(ctx context.Context, e env, pool *pgnrate.Pool, cmd, path string, quiet bool) error {
	problem := func(ge *pgnscan.GameError) {
		if !quiet {
			fmt.Fprintf(e.stderr, "selfplay %s: %s\n", cmd, termtext.Escape(ge.Error())) // quotes the file's names and text
		}
	}
	if err := pool.ReadFile(ctx, path, e.stdin, problem); err != nil {
		if ctx.Err() != nil {
			return interruptedErrorf("interrupted while reading %s", path)
		}
		return inputError(err)
	}
	return nil
}
