// Package store keeps tournaments, games and moves in an SQLite file
// (modernc.org/sqlite, no cgo). The schema is versioned with PRAGMA
// user_version; the database runs in WAL mode and every finished game is
// written in one transaction, so a killed process loses at most the games
// that were still being played.
//
// A database has one writer at a time (OpenWriter: OS locks on the file
// PATH.lock beside it and on the database file itself, whatever its name,
// released by the kernel when the writer exits or is killed) and any number of readers (OpenReader), which open the file
// read-only and are never blocked by the writer. Before each write the
// writer checks that the path still names the file it writes, so a
// database deleted during a run stops the run instead of losing its games
// silently.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"modernc.org/sqlite" // also the database/sql driver "sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"selfplay/outcome"
	"selfplay/store/record"
)

// A Store is a database open for writing: the one writer of its file
// (OpenWriter). It reads as a Reader does.
type Store struct {
	Reader
	lock    *writerLock
	abs     string // the database's absolute path
	created bool   // OpenWriter created the file
	// The files the connection writes, as they were when it opened them:
	// before each write the path must still name them (checkFiles).
	dbFile, walFile os.FileInfo
}

// A Reader is a database open read-only (OpenReader): it never writes the
// file, never migrates it, and does not block or wait for a writer.
type Reader struct {
	db   *sql.DB
	q    queryer // db, or the transaction of ReadTx
	path string  // as given to the Open function, for messages
}

// queryer runs queries: *sql.DB, *sql.Conn or *sql.Tx.
type queryer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
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
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	return s, nil
}

func openWriter(ctx context.Context, path, command string) (_ *Store, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	// SQLite follows a symbolic link to the database and keeps its
	// write-ahead log beside the target; the lock and the checks below
	// must name the same files.
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("a symbolic link whose target cannot be opened: %w", err)
		}
		abs = target
	}
	dir := filepath.Dir(abs)
	if st, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("directory %s: %w", dir, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	if st, err := os.Stat(abs); err == nil && !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if strings.ContainsFunc(command, unicode.IsSpace) || command == "" {
		return nil, fmt.Errorf("store.OpenWriter: bad command name %q", command)
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
	// Checked before SQLite opens the files, which would fall back to a
	// read-only connection and fail at the first game (the database file
	// itself: lockDatabase opens it for writing).
	for _, f := range []string{abs + "-wal", abs + "-shm"} {
		if err := checkWritable(f); err != nil {
			return nil, err
		}
	}
	created := false
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		if err := removeOrphanLogs(abs); err != nil {
			return nil, err
		}
		if err := createDatabase(ctx, abs); err != nil {
			return nil, err
		}
		created = true
	}
	// The file itself, whatever its names: a hard link or another mount
	// of it is the same database to SQLite, and must not get a second
	// writer through its own PATH.lock.
	if err := lock.lockDatabase(path, abs); err != nil {
		return nil, err
	}
	if !created {
		if err := refuseStaleLogs(abs); err != nil {
			return nil, err
		}
		if err := checkReadOnly(ctx, abs); err != nil {
			// A read-write connection to a file that is not ours could
			// change it even if we only look: closing checkpoints a
			// foreign WAL.
			err = sqliteError(abs, err)
			if IsDamaged(err) {
				// Games written after a damaged page could be lost with it
				// (SQLite reads the file's structure as it is).
				return nil, fmt.Errorf("%w; nothing was written to it: %s, or its games as PGN with "+
					"`selfplay export -db %s -o games.pgn`", err, Recovery(path), path)
			}
			return nil, err
		}
	}
	db, err := sql.Open("sqlite", writerDSN(abs))
	if err != nil {
		return nil, err
	}
	// One connection: SQLite has one writer anyway, and a single connection
	// serialises the workers' transactions without SQLITE_BUSY retries.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	s := &Store{Reader: Reader{db: db, q: db, path: path}, lock: lock, abs: abs, created: created}
	defer func() {
		if err != nil {
			db.Close()
		}
	}()
	if err := prepare(ctx, db); err != nil {
		return nil, sqliteError(abs, err)
	}
	// The connection has the database and its write-ahead log open now.
	if s.dbFile, err = os.Stat(abs); err != nil {
		return nil, err
	}
	if !lock.lockedFile(s.dbFile) {
		return nil, errors.New("the file was replaced while it was being opened; try again")
	}
	if s.walFile, err = os.Stat(abs + "-wal"); err != nil {
		return nil, fmt.Errorf("write-ahead log: %w", err)
	}
	return s, nil
}

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

