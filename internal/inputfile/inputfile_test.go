package inputfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"testing/iotest"
)

// A cancelled context ends Open while open(2) waits for a FIFO's writer.
// Whether the cancel comes before or during the open, the result is the
// context's error; the test then lets the open complete (O_RDWR on a FIFO
// does not wait), so that the background goroutine closes what it opened.
func TestOpenFIFOCancel(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		f, err := Open(ctx, path)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Open: %v, want %v", err, context.Canceled)
	}
	w, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
}

// blockingReader blocks every Read until unblock is closed.
type blockingReader struct{ unblock chan struct{} }

func (b blockingReader) Read(p []byte) (int, error) {
	<-b.unblock
	return 0, io.EOF
}

// A Read blocked in the underlying reader returns the context's error when
// the context ends, and so does every later Read.
func TestReaderCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	br := blockingReader{make(chan struct{})}
	defer close(br.unblock)
	r := NewReader(ctx, br)
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 10))
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Read: %v, want %v", err, context.Canceled)
	}
	if _, err := r.Read(make([]byte, 10)); !errors.Is(err, context.Canceled) {
		t.Fatalf("second Read: %v, want %v", err, context.Canceled)
	}
}

// A Reader passes the data through unchanged, whatever the sizes of the
// reads on either side.
func TestReaderData(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 20000) // more than readSize
	for _, r := range []io.Reader{
		NewReader(context.Background(), bytes.NewReader(data)),
		NewReader(context.Background(), iotest.OneByteReader(bytes.NewReader(data[:1000]))),
		iotest.HalfReader(NewReader(context.Background(), iotest.DataErrReader(bytes.NewReader(data)))),
	} {
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, data[:len(got)]) || (len(got) != len(data) && len(got) != 1000) {
			t.Errorf("read %d bytes, %v; want the data", len(got), err)
		}
	}
	if err := iotest.TestReader(NewReader(context.Background(), bytes.NewReader(data)), data); err != nil {
		t.Error(err)
	}
}

// ReadAll reads at most limit+1 bytes: an endless file (/dev/zero) is
// refused at once, as is one a byte over; one at the limit is read.
func TestReadAllLimit(t *testing.T) {
	dir := t.TempDir()
	at := filepath.Join(dir, "at")
	over := filepath.Join(dir, "over")
	os.WriteFile(at, bytes.Repeat([]byte("x"), 1000), 0o644)
	os.WriteFile(over, bytes.Repeat([]byte("x"), 1001), 0o644)
	ctx := context.Background()
	if b, err := ReadAll(ctx, at, 1000); err != nil || len(b) != 1000 {
		t.Errorf("at the limit: %d bytes, %v", len(b), err)
	}
	if _, err := ReadAll(ctx, over, 1000); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v, want ErrTooLarge", err)
	}
	if runtime.GOOS != "windows" {
		if _, err := ReadAll(ctx, "/dev/zero", 1<<20); !errors.Is(err, ErrTooLarge) {
			t.Errorf("/dev/zero: %v, want ErrTooLarge", err)
		}
	}
	if _, err := ReadAll(ctx, filepath.Join(dir, "missing"), 1000); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{
		1 << 20: "1 MiB (1048576 bytes)", 64 << 10: "64 KiB (65536 bytes)", 300: "300 bytes", 1500: "1500 bytes",
	} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
