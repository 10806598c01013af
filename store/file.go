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
	"strings"
	"unicode"
)

// writerFile is a Store's hold on its database file: the writer lock, and
// the files its connection writes as they were when it opened them (before
// each write the path must still name them: checkFiles).
type writerFile struct {
	lock            *writerLock
	abs             string // the database's absolute path
	created         bool   // OpenWriter created the file
	dbFile, walFile os.FileInfo
}

// dsn is the URI of the database file with query parameters.
func dsn(abs string, q url.Values) string {
	return (&url.URL{Scheme: "file", Path: abs, RawQuery: q.Encode()}).String()
}

// OpenWriter opens the database at path for writing, creating it if
// needed, and brings its schema up to date. command ("run", "suite", ...)
// is recorded for the message a second writer gets.
//
// There is one writer per database: OpenWriter takes OS locks on
// PATH.lock and on the database file itself (so that a hard link or any
// other name of the file is the same database), held until Close (the
// kernel releases them if the process dies), and fails with an
// *InUseError naming the holder when another process (or another Store
// in this one) has one. It fails with a clear
// message, writing nothing, when the directory does not exist, the file
// or directory is not writable, or the file is an SQLite database that is
// not selfplay's or comes from a newer selfplay. Readers (OpenReader) are
// not affected by the lock.
func OpenWriter(ctx context.Context, path, command string) (*Store, error) {
	s, err := openWriter(ctx, path, command)
	if err != nil {
		var inUse *InUseError
		if errors.As(err, &inUse) {
			return nil, err
		}
		if abs, aerr := filepath.Abs(path); aerr == nil {
			err = diskError(filepath.Dir(abs), err) // the lock file's write too
		}
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	return s, nil
}

func openWriter(ctx context.Context, path, command string) (_ *Store, err error) {
	abs, err := writerPath(path, command)
	if err != nil {
		return nil, err
	}
	lock, err := acquireWriterLock(path, abs+lockSuffix, command)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			lock.release()
		}
	}()
	created, err := lockFile(ctx, path, abs, lock)
	if err != nil {
		return nil, err
	}
	return connectWriter(ctx, path, abs, lock, created)
}

// writerPath checks path and command for OpenWriter and returns the
// database's absolute path: a symbolic link's target, in a directory that
// exists, a regular file if there is one.
func writerPath(path, command string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	// SQLite follows a symbolic link to the database and keeps its
	// write-ahead log beside the target; the lock and the checks below
	// must name the same files.
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return "", fmt.Errorf("a symbolic link whose target cannot be opened: %w", err)
		}
		abs = target
	}
	dir := filepath.Dir(abs)
	if st, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("directory %s: %w", dir, err)
	} else if !st.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	if st, err := os.Stat(abs); err == nil && !st.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	if strings.ContainsFunc(command, unicode.IsSpace) || command == "" {
		return "", fmt.Errorf("store.OpenWriter: bad command name %q", command)
	}
	return abs, nil
}

// lockFile, under the writer lock of PATH.lock, creates the database at
// abs if there is none (created), locks the file itself and checks an
// existing one (checkExisting), before any connection of SQLite opens it.
func lockFile(ctx context.Context, path, abs string, lock *writerLock) (created bool, err error) {
	// Checked before SQLite opens the files, which would fall back to a
	// read-only connection and fail at the first game (the database file
	// itself: lockDatabase opens it for writing).
	for _, f := range []string{abs + "-wal", abs + "-shm"} {
		if err := checkWritable(f); err != nil {
			return false, err
		}
	}
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		if err := removeOrphanLogs(abs); err != nil {
			return false, err
		}
		if err := createDatabase(ctx, abs); err != nil {
			return false, err
		}
		created = true
	}
	// The file itself, whatever its names: a hard link or another mount
	// of it is the same database to SQLite, and must not get a second
	// writer through its own PATH.lock.
	if err := lock.lockDatabase(path, abs); err != nil {
		return false, err
	}
	if !created {
		if err := checkExisting(ctx, path, abs); err != nil {
			return false, err
		}
	}
	return created, nil
}

