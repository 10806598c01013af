package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A new database whose write-ahead log was not written into it when its
// connection closed (SQLite's Close says nothing when its checkpoint
// fails: a full disk) is not linked into place: OpenWriter fails, says
// so, and leaves no file; the next OpenWriter creates the database.
func TestCreateDatabaseLeftInItsLog(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "x.db")
	real := checkpointNew
	t.Cleanup(func() { checkpointNew = real })
	var other *sql.DB
	checkpointNew = func(ctx context.Context, db *sql.DB) error {
		// Another connection keeps the log from being checkpointed and
		// removed when db closes, as a full disk would.
		var seq int
		var name, file string
		if err := db.QueryRowContext(ctx, "PRAGMA database_list").Scan(&seq, &name, &file); err != nil {
			return err
		}
		var err error
		if other, err = sql.Open("sqlite", file); err != nil {
			return err
		}
		return other.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&seq)
	}
	_, err := OpenWriter(ctx, path, "run")
	if other != nil {
		other.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "creating the database: the new database's log x.db.creating-wal (") ||
		!strings.Contains(err.Error(), "bytes) was not written into it") {
		t.Fatalf("OpenWriter: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	checkpointNew = real
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	if err := quickCheck(ctx, s.db); err != nil {
		t.Error(err)
	}
	s.Close()
	if _, err := os.Stat(path + ".creating"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s.creating: %v", path, err)
	}
}
