package openings

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Binary data, a game too long to be one, and more openings than the
// bound are errors naming the file and line, in EPD and PGN files alike;
// so are more moves in all than a PGN file's bound.
func TestBounds(t *testing.T) {
	const game = "[Event \"x\"]\n\n1. e4 e5 *\n\n"
	cases := []struct {
		name, file, content string
		limit               int
		want                string // "" for no error
	}{
		{"NUL in an EPD line", "b.epd", afterE4 + "\n" + afterE4 + " id \"\x00\";\n", MaxOpenings, "openings: b.epd:2: a NUL byte: binary data, not a text file"},
		{"NUL in a PGN comment", "b.pgn", game + "1. d4 {\x00} *\n", MaxOpenings, "openings: b.pgn:5: a NUL byte"},
		{"NUL bytes", "b.pgn", strings.Repeat("\x00", 1000), MaxOpenings, "openings: b.pgn:1: a NUL byte"},
		{"a game of many lines", "b.pgn", game + "[Event \"long\"]\n\n" + strings.Repeat("1. Nf3 Nf6 2. Ng1 Ng8\n", maxGame/20) + "*\n",
			MaxOpenings, "openings: b.pgn:47668: game 2 (from line 5) is longer than 1 MiB (1048576 bytes), comments left out"},
		{"a comment of many lines", "b.pgn", game + "1. e4 {" + strings.Repeat("c\n", maxGame+1000) + "} e5 2. Nf3 *\n", 2, ""},
		{"a game of many tags", "b.pgn", strings.Repeat("[Event \"x\"]\n", maxGame/10), MaxOpenings, "game 1 (from line 1) is longer than 1 MiB"},
		{"EPD openings at the bound", "b.epd", afterE4 + "\n" + afterE4 + " id \"b\";\n", 2, ""},
		{"EPD openings past it", "b.epd", afterE4 + "\n" + afterE4 + " id \"b\";\n\n" + afterE4 + " id \"c\";\n", 2,
			"openings: b.epd:4: more than 2 openings: use a sample of the file (e.g. shuf -n 100000 b.epd)"},
		{"PGN openings at the bound", "b.pgn", game + game, 2, ""},
		{"PGN openings past it", "b.pgn", game + game + game, 2, "openings: b.pgn:9: more than 2 openings"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var list []Opening
			var err error
			if strings.HasSuffix(c.file, ".epd") {
				list, err = parseEPD(strings.NewReader(c.content), c.file, c.limit)
			} else {
				list, err = parsePGN(strings.NewReader(c.content), c.file, 2, pgnBounds{c.limit, maxOpeningMoves})
			}
			if c.want == "" {
				if err != nil || len(list) != c.limit {
					t.Fatalf("%d openings, %v", len(list), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v\nwant %s", err, c.want)
			}
		})
	}
}

// The moves of a PGN file's openings are bounded in all: the game that
// goes past the bound is the error, naming its line.
func TestMovesBound(t *testing.T) {
	const game = "[Event \"x\"]\n\n1. e4 e5 *\n\n"
	for _, c := range []struct {
		moves int
		want  string
	}{
		{6, ""},
		{5, "openings: b.pgn:9: game 3: the openings so far hold more than 5 moves in all: take fewer plies of each game (plies = 16) or a sample of the file"},
	} {
		list, err := parsePGN(strings.NewReader(game+game+game), "b.pgn", 2, pgnBounds{MaxOpenings, c.moves})
		switch {
		case c.want == "" && (err != nil || len(list) != 3):
			t.Errorf("bound %d: %d openings, %v", c.moves, len(list), err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("bound %d: error %v\nwant %s", c.moves, err, c.want)
		}
	}
}

// PGN games are parsed as they end: the first problem in the file is the
// one reported, be it a game notnil refuses or a line the split refuses.
func TestFirstProblemFirst(t *testing.T) {
	text := "1. e4 e4 *\n\n" + "1. e4 e5 * junk\n"
	_, err := ParsePGN(strings.NewReader(text), "b.pgn", 2)
	if err == nil || !strings.HasPrefix(err.Error(), "openings: b.pgn:1: game 1: ") {
		t.Fatalf("error %v, want game 1's", err)
	}
}

// An error quotes at most a clipped part of a long token.
func TestLongTokenClipped(t *testing.T) {
	long := strings.Repeat("x", 500000)
	for _, text := range []string{"1. e4 e5 * " + long + "\n", "1. e4 " + long + " *\n"} {
		_, err := ParsePGN(strings.NewReader(text), "b.pgn", 2)
		if err == nil || len(err.Error()) > 1000 {
			t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
		}
	}
}

// A cancelled context ends LoadHashedContext with the context's error.
func TestLoadContextCancelled(t *testing.T) {
	path := writeFile(t, "b.epd", afterE4+"\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := LoadHashedContext(ctx, Spec{File: path}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}
