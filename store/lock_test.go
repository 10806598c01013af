package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/store/record"
)

// A second writer, in another process, is refused with the holder's pid,
// host and start time; readers are not; after the holder is killed with
// SIGKILL the kernel has released the lock and a new writer gets it at
// once.
func TestWriterLockAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "selfplay.db")
	before := time.Now().Add(-time.Second)
	holder := startHelper(t, "hold-writer", path)

	_, err := OpenWriter(ctx, path, "run")
	var inUse *InUseError
	if !errors.As(err, &inUse) {
		t.Fatalf("second writer: %v, want an *InUseError", err)
	}
	host, _ := os.Hostname()
	if inUse.PID != holder.cmd.Process.Pid || inUse.Host != host || inUse.Command != "run" ||
		inUse.Since.Before(before) || inUse.Since.After(time.Now()) {
		t.Errorf("holder %+v, want pid %d on %s since about now", inUse, holder.cmd.Process.Pid, host)
	}
	want := fmt.Sprintf("%s is in use by another selfplay run (pid %d on %s since ", path, holder.cmd.Process.Pid, host)
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want it to start with %q", err, want)
	}
	// Another process's writer is refused too, without touching anything.
	if out, code := runHelper(t, "write", path, nil); code == 0 || !strings.Contains(out, "in use by another selfplay run") {
		t.Errorf("a third writer process: exit %d, %q", code, out)
	}
	// Readers are not blocked.
	r, err := OpenReader(ctx, path)
	if err != nil {
		t.Fatalf("reader beside the writer: %v", err)
	}
	if _, err := r.Tournaments(ctx); err != nil {
		t.Fatalf("reading beside the writer: %v", err)
	}
	r.Close()

	holder.cmd.Process.Kill() // SIGKILL: no chance to clean up
	holder.cmd.Wait()
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatalf("writer after the holder was killed: %v", err)
	}
	b, err := os.ReadFile(path + lockSuffix)
	if err != nil || !strings.Contains(string(b), fmt.Sprintf(" pid %d on ", os.Getpid())) {
		t.Errorf("lock file after taking over: %q, %v", b, err)
	}
	if _, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + lockSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Close: %v, want it removed", err)
	}
}

// The lock holds between two Stores of one process too (a flock belongs to
// the open file, not the process), and is free again after Close.
func TestWriterLockInProcess(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	s, err := OpenWriter(ctx, path, "suite")
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenWriter(ctx, path, "run")
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.PID != os.Getpid() || inUse.Command != "suite" {
		t.Fatalf("second Store in the same process: %v", err)
	}
	if !strings.Contains(err.Error(), "in use by another selfplay suite (pid ") {
		t.Errorf("message %q", err)
	}
	s.Close()
	s2, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	s2.Close()
}

