package pgnscan

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"selfplay/internal/inputfile"
)

// scanAll reads every game and error of a PGN text.
func scanAll(t *testing.T, text string, opt Options) ([]*Game, []*GameError) {
	t.Helper()
	return scanReader(t, strings.NewReader(text), opt)
}

func scanReader(t *testing.T, r io.Reader, opt Options) ([]*Game, []*GameError) {
	t.Helper()
	s := NewScanner(r, "t.pgn", opt)
	var games []*Game
	var bad []*GameError
	for {
		g, err := s.Next()
		if err == io.EOF {
			return games, bad
		}
		var ge *GameError
		switch {
		case errors.As(err, &ge):
			bad = append(bad, ge)
		case err != nil:
			t.Fatalf("read error: %v", err)
		default:
			games = append(games, g)
		}
		if len(games)+len(bad) > 1000 {
			t.Fatal("the scanner does not advance")
		}
	}
}

// open opens a PGN file as the commands do (gzip or not).
func open(path string) (io.ReadCloser, error) { return inputfile.OpenText(context.Background(), path) }

func scanFile(t *testing.T, name string) ([]*Game, []*GameError) {
	t.Helper()
	f, err := open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return scanReader(t, f, Options{})
}

// The cutechess-cli fixture (verbose -pgnout: the seven tag roster, then
// the other tags in alphabetical order, {book} opening moves, comments
// {score/depth time} with the result's description appended to the last
// one, Black's moves without numbers, lines wrapped before 80 columns).
func TestCutechessFixture(t *testing.T) {
	games, bad := scanFile(t, "cutechess.pgn")
	if len(bad) != 0 || len(games) != 6 {
		t.Fatalf("%d games, errors %v", len(games), bad)
	}
	g := games[0]
	want := Game{Line: 1, Event: "?", Site: "?", Date: "2024.05.04", Round: "1", White: "Stockfish 16",
		Black: "Ethereal 14.25", Result: "1-0", Termination: "adjudication", Marker: "1-0", Plies: 19, Book: 4}
	checkGame(t, g, want, []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5",
		"Bb3", "d6", "c3", "O-O"})
	if g := games[1]; g.Line != 24 || g.White != "Ethereal 14.25" || g.Result != "1/2-1/2" || g.Termination != "" ||
		g.Plies != 12 || g.Book != 4 {
		t.Errorf("game 2: %+v", g)
	}
	if g := games[3]; g.Plies != 10 || g.FirstMoves[9] != "Qxe2" || g.Marker != "0-1" || g.Book != 4 {
		t.Errorf("game 4 (check and mate marks dropped): %+v", g)
	}
	g = games[4]
	checkGame(t, g, Game{Line: 83, Event: "?", Site: "?", Date: "2024.05.04", Round: "5", White: "Stockfish 16",
		Black: "Ethereal 14.25", Result: "1-0", Termination: "time forfeit", Marker: "1-0", Plies: 3,
		FEN: "rnbqkb1r/pp2pppp/5n2/2pp4/3P1B2/4P3/PPP2PPP/RN1QKBNR w KQkq - 0 4", SetUp: "1"},
		[]string{"c3", "Nc6", "Nd2"})
}

// The fastchess fixture (its tag order, SetUp/FEN from an EPD book, the
// same Round for both games of a pair, pairs interleaved as concurrency
// writes them, a "*" game).
func TestFastchessFixture(t *testing.T) {
	games, bad := scanFile(t, "fastchess.pgn")
	if len(bad) != 0 || len(games) != 7 {
		t.Fatalf("%d games, errors %v", len(games), bad)
	}
	var rounds, results []string
	for _, g := range games {
		rounds = append(rounds, g.Round)
		results = append(results, string(g.Result+"/"+g.Marker))
		if g.FEN == "" || g.SetUp != "1" || g.Book != 0 {
			t.Errorf("game at line %d: %+v", g.Line, g)
		}
	}
	if !slices.Equal(rounds, []string{"2", "1", "1", "2", "3", "3", "4"}) {
		t.Errorf("rounds %v", rounds)
	}
	if !slices.Equal(results, []string{"1-0/1-0", "1/2-1/2/1/2-1/2", "0-1/0-1", "1-0/1-0", "1-0/1-0", "1-0/1-0", "*/*"}) {
		t.Errorf("results %v", results)
	}
	if g := games[1]; g.Plies != 6 || !slices.Equal(g.FirstMoves, []string{"Nf3", "Nf6", "Nxe5", "d6", "Nf3", "Nxe4"}) {
		t.Errorf("game 2 moves: %+v", g)
	}
}

