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

// readError is an error reading the database at path, met while the
// output was being written (export streams its games): the output is
// discarded and the error reported as a reading error (report).
type readError struct {
	path        string
	err         error
	interrupted bool // the context was cancelled meanwhile
}

func (e *readError) Error() string { return fmt.Sprintf("reading the database %s: %v", e.path, e.err) }
func (e *readError) Unwrap() error { return e.err }

// report reports the error and returns the exit code: exitUsage for a
// damaged database (bad input), with how to recover what it holds;
// exitInterrupted when the command was interrupted; exitFailure otherwise.
func (e *readError) report(en env, cmd string) int {
	switch {
	case e.interrupted:
		fmt.Fprintf(en.stderr, "selfplay %s: interrupted while reading the database %s\n", cmd, e.path)
		return exitInterrupted
	case store.IsDamaged(e.err):
		fmt.Fprintf(en.stderr, "selfplay %s: %s: the database is damaged; %s\n", cmd, errText(e), store.Recovery(e.path))
		return exitUsage
	}
	fmt.Fprintf(en.stderr, "selfplay %s: %s\n", cmd, errText(e))
	return exitFailure
}

// readFailed reports an error reading the database at path (see
// readError.report) and returns the exit code.
func readFailed(ctx context.Context, e env, cmd, path string, err error) int {
	re := &readError{path: path, err: err, interrupted: ctx.Err() != nil}
	return re.report(e, cmd)
}
