package pgnscan

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// scanUntilError reads games until the first error that is not a
// GameError (nil at the end of the input), and counts the games read.
func scanUntilError(r io.Reader) (int, error) {
	s := NewScanner(r, "t.pgn", Options{})
	n := 0
	for {
		_, err := s.Next()
		var ge *GameError
		switch {
		case err == io.EOF:
			return n, nil
		case errors.As(err, &ge):
		case err != nil:
			return n, err
		}
		n++
	}
}

// endless repeats a byte without end.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

// A token, tag or comment past its bound, and a NUL byte, end the scan
// with an InputError at the line where it is, after the games before it;
// at the bound they are read. The endless inputs show that the scanner
// stops there rather than hold or skip the rest.
func TestBounds(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	game := func(tags, movetext string) string {
		return "[White \"a\"]\n[Black \"b\"]\n" + tags + "\n" + movetext + " 1-0\n\n"
	}
	cases := []struct {
		name  string
		input io.Reader
		games int    // read before the error
		want  string // "" for no error
	}{
		{"tag value at the bound", strings.NewReader(okGame + game(`[Event "`+x(maxToken)+`"]`, "1. e4")), 2, ""},
		{"tag value past it", strings.NewReader(okGame + game(`[Event "`+x(maxToken+1)+`"]`, "1. e4")), 1, "t.pgn:8: tag Event: a value longer than 65536 bytes"},
		{"endless tag value", io.MultiReader(strings.NewReader(okGame+"[Event \""), endless('x')), 1, "t.pgn:6: tag Event: a value longer than 65536 bytes"},
		{"tag name past the bound", strings.NewReader("[" + x(maxToken+1) + " \"v\"]\n"), 0, "t.pgn:1: a tag name longer than 65536 bytes"},
		{"move at the bound", strings.NewReader(game("", "1. e4 "+x(maxToken))), 1, ""},
		{"move past it", strings.NewReader(okGame + game("", "1. e4 "+x(maxToken+1))), 1, "t.pgn:9: a token longer than 65536 bytes in the movetext"},
		{"endless move", io.MultiReader(strings.NewReader(okGame+"[White \"a\"]\n[Black \"b\"]\n\n1. "), endless('e')), 1, "t.pgn:9: a token longer than 65536 bytes in the movetext"},
		{"endless NAG", io.MultiReader(strings.NewReader("[White \"a\"]\n[Black \"b\"]\n\n1. e4 $"), endless('1')), 0, "t.pgn:4: a token longer than 65536 bytes"},
		{"comment at the bound", strings.NewReader(game("", "1. e4 {"+x(maxComment-1)+"}")), 1, ""},
		{"comment past it", strings.NewReader(game("", "1. e4 {"+x(maxComment+1)+"}")), 0, "t.pgn:4: a comment opened at line 4 is longer than 1048576 bytes"},
		{"comment of many lines past it", strings.NewReader(game("", "1. e4 {"+strings.Repeat("xx\n", maxComment/3+1)+"}")), 0, "opened at line 4 is longer than 1048576 bytes"},
		{"book comment past it", strings.NewReader(game("", "1. e4 {book "+x(maxComment+1)+"}")), 0, "t.pgn:4: a comment opened at line 4 is longer than 1048576 bytes"},
		{"comment between games past it", io.MultiReader(strings.NewReader(okGame+"{"), endless(' ')), 1, "t.pgn:6: a comment opened at line 6 is longer"},
		{"blank comment lines past it", io.MultiReader(strings.NewReader(okGame+"{"), endless('\n')), 1, "a comment opened at line 6 is longer"},
		{"semicolon comment past it", strings.NewReader(game("", "1. e4 ;"+x(maxComment+1)+"\n")), 0, "t.pgn:4: a comment or escape line longer than 1048576 bytes"},
		{"escape line past it", strings.NewReader("%" + x(maxComment+1) + "\n" + okGame), 0, "t.pgn:1: a comment or escape line longer"},
		{"NUL bytes", io.MultiReader(strings.NewReader(okGame), endless(0)), 1, "t.pgn:6: a NUL byte: binary data, not PGN text"},
		{"a NUL byte in a tag", strings.NewReader(okGame + game("[Event \"a\x00\"]", "1. e4")), 1, "t.pgn:8: a NUL byte"},
		{"a NUL byte in a comment", strings.NewReader(okGame + okGame + "{\n\n\x00}"), 2, "t.pgn:13: a NUL byte"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := scanUntilError(c.input)
			var ie *InputError
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case c.want != "" && (!errors.As(err, &ie) || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want an InputError mentioning %q", err, c.want)
			}
			if n != c.games {
				t.Errorf("%d games read before it, want %d", n, c.games)
			}
		})
	}
}

// The error comes from every later Next too: the scan has ended.
func TestBoundsFinal(t *testing.T) {
	s := NewScanner(strings.NewReader(fmt.Sprintf("[Event \"%s\"]\n", strings.Repeat("x", maxToken+1))+okGame), "t.pgn", Options{})
	for range 3 {
		var ie *InputError
		if _, err := s.Next(); !errors.As(err, &ie) || ie.Line != 1 {
			t.Fatalf("Next: %v", err)
		}
	}
}
