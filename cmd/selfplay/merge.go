package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"selfplay/merge"
	"selfplay/store"
)

// cmdMerge merges databases (the shards of a tournament, a single
// machine's database, an earlier merge) into one. Exit codes: 2 when the
// inputs cannot be merged (unreadable, not selfplay databases, damaged,
// other configurations, overlapping shards, conflicting games: nothing is
// written) or the output is in use; 130 when interrupted (the inputs
// merged so far stay merged); 1 when writing fails.
func cmdMerge(ctx context.Context, e env, args []string) int {
	fs := newFlagSet(e, "merge", "-o merged.db input.db...")
	out := fs.String("o", "", "output database (created if it does not exist; merging into it again adds what is new)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if *out == "" || fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "selfplay merge: want -o OUTPUT and at least one input database")
		fs.Usage()
		return exitUsage
	}
	_, err := merge.Run(ctx, *out, fs.Args(), merge.Options{Progress: e.stdout})
	var inputErr *merge.InputError
	var refused *merge.RefusedError
	var outputErr *merge.OutputError
	switch {
	case err == nil:
		fmt.Fprintf(e.stdout, "its report: selfplay report -db %s\n", *out)
		return exitOK
	case ctx.Err() != nil:
		fmt.Fprintf(e.stderr, "selfplay merge: %s\n", errText(err))
		return exitInterrupted
	case errors.As(err, &inputErr), errors.As(err, &refused):
		fmt.Fprintf(e.stderr, "selfplay merge: %s\n", errText(err))
		return exitUsage
	case errors.As(err, &outputErr):
		if errors.As(err, new(*store.InUseError)) {
			fmt.Fprintf(e.stderr, "selfplay merge: %s; readers (report, export) work meanwhile\n", errText(err))
		} else {
			fmt.Fprintf(e.stderr, "selfplay merge: %s\n", errText(err))
		}
		return exitUsage
	default:
		fmt.Fprintf(e.stderr, "selfplay merge: %s\n", errText(err))
		return exitFailure
	}
}