// A lock file left by a killed writer (content, no lock) does not stop a
// new writer; one that says nothing readable gives a message without the
// holder's details rather than wrong ones.
func TestStaleAndUnreadableLockFiles(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	if err := os.WriteFile(path+lockSuffix, []byte("selfplay run pid 1 on elsewhere since 2020-01-01T00:00:00Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatalf("over a stale lock file: %v", err)
	}
	s.Close()

	var e InUseError
	parseLockInfo("garbage", &e)
	if e.PID != 0 || e.Error() != " is in use by another selfplay process" {
		t.Errorf("unreadable holder: %+v %q", e, e.Error())
	}
	parseLockInfo(lockInfo("merge"), &e)
	if e.Command != "merge" || e.PID != os.Getpid() || e.Since.IsZero() {
		t.Errorf("lockInfo does not parse back: %+v", e)
	}
}

// The lock belongs to the database file, not to its name: a second
// writer that reaches the file held by another process through any other
// name is refused, naming the holder and the name it writes by (where
// the system tells), and writes nothing. Once the holder has gone, the
// other name writes.
func TestWriterLockFollowsTheFile(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// second returns the name the second writer uses for real, made
		// after the holder opened real.
		second    func(t *testing.T, dir, real string) string
		otherName bool // the message names real as the holder's name
	}{
		{"hard link", func(t *testing.T, dir, real string) string {
			return link(t, os.Link, real, filepath.Join(dir, "hard.db"))
		}, true},
		{"hard link in another folder", func(t *testing.T, dir, real string) string {
			sub := filepath.Join(dir, "sub")
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			return link(t, os.Link, real, filepath.Join(sub, "a.db"))
		}, true},
		{"symbolic link", func(t *testing.T, dir, real string) string {
			return link(t, os.Symlink, real, filepath.Join(dir, "sym.db"))
		}, false},
		{"symbolic link to a hard link", func(t *testing.T, dir, real string) string {
			hard := link(t, os.Link, real, filepath.Join(dir, "hard.db"))
			return link(t, os.Symlink, hard, filepath.Join(dir, "sym.db"))
		}, true},
		{"renamed", func(t *testing.T, dir, real string) string {
			moved := filepath.Join(dir, "moved.db")
			if err := os.Rename(real, moved); err != nil {
				t.Fatal(err)
			}
			return moved
		}, false},
		{"renamed over another database", func(t *testing.T, dir, real string) string {
			other := filepath.Join(dir, "other.db")
			if s, err := OpenWriter(context.Background(), other, "run"); err != nil {
				t.Fatal(err)
			} else if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(real, other); err != nil {
				t.Fatal(err)
			}
			return other
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			real := filepath.Join(dir, "a.db")
			holder := startHelper(t, "hold-writer", real)
			second := tc.second(t, dir, real)

			_, err := OpenWriter(ctx, second, "run")
			var inUse *InUseError
			if !errors.As(err, &inUse) {
				t.Fatalf("second writer through %s: %v, want an *InUseError", second, err)
			}
			if inUse.PID != holder.cmd.Process.Pid || inUse.Command != "run" {
				t.Errorf("holder %+v, want pid %d running run", inUse, holder.cmd.Process.Pid)
			}
			want := fmt.Sprintf("%s is in use by another selfplay run (pid %d on ", second, holder.cmd.Process.Pid)
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("message %q, want it to start with %q", err, want)
			}
			if tc.otherName && (inUse.Other != real || !strings.HasSuffix(err.Error(), " that writes it as "+real+" (the same file under another name)")) {
				t.Errorf("message %q (other %q), want it to name %s", err, inUse.Other, real)
			}
			// A writer process is refused too, and stores nothing.
			if out, code := runHelper(t, "write", second, nil); code == 0 || !strings.Contains(out, "in use by another selfplay run") {
				t.Errorf("a writer process through %s: exit %d, %q", second, code, out)
			}
			holder.stdin.Close()
			if err := holder.cmd.Wait(); err != nil {
				t.Fatalf("holder: %v", err)
			}
			if out, code := runHelper(t, "write", second, nil); code != 0 {
				t.Fatalf("writer through %s after the holder ended: exit %d, %q", second, code, out)
			}
			if out, _ := runHelper(t, "read", second, nil); out != "written 0\n" {
				t.Errorf("the database holds %q, want only the tournament written after the holder ended", out)
			}
		})
	}
}

// link makes newname a link (os.Link or os.Symlink) to oldname, or skips
// the test where the file system has none.
func link(t *testing.T, fn func(string, string) error, oldname, newname string) string {
	t.Helper()
	if err := fn(oldname, newname); err != nil {
		t.Skip("no links here:", err)
	}
	return newname
}

// The flock on the database file does not disturb SQLite's own (fcntl)
// locks: another process's connection reads and writes the file beside
// the writer as SQLite allows, and when it closes it does not take the
// writer's write-ahead log away (it would, as the last connection to the
// file, if the writer's process had lost its SQLite locks).
func TestFileLockLeavesSQLiteLocks(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h", TotalGames: 4})
	if err != nil {
		t.Fatal(err)
	}
	if out, code := runHelper(t, "sqlite-write", path, nil); code != 0 || out != "ok\n" {
		t.Fatalf("plain SQLite beside the writer: exit %d, %q", code, out)
	}
	if err := s.checkFiles(); err != nil {
		t.Fatalf("after the other connection closed: %v", err)
	}
	if err := s.SaveGame(ctx, &record.Game{TournamentID: id, White: "a", Black: "b", Result: "1-0"}); err != nil {
		t.Fatal(err)
	}
	ts, err := s.Tournaments(ctx)
	if err != nil || len(ts) != 2 {
		t.Fatalf("tournaments %v, %v: want the writer's and the other connection's", ts, err)
	}
}
