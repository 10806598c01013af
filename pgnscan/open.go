package pgnscan

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// gzipMagic starts every gzip member (RFC 1952).
const gzipMagic = "\x1f\x8b"

// Open opens a PGN file for a Scanner, decompressing it when it is gzip
// (recognised by its magic bytes, whatever its name; a name ending in .gz
// that is not gzip is an error). Close closes the file.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := Decompress(f, strings.HasSuffix(strings.ToLower(path), ".gz"))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return readCloser{Reader: r, Closer: f}, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// Decompress returns r's content: gunzipped when it starts with the gzip
// magic bytes, as is otherwise (an error when wantGzip says it should be
// gzip and it is not).
func Decompress(r io.Reader, wantGzip bool) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(len(gzipMagic))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if string(head) != gzipMagic {
		if wantGzip {
			return nil, errors.New("the name says gzip, but the content is not gzip")
		}
		return br, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return gzipErrors{zr}, nil
}

// gzipErrors names gzip in a corrupt or truncated stream's error.
type gzipErrors struct{ r *gzip.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("the gzip stream is truncated")
		}
		err = fmt.Errorf("gzip: %w", err)
	}
	return n, err
}
