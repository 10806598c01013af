//go:build unix

package pgnout

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A device or a FIFO holds no games to read back: Open does not read it
// (a FIFO's read would wait for a writer forever) or cut it, Append does
// not fsync it (fsync fails there: EINVAL) and Empty leaves it as it is,
// so /dev/null, /dev/stdout and a pipe to a reader work as live files,
// append=false too.
func TestSpecialFiles(t *testing.T) {
	f, err := Open(os.DevNull, PGN)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Empty(); err != nil {
		t.Errorf("Empty of %s: %v", os.DevNull, err)
	}
	if err := f.Append("[Event \"x\"]\n\n*\n\n"); err != nil {
		t.Errorf("Append to %s: %v", os.DevNull, err)
	}
	f.Close()
	if f, err = OpenUnread(os.DevNull, EPD); err != nil {
		t.Fatal(err)
	}
	if err := f.Empty(); err != nil {
		t.Errorf("Empty of %s opened unread: %v", os.DevNull, err)
	}
	f.Close()

	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	reading := make(chan struct{})
	go func() {
		r, err := os.Open(fifo) // waits for a writer: Open below
		close(reading)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(r)
		r.Close()
		got <- string(b)
	}()
	opened := make(chan error, 1)
	var lf *File
	go func() {
		var err error
		lf, err = Open(fifo, EPD)
		opened <- err
	}()
	select {
	case err := <-opened:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Open of a FIFO did not return in 10s: it reads the FIFO")
	}
	// The reader must hold the FIFO before the writer closes it: the
	// pipe's buffer goes with its last open end.
	select {
	case <-reading:
	case <-time.After(10 * time.Second):
		t.Fatal("the FIFO's reader did not open it in 10s")
	}
	const line = "8/8/8/8/8/8/8/K6k w - - hmvc 0; fmvn 1; c0 \"t\"; id \"1.1\";\n"
	if err := lf.Empty(); err != nil {
		t.Errorf("Empty of a FIFO: %v", err)
	}
	if err := lf.Append(line); err != nil {
		t.Errorf("Append to a FIFO: %v", err)
	}
	lf.Close()
	select {
	case s := <-got:
		if s != line {
			t.Errorf("the FIFO's reader got %q, want %q", s, line)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the FIFO's reader got nothing in 10s")
	}
}
