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
func cmdMerge(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "merge", "-o merged.db input.db...")
	out := fs.String("o", "", "output database (created if it does not exist; merging into it again adds what is new)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return errFlagsReported
	}
	if *out == "" || fs.NArg() == 0 {
		return withUsage(fs, errors.New("want -o OUTPUT and at least one input database"))
	}
	_, err := merge.Run(ctx, *out, fs.Args(), merge.Options{Progress: e.stdout})
	if err != nil {
		return mergeError(ctx, err)
	}
	fmt.Fprintf(e.stdout, "its report: selfplay report -db %s\n", *out)
	return nil
}

// mergeError is merge.Run's error with its kind: inputs that cannot be
// merged and an output in use are bad input.
func mergeError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return interruptedError(err)
	case errors.As(err, new(*merge.InputError)), errors.As(err, new(*merge.RefusedError)):
		return inputError(err)
	case errors.As(err, new(*merge.OutputError)):
		if errors.As(err, new(*store.InUseError)) {
			return inputErrorf("%w; readers (report, export) work meanwhile", err)
		}
		return inputError(err)
	}
	return err
}
