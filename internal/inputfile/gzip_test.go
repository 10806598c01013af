package inputfile

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gzipped is data compressed as one gzip member.
func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

// text is a few lines larger than one read-ahead chunk, so that the
// content crosses chunks.
func text() []byte {
	return bytes.Repeat([]byte("[Event \"x\"]\n1. e4 e5 *\n"), 100_000)
}

// OpenText recognises gzip by its magic bytes whatever the name, reads
// plain text as it is, and refuses a .gz name on plain text; a truncated
// stream is an error, never a short read that looks complete.
func TestOpenText(t *testing.T) {
	plain := text()
	z := gzipped(t, plain)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name    string
		data    []byte
		want    []byte // what reads
		wantErr string // at open or at read
	}{
		{"games.pgn.gz", z, plain, ""},
		{"book.EPD.GZ", z, plain, ""},
		{"gzipped-without-suffix.pgn", z, plain, ""},
		{"plain.pgn", plain, plain, ""},
		{"plain.pgn.gz", plain, nil, "plain.pgn.gz: the name says gzip, but the content is not gzip"},
		{"cut.pgn.gz", z[:len(z)/2], nil, "gzip: the gzip stream is truncated"},
		{"empty.epd", nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := OpenText(context.Background(), write(tt.name, tt.data))
			var got []byte
			if err == nil {
				got, err = io.ReadAll(f)
				f.Close()
			}
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case !bytes.Equal(got, tt.want):
				t.Fatalf("read %d bytes that differ from the %d wanted", len(got), len(tt.want))
			}
		})
	}
	if _, err := OpenText(context.Background(), filepath.Join(dir, "missing.pgn")); err == nil || !strings.Contains(err.Error(), "missing.pgn") {
		t.Errorf("a missing file: %v", err)
	}
}

// Concatenated gzip members are one stream (cat a.gz b.gz), as gzip -d
// reads them; data after the last member that is not gzip is an error
// that says so, not "truncated".
func TestGzipMembers(t *testing.T) {
	plain := text()
	member := gzipped(t, plain)
	two := append(append([]byte{}, member...), member...)
	tests := []struct {
		name    string
		data    []byte
		want    []byte // what reads before the error, if any
		wantErr string
	}{
		{"one member", member, plain, ""},
		{"two members", two, append(append([]byte{}, plain...), plain...), ""},
		{"trailing garbage", append(append([]byte{}, member...), "junk\n"...), plain, "not gzip after the end"},
		{"a truncated second member", two[:len(two)-10], nil, "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Decompress(bytes.NewReader(tt.data), true)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := io.ReadAll(r)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
			if tt.want != nil && !bytes.Equal(got, tt.want) {
				t.Errorf("read %d bytes, want %d", len(got), len(tt.want))
			}
		})
	}
}
