//go:build unix

package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/internal/testkit"
	"selfplay/store/record"
)

// unprivileged returns how to run a helper so that file permissions apply
// to it (testkit.AsNobody: as nobody when the tests run as root).
func unprivileged(t *testing.T) func(*exec.Cmd) {
	t.Helper()
	return testkit.AsNobody(t, sharedDir(t))
}

// sharedDir is a new directory that every user can enter and read, made
// writable again before it is removed.
func sharedDir(t *testing.T) string { return testkit.SharedDir(t, 0o755) }

// makeReadOnly makes the files of dir, then dir, read-only, and checks
// that the helper's user indeed cannot create a file there.
func makeReadOnly(t *testing.T, dir string, as func(*exec.Cmd)) {
	t.Helper()
	testkit.MakeReadOnly(t, dir)
	if out, code := runHelper(t, "touch", filepath.Join(dir, "probe"), as); code == 0 {
		t.Fatalf("the helper can still create files in the read-only directory: %s", out)
	}
}

func listDir(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// Readers read databases in read-only files and directories: a closed
// database (no write-ahead log: read as immutable, since nothing can be
// writing it), and one whose writer was killed, whose games are only in
// its write-ahead log (read with the read-only -shm file); without its
// -shm file such a log cannot be read, which is an error that says so
// rather than a report without those games.
func TestReaderOnReadOnlyFiles(t *testing.T) {
	ctx := context.Background()
	as := unprivileged(t)

	closed := sharedDir(t)
	path := filepath.Join(closed, "x.db")
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if files := listDir(t, closed); files != "x.db" {
		t.Fatalf("closed database: files %q", files)
	}
	makeReadOnly(t, closed, as)
	if out, code := runHelper(t, "read", path, as); code != 0 || out != "t 0\n" {
		t.Errorf("reader of a read-only closed database: exit %d, %q", code, out)
	}
	if files := listDir(t, closed); files != "x.db" {
		t.Errorf("the reader left files: %q", files)
	}

	killed := sharedDir(t)
	path = filepath.Join(killed, "x.db")
	if out, code := runHelper(t, "write-and-die", path, nil); code != 0 {
		t.Fatalf("writer: %s", out)
	}
	if files := listDir(t, killed); files != "x.db x.db-shm x.db-wal x.db.lock" {
		t.Fatalf("killed writer's files: %q", files)
	}
	makeReadOnly(t, killed, as)
	if out, code := runHelper(t, "read", path, as); code != 0 || out != "t 20\n" {
		t.Errorf("reader of a read-only database with a write-ahead log: exit %d, %q", code, out)
	}

	os.Chmod(killed, 0o755)
	os.Remove(path + "-shm")
	makeReadOnly(t, killed, as)
	if out, code := runHelper(t, "read", path, as); code == 0 || !strings.Contains(out, "x.db-shm") {
		t.Errorf("reader of a write-ahead log without its -shm in a read-only directory: exit %d, %q", code, out)
	}
}

// A reader is not blocked by a writer in the middle of a transaction (in
// another process), and sees the last committed state.
func TestReaderBesideWriteTransaction(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTournament(ctx, record.Tournament{Name: "committed", Config: "{}", ConfigHash: "h"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	startHelper(t, "hold-write-tx", path)
	start := time.Now()
	out, code := runHelper(t, "read", path, nil)
	if code != 0 || out != "committed 0\n" {
		t.Errorf("reader beside a write transaction: exit %d, %q", code, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the reader took %v: it waited for the writer", d)
	}
}
