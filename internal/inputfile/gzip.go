package inputfile

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// gzipMagic starts every gzip member (RFC 1952).
const gzipMagic = "\x1f\x8b"

// OpenText opens a text file (PGN, EPD) through Open, decompressing it
// when it is gzip, recognised by its magic bytes whatever its name; a name
// ending in .gz whose content is not gzip is an error, naming path. Close
// closes the file.
func OpenText(ctx context.Context, path string) (io.ReadCloser, error) {
	f, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	r, err := Decompress(f, strings.HasSuffix(strings.ToLower(path), ".gz"))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return readCloser{Reader: r, close: func() error {
		r.Close()
		return f.Close()
	}}, nil
}

type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }

// Decompress returns r's content: gunzipped when it starts with the gzip
// magic bytes, as is otherwise (an error when wantGzip says it should be
// gzip and it is not). Gzip is decompressed ahead in a goroutine, so that
// it runs beside the scanner; Close stops it (it does not close r).
func Decompress(r io.Reader, wantGzip bool) (io.ReadCloser, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(len(gzipMagic))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if string(head) != gzipMagic {
		if wantGzip {
			return nil, errors.New("the name says gzip, but the content is not gzip")
		}
		return io.NopCloser(br), nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	zr.Multistream(false)
	return newReadAhead(&gzipErrors{r: zr, br: br}, 1<<20, 4), nil
}

// readAhead reads r in a goroutine into a few buffers ahead of its reader.
type readAhead struct {
	filled chan chunk
	free   chan []byte
	done   chan struct{}
	stop   sync.Once
	cur    []byte // unread part of the current chunk
	last   []byte // the current chunk's buffer, to give back
	err    error  // after cur
}

type chunk struct {
	b   []byte
	err error
}

func newReadAhead(r io.Reader, size, n int) *readAhead {
	ra := &readAhead{filled: make(chan chunk, n), free: make(chan []byte, n), done: make(chan struct{})}
	for range n {
		ra.free <- make([]byte, size)
	}
	go func() {
		for {
			var buf []byte
			select {
			case buf = <-ra.free:
			case <-ra.done:
				return
			}
			k, err := io.ReadFull(r, buf)
			if err == io.ErrUnexpectedEOF { // a short last chunk
				err = io.EOF
			}
			select {
			case ra.filled <- chunk{buf[:k], err}:
			case <-ra.done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return ra
}

func (ra *readAhead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.last != nil {
			ra.free <- ra.last[:cap(ra.last)]
			ra.last = nil
		}
		c := <-ra.filled
		ra.cur, ra.last, ra.err = c.b, c.b, c.err
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// Close stops the goroutine.
func (ra *readAhead) Close() error {
	ra.stop.Do(func() { close(ra.done) })
	return nil
}

// gzipErrors reads the members of a gzip stream one after another (as
// gzip -d does; cat a.gz b.gz is one stream) and names gzip in a corrupt
// or truncated stream's error. Data after the last member that is not
// another member is an error that says so, not "truncated".
type gzipErrors struct {
	r      *gzip.Reader
	br     *bufio.Reader
	member int // members finished
}

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err == io.EOF {
		g.member++
		head, perr := g.br.Peek(len(gzipMagic))
		switch {
		case len(head) == 0 && errors.Is(perr, io.EOF):
			return n, io.EOF
		case perr != nil && !errors.Is(perr, io.EOF):
			return n, perr
		case string(head) == gzipMagic:
			if rerr := g.r.Reset(g.br); rerr != nil {
				return n, fmt.Errorf("gzip: member %d: %w", g.member+1, rerr)
			}
			g.r.Multistream(false)
			return n, nil
		default:
			return n, fmt.Errorf("gzip: data that is not gzip after the end of the compressed stream (member %d); gzip -d would ignore it as trailing garbage", g.member)
		}
	}
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("the gzip stream is truncated")
		}
		err = fmt.Errorf("gzip: %w", err)
	}
	return n, err
}