func checkGame(t *testing.T, got *Game, want Game, moves []string) {
	t.Helper()
	gotMoves := got.FirstMoves
	g := *got
	g.FirstMoves = nil
	if !reflect.DeepEqual(g, want) {
		t.Errorf("game at line %d:\n got %+v\nwant %+v", got.Line, g, want)
	}
	if !slices.Equal(gotMoves, moves) {
		t.Errorf("game at line %d: moves %q, want %q", got.Line, gotMoves, moves)
	}
}

const okGame = `[White "a"]
[Black "b"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
`

// Malformed games are reported with the line of the problem and of the
// game, skipped, and the games around them are read.
func TestMalformedGames(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		ok    int    // games read
		line  int    // the error's line
		game  int    // the error's game line
		words string // in the reason
		trunc bool
	}{
		{"no marker before the next game", "[White \"x\"]\n[Black \"y\"]\n\n1. e4 e5\n\n" + okGame, 1, 6, 1,
			"no termination marker", false},
		{"tag without closing quote", okGame + "\n[White \"x]\n[Black \"y\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n" + okGame,
			2, 7, 7, "no closing quote", false},
		{"tag without bracket", okGame + "\n[White \"x\" oops\n[Black \"y\"]\n\n1. e4 1-0\n\n" + okGame, 2, 7, 7,
			"no ']'", false},
		{"result differs from marker", "[White \"x\"]\n[Black \"y\"]\n[Result \"1-0\"]\n\n1. e4 0-1\n\n" + okGame, 1, 1, 1,
			`Result tag "1-0" differs from the termination marker "0-1"`, false},
		{"unknown result", "[White \"x\"]\n[Black \"y\"]\n[Result \"2-0\"]\n\n1. e4 1-0\n\n" + okGame, 1, 1, 1,
			`Result tag "2-0"`, false},
		{"no players", "[Event \"e\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n" + okGame, 1, 1, 1, "no White or Black", false},
		{"two White tags", "[White \"x\"]\n[Black \"y\"]\n[White \"z\"]\n\n1. e4 1-0\n\n" + okGame, 1, 1, 1, "two White tags", false},
		{"two Result tags", "[White \"x\"]\n[Black \"y\"]\n[Result \"1-0\"]\n[Result \"0-1\"]\n\n1. e4 0-1\n\n" + okGame, 1, 1, 1, "two Result tags", false},
		{"comment left open", "[White \"x\"]\n[Black \"y\"]\n\n1. e4 {oops e5 1-0\n\n" + okGame, 1, 4, 1,
			"comment opened at line 4 is not closed", false},
		{"variation left open", "[White \"x\"]\n[Black \"y\"]\n\n1. e4 (1. d4 e5 1-0\n\n" + okGame, 1, 4, 1,
			"variation opened at line 4 is not closed", false},
		{"variation left open at the end", okGame + "\n[White \"x\"]\n[Black \"y\"]\n\n1. e4 (1. d4\n(2. c4", 1, 10, 7,
			"variation opened at line 10 is not closed", true},
		{"unbalanced variation", "[White \"x\"]\n[Black \"y\"]\n\n1. e4 e5 ) 2. Nf3 1-0\n\n" + okGame, 1, 4, 1,
			"')' closes no variation", false},
		{"movetext without tags", okGame + "\n1. d4 d5 1/2-1/2\n\n" + okGame, 2, 7, 7, "no tags", false},
		{"bracket in movetext", "[White \"x\"]\n[Black \"y\"]\n\n1. e4 [e5] 1-0\n\n" + okGame, 1, 4, 1, "'[' inside", false},
		{"truncated", okGame + "\n[White \"x\"]\n[Black \"y\"]\n\n1. e4 e5 2. Nf3", 1, 10, 7, "the input ends", true},
		{"truncated in a comment", okGame + "\n[White \"x\"]\n[Black \"y\"]\n\n1. e4 {think", 1, 10, 7, "not closed", true},
		{"truncated in a tag", okGame + "\n[White \"x", 1, 7, 7, "no closing quote", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			games, bad := scanAll(t, tc.text, Options{})
			if len(games) != tc.ok || len(bad) != 1 {
				t.Fatalf("%d games (want %d), errors %v", len(games), tc.ok, bad)
			}
			for _, g := range games {
				if g.White != "a" || g.Result != "1-0" || g.Plies != 7 {
					t.Errorf("neighbour game read wrong: %+v", g)
				}
			}
			e := bad[0]
			if e.Line != tc.line || e.GameLine != tc.game || !strings.Contains(e.Reason, tc.words) || e.Truncated != tc.trunc {
				t.Errorf("error %+v, want line %d, game line %d, %q, truncated %v", e, tc.line, tc.game, tc.words, tc.trunc)
			}
			if !strings.HasPrefix(e.Error(), "t.pgn:") {
				t.Errorf("message %q does not name the file", e.Error())
			}
		})
	}
}

