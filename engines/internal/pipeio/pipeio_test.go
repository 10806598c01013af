package pipeio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func pipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// Data larger than a pipe's buffer goes through whole, in order, with the
// reader and the writer waiting for each other in the poller; the end of
// the writer is io.EOF for the reader.
func TestRoundTrip(t *testing.T) {
	r, w := pipe(t)
	in, out := Reader(r), Writer(w)
	if runtime.GOOS == "linux" && (!isRaw(in) || !isRaw(out)) {
		t.Errorf("Reader(pipe) is %T, Writer(pipe) is %T: want the raw ones", in, out)
	}
	data := bytes.Repeat([]byte("position startpos moves e2e4 e7e5\n"), 20000) // 680 KB
	done := make(chan error, 1)
	go func() {
		n, err := out.Write(data)
		if err == nil && n != len(data) {
			err = io.ErrShortWrite
		}
		w.Close()
		done <- err
	}()
	got, err := io.ReadAll(in)
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Write: %v", err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes, want the %d written", len(got), len(data))
	}
}

// Deadlines and Close reach a goroutine waiting in a raw read or write.
func TestDeadlineAndClose(t *testing.T) {
	r, _ := pipe(t)
	in := Reader(r)
	r.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, err := in.Read(make([]byte, 10)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read past the deadline: %v", err)
	}
	r.SetReadDeadline(time.Time{})
	go func() {
		time.Sleep(20 * time.Millisecond)
		r.Close()
	}()
	if n, err := in.Read(make([]byte, 10)); n != 0 || err == nil {
		t.Errorf("read of a closed pipe: %d, %v", n, err)
	}

	_, w := pipe(t)
	out := Writer(w)
	w.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
	n, err := out.Write(make([]byte, 4<<20)) // more than the pipe holds; nobody reads
	if !errors.Is(err, os.ErrDeadlineExceeded) || n >= 4<<20 {
		t.Errorf("write past the deadline: %d bytes, %v", n, err)
	}
}

// A write to a pipe whose reader is gone fails (EPIPE), it does not kill
// the process.
func TestBrokenPipe(t *testing.T) {
	r, w := pipe(t)
	r.Close()
	if _, err := Writer(w).Write([]byte("bestmove e2e4\n")); err == nil {
		t.Fatal("write to a pipe without reader succeeded")
	}
}

// Files that are not pipes are used as they are.
func TestOtherFiles(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "file"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if w := Writer(f); w != io.Writer(f) {
		t.Errorf("Writer(regular file) = %T, want the file", w)
	}
	if r := Reader(f); r != io.Reader(f) {
		t.Errorf("Reader(regular file) = %T, want the file", r)
	}
}