// checkExisting refuses an existing database at abs that a writer must
// not open: beside a stale log (refuseStaleLogs), foreign, from a newer
// selfplay or damaged (checkReadOnly).
func checkExisting(ctx context.Context, path, abs string) error {
	if err := refuseStaleLogs(abs); err != nil {
		return err
	}
	if err := checkReadOnly(ctx, abs); err != nil {
		// A read-write connection to a file that is not ours could
		// change it even if we only look: closing checkpoints a
		// foreign WAL.
		err = sqliteError(abs, err)
		if IsDamaged(err) {
			// Games written after a damaged page could be lost with it
			// (SQLite reads the file's structure as it is).
			return fmt.Errorf("%w; nothing was written to it: %s, or its games as PGN with "+
				"`selfplay export -db %s -o games.pgn`", err, Recovery(path), path)
		}
		return err
	}
	return nil
}

// connectWriter opens the writer's connection to the locked database at
// abs and prepares it (prepare), noting the files it writes.
func connectWriter(ctx context.Context, path, abs string, lock *writerLock, created bool) (_ *Store, err error) {
	db, err := sql.Open("sqlite", writerDSN(abs))
	if err != nil {
		return nil, err
	}
	// One connection: SQLite has one writer anyway, and a single connection
	// serialises the workers' transactions without SQLITE_BUSY retries.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	s := &Store{Reader: Reader{db: db, q: db, path: path}, file: writerFile{lock: lock, abs: abs, created: created}}
	defer func() {
		if err != nil {
			db.Close()
		}
	}()
	if err := prepare(ctx, db); err != nil {
		return nil, sqliteError(abs, err)
	}
	// The connection has the database and its write-ahead log open now.
	if s.file.dbFile, err = os.Stat(abs); err != nil {
		return nil, err
	}
	if !lock.lockedFile(s.file.dbFile) {
		return nil, errors.New("the file was replaced while it was being opened; try again")
	}
	if s.file.walFile, err = os.Stat(abs + "-wal"); err != nil {
		return nil, fmt.Errorf("write-ahead log: %w", err)
	}
	return s, nil
}

// writerDSN is the writer's connection URI of the database file.
func writerDSN(abs string) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	return dsn(abs, q)
}

// createDatabase creates a new database at abs with the current schema:
// built under another name and linked into place complete, so that a
// reader never meets an empty or half-made file. The writer lock is held,
// so no one else creates it meanwhile; a leftover of a creation that was
// killed is replaced. The new file is checkpointed, its write-ahead log
// emptied and removed, before it is linked: SQLite's Close checkpoints
// too but says nothing when that fails (a full disk), and a file linked
// then would be a damaged database whose content is in a log of another
// name. A creation that fails removes what it made.
func createDatabase(ctx context.Context, abs string) (err error) {
	tmp := abs + ".creating"
	made := []string{tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"}
	for _, f := range made {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	defer func() {
		if err != nil { // the free space as it was when it failed
			err = fmt.Errorf("creating the database: %w", diskError(filepath.Dir(abs), err))
		}
		for _, f := range made {
			os.Remove(f) // after the link, the name abs keeps the file
		}
	}()
	db, err := sql.Open("sqlite", writerDSN(tmp))
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	err = prepare(ctx, db)
	if err == nil {
		err = checkpointNew(ctx, db)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// The log must be gone (or empty): what it held would be missing
	// from the database linked into place.
	for _, f := range []string{tmp + "-wal", tmp + "-journal"} {
		if fi, serr := os.Stat(f); serr == nil && fi.Size() > 0 {
			return fmt.Errorf("the new database's log %s (%d bytes) was not written into it", filepath.Base(f), fi.Size())
		}
	}
	// Link fails rather than replace a file that appeared meanwhile;
	// file systems without hard links get a rename.
	if err = os.Link(tmp, abs); err != nil && !errors.Is(err, fs.ErrExist) {
		err = os.Rename(tmp, abs)
	}
	return err
}

// checkpointNew writes the new database's write-ahead log into the file
// and empties it (TRUNCATE), and fails unless SQLite says all of it was
// written. A variable: tests replace it.
var checkpointNew = func(ctx context.Context, db *sql.DB) error {
	var busy, log, done int
	if err := db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &log, &done); err != nil {
		return fmt.Errorf("checkpointing: %w", err)
	}
	if busy != 0 || log != done {
		return fmt.Errorf("checkpointing: %d of the log's %d pages written (busy %d)", done, log, busy)
	}
	return nil
}

// prepare checks that the database is selfplay's (or empty) before
// anything is written, switches it to WAL, migrates it and takes the
// write lock, so that a database that cannot be written fails before the
// first game rather than at its end. A database whose schema is current
// is not written (a merge that adds nothing leaves the file as it was).
func prepare(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	v, err := checkSchema(ctx, conn)
	if err != nil {
		return err
	}
	var mode string
	if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return fmt.Errorf("switching to WAL: %w", err)
	}
	if mode != "wal" {
		return fmt.Errorf("switching to WAL: journal mode stays %q", mode)
	}
	if err := migrate(ctx, conn, v); err != nil {
		return err
	}
	// BEGIN IMMEDIATE (writerDSN): a read-only connection fails here.
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("checking that it can be written: %w", err)
	}
	defer tx.Rollback()
	if v != schemaVersion() {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion())); err != nil {
			return fmt.Errorf("checking that it can be written: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("checking that it can be written: %w", err)
	}
	return nil
}