// The parts of the standard a game may use: comments of both kinds, %
// escapes, variations (with their own markers), NAGs, move number forms,
// a comment after the marker, CRLF line ends and a byte order mark.
func TestStandardSyntax(t *testing.T) {
	text := "\xef\xbb\xbf% an escape line\r\n[White \"a \\\"the\\\" engine\"]\r\n[Black \"b\\\\c\"]\r\n" +
		"[Result \"1/2-1/2\"] ; a comment after a tag\r\n\r\n" +
		"1.e4! $1 {a\r\nmulti-line [comment]\r\n\r\n[%clk 0:01:00]} 1... e5?! (1... c5 2. Nf3 (2. c3 d5 1-0) d6 *) 2. Nf3 ; to the end\r\n" +
		"Nc6 3.Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 1/2-1/2 {a draw}\r\n" +
		"% another\r\n\r\n" + okGame
	games, bad := scanAll(t, text, Options{FirstMoves: 4})
	if len(bad) != 0 || len(games) != 2 {
		t.Fatalf("%d games, errors %v", len(games), bad)
	}
	checkGame(t, games[0], Game{Line: 2, White: `a "the" engine`, Black: `b\c`, Result: "1/2-1/2", Marker: "1/2-1/2", Plies: 17},
		[]string{"e4", "e5", "Nf3", "Nc6"})
	if games[1].Line != 13 {
		t.Errorf("second game at line %d", games[1].Line)
	}
}

// Book moves are the leading moves whose comment reads "book"; a book
// comment after an engine move does not count.
func TestBookMoves(t *testing.T) {
	tests := []struct {
		movetext string
		book     int
	}{
		{"1. e4 {book} e5 {book} 2. Nf3 {+0.1/3 0.1s} Nc6 {book} *", 2},
		{"1. e4 {book} 1... e5 { book } 2. Nf3 {book} *", 3},
		{"1. e4 e5 {book} *", 0},
		{"1. e4 {book} {book} e5 2. Nf3 {book} *", 1},
		{"1. e4 {book} (1. d4 {book}) e5 {book} *", 2},
		{"1. e4 {book, White resigns} *", 0},
	}
	for _, tc := range tests {
		games, bad := scanAll(t, "[White \"a\"]\n[Black \"b\"]\n\n"+tc.movetext+"\n", Options{})
		if len(bad) != 0 || len(games) != 1 {
			t.Fatalf("%q: errors %v", tc.movetext, bad)
		}
		if games[0].Book != tc.book {
			t.Errorf("%q: book %d, want %d", tc.movetext, games[0].Book, tc.book)
		}
	}
}

// A game on one line longer than the scanner's buffer (PGN tools write
// movetext unwrapped) reads like any other.
func TestLongLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n")
	for i := 1; i <= 40000; i++ {
		b.WriteString("1. Nf3 {+0.25/20 1.234s, a long comment to fill the line} Nf6 {-0.20/19 1.111s} ")
	}
	b.WriteString("0-1\n\n")
	b.WriteString(okGame)
	if b.Len() < 2*256<<10 {
		t.Fatalf("the line is only %d bytes", b.Len())
	}
	games, bad := scanAll(t, b.String(), Options{})
	if len(bad) != 0 || len(games) != 2 || games[0].Plies != 80000 || games[1].Line != 7 {
		t.Fatalf("errors %v, games %d", bad, len(games))
	}
}

// An empty input has no games.
func TestEmptyInput(t *testing.T) {
	for _, text := range []string{"", "\n\n", "\xef\xbb\xbf", "{just a comment}\n"} {
		games, bad := scanAll(t, text, Options{})
		if len(games) != 0 || len(bad) != 0 {
			t.Errorf("%q: %v %v", text, games, bad)
		}
	}
}
