package epd

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// A read that fails in the middle of a line is the error, not a malformed
// record made of the line's first part (bufio.Scanner hands that part out).
func TestParseReadFailure(t *testing.T) {
	gone := errors.New("the disk went away")
	r := io.MultiReader(
		strings.NewReader("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"a\";\nrnbqkbnr/ppp"),
		iotest.ErrReader(gone))
	recs, bad, err := Parse(r)
	if !errors.Is(err, gone) || !strings.Contains(err.Error(), "after line 1") {
		t.Fatalf("Parse = %d records, %v, %v; want the read error after line 1", len(recs), bad, err)
	}
	if len(bad) != 0 {
		t.Errorf("malformed lines %v: the fragment was parsed", bad)
	}
}
