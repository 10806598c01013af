package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"selfplay/internal/termtext"
	"selfplay/store"
	"selfplay/store/record"
)

// cmdExport writes stored games as one PGN file. Exit codes: 2 for bad
// flags, a missing or damaged database, an unknown tournament or engine,
// an -o file that cannot be created; 1 when reading or writing fails
// otherwise; 130 when interrupted. An -o file is complete or not written.
func cmdExport(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "export", "[-db selfplay.db] [-tournament NAME] [-engine NAME] [-o FILE]")
	dbPath := fs.String("db", "selfplay.db", "database file")
	tournament := fs.String("tournament", "", "only this tournament")
	engine := fs.String("engine", "", "only games of this engine")
	out := fs.String("o", "", "output file (default: standard output)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	st, err := openExisting(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	filter := store.GameFilter{Engine: *engine}
	var selected []record.Tournament // the tournaments exported, once known
	if *tournament != "" {
		// Checked before any output, so that a mistyped name leaves no file.
		t, err := st.TournamentByName(ctx, *tournament)
		if errors.Is(err, store.ErrNotFound) {
			return inputErrorf("%s: %w", *dbPath, err)
		}
		if err != nil {
			return readFailed(ctx, *dbPath, err)
		}
		filter.TournamentID = t.ID
		selected = []record.Tournament{t}
	}
	if *engine != "" {
		// Also checked first: a mistyped engine would give an empty file.
		if selected == nil {
			var err error
			if selected, err = st.Tournaments(ctx); err != nil {
				return readFailed(ctx, *dbPath, err)
			}
		}
		if names := record.EngineNames(selected); !slices.Contains(names, *engine) {
			return inputErrorf("engine %q not found (engines: %s)", *engine, termtext.Escape(strings.Join(names, ", ")))
		}
	}
	var n int
	err = writeOutput(e, *out, func(w io.Writer) error {
		out := &checkedWriter{w: w}
		var err error
		n, err = st.WritePGN(ctx, out, filter)
		if err != nil && out.err == nil {
			// Not the output's: a reading error (a damaged database).
			return &readError{path: *dbPath, err: err, interrupted: ctx.Err() != nil}
		}
		return err
	}, store.Files(*dbPath)...)
	if err == nil {
		fmt.Fprintf(e.stderr, "selfplay export: %d games\n", n)
	}
	return err
}
