package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"selfplay/runner"
)

// cmdExport writes stored games as one PGN file.
func cmdExport(ctx context.Context, e env, args []string) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	dbPath := fs.String("db", "selfplay.db", "database file")
	tournament := fs.String("tournament", "", "only this tournament")
	engine := fs.String("engine", "", "only games of this engine")
	out := fs.String("o", "", "output file (default: standard output)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	st, err := openExisting(ctx, *dbPath)
	if err != nil {
		fmt.Fprintf(e.stderr, "selfplay export: %v\n", err)
		return exitUsage
	}
	defer st.Close()
	var w io.Writer = e.stdout
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			fmt.Fprintf(e.stderr, "selfplay export: %v\n", err)
			return exitUsage
		}
		w = f
	}
	bw := bufio.NewWriter(w)
	n, err := runner.ExportPGN(ctx, st, bw, runner.ExportFilter{Tournament: *tournament, Engine: *engine})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "selfplay export: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(e.stderr, "selfplay export: %d games\n", n)
	return exitOK
}