// ErrDatabaseGone is wrapped by the error of a write to a Store whose
// file was deleted or replaced since it was opened.
var ErrDatabaseGone = errors.New("nothing more can be stored")

// checkFiles fails with ErrDatabaseGone when the path no longer names the
// database file (or write-ahead log) the connection writes. SQLite keeps
// writing an unlinked file without error, and every game stored there
// would vanish with the process.
func (s *Store) checkFiles() error {
	for _, f := range []struct {
		path string
		info os.FileInfo
		what string
	}{{s.file.abs, s.file.dbFile, "database " + s.path}, {s.file.abs + "-wal", s.file.walFile, "write-ahead log " + s.path + "-wal"}} {
		now, err := os.Stat(f.path)
		if err == nil && os.SameFile(now, f.info) {
			continue
		}
		how := "was replaced by another file"
		if errors.Is(err, fs.ErrNotExist) {
			how = "was deleted"
		} else if err != nil {
			how = fmt.Sprintf("cannot be checked (%v)", err)
		}
		return fmt.Errorf("the %s %s while this process was writing it: %w", f.what, how, ErrDatabaseGone)
	}
	return nil
}

// writeError is the error of a write to the Store's database, reworded
// when the disk is full (diskError).
func (s *Store) writeError(err error) error { return diskError(filepath.Dir(s.file.abs), err) }

// Close closes the database (checkpointing the WAL) and releases the
// writer lock.
func (s *Store) Close() error {
	err := s.db.Close()
	if lerr := s.file.lock.release(); err == nil {
		err = lerr
	}
	return err
}

