package main

import (
	"context"
	"errors"
	"fmt"

	"selfplay/store"
)

// openExisting opens a database that must already exist, read-only (report,
// export): a mistyped path is an error, not a new empty database, and
// nothing is written to the file, whatever it is. It checks the whole file
// first (SQLite's quick_check): SQLite can walk a damaged table without an
// error, and the command would then leave games out without a word. Its
// errors are classified.
func openExisting(ctx context.Context, path string) (*store.Reader, error) {
	r, err := store.OpenReader(ctx, path)
	if err != nil {
		return nil, inputError(err)
	}
	if err := r.CheckIntegrity(ctx); err != nil {
		r.Close()
		return nil, readFailed(ctx, path, err)
	}
	return r, nil
}

// openWriter opens the database for the command (run, suite -db). Its
// error is bad input for a database that is in use by another selfplay
// process, or cannot be created or written, or is not a selfplay
// database (the message says which), an interruption when the context
// was cancelled meanwhile.
func openWriter(ctx context.Context, command, path string) (*store.Store, error) {
	st, err := store.OpenWriter(ctx, path, command)
	if err != nil {
		if ctx.Err() != nil {
			// Ctrl-C while the database was being created or upgraded:
			// an interruption, not bad input.
			return nil, interruptedErrorf("interrupted while opening the database %s; nothing was played", path)
		}
		if errors.As(err, new(*store.InUseError)) {
			return nil, inputErrorf("%w; readers (report, export) work meanwhile", err)
		}
		return nil, inputError(err)
	}
	return st, nil
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

// classified is the error as the command ends with it: bad input for a
// damaged database, with how to recover what it holds; an interruption
// when the command was interrupted; a failure otherwise.
func (e *readError) classified() error {
	switch {
	case e.interrupted:
		return interruptedErrorf("interrupted while reading the database %s", e.path)
	case errors.Is(e.err, store.ErrDamaged):
		// Found by quick_check before any reading: said as run says it.
		return inputErrorf("database %s: %w; %s", e.path, e.err, store.Recovery(e.path))
	case store.IsDamaged(e.err):
		return inputErrorf("%w: the database is damaged; %s", e, store.Recovery(e.path))
	}
	return e
}

// readFailed is the error of a command that could not read the database
// at path (see readError.classified).
func readFailed(ctx context.Context, path string, err error) error {
	re := &readError{path: path, err: err, interrupted: ctx.Err() != nil}
	return re.classified()
}
