//go:build unix

package store

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"selfplay/store/record"
)

// unprivileged returns how to run a helper so that file permissions apply
// to it. Root ignores them (CI runs as root), so then the helper runs as
// nobody (uid and gid 65534) from a copy of the test binary that nobody
// may execute; otherwise as this user.
func unprivileged(t *testing.T) func(*exec.Cmd) {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	dir := sharedDir(t)
	bin := filepath.Join(dir, "store.test")
	src, err := os.Open(testBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return func(cmd *exec.Cmd) {
		cmd.Path, cmd.Args[0] = bin, bin
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
}

// sharedDir is a new directory that every user can enter and read, made
// writable again before it is removed.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "store-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// makeReadOnly makes the files of dir, then dir, read-only, and checks
// that the helper's user indeed cannot create a file there.
func makeReadOnly(t *testing.T, dir string, as func(*exec.Cmd)) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Chmod(filepath.Join(dir, e.Name()), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
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
