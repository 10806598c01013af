package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"selfplay/store"
)

// openExisting opens a database that must already exist, read-only (report,
// export): a mistyped path is an error, not a new empty database, and
// nothing is written to the file, whatever it is.
func openExisting(ctx context.Context, path string) (*store.Reader, error) {
	return store.OpenReader(ctx, path)
}

// openWriter opens the database for the command (run, suite -db). It
// reports a failure on stderr and returns the exit code: exitUsage for a
// database that is in use by another selfplay process, or cannot be
// created or written, or is not a selfplay database; the message says
// which; exitInterrupted when the context was cancelled meanwhile.
func openWriter(ctx context.Context, stderr io.Writer, command, path string) (*store.Store, int) {
	st, err := store.OpenWriter(ctx, path, command)
	if err != nil {
		if ctx.Err() != nil {
			// Ctrl-C while the database was being created or upgraded:
			// an interruption, not bad input.
			fmt.Fprintf(stderr, "selfplay %s: interrupted while opening the database %s; nothing was played\n", command, path)
			return nil, exitInterrupted
		}
		var inUse *store.InUseError
		if errors.As(err, &inUse) {
			fmt.Fprintf(stderr, "selfplay %s: %s; readers (report, export) work meanwhile\n", command, errText(err))
		} else {
			fmt.Fprintf(stderr, "selfplay %s: %s\n", command, errText(err))
		}
		return nil, exitUsage
	}
	return st, exitOK
}
