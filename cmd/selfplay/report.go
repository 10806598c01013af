package main

import (
	"context"
	"errors"
	"io"

	"selfplay/report"
	"selfplay/standings"
	"selfplay/stats"
	"selfplay/store"
)

// reportWriters are the output formats of `selfplay report`.
func reportWriters() map[string]func(io.Writer, report.Report) error {
	return map[string]func(io.Writer, report.Report) error{
		"text": report.WriteText,
		"json": report.WriteJSON,
		"html": report.WriteHTML,
	}
}

// cmdReport prints the statistics of stored tournaments. Exit codes: 2 for
// bad flags, a missing or damaged database, an unknown tournament or
// anchor, an -o file that cannot be created; 1 when reading or writing
// fails otherwise; 130 when interrupted.
func cmdReport(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "report", "[-db selfplay.db] [-tournament NAME] [-format text|json|html] [-o FILE] [-level 0.95] [-anchor ENGINE] [-anchor-rating R]")
	dbPath := fs.String("db", "selfplay.db", "database file")
	tournament := fs.String("tournament", "", "only this tournament (default: all)")
	format := fs.String("format", "text", "output format: text, json or html")
	out := fs.String("o", "", "output file (default: standard output)")
	level := fs.Float64("level", stats.DefaultLevel, "confidence level of the intervals, in (0, 1)")
	anchor := fs.String("anchor", "", "engine rated 0 in the rating tables (default: the average is 0)")
	anchorRating := anchorRatingFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkAnchorRating(*anchorRating); err != nil {
		return err
	}
	write, ok := reportWriters()[*format]
	if !ok {
		return usageErrorf("unknown -format %q (want text, json or html)", *format)
	}
	if !(*level > 0 && *level < 1) {
		return usageErrorf("-level %v is not in (0, 1)", *level)
	}
	st, err := openExisting(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	// One snapshot: figures read by separate queries agree while a run
	// goes on writing.
	var r report.Report
	err = st.ReadTx(ctx, func(tx *store.Reader) error {
		var err error
		r, err = standings.Load(ctx, tx, standings.Options{Tournament: *tournament, Level: *level, Anchor: *anchor})
		return err
	})
	if errors.Is(err, standings.ErrNotFound) {
		return inputErrorf("%s: %w", *dbPath, err)
	}
	if err != nil {
		return readFailed(ctx, *dbPath, err)
	}
	r.OffsetRatings(*anchorRating)
	return writeOutput(e, *out, func(w io.Writer) error { return write(w, r) }, store.Files(*dbPath)...)
}
