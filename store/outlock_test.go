package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() { extraHelpers["hold-output"] = holdOutput }

// holdOutput is the helper hold-output PATH: it locks the output file
// PATH (as "match"), says "ready" and waits for its standard input to
// close.
func holdOutput(path string) int {
	l, err := LockOutput(path, "match")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer l.Release()
	fmt.Println("ready")
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// An output file (a live PGN or EPD) has one writer: a second lock of it,
// in this process or another, by its name or another (a hard link, a
// symbolic link), is refused with an *InUseError that names the file and
// the holder; once the holder lets go, or is killed, it is free.
func TestOutputLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.pgn")
	first, err := LockOutput(path, "match")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Fatalf("the file locked: %v", err)
	}
	link, sym := filepath.Join(dir, "hard.pgn"), filepath.Join(dir, "sym.pgn")
	if err := os.Link(path, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(path, sym); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{path, link, sym} {
		_, err := LockOutput(name, "run")
		var inUse *InUseError
		if !errors.As(err, &inUse) || inUse.PID != os.Getpid() {
			t.Fatalf("a second lock of %s: %v, want an *InUseError naming pid %d", name, err, os.Getpid())
		}
		if want := name + " is in use by another selfplay"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("message %q, want it to start with %q", err, want)
		}
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + lockSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file after Release: %v, want it removed", err)
	}
	again, err := LockOutput(path, "run")
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	again.Release()

	// Another process's lock, until it is killed (SIGKILL).
	holder := startHelper(t, "hold-output", path)
	_, err = LockOutput(path, "run")
	want := fmt.Sprintf("%s is in use by another selfplay match (pid %d on ", path, holder.cmd.Process.Pid)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("beside another process's lock: %v, want %q...", err, want)
	}
	holder.cmd.Process.Kill()
	holder.cmd.Wait()
	l, err := LockOutput(path, "run")
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	l.Release()

	// A device holds no games and is not locked.
	if _, err := os.Stat(os.DevNull); err == nil {
		a, err := LockOutput(os.DevNull, "run")
		if err != nil {
			t.Fatal(err)
		}
		b, err := LockOutput(os.DevNull, "run")
		if err != nil {
			t.Errorf("%s locked twice: %v", os.DevNull, err)
		}
		a.Release()
		b.Release()
	}
}
