// Package inputfile opens and reads the files selfplay parses (configs,
// openings, EPD suites, PGN) so that the command's context ends every wait.
// Opening a FIFO blocks in open(2) until a writer opens it, and reading a
// FIFO, a pipe or standard input blocks in read(2) until data comes; a
// signal cancels the context (cmd/selfplay's main), and without this the
// command would sit there, deaf to it. Here the blocking calls run in a
// goroutine of their own, and the caller stops waiting as soon as the
// context ends: the command then exits as it does elsewhere, and the
// goroutine goes with the process.
//
// OpenText also decompresses gzip, recognised by its magic bytes, ahead of
// its reader in a goroutine of its own.
package inputfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// Open opens path for reading. The file reads through a Reader on ctx, and
// Close closes it. When ctx ends before open(2) returns, Open returns ctx's
// error (context.Cause) at once; the open goes on in the background and
// closes what it opens.
func Open(ctx context.Context, path string) (io.ReadCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		if o.err != nil {
			return nil, o.err
		}
		return &file{Reader: NewReader(ctx, o.f), f: o.f}, nil
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, context.Cause(ctx)
	}
}

type file struct {
	*Reader
	f *os.File
}

// Close closes the file. A read still blocked after ctx ended keeps its
// descriptor's number until it returns (closing under it is safe: the read
// fails).
func (f *file) Close() error { return f.f.Close() }

// ReadAll reads a whole file of at most limit bytes through Open: a larger
// one is an error wrapping ErrTooLarge, found after reading limit+1 bytes
// (never more, whatever the file is: /dev/zero, a FIFO, a growing log).
func ReadAll(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: more than %s", ErrTooLarge, Size(limit))
	}
	return data, nil
}

// ErrTooLarge is wrapped by ReadAll's error for a file over its limit.
var ErrTooLarge = errors.New("file too large")

// Size writes a byte count for messages: "1 MiB (1048576 bytes)", or
// "300 bytes" below 1 KiB.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB (%d bytes)", n>>20, n)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB (%d bytes)", n>>10, n)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Reader reads r in a goroutine, one Read at a time, so that a Read
// blocked in r returns ctx's error (context.Cause) as soon as ctx ends.
// After that every Read returns that error. Reads go through a buffer of
// the Reader's own, so that a read that completes after the caller gave up
// never writes into the caller's memory.
type Reader struct {
	ctx     context.Context
	r       io.Reader
	buf     []byte
	pending chan result // the read in flight, nil when none
	err     error       // sticky: r's error after its data, or ctx's
}

type result struct {
	n   int
	err error
}

// readSize bounds the buffer of one read.
const readSize = 256 << 10

// NewReader returns a Reader of r on ctx.
func NewReader(ctx context.Context, r io.Reader) *Reader {
	return &Reader{ctx: ctx, r: r}
}

func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if r.ctx.Err() != nil {
		r.err = context.Cause(r.ctx)
		return 0, r.err
	}
	if r.pending == nil {
		size := min(len(p), readSize)
		if cap(r.buf) < size {
			r.buf = make([]byte, size)
		}
		buf := r.buf[:size]
		ch := make(chan result, 1)
		r.pending = ch
		go func() {
			n, err := r.r.Read(buf)
			ch <- result{n, err}
		}()
	}
	select {
	case res := <-r.pending:
		r.pending = nil
		n := copy(p, r.buf[:res.n]) // res.n <= len(p): the buffer was sized so
		if res.err != nil {
			r.err = res.err
		}
		return n, res.err
	case <-r.ctx.Done():
		// The read in flight owns r.buf until it returns; it is never
		// waited for again, as every later Read returns r.err.
		r.err = context.Cause(r.ctx)
		return 0, r.err
	}
}

// Latch reads R and keeps its first error other than io.EOF. When a read
// fails, bufio.Scanner still hands out the unfinished last line (it splits
// what it holds as at the end of the input); a parser that asks Failed
// before each line stops there and reports the read's error (the Scanner's
// Err), not a parse error in a fragment of a line.
type Latch struct {
	R   io.Reader
	err error
}

func (l *Latch) Read(p []byte) (int, error) {
	n, err := l.R.Read(p)
	if err != nil && err != io.EOF && l.err == nil {
		l.err = err
	}
	return n, err
}

// Failed says whether a read has failed.
func (l *Latch) Failed() bool { return l.err != nil }
