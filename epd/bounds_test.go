package epd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

const startEPD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"

// zeros is an endless input of NUL bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Binary data, too many malformed lines and too many records are errors
// naming the line; at the bounds the file is read.
func TestParseBounds(t *testing.T) {
	lines := func(line string, n int) string { return strings.Repeat(line+"\n", n) }
	cases := []struct {
		name    string
		input   io.Reader
		limit   int
		records int    // read when there is no error
		want    string // "" for no error
	}{
		{"NUL bytes", zeros{}, maxRecords, 0, "line 1: longer than 1048576 bytes"},
		{"a NUL byte in a line", strings.NewReader(lines(startEPD, 2) + startEPD + " id \"a\x00\";\n"), maxRecords, 0, "line 3: a NUL byte: binary data, not a text file"},
		{"malformed lines at the bound", strings.NewReader(lines("junk", maxMalformed) + startEPD + "\n"), maxRecords, 1, ""},
		{"malformed lines past it", strings.NewReader(lines("junk", maxMalformed+1)), maxRecords, 0,
			`line 1001: more than 1000 malformed lines: is it an EPD file? (the first, line 1: want 4 FEN fields (placement, side to move, castling, en passant), got 1 in "junk")`},
		{"records at the bound", strings.NewReader(lines(startEPD, 3)), 3, 3, ""},
		{"records past it", strings.NewReader(lines(startEPD, 4)), 3, 0, "line 4: more than 3 records: use a sample of the file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs, bad, err := parse(c.input, c.limit)
			if c.want == "" {
				if err != nil || len(recs) != c.records {
					t.Fatalf("%d records, %d malformed, %v; want %d records", len(recs), len(bad), err, c.records)
				}
				return
			}
			if err == nil || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %v\nwant %s", err, c.want)
			}
		})
	}
}

// An id of up to MaxID bytes is read; a longer one makes the line
// malformed, with an error that says its length and the bound, quoting
// only its start.
func TestIDBound(t *testing.T) {
	for _, c := range []struct {
		name string
		id   string
		want string // "" for no error
	}{
		{"a suite's", "STS(v13.0) Pawn Play in the Center.001", ""},
		{"at the bound", strings.Repeat("é", MaxID/2), ""},
		{"past it", strings.Repeat("x", MaxID+1), fmt.Sprintf(`line 1: id "%s"... is %d bytes long: at most %d`, strings.Repeat("x", 40), MaxID+1, MaxID)},
		{"a megabyte", strings.Repeat("x", 1<<20-100), fmt.Sprintf(`line 1: id "%s"... is %d bytes long: at most %d`, strings.Repeat("x", 40), 1<<20-100, MaxID)},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, bad, err := Parse(strings.NewReader(startEPD + ` id "` + c.id + "\";\n"))
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if len(recs) != 1 || recs[0].ID != c.id {
					t.Fatalf("%d records, malformed %v", len(recs), bad)
				}
				return
			}
			if len(recs) != 0 || len(bad) != 1 || bad[0].Error() != c.want {
				t.Fatalf("%d records, malformed %v\nwant %s", len(recs), bad, c.want)
			}
		})
	}
}

// A malformed line's error quotes at most maxQuote bytes of it, so that
// what Parse keeps of a thousand long malformed lines stays small.
func TestErrorsClipped(t *testing.T) {
	long := strings.Repeat("x", 100000)
	for _, line := range []string{
		long,                                      // one field, quoted
		startEPD + " id \"" + long,                // unterminated string
		startEPD + " 9" + long + ";",              // a bad opcode
		startEPD + " bm " + long + ";",            // an illegal move
		"8/8/8/8/8/8/8/" + long + " w - -",        // board.FromFEN quotes the FEN
		startEPD + " hmvc " + long + ";",          // a bad clock
		startEPD + " " + long + "; " + long + ";", // an opcode twice
	} {
		_, bad, err := Parse(strings.NewReader(line + "\n"))
		if err != nil || len(bad) != 1 {
			t.Fatalf("%d malformed, %v", len(bad), err)
		}
		if msg := bad[0].Error(); len(msg) > 3*maxQuote || !strings.Contains(msg, "xxx...") {
			t.Errorf("error of %d bytes: %.300s", len(msg), msg)
		}
	}
	if err := ClipError(errors.New("short")); err.Error() != "short" {
		t.Errorf("ClipError changed a short error: %v", err)
	}
}

// A cancelled context ends LoadContext with the context's error.
func TestLoadContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := LoadContext(ctx, "/nonexistent.epd"); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}
