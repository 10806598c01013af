package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"selfplay/store"
)

// cmdExport writes stored games as one PGN file. Exit codes: 2 for bad
// flags, a missing database, an unknown tournament or engine, an -o file
// that cannot be created; 1 when reading or writing fails.
func cmdExport(ctx context.Context, e env, args []string) int {
	fs := newFlagSet(e, "export", "[-db selfplay.db] [-tournament NAME] [-engine NAME] [-o FILE]")
	dbPath := fs.String("db", "selfplay.db", "database file")
	tournament := fs.String("tournament", "", "only this tournament")
	engine := fs.String("engine", "", "only games of this engine")
	out := fs.String("o", "", "output file (default: standard output)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if code := checkOutputNotInput(e, "export", *out, databaseFiles(*dbPath)...); code != exitOK {
		return code
	}
	st, err := openExisting(ctx, *dbPath)
	if err != nil {
		fmt.Fprintf(e.stderr, "selfplay export: %v\n", err)
		return exitUsage
	}
	defer st.Close()
	filter := store.GameFilter{Engine: *engine}
	if *tournament != "" {
		// Checked before any output, so that a mistyped name leaves no file.
		t, err := st.TournamentByName(ctx, *tournament)
		if err != nil {
			fmt.Fprintf(e.stderr, "selfplay export: %s: %v\n", *dbPath, err)
			if errors.Is(err, store.ErrNotFound) {
				return exitUsage
			}
			return exitFailure
		}
		filter.TournamentID = t.ID
	}
	if *engine != "" {
		// Also checked first: a mistyped engine would give an empty file.
		names, err := engineNames(ctx, st, filter.TournamentID)
		if err != nil {
			fmt.Fprintf(e.stderr, "selfplay export: %s: %v\n", *dbPath, err)
			return exitFailure
		}
		if !slices.Contains(names, *engine) {
			fmt.Fprintf(e.stderr, "selfplay export: engine %q not found (engines: %s)\n", *engine, strings.Join(names, ", "))
			return exitUsage
		}
	}
	var n int
	code := writeOutput(e, "export", *out, func(w io.Writer) error {
		var err error
		n, err = st.WritePGN(ctx, w, filter)
		return err
	})
	if code == exitOK {
		fmt.Fprintf(e.stderr, "selfplay export: %d games\n", n)
	}
	return code
}

// engineNames lists the engines of the tournament with id tid (0: of every
// tournament), each once, in the order they were stored.
func engineNames(ctx context.Context, st *store.Reader, tid int64) ([]string, error) {
	ts, err := st.Tournaments(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range ts {
		if tid != 0 && t.ID != tid {
			continue
		}
		for _, en := range t.Engines {
			if !slices.Contains(names, en.Name) {
				names = append(names, en.Name)
			}
		}
	}
	return names, nil
}
