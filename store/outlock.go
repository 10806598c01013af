package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// OutputLock is a held lock of a file that a run appends to besides its
// database (a live PGN or EPD file): one writer per file, as per
// database, so that two runs (with different databases) never interleave
// their games in one file. It is the database's lock (acquireWriterLock,
// lockDatabase): a flock on PATH.lock, which says who holds it, and one
// on the file itself, whatever its name; the kernel releases both when
// the holder exits, also when it is killed.
type OutputLock struct{ l *writerLock }

// LockOutput takes the lock of the output file at path for command ("run",
// "match", ...), creating the file if there is none (empty), or fails
// with an *InUseError naming the holder when another process, or another
// OutputLock of this one, holds it. The lock is held until Release. A
// file that exists and is not a regular file (a device such as /dev/null,
// a FIFO) keeps no games to be mixed, and is not locked.
func LockOutput(path, command string) (*OutputLock, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err == nil && !fi.Mode().IsRegular() {
		return &OutputLock{}, nil
	}
	// A symbolic link's target: the lock file beside the file written,
	// whatever name leads to it.
	if target, err := filepath.EvalSymlinks(abs); err == nil {
		abs = target
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	l, err := acquireWriterLock(path, abs+lockSuffix, command)
	if err != nil {
		return nil, err
	}
	if err := l.lockOutput(path, abs); err != nil {
		l.release()
		return nil, err
	}
	return &OutputLock{l: l}, nil
}

// lockOutput is lockDatabase for an output file, which it creates if need
// be: locks the file at abs itself (path as given, for messages).
func (l *writerLock) lockOutput(path, abs string) error {
	return l.lockFile(path, abs, func() (*os.File, error) {
		return os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o644)
	})
}

// Release lets go of the lock (and removes PATH.lock); the file stays.
func (o *OutputLock) Release() error {
	if o == nil || o.l == nil {
		return nil
	}
	return o.l.release()
}