// writerDSN is the writer's connection URI of the database file.
func writerDSN(abs string) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	return dsn(abs, q)
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

// createDatabase creates a new database at abs with the current schema:
// built under another name and linked into place complete, so that a
// reader never meets an empty or half-made file. The writer lock is held,
// so no one else creates it meanwhile; a leftover of a creation that was
// killed is replaced.
func createDatabase(ctx context.Context, abs string) error {
	tmp := abs + ".creating"
	for _, f := range []string{tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	db, err := sql.Open("sqlite", writerDSN(tmp))
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	err = prepare(ctx, db)
	if cerr := db.Close(); err == nil { // checkpoints and removes the write-ahead log
		err = cerr
	}
	if err == nil {
		// Link fails rather than replace a file that appeared meanwhile;
		// file systems without hard links get a rename.
		if err = os.Link(tmp, abs); err != nil && !errors.Is(err, fs.ErrExist) {
			err = os.Rename(tmp, abs)
		}
	}
	os.Remove(tmp)
	if err != nil {
		return fmt.Errorf("creating the database: %w", err)
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
	}{{s.abs, s.dbFile, "database " + s.path}, {s.abs + "-wal", s.walFile, "write-ahead log " + s.path + "-wal"}} {
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

// Close closes the database (checkpointing the WAL) and releases the
// writer lock.
func (s *Store) Close() error {
	err := s.db.Close()
	if lerr := s.lock.release(); err == nil {
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
	if s.created && s.checkFiles() == nil {
		var n int
		err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM tournaments) + (SELECT count(*) FROM suite_runs)`).Scan(&n)
		empty = err == nil && n == 0
	}
	err = s.db.Close()
	if empty && err == nil {
		for _, f := range []string{s.abs, s.abs + "-wal", s.abs + "-shm"} {
			if rerr := os.Remove(f); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
				err = rerr
			}
		}
		removed = err == nil
	}
	if lerr := s.lock.release(); err == nil {
		err = lerr
	}
	return removed, err
}

// OpenReader opens an existing database read-only. It never writes the
// file: no migration (an old schema is an error that says `selfplay run`
// upgrades it), no change of journal mode, queries only. It reads files
// and directories that are read-only, and does not wait for a writer (WAL:
// readers see the last committed state). A file that is not a selfplay
// database is an error naming it.
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
	case v < schemaVersion():
		err = fmt.Errorf("schema version %d is older than this selfplay's (%d): `selfplay run -db %s` upgrades it "+
			"(report and export never write)", v, schemaVersion(), path)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Reader{db: db, q: db, path: path}, nil
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

// sqliteError rewords SQLite's answer for a file that is no database.
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
	return err
}

// Close closes the database.
func (r *Reader) Close() error { return r.db.Close() }

// ReadTx calls fn with a Reader whose queries all see one snapshot of the
// database (a read transaction), so that figures read by separate queries
// agree while a writer goes on. On a Store it holds the one connection:
// fn must not write.
func (r *Reader) ReadTx(ctx context.Context, fn func(*Reader) error) error {
	if _, inTx := r.q.(*sql.Tx); inTx {
		return fn(r)
	}
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("database %s: %w", r.path, err)
	}
	defer tx.Rollback()
	return fn(&Reader{db: r.db, q: tx, path: r.path})
}

const timeLayout = time.RFC3339Nano

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeLayout)
}

func parseTime(s string) time.Time {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// ErrNotFound is returned for a missing tournament.
var ErrNotFound = errors.New("not found")

// TournamentByName returns the tournament and its engines, or ErrNotFound.
func (r *Reader) TournamentByName(ctx context.Context, name string) (record.Tournament, error) {
	ts, err := r.tournaments(ctx, "WHERE name = ?", name)
	if err != nil {
		return record.Tournament{}, err
	}
	if len(ts) == 0 {
		return record.Tournament{}, fmt.Errorf("tournament %q: %w", name, ErrNotFound)
	}
	return ts[0], nil
}

// Tournaments returns every tournament in creation order.
func (r *Reader) Tournaments(ctx context.Context) ([]record.Tournament, error) {
	return r.tournaments(ctx, "")
}

func (r *Reader) tournaments(ctx context.Context, where string, args ...any) ([]record.Tournament, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading tournaments: %w", err)
	}
	out, err := scanTournaments(rows)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Engines, err = r.engines(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tournamentColumns are the tournaments columns that scanTournaments reads.
const tournamentColumns = `id, name, config, config_hash, status, total_games, sprt_state, sprt_llr,
	created_at, updated_at, finished_at, shard_index, shard_count, shard_pairs`

// scanTournaments reads and closes rows of tournamentColumns (without the
// engines, which are rows of their own table).
func scanTournaments(rows *sql.Rows) ([]record.Tournament, error) {
	defer rows.Close()
	var out []record.Tournament
	for rows.Next() {
		var t record.Tournament
		var created, updated, finished string
		if err := rows.Scan(&t.ID, &t.Name, &t.Config, &t.ConfigHash, &t.Status, &t.TotalGames, &t.SPRTState, &t.SPRTLLR,
			&created, &updated, &finished, &t.Shard.Index, &t.Shard.Count, &t.Shard.Pairs); err != nil {
			return nil, fmt.Errorf("reading tournaments: %w", err)
		}
		t.CreatedAt, t.UpdatedAt, t.FinishedAt = parseTime(created), parseTime(updated), parseTime(finished)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading tournaments: %w", err)
	}
	return out, nil
}

func (r *Reader) engines(ctx context.Context, tid int64) ([]record.Engine, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT name, options FROM engines WHERE tournament_id = ? ORDER BY rowid`, tid)
	if err != nil {
		return nil, fmt.Errorf("reading engines: %w", err)
	}
	defer rows.Close()
	var out []record.Engine
	for rows.Next() {
		var e record.Engine
		if err := rows.Scan(&e.Name, &e.Options); err != nil {
			return nil, fmt.Errorf("reading engines: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// CreateTournament inserts a tournament (with its Shard) and its engines; t.ID is ignored and
// the new ID returned. IDs are never reused, also not those of deleted
// tournaments.
func (s *Store) CreateTournament(ctx context.Context, t record.Tournament) (int64, error) {
	if err := s.checkFiles(); err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	defer tx.Rollback()
	now := formatTime(time.Now())
	res, err := tx.ExecContext(ctx, `INSERT INTO tournaments (name, config, config_hash, status, total_games, created_at, updated_at,
		shard_index, shard_count, shard_pairs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.Name, t.Config, t.ConfigHash, record.StatusRunning, t.TotalGames, now, now, t.Shard.Index, max(t.Shard.Count, 1), t.Shard.Pairs)
	if err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	for _, e := range t.Engines {
		if _, err := tx.ExecContext(ctx, `INSERT INTO engines (tournament_id, name, options) VALUES (?, ?, ?)`, id, e.Name, e.Options); err != nil {
			return 0, fmt.Errorf("creating tournament %s: engine %s: %w", t.Name, e.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	return id, nil
}

// DeleteTournament removes a tournament with its games and moves (restart).
func (s *Store) DeleteTournament(ctx context.Context, id int64) error {
	if err := s.checkFiles(); err != nil {
		return fmt.Errorf("deleting tournament %d: %w", id, err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM tournaments WHERE id = ?`, id); err != nil {
		return fmt.Errorf("deleting tournament %d: %w", id, err)
	}
	return nil
}

// UpdateStatus records a tournament's status and SPRT state; complete sets
// finished_at.
func (s *Store) UpdateStatus(ctx context.Context, id int64, status record.Status, sprtState string, sprtLLR float64) error {
	if err := s.checkFiles(); err != nil {
		return fmt.Errorf("updating tournament %d: %w", id, err)
	}
	now := time.Now()
	finished := ""
	if status == record.StatusComplete {
		finished = formatTime(now)
	}
	_, err := s.db.ExecContext(ctx, `UPDATE tournaments SET status = ?, sprt_state = ?, sprt_llr = ?, updated_at = ?,
		finished_at = CASE WHEN ? = '' THEN finished_at ELSE ? END WHERE id = ?`,
		status, sprtState, sprtLLR, formatTime(now), finished, finished, id)
	if err != nil {
		return fmt.Errorf("updating tournament %d: %w", id, err)
	}
	return nil
}

// CountGames returns the number of stored games of a tournament.
func (r *Reader) CountGames(ctx context.Context, tid int64) (int, error) {
	var n int
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE tournament_id = ?`, tid).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting games: %w", err)
	}
	return n, nil
}

// SaveGame stores a finished game and its moves in one transaction. Storing
// the same game twice is an error (the UNIQUE key), never a duplicate row.
// A database file deleted or replaced since OpenWriter is an error
// wrapping ErrDatabaseGone, before anything is written.
func (s *Store) SaveGame(ctx context.Context, g *record.Game) error {
	round := record.PGNRound(g.Pair, g.Index) // messages name the game as its PGN does
	if err := s.checkFiles(); err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	defer tx.Rollback()
	w, b := g.SideSums()
	res, err := tx.ExecContext(ctx, `INSERT INTO games (tournament_id, pair_index, game_index, round, opening_id, opening_name,
		start_fen, opening_moves, white, black, result, termination, reason, culprit, plies, final_fen, started_at, finished_at,
		white_moves, white_depth, white_seldepth, white_depth_skipped, white_nodes, white_time_ns,
		black_moves, black_depth, black_seldepth, black_depth_skipped, black_nodes, black_time_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.TournamentID, g.Pair, g.Index, g.Round, g.OpeningID, g.OpeningName, g.StartFEN, strings.Join(g.OpeningMoves, " "),
		g.White, g.Black, g.Result, g.Termination, g.Reason, g.Culprit, g.Plies, g.FinalFEN, formatTime(g.Started), formatTime(g.Finished),
		w.Moves, w.Depth, w.SelDepth, w.DepthSkipped, w.Nodes, int64(w.Time),
		b.Moves, b.Depth, b.SelDepth, b.DepthSkipped, b.Nodes, int64(b.Time))
	if err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO pgns (game_id, pgn) VALUES (?, ?)`, id, g.PGN); err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO moves (game_id, ply, uci, san, book, score, depth, seldepth, nodes, time_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	defer stmt.Close()
	for _, m := range g.Moves {
		if _, err := stmt.ExecContext(ctx, id, m.Ply, m.UCI, m.SAN, m.Book, m.Score, m.Depth, m.SelDepth, m.Nodes, ms(m.Time)); err != nil {
			return fmt.Errorf("saving game %s move %d: %w", round, m.Ply, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET updated_at = ? WHERE id = ?`, formatTime(time.Now()), g.TournamentID); err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	g.ID = id
	return nil
}

// GameFilter selects games; zero fields select everything.
type GameFilter struct {
	TournamentID int64
	Engine       string // games where this engine played either color
	WithMoves    bool
}

// where is the filter's WHERE clause (empty for none) with its arguments.
func (f GameFilter) where() (string, []any) {
	var where []string
	var args []any
	if f.TournamentID != 0 {
		where = append(where, "tournament_id = ?")
		args = append(args, f.TournamentID)
	}
	if f.Engine != "" {
		where = append(where, "(white = ? OR black = ?)")
		args = append(args, f.Engine, f.Engine)
	}
	if len(where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

// gameOrder is the order of games everywhere: tournament, then schedule
// (the UNIQUE index's order, so SQLite reads it without sorting).
const gameOrder = " ORDER BY tournament_id, pair_index, game_index"

// Games returns games in (tournament, pair, index) order, with their PGN
// and, if f.WithMoves, their moves. It holds them all in memory: readers of
// many games use TournamentGames or WritePGN.
func (r *Reader) Games(ctx context.Context, f GameFilter) ([]record.Game, error) {
	where, args := f.where()
	rows, err := r.q.QueryContext(ctx, `SELECT id, tournament_id, pair_index, game_index, round, opening_id, opening_name,
		start_fen, opening_moves, white, black, result, termination, reason, culprit, plies, final_fen, started_at,
		finished_at, coalesce(pgn, '') FROM games LEFT JOIN pgns ON game_id = id`+where+gameOrder, args...)
	if err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	var out []record.Game
	for rows.Next() {
		var g record.Game
		var moves, started, finished string
		if err := rows.Scan(&g.ID, &g.TournamentID, &g.Pair, &g.Index, &g.Round, &g.OpeningID, &g.OpeningName, &g.StartFEN,
			&moves, &g.White, &g.Black, &g.Result, &g.Termination, &g.Reason, &g.Culprit, &g.Plies, &g.FinalFEN, &started, &finished, &g.PGN); err != nil {
			return nil, fmt.Errorf("reading games: %w", err)
		}
		g.OpeningMoves = strings.Fields(moves)
		g.Started, g.Finished = parseTime(started), parseTime(finished)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	rows.Close()
	if f.WithMoves {
		for i := range out {
			if out[i].Moves, err = r.moves(ctx, out[i].ID); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// WritePGN writes the stored PGN of the selected games, in tournament and
// schedule order, and returns how many it wrote. It streams: one game is
// in memory at a time, and the games are one snapshot of the database.
func (r *Reader) WritePGN(ctx context.Context, w io.Writer, f GameFilter) (int, error) {
	where, args := f.where()
	rows, err := r.q.QueryContext(ctx, `SELECT pgn FROM games JOIN pgns ON game_id = id`+where+gameOrder, args...)
	if err != nil {
		return 0, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	n := 0
	var pgn sql.RawBytes // valid until the next row: no copy per game
	for rows.Next() {
		if err := rows.Scan(&pgn); err != nil {
			return n, fmt.Errorf("reading games: %w", err)
		}
		if _, err := w.Write(pgn); err != nil {
			return n, fmt.Errorf("writing PGN: %w", err)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("reading games: %w", err)
	}
	return n, nil
}

// TournamentGames returns a tournament's games in schedule order with what
// a report reads of them (standings.Source): id, pair and index, opening,
// players, result, termination, culprit and times. Everything else is left
// out (the database has it: Games); the search figures come added up
// (SearchSums).
func (r *Reader) TournamentGames(ctx context.Context, tournamentID int64) ([]record.Game, error) {
	// Sized up front: growing a slice of 100,000 games by doubling leaves
	// as much garbage as it keeps.
	n, err := r.CountGames(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return r.reportGames(ctx, make([]record.Game, 0, n), `WHERE tournament_id = ?`+gameOrder, tournamentID)
}

// reportGames appends the games that the query's WHERE clause (and
// order) selects, with the columns TournamentGames reads.
func (r *Reader) reportGames(ctx context.Context, out []record.Game, where string, args ...any) ([]record.Game, error) {
	// Few columns: the driver's cost is per column and row.
	rows, err := r.q.QueryContext(ctx, `SELECT id, tournament_id, pair_index, game_index, opening_id, opening_name, white, black,
		result, termination, culprit, started_at, finished_at FROM games `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	// Names repeat in every row: one copy of each.
	var in interner
	var openingID, openingName, white, black, result, term, culprit, started, finished sql.RawBytes
	for rows.Next() {
		var g record.Game
		if err := rows.Scan(&g.ID, &g.TournamentID, &g.Pair, &g.Index, &openingID, &openingName, &white, &black,
			&result, &term, &culprit, &started, &finished); err != nil {
			return nil, fmt.Errorf("reading games: %w", err)
		}
		g.OpeningID, g.OpeningName = in.str(openingID), in.str(openingName)
		g.White, g.Black, g.Result = in.str(white), in.str(black), outcome.Result(in.str(result))
		g.Termination, g.Culprit = record.Termination(in.str(term)), in.str(culprit)
		g.Started, g.Finished = parseTime(string(started)), parseTime(string(finished))
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	return out, nil
}

// interner keeps one string per distinct byte sequence.
type interner map[string]string

func (in *interner) str(b []byte) string {
	if *in == nil {
		*in = interner{}
	}
	if s, ok := (*in)[string(b)]; ok { // no allocation for the lookup
		return s
	}
	s := string(b)
	(*in)[s] = s
	return s
}

// SearchSums returns, per engine, the sums of its search figures over the
// moves it chose in the tournament's games (standings.Source), added up in
// SQL from each game's per-side sums: one row per colour pairing, one pass
// over the games.
func (r *Reader) SearchSums(ctx context.Context, tournamentID int64) (map[string]record.SearchSums, error) {
	return r.searchSums(ctx, `WHERE tournament_id = ?`, tournamentID)
}

func (r *Reader) searchSums(ctx context.Context, where string, args ...any) (map[string]record.SearchSums, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT white, black,
		sum(white_moves), sum(white_depth), sum(white_seldepth), sum(white_depth_skipped), sum(white_nodes), sum(white_time_ns),
		sum(black_moves), sum(black_depth), sum(black_seldepth), sum(black_depth_skipped), sum(black_nodes), sum(black_time_ns)
		FROM games `+where+` GROUP BY white, black`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading search figures: %w", err)
	}
	defer rows.Close()
	out := map[string]record.SearchSums{}
	for rows.Next() {
		var white, black string
		var w, b record.SearchSums
		var wt, bt int64
		if err := rows.Scan(&white, &black, &w.Moves, &w.Depth, &w.SelDepth, &w.DepthSkipped, &w.Nodes, &wt,
			&b.Moves, &b.Depth, &b.SelDepth, &b.DepthSkipped, &b.Nodes, &bt); err != nil {
			return nil, fmt.Errorf("reading search figures: %w", err)
		}
		w.Time, b.Time = time.Duration(wt), time.Duration(bt)
		for _, side := range []struct {
			engine string
			sums   record.SearchSums
		}{{white, w}, {black, b}} {
			s := out[side.engine]
			s.Add(side.sums)
			out[side.engine] = s
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading search figures: %w", err)
	}
	return out, nil
}

func (r *Reader) moves(ctx context.Context, gameID int64) ([]record.Move, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT ply, uci, san, book, score, depth, seldepth, nodes, time_ms
		FROM moves WHERE game_id = ? ORDER BY ply`, gameID)
	if err != nil {
		return nil, fmt.Errorf("reading moves: %w", err)
	}
	defer rows.Close()
	var out []record.Move
	for rows.Next() {
		var m record.Move
		var t float64
		if err := rows.Scan(&m.Ply, &m.UCI, &m.SAN, &m.Book, &m.Score, &m.Depth, &m.SelDepth, &m.Nodes, &t); err != nil {
			return nil, fmt.Errorf("reading moves: %w", err)
		}
		m.Time = fromMS(t)
		out = append(out, m)
	}
	return out, rows.Err()
}

// Files lists the files of the database at path: the database, its
// write-ahead log, shared memory and rollback journal, and the writer's
// lock; none for an empty path (no database).
func Files(path string) []string {
	if path == "" {
		return nil
	}
	return []string{path, path + "-wal", path + "-shm", path + "-journal", path + lockSuffix}
}
