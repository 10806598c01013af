package openings

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFile writes content to name in a fresh temporary folder and returns
// the path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantErr checks that err is not nil and mentions every part.
func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
}

const afterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"

func TestEPDGood(t *testing.T) {
	content := "# a comment\n" +
		"\n" +
		afterE4 + " id \"after 1. e4\"; c0 \"a; tricky\";\n" +
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 hmvc 0; fmvn 2;\r\n" +
		"  r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 40  \n" +
		"8/8/8/2p5/1pp5/brpp4/1pprp2P/qnkbK3 w - - bm h3; am h4; dm 15; id \"nmr-fig3\";\n" +
		"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 id last\n" +
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w qkKQ -\n" +
		"4k3/8/8/8/8/8/8/r3K3 w - - id \"in check\";\n"
	path := writeFile(t, "good.epd", content)
	list, err := loadEPD(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ id, name, fen string }{
		{"after 1. e4", "after 1. e4", afterE4 + " 0 1"},
		{"good.epd:4", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"},
		{"good.epd:5", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 40"},
		{"nmr-fig3", "nmr-fig3", "8/8/8/2p5/1pp5/brpp4/1pprp2P/qnkbK3 w - - 0 1"},
		{"last", "last", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"},
		{"good.epd:8", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", StandardStartFEN},
		{"in check", "in check", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1"},
	}
	if len(list) != len(want) {
		t.Fatalf("got %d openings, want %d: %+v", len(list), len(want), list)
	}
	for i, w := range want {
		o := list[i]
		if o.ID != w.id || o.Name != w.name || o.StartFEN != w.fen || len(o.Moves) != 0 || len(o.SAN) != 0 {
			t.Errorf("opening %d: %+v, want ID %q name %q FEN %q", i, o, w.id, w.name, w.fen)
		}
		if fen, err := o.FEN(); err != nil || fen != w.fen {
			t.Errorf("opening %d: FEN() = %q, %v", i, fen, err)
		}
	}
	if list[0].IsStandardStart() || !list[5].IsStandardStart() {
		t.Error("IsStandardStart is wrong for an EPD position")
	}
}

func TestEPDBad(t *testing.T) {
	good := afterE4 + "\n"
	for _, c := range []struct {
		name, line string
		want       []string
	}{
		{"three fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", []string{"4 FEN fields"}},
		{"bad placement", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq -", []string{"bad position", "RNBQKBN"}},
		{"bad side", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -", []string{"bad position", `side to move "x" is not w or b`}},
		{"bad castling", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq -", []string{"castling"}},
		{"castling without rook", "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", []string{"castling right k", "rook on h8"}},
		{"bad en passant", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4", []string{"bad position"}},
		{"en passant without pawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6", []string{"en-passant square e6 without the pawn that just moved"}},
		{"en passant square occupied", "rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6", []string{"bad position", "en-passant square e6 but e6 or e7 is occupied"}},
		{"en passant wrong side", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3", []string{"en-passant square e3 is not on rank 6"}},
		{"no black king", "8/8/8/8/8/8/8/4K3 w - -", []string{"black has 0 kings, want 1"}},
		{"two white kings", "4k3/8/8/8/8/8/8/3KK3 w - -", []string{"white has 2 kings, want 1"}},
		{"pawn on last rank", "P3k3/8/8/8/8/8/8/4K3 w - -", []string{"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on the first or eighth rank"}},
		{"opponent in check", "4k3/4R3/8/8/8/8/8/4K3 w - -", []string{"the side not to move (black) is in check"}},
		{"checkmated", "k7/1Q6/1K6/8/8/8/8/8 b - -", []string{"already decided", "Checkmate"}},
		{"stalemated", "k7/2Q5/1K6/8/8/8/8/8 b - -", []string{"already decided", "Stalemate"}},
		{"bare kings", "k7/8/1K6/8/8/8/8/8 w - -", []string{"already decided", "InsufficientMaterial"}},
		{"bad clocks", afterE4 + " 0 x", []string{"full-move number"}},
		{"bad hmvc", afterE4 + " hmvc -1;", []string{"hmvc"}},
		{"bad fmvn", afterE4 + " fmvn 0;", []string{"fmvn"}},
		{"id twice", afterE4 + " id \"a\"; id \"b\";", []string{"id given twice"}},
		{"empty id", afterE4 + " id \"\";", []string{"empty id"}},
		{"unterminated string", afterE4 + " id \"abc;", []string{"unterminated"}},
		{"bad opcode", afterE4 + " 1x e4;", []string{"bad EPD opcode"}},
		{"illegal best move", afterE4 + " bm Qh5;", []string{"bm:", `"Qh5" is not legal`}},
		{"duplicate id", afterE4 + " id \"bad.epd:1\";", []string{"duplicate id", "line 1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "bad.epd", good+"\n"+c.line+"\n"+good)
			list, err := loadEPD(path)
			if list != nil {
				t.Errorf("got %d openings with the error", len(list))
			}
			wantErr(t, err, append([]string{path + ":3:"}, c.want...)...)
		})
	}
}

func TestEPDEmpty(t *testing.T) {
	for _, content := range []string{"", "\n\n", "# only a comment\n"} {
		path := writeFile(t, "empty.epd", content)
		_, err := loadEPD(path)
		wantErr(t, err, path, "no openings")
		if !errors.Is(err, ErrNoOpenings) {
			t.Errorf("%q: error %v does not wrap ErrNoOpenings", content, err)
		}
	}
}

const pgnGood = `{ a file comment before the first game }
[Event "one"]
[Site "?"]
[Result "*"]

1. e4 { [FEN "8/8/8/8/8/8/8/8 w - - 0 1"] } e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 *

[Event "two"]
[Result "1-0"]

1. d4 {a comment
[spanning] lines} d5 (1... Nf6 2. c4) 2. c4! e6?! 3. Nc3 ; rest of line e4
Nf6 $1 4. Bg5 1-0
[Event "three, no blank line before it"]
[SetUp "1"]
[FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"]

2... Nc6 3. Bb5 a6 *

1. c4 c5 2. g3 *
1. f4 d5 2. Nf3 *


`

func TestPGNGood(t *testing.T) {
	path := writeFile(t, "good.pgn", strings.ReplaceAll(pgnGood, "\n", "\r\n"))
	list, err := loadPGN(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id, name string
		moves    []string
		standard bool
	}{
		{"good.pgn#1", "1. e4 e5 2. Nf3", []string{"e2e4", "e7e5", "g1f3"}, true},
		{"good.pgn#2", "1. d4 d5 2. c4", []string{"d2d4", "d7d5", "c2c4"}, true},
		{"good.pgn#3", "2... Nc6 3. Bb5 a6", []string{"b8c6", "f1b5", "a7a6"}, false},
		{"good.pgn#4", "1. c4 c5 2. g3", []string{"c2c4", "c7c5", "g2g3"}, true},
		{"good.pgn#5", "1. f4 d5 2. Nf3", []string{"f2f4", "d7d5", "g1f3"}, true},
	}
	if len(list) != len(want) {
		t.Fatalf("got %d openings, want %d: %+v", len(list), len(want), list)
	}
	for i, w := range want {
		o := list[i]
		if o.ID != w.id || o.Name != w.name || !slices.Equal(o.Moves, w.moves) || o.IsStandardStart() != w.standard {
			t.Errorf("game %d: %+v, want %+v", i+1, o, w)
		}
		checkLegal(t, o)
	}
	if want := "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"; list[2].StartFEN != want {
		t.Errorf("game 3 starts from %q, want %q", list[2].StartFEN, want)
	}

	// Whole games: game 1 castles (written 0-0), game 2 skips the comment,
	// the variation and the ';' comment.
	// plies is the most: each shorter game gives all it has, as with
	// AllPlies (fastchess's default), which takes every move.
	for _, plies := range []int{8, AllPlies} {
		all, err := loadPGN(path, plies)
		if err != nil {
			t.Fatalf("plies %d: %v", plies, err)
		}
		var lens []int
		for _, o := range all {
			lens = append(lens, len(o.Moves))
			checkLegal(t, o)
		}
		if want := []int{8, 7, 3, 3, 3}; plies == 8 && !slices.Equal(lens, want) {
			t.Errorf("plies 8: openings of %v plies, want %v", lens, want)
		}
		if plies == AllPlies && (lens[1] != 7 || lens[0] < 8) {
			t.Errorf("all plies: openings of %v plies", lens)
		}
	}
	first, err := loadPGN(writeFile(t, "one.pgn", pgnGood[:strings.Index(pgnGood, "[Event \"two")]), 8)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(first[0].SAN, " "); got != "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6" {
		t.Errorf("game 1: %q", got)
	}
	second, err := loadPGN(writeFile(t, "two.pgn", pgnGood[strings.Index(pgnGood, "[Event \"two"):strings.Index(pgnGood, "[Event \"three")]), 7)
	if err != nil {
		t.Fatal(err)
	}
	if got := second[0].Name; got != "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5" {
		t.Errorf("game 2: %q", got)
	}

	// plies = 0: the start positions.
	starts, err := loadPGN(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(starts) != 5 || len(starts[0].Moves) != 0 || !starts[0].IsStandardStart() || starts[2].IsStandardStart() {
		t.Errorf("plies 0: %+v", starts)
	}
}

// Moves past plies are not decoded, as fastchess's reader does not decode
// them: an illegal one there goes unnoticed (its tokens are still checked).
// Moves are counted outside variations, as notnil reads them.
func TestPGNPastPlies(t *testing.T) {
	for _, c := range []struct {
		name, game string
		plies      int
		want       []string // UCI
	}{
		{"illegal past plies", "1. e4 e5 2. Ke3 *", 2, []string{"e2e4", "e7e5"}},
		{"a variation before the cut", "1. e4 (1. d4 d5 2. c4) e5 2. Nf3 Nc6 *", 3, []string{"e2e4", "e7e5", "g1f3"}},
		{"a variation at the cut", "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *", 2, []string{"e2e4", "e7e5"}},
		{"nested variations", "1. e4 ((1. d4) 1. c4 (1. Nf3)) 1... e5 2. Nf3 *", 2, []string{"e2e4", "e7e5"}},
		{"numbers joined to moves", "1.e4 e5 2.Nf3 Nc6 3.Bb5 *", 3, []string{"e2e4", "e7e5", "g1f3"}},
		{"annotations", "1. e4! $1 e5?! 2. Nf3 *", 2, []string{"e2e4", "e7e5"}},
		{"a shorter game", "1. e4 e5 *", 8, []string{"e2e4", "e7e5"}},
		{"moves over lines", "1. e4\ne5\n2. Nf3 Ke7 Kd3 *", 3, []string{"e2e4", "e7e5", "g1f3"}},
		// Parentheses at either end of a token, as cleanMovetext allows.
		{"a variation opened after a move", "1. e4 e5 2. Nf3( 2. Nc3 Nc6 3. Bc4 ) Nc6 3. Bb5 *", 4, []string{"e2e4", "e7e5", "g1f3", "b8c6"}},
		{"a variation opened after the first move", "1. e4( 1. d4 d5 ) e5 2. Nf3 *", 2, []string{"e2e4", "e7e5"}},
		{"a variation closed before a move", "1. e4 (1. d4 d5 )e5 2. Nf3 *", 2, []string{"e2e4", "e7e5"}},
		{"a variation closed before the cut's move", "1. e4 (1. d4 d5 2. c4 )e5 *", 2, []string{"e2e4", "e7e5"}},
		{"a stray ) past the cut", "1. e4 e5 2. Nf3 ) Nc6 *", 2, []string{"e2e4", "e7e5"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "b.pgn", "[Event \"x\"]\n\n"+c.game+"\n")
			list, err := loadPGN(path, c.plies)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 || !slices.Equal(list[0].Moves, c.want) {
				t.Errorf("openings %+v, want moves %v", list, c.want)
			}
			// notnil on the whole game, where it takes it, agrees.
			if all, err := loadPGN(path, AllPlies); err == nil && !slices.Equal(all[0].Moves[:min(c.plies, len(all[0].Moves))], c.want) {
				t.Errorf("the whole game's first %d moves are %v", c.plies, all[0].Moves)
			}
		})
	}
	// A ')' without its '(' before the cut: notnil gets the whole game, and
	// refuses it, as before the cut.
	_, err := loadPGN(writeFile(t, "b.pgn", "[Event \"x\"]\n\n1. e4 ) e5 2. Nf3 *\n"), 2)
	wantErr(t, err, "mismatched parenthesis")
}

func TestPGNBad(t *testing.T) {
	const ok = "[Event \"ok\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
	for _, c := range []struct {
		name, game string
		plies      int
		want       []string
	}{
		{"not a move", "[Event \"x\"]\n\n1. e4 xx *\n", 2, []string{":7: game 2", `"xx" is not a move in SAN`}},
		{"a null move", "[Event \"x\"]\n\n1. e4 -- 2. d4 *\n", 2, []string{":7: game 2", `"--" is not a move in SAN`}},
		{"illegal move", "[Event \"x\"]\n\n1. e4 e4 *\n", 2, []string{":5: game 2", "e4"}},
		{"illegal later move", "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n", 3, []string{":5: game 2", "Ke3"}},
		{"illegal later move, all plies", "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n", AllPlies, []string{":5: game 2", "Ke3"}},
		{"bad FEN tag", "[Event \"x\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n*\n", 0, []string{":5: game 2", "FEN"}},
		{"FEN without kings", "[Event \"x\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n", 0, []string{":5: game 2", "0 kings"}},
		{"no movetext", "[Event \"x\"]\n\n[Event \"y\"]\n\n1. e4 e5 *\n", 2, []string{":5: game 2", "no movetext"}},
		{"text after result", "[Event \"x\"]\n\n1. e4 e5 * 2. Nf3\n", 2, []string{":7: game 2", "after the game result"}},
		{"unterminated comment", "[Event \"x\"]\n\n1. e4 e5 {oops *\n", 2, []string{":5: game 2", "still open"}},
		{"mated before the end", "[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 4, []string{":5: game 2", "already decided", "Checkmate"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "bad.pgn", ok+c.game+"\n"+ok)
			list, err := loadPGN(path, c.plies)
			if list != nil {
				t.Errorf("got %d openings with the error", len(list))
			}
			wantErr(t, err, append([]string{path}, c.want...)...)
		})
	}
	for _, content := range []string{"", "\n\n", "% escape only\n"} {
		path := writeFile(t, "empty.pgn", content)
		_, err := loadPGN(path, 2)
		wantErr(t, err, path, "no openings")
		if !errors.Is(err, ErrNoOpenings) {
			t.Errorf("%q: error %v does not wrap ErrNoOpenings", content, err)
		}
	}
	_, err := loadPGN(writeFile(t, "ok.pgn", ok), -2)
	wantErr(t, err, "plies is -2")
}

func TestLoad(t *testing.T) {
	epd := writeFile(t, "x.EPD", afterE4+"\n")
	pgn := writeFile(t, "x.pgn", "1. e4 e5 *\n")
	// fastchess reads gzipped EPD and PGN books (epd_reader.cpp,
	// pgn_reader.cpp), by the name's .gz.
	epdGz := writeFile(t, "x.epd.GZ", string(gzipText(t, afterE4+"\n")))
	pgnGz := writeFile(t, "x.pgn.gz", string(gzipText(t, "1. e4 e5 *\n2. d4 d5 *\n")))
	for _, c := range []struct {
		name string
		spec Spec
		n    int
		want []string // error parts; nil for success
	}{
		{"fhr25", Spec{Set: "fhr25"}, 25, nil},
		{"two-ply", Spec{Set: "two-ply"}, 400, nil},
		{"epd", Spec{File: epd}, 1, nil},
		{"pgn", Spec{File: pgn, Plies: 2}, 1, nil},
		{"pgn plies 0", Spec{File: pgn}, 1, nil},
		{"unknown set", Spec{Set: "fhr26"}, 0, []string{`"fhr26"`, "fhr25, two-ply"}},
		{"both", Spec{Set: "fhr25", File: epd}, 0, []string{"both"}},
		{"neither", Spec{}, 0, []string{"fhr25, two-ply"}},
		{"plies with a set", Spec{Set: "fhr25", Plies: 2}, 0, []string{"plies"}},
		{"plies with epd", Spec{File: epd, Plies: 2}, 0, []string{"plies"}},
		{"pgn all plies", Spec{File: pgn, Plies: AllPlies}, 1, nil},
		{"negative plies", Spec{File: pgn, Plies: -2}, 0, []string{"plies is -2"}},
		{"all plies with a set", Spec{Set: "fhr25", Plies: AllPlies}, 0, []string{"plies"}},
		{"unknown extension", Spec{File: "book.txt"}, 0, []string{"book.txt", ".epd or .pgn"}},
		{"gzipped epd", Spec{File: epdGz}, 1, nil},
		{"gzipped pgn", Spec{File: pgnGz, Plies: 2}, 2, nil},
		{"gzipped epd by format", Spec{File: writeFile(t, "book.gz", string(gzipText(t, afterE4+"\n"))), Format: FormatEPD}, 1, nil},
		{"plain text named .gz", Spec{File: writeFile(t, "plain.epd.gz", afterE4+"\n")}, 0, []string{"plain.epd.gz", "not gzip"}},
		{"truncated gzip", Spec{File: writeFile(t, "cut.epd.gz", string(gzipText(t, afterE4+"\n")[:20]))}, 0, []string{"truncated"}},
		{"gzipped book", Spec{File: "book.bin.gz"}, 0, []string{"book.bin.gz", "gzipped Polyglot book", "gunzip it first"}},
		{"unknown gzipped extension", Spec{File: "book.txt.gz"}, 0, []string{`".txt.gz"`, ".epd.gz or .pgn.gz"}},
		{"missing file", Spec{File: filepath.Join(t.TempDir(), "none.epd")}, 0, []string{"none.epd"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			list, err := Load(c.spec)
			if c.want != nil {
				wantErr(t, err, c.want...)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != c.n {
				t.Errorf("got %d openings, want %d", len(list), c.n)
			}
		})
	}
	// loadHashed: the hash of the bytes parsed, none for a built-in set.
	list, sum, err := loadHashed(Spec{File: epd})
	if err != nil || len(list) != 1 || sum != fmt.Sprintf("%x", sha256.Sum256([]byte(afterE4+"\n"))) {
		t.Errorf("loadHashed(epd) = %d openings, %q, %v", len(list), sum, err)
	}
	// A gzipped file hashes as its content does.
	if list, gzSum, err := loadHashed(Spec{File: epdGz}); err != nil || len(list) != 1 || gzSum != sum {
		t.Errorf("loadHashed(epd.gz) = %d openings, %q, %v; want the plain file's hash %q", len(list), gzSum, err, sum)
	}
	if list, sum, err := loadHashed(Spec{Set: "fhr25"}); err != nil || len(list) != 25 || sum != "" {
		t.Errorf("loadHashed(fhr25) = %d openings, %q, %v", len(list), sum, err)
	}
	if _, sum, err := loadHashed(Spec{File: writeFile(t, "bad.pgn", "1. e4 e4 *\n"), Plies: 2}); err == nil || sum != "" {
		t.Errorf("loadHashed of a bad PGN = %q, %v", sum, err)
	}
	if !slices.Equal(SetNames(), []string{"fhr25", "two-ply", "startpos"}) {
		t.Errorf("SetNames() = %v", SetNames())
	}
	if list, _, err := loadHashed(Spec{Set: "startpos"}); err != nil || len(list) != 1 || list[0].StartFEN != StandardStartFEN || len(list[0].Moves) != 0 {
		t.Errorf("loadHashed(startpos) = %v, %v", list, err)
	}
}

// gzipText is text compressed as gzip.
func gzipText(t *testing.T, text string) []byte {
	t.Helper()
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

func TestSharedEPDFilesLoad(t *testing.T) {
	for _, c := range []struct {
		file string
		n    int
	}{{"wac.epd", 300}, {"bk.epd", 24}, {"crafty-bench.epd", 6}, {"zugzwang.epd", 6}} {
		path := dataFile(t, c.file)
		list, err := loadEPD(path)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if len(list) != c.n {
			t.Errorf("%s: %d openings, want %d", c.file, len(list), c.n)
		}
	}
}

// The readers must return errors, never panic, whatever the input.
func FuzzParseEPD(f *testing.F) {
	f.Add(afterE4 + " id \"x\";\n")
	f.Add("8/8/8/8/8/8/8/8 w KQkq e3 hmvc 3; fmvn 9;")
	f.Add("k7/8/8/8/8/8/8/7K w - - 0 1\n#\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		list, err := ParseEPD(strings.NewReader(s), "fuzz.epd")
		if err == nil && len(list) == 0 {
			t.Error("no error and no openings")
		}
	})
}

func FuzzParsePGN(f *testing.F) {
	f.Add(pgnGood, 2)
	f.Add("[FEN \"k7/8/8/8/8/8/8/7K w - - 0 1\"]\n\n1. Kg1 *", 1)
	f.Add("1. e4 {x} e5 (1... c5) 1/2-1/2\n1. d4 *", 0)
	f.Fuzz(func(t *testing.T, s string, plies int) {
		plies %= 10
		list, err := ParsePGN(strings.NewReader(s), "fuzz.pgn", plies)
		if err == nil && len(list) == 0 {
			t.Error("no error and no openings")
		}
	})
}

// A line too long to read is an error naming its line, in EPD and PGN files
// alike; a long line that can be read is parsed (and rejected) as usual.
func TestLongLines(t *testing.T) {
	huge := strings.Repeat("x", maxLine+1)
	long := strings.Repeat("y", maxLine-100)
	const pgn = "[Event \"ok\"]\n\n1. e4 e5 *\n\n"
	for _, c := range []struct {
		name, content string
		want          []string
	}{
		{"book.epd", huge + "\n", []string{"book.epd:1: line longer than 1048576 bytes"}},
		{"book.epd", afterE4 + "\n" + afterE4 + " id \"b\";\n" + huge + "\n", []string{"book.epd:3: line longer than 1048576 bytes"}},
		{"book.epd", afterE4 + "\n" + long + "\n", []string{"book.epd:2:"}},
		{"book.pgn", pgn + huge + "\n", []string{"book.pgn:5: line longer than 1048576 bytes"}},
		{"book.pgn", "[Event \"x\"]\n\n1. e4 e5 {" + long + "} *\n", nil},
	} {
		path := writeFile(t, c.name, c.content)
		spec := Spec{File: path}
		if strings.HasSuffix(c.name, ".pgn") {
			spec.Plies = 2
		}
		list, err := Load(spec)
		if c.want == nil {
			if err != nil || len(list) != 1 {
				t.Errorf("%s: %d openings, %v; want the one", c.name, len(list), err)
			}
			continue
		}
		wantErr(t, err, c.want...)
		if err != nil && strings.Contains(err.Error(), "line 0") {
			t.Errorf("error %q names line 0", err)
		}
	}
}
