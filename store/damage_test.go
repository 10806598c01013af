package store_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/store"
	"selfplay/store/storetest"
)

// damagedDatabase writes a database of 100 games and damages a page of
// its PGN table.
func damagedDatabase(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damaged.db")
	if err := storetest.Generate(context.Background(), path, storetest.Options{Games: 100, NoMoves: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := storetest.DamagePage(path, `[Round "`); err != nil {
		t.Fatal(err)
	}
	return path
}

// A writer refuses a damaged database before writing anything (SQLite
// would append to it, and the games behind the damaged page stay lost),
// and says how to recover it; the file is left byte for byte as it was.
// Readers call the damage a damage.
func TestDamagedDatabase(t *testing.T) {
	ctx := context.Background()
	path := damagedDatabase(t)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.OpenWriter(ctx, path, "run")
	if err == nil {
		s.Close()
		t.Fatal("a damaged database was opened for writing")
	}
	if !store.IsDamaged(err) || !errors.Is(err, store.ErrDamaged) {
		t.Errorf("error %v: not a damage", err)
	}
	for _, want := range []string{"database " + path + ": damaged (SQLite quick_check: ", "nothing was written to it",
		"sqlite3 " + path + " .recover", "selfplay export -db " + path} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q, want %q in it", err, want)
		}
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the damaged file changed (%v)", err)
	}
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left behind: %v", err)
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("a write-ahead log of %d bytes", fi.Size()) // an empty one is a reader's
	}

	r, err := store.OpenReader(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.CheckIntegrity(ctx); !store.IsDamaged(err) {
		t.Errorf("CheckIntegrity: %v, want a damage", err)
	}
	if _, err := r.WritePGN(ctx, io.Discard, store.GameFilter{}); !store.IsDamaged(err) || !strings.HasPrefix(err.Error(), "reading games: ") {
		t.Errorf("WritePGN: %v, want a damage met reading games", err)
	}
	if store.IsDamaged(errors.New("database disk image is malformed")) || store.IsDamaged(io.ErrUnexpectedEOF) {
		t.Error("IsDamaged takes other errors for damage")
	}
}
