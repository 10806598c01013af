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
//
// The package has two layers. The file's lifecycle: opening and closing
// (file.go), the checks of a deleted or replaced file and of stale logs
// (file_checks.go), the writer's locks (lock*.go) and the same locks of a
// run's other output files (outlock.go), the schema and its migrations
// (schema.go), damage (damage.go) and a full disk (disk*.go). And the
// queries over an open database: tournaments.go, games.go (with the games
// table's one column list, columns.go), suite.go and merge.go, and the
// bounds of the text that a reader for display reads (bounds.go). The
// queries reach the file only through what this file declares (Reader.q
// and Reader.db, the open connections) and three calls of the lifecycle:
// Store.checkFiles before each write, Store.writeError after a game's,
// and attachReadOnly for the input of a merge.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"
)

// A Store is a database open for writing: the one writer of its file
// (OpenWriter). It reads as a Reader does.
type Store struct {
	Reader
	file writerFile // the lifecycle's hold on the file (file.go)
}

// A Reader is a database open read-only (OpenReader): it never writes the
// file, never migrates it, and does not block or wait for a writer.
type Reader struct {
	db   *sql.DB
	q    queryer // db, or the transaction of ReadTx
	path string  // as given to the Open function, for messages
	// lacks is what the database's schema, older than this selfplay's,
	// does not have (a reader's; a writer migrates).
	lacks olderSchema
	// bounded: a reader for display (OpenReader), which reads text
	// fields bounded (bounds.go); a writer reads them whole.
	bounded bool
}

// queryer runs queries: *sql.DB, *sql.Conn or *sql.Tx.
type queryer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

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
	return fn(&Reader{db: r.db, q: tx, path: r.path, lacks: r.lacks, bounded: r.bounded})
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

// ms is a duration in milliseconds, as the moves and suite tables store times.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// fromMS is the duration of a stored time in milliseconds, rounded to the
// nanosecond it was (ms(d) does not multiply back to d exactly).
func fromMS(v float64) time.Duration { return time.Duration(math.Round(v * float64(time.Millisecond))) }

// olderSchema is what a readable schema older than this selfplay's lacks;
// the zero value, nothing.
type olderSchema struct {
	moveFields bool // the moves' fastchess fields (moveFieldsVersion)
	engineIDs  bool // the engine_ids table (engineIDsVersion)
	moveNPS    bool // the moves' nps (moveNPSVersion)
}
