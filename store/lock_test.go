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
