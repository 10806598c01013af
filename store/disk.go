package store

import (
	"errors"
	"fmt"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrDiskFull is wrapped by the error of a write that failed because the
// disk holding the database is full (diskError).
var ErrDiskFull = errors.New("the disk is full")

// nearlyFull is the free space under which a file system on which SQLite
// met an I/O error is taken to be full: SQLite does not pass the system's
// error (ENOSPC) on.
const nearlyFull = 1 << 20

// ioErrors name the parts of SQLite's I/O errors (SQLITE_IOERR_*, the
// extended code's upper byte) that a full disk or a failing one causes.
var ioErrors = map[int]string{
	1:  "reading a file",
	2:  "reading a file: it is shorter than expected",
	3:  "writing a file",
	4:  "syncing a file to disk",
	5:  "syncing the directory to disk",
	6:  "truncating a file",
	7:  "reading a file's size",
	10: "deleting a file",
	13: "checking a file's access",
	18: "opening the shared-memory file (-shm)",
	19: "growing the shared-memory file (-shm)",
	21: "mapping the shared-memory file (-shm)",
	24: "mapping the database file",
}

// diskError rewords err, met while writing files in dir: a full disk
// (SQLite's SQLITE_FULL, ENOSPC, or an I/O error on a file system with
// less than nearlyFull left) wraps ErrDiskFull and says how much space is
// left; another I/O error says what SQLite was doing and the free space.
// Other errors are returned as they are.
func diskError(dir string, err error) error {
	if err == nil || errors.Is(err, ErrDiskFull) {
		return err
	}
	var se *sqlite.Error
	isSQLite := errors.As(err, &se)
	full := errors.Is(err, syscall.ENOSPC) || isSQLite && se.Code()&0xff == sqlite3.SQLITE_FULL
	ioErr := isSQLite && se.Code()&0xff == sqlite3.SQLITE_IOERR
	if !full && !ioErr {
		return err
	}
	what := ""
	if ioErr {
		if w, ok := ioErrors[se.Code()>>8]; ok {
			what = ": " + w
		}
	}
	free, known := freeSpace(dir)
	left := "the free space is not known"
	if known {
		left = fmt.Sprintf("%s free in %s", byteSize(free), dir)
	}
	if full || known && free < nearlyFull {
		return fmt.Errorf("%w (%s): %w%s", ErrDiskFull, left, err, what)
	}
	return fmt.Errorf("%w%s (%s)", err, what, left)
}

// byteSize writes n bytes in B, KB, MB or GB (powers of 1024).
func byteSize(n uint64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
}