// CloseRemovingIfEmpty closes the Store like Close and, if OpenWriter
// created the database and nothing has been stored in it (no tournament,
// no suite run), removes it with its side files, under the lock, so that
// a command that failed before storing anything (an engine that cannot be
// started) leaves no empty database behind. It reports whether it did.
func (s *Store) CloseRemovingIfEmpty(ctx context.Context) (removed bool, err error) {
	empty := false
	if s.file.created && s.checkFiles() == nil {
		var n int
		err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM tournaments) + (SELECT count(*) FROM suite_runs)`).Scan(&n)
		empty = err == nil && n == 0
	}
	err = s.db.Close()
	if empty && err == nil {
		for _, f := range []string{s.file.abs, s.file.abs + "-wal", s.file.abs + "-shm"} {
			if rerr := os.Remove(f); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
				err = rerr
			}
		}
		removed = err == nil
	}
	if lerr := s.file.lock.release(); err == nil {
		err = lerr
	}
	return removed, err
}

// OpenReader opens an existing database read-only. It never writes the
// file: no migration (an old schema is an error that says `selfplay run`
// upgrades it), no change of journal mode, queries only. It reads files
// and directories that are read-only, and does not wait for a writer (WAL:
// readers see the last committed state). A file that is not a selfplay
// database is an error naming it. It is a reader for display: it reads
// text fields bounded, whatever the file holds (bounds.go), and leaves out
// a config snapshot over record.MaxConfigSnapshot (Tournament.Snapshot
// says why); WritePGN streams the stored PGN as it is.
func OpenReader(ctx context.Context, path string) (*Reader, error) {
	r, err := openReader(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	return r, nil
}

func openReader(ctx context.Context, path string) (*Reader, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err // a mistyped path is an error, not a new empty database
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	// SQLite finds the logs beside the file a symbolic link leads to.
	if target, err := filepath.EvalSymlinks(abs); err == nil {
		if err := refuseStaleLogs(target); err != nil {
			return nil, err
		}
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "query_only(1)")
	r, err := openReaderDSN(ctx, path, dsn(abs, q))
	if err != nil && cannotShareWAL(err) && !hasWAL(abs) {
		// A read-only directory without the -shm file: SQLite cannot set
		// up WAL sharing. Without a -wal file there is no writer and no
		// uncommitted log, so the file as it is is the whole database.
		q.Set("immutable", "1")
		if r2, err2 := openReaderDSN(ctx, path, dsn(abs, q)); err2 == nil {
			return r2, nil
		}
	}
	if err != nil {
		return nil, sqliteError(abs, err)
	}
	return r, nil
}

func openReaderDSN(ctx context.Context, path, dsn string) (*Reader, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	v, err := checkSchema(ctx, db)
	switch {
	case err != nil:
	case v == 0:
		err = fmt.Errorf("%w (an empty SQLite database)", errForeign)
	case v < oldestReadable:
		err = fmt.Errorf("schema version %d is older than this selfplay's (%d): `selfplay run -db %s` upgrades it "+
			"(report and export never write)", v, schemaVersion(), path)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Reader{db: db, q: db, path: path, lacks: lacking(v), bounded: true}, nil
}

// Close closes the database.
func (r *Reader) Close() error { return r.db.Close() }

// Files lists the files of the database at path: the database, its
// write-ahead log, shared memory and rollback journal, and the writer's
// lock; none for an empty path (no database).
func Files(path string) []string {
	if path == "" {
		return nil
	}
	return []string{path, path + "-wal", path + "-shm", path + "-journal", path + lockSuffix}
}

// attachReadOnly attaches the database at path read-only as "src" to conn. Like
// OpenReader, it falls back to an immutable open when SQLite cannot set up
// WAL sharing (a read-only directory) and no write-ahead log is pending.
// lacks is what its schema, if older than this selfplay's, does not have
// (as Reader.lacks).
func attachReadOnly(ctx context.Context, conn *sql.Conn, path string) (lacks olderSchema, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return lacks, err
	}
	if _, err := os.Stat(abs); err != nil {
		return lacks, err
	}
	q := url.Values{}
	q.Set("mode", "ro")
	_, err = conn.ExecContext(ctx, "ATTACH DATABASE ? AS src", dsn(abs, q))
	if err == nil {
		lacks, err = checkAttached(ctx, conn)
	}
	if err != nil && cannotShareWAL(err) && !hasWAL(abs) {
		conn.ExecContext(ctx, "DETACH DATABASE src")
		q.Set("immutable", "1")
		if _, err2 := conn.ExecContext(ctx, "ATTACH DATABASE ? AS src", dsn(abs, q)); err2 == nil {
			if lacks, err = checkAttached(ctx, conn); err == nil {
				return lacks, nil
			}
		}
	}
	if err != nil {
		conn.ExecContext(ctx, "DETACH DATABASE src")
		return lacks, sqliteError(abs, err)
	}
	return lacks, nil
}

// checkAttached checks that src has a schema a reader opens, the current
// one or an older readable one (it was checked by OpenReader; this guards
// against a file replaced meanwhile), and tells what it lacks.
func checkAttached(ctx context.Context, conn *sql.Conn) (olderSchema, error) {
	var v int
	if err := conn.QueryRowContext(ctx, "PRAGMA src.user_version").Scan(&v); err != nil {
		return olderSchema{}, err
	}
	if v < oldestReadable || v > schemaVersion() {
		return olderSchema{}, fmt.Errorf("schema version %d, not %d", v, schemaVersion())
	}
	return lacking(v), nil
}
