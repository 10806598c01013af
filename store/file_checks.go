package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"modernc.org/sqlite" // also the database/sql driver "sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// checkReadOnly checks the schema of an existing database on a read-only
// connection (see checkSchema), then that it is intact (quick_check, a
// read of every page: about 9 s for the 1 GB of a synthetic database of
// 100,000 games with their moves, here), as SQLite would append to a
// damaged file and the games behind the damage would stay lost.
func checkReadOnly(ctx context.Context, abs string) error {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "busy_timeout(10000)")
	db, err := sql.Open("sqlite", dsn(abs, q))
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err = checkSchema(ctx, db); err != nil {
		return err
	}
	return quickCheck(ctx, db)
}

// checkWritable fails if the file exists and cannot be opened for writing.
func checkWritable(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("not writable: %w", err)
	}
	return f.Close()
}

// removeOrphanLogs handles the log files of a database that no longer
// exists (deleted or moved while a process had it open): SQLite would
// apply a leftover write-ahead log or rollback journal to a new database
// of that name, bringing back the old games or corrupting it. A log with
// content is an error that names it, and nothing is removed (it is the
// only trace of the old games); empty logs hold nothing and are removed,
// as is the shared-memory file, an index of the log that SQLite rebuilds.
func removeOrphanLogs(abs string) error {
	logs := []string{abs + "-wal", abs + "-journal"}
	for _, f := range logs {
		if fi, err := os.Stat(f); err == nil && fi.Size() > 0 {
			return fmt.Errorf("%s (%d bytes) is left from a database of this name that no longer exists (deleted or moved while a process had it open): SQLite would apply it to a new database; move or remove it (and %s) to start a new one",
				f, fi.Size(), filepath.Base(abs)+"-shm")
		}
	}
	for _, f := range append(logs, abs+"-shm") {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the empty %s left from an earlier database: %w", f, err)
		}
	}
	return nil
}

// refuseStaleLogs refuses an existing database at abs beside a log file
// with content that was created before the database file: a log left
// from an earlier database of this name that no longer exists (deleted or
// moved while a process had it open, as removeOrphanLogs finds when no
// file is there), and a new file put in its place. SQLite cannot tell
// whose log it is and would apply it to the new file (showing the old
// database's games, or corrupting the new one). A log created after its
// database file, a writer's, is the database's own, live or left by a
// writer that was killed, and is left to SQLite. Where the file system
// does not record when files were created, nothing is refused.
func refuseStaleLogs(abs string) error {
	born, ok := birthTime(abs)
	if !ok {
		return nil
	}
	for _, f := range []string{abs + "-wal", abs + "-journal"} {
		fi, err := os.Stat(f)
		if err != nil || fi.Size() == 0 {
			continue
		}
		if logBorn, ok := birthTime(f); ok && logBorn.Before(born) {
			return fmt.Errorf("%s (%d bytes) is older than the database file: it is left from an earlier database of this name that no longer exists (deleted or moved while a process had it open), and SQLite would apply it to this one; move or remove it (and %s) to open this database",
				f, fi.Size(), filepath.Base(abs)+"-shm")
		}
	}
	return nil
}

// cannotShareWAL reports whether err is SQLite failing to open or set up
// the WAL index (-shm) of a read-only connection.
func cannotShareWAL(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN:
		return true
	}
	return false
}

// hasWAL reports whether the database has a write-ahead log with content
// (or one that cannot be examined).
func hasWAL(abs string) bool {
	st, err := os.Stat(abs + "-wal")
	return !errors.Is(err, fs.ErrNotExist) && (err != nil || st.Size() > 0)
}

// sqliteError rewords SQLite's answer for a file that is no database, and
// for a full disk (diskError).
func sqliteError(abs string, err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_NOTADB {
		return fmt.Errorf("not an SQLite database (%w)", err)
	}
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CORRUPT {
		return fmt.Errorf("%w (%w)", ErrDamaged, err)
	}
	if cannotShareWAL(err) && hasWAL(abs) {
		return fmt.Errorf("%w: its write-ahead log %s-wal holds changes that a reader can only read with the "+
			"%s-shm file beside it, or where it may create that file", err, filepath.Base(abs), filepath.Base(abs))
	}
	return diskError(filepath.Dir(abs), err)
}
