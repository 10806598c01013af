package openings

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// A read that fails in the middle of a line is the error, naming the last
// whole line, not a parse error in the line's first part (bufio.Scanner
// hands that part out).
func TestParseReadFailure(t *testing.T) {
	gone := errors.New("the disk went away")
	failing := func(text string) io.Reader {
		return io.MultiReader(strings.NewReader(text), iotest.ErrReader(gone))
	}
	tests := []struct {
		name  string
		parse func(io.Reader) error
		text  string
	}{
		{"epd", func(r io.Reader) error { _, err := ParseEPD(r, "b.epd"); return err },
			afterE4 + "\nrnbqkbnr/ppp"},
		{"pgn", func(r io.Reader) error { _, err := ParsePGN(r, "b.pgn", 2); return err },
			"1. e4 e5 *\n\n1. e4 e5 2. Nf3 {a comm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.parse(failing(tt.text))
			if !errors.Is(err, gone) || !strings.Contains(err.Error(), "after line") {
				t.Fatalf("error %v; want the read error", err)
			}
		})
	}
}
