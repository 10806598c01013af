package epd

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	in := strings.Join([]string{
		"\ufeff" + `2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";`,
		``,
		`# a comment`,
		`r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - bm Bxc6; id "with; semicolon";`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`,
		`8/8/8/8 w -`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e5;`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4 d4; am a3; c0 "x"`,
		`6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8+; hmvc 3; fmvn 40;`,
		`2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 5 30 bm Qg6; id "x";`,
		`2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - id "no final semicolon"; bm Qg6`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "a"; id "b";`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 bm e4;`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "unterminated;`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;; id "x";`,
		`4k3/8/8/8/8/8/8/4K2R w Kk - bm Rh8+;`,
	}, "\n")
	recs, bad, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 7 {
		t.Fatalf("got %d records, want 7: %+v", len(recs), recs)
	}
	// Line 1 starts with a byte order mark.
	if recs[0].ID != "WAC.001" || !slices.Equal(recs[0].Best, []string{"g3g6"}) || recs[0].Line != 1 ||
		recs[0].FEN != "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1" {
		t.Errorf("record 1 = %+v", recs[0])
	}
	// Bxc6 is the f3 bishop's: the piece on b6 cannot move sideways.
	if recs[1].ID != "with; semicolon" || !slices.Equal(recs[1].Best, []string{"f3c6"}) || !slices.Equal(recs[1].BestSAN, []string{"Bxc6"}) {
		t.Errorf("record 2 = %+v", recs[1])
	}
	if recs[2].ID != "line 5" || len(recs[2].Best) != 0 || recs[2].FEN != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" {
		t.Errorf("plain FEN record = %+v", recs[2])
	}
	// The last operation may omit its ';'.
	if recs[3].Line != 8 || !slices.Equal(recs[3].Best, []string{"e2e4", "d2d4"}) || !slices.Equal(recs[3].Avoid, []string{"a2a3"}) ||
		!slices.Equal(recs[3].Ops["c0"], []string{"x"}) {
		t.Errorf("record without a final ';' = %+v", recs[3])
	}
	if recs[4].FEN != "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 3 40" || !slices.Equal(recs[4].Best, []string{"a1a8"}) {
		t.Errorf("clock opcodes / mate suffix: %+v", recs[4])
	}
	// FEN clocks followed by operations.
	if recs[5].ID != "x" || recs[5].FEN != "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 5 30" ||
		!slices.Equal(recs[5].Best, []string{"g3g6"}) || len(recs[5].Ops) != 2 {
		t.Errorf("FEN clocks then operations: %+v", recs[5])
	}
	if recs[6].ID != "no final semicolon" || !slices.Equal(recs[6].Best, []string{"g3g6"}) {
		t.Errorf("last operation without ';': %+v", recs[6])
	}
	wantBad := map[int]string{
		6:  "want 4 FEN fields",
		7:  "not legal",
		12: "id given twice",
		13: "half-move clock 0 is not followed by a full-move number",
		14: "unterminated string",
		15: "empty EPD operation",
		16: "bad position",
	}
	if len(bad) != len(wantBad) {
		t.Fatalf("bad lines = %v", bad)
	}
	for _, b := range bad {
		if !strings.Contains(b.Error(), wantBad[b.Line]) {
			t.Errorf("line %d: %v, want %q", b.Line, b.Err, wantBad[b.Line])
		}
	}
}

// The move forms EPD suites use besides notnil's SAN: castling with
// zeros, a promotion without "=" or with a lower-case piece, coordinates
// and long algebraic notation; each is the legal move it names, and a
// move no form names is still an error.
func TestParseMoveForms(t *testing.T) {
	const castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -"
	const promotes = "1r5k/P7/8/8/8/8/8/7K w - -"
	for _, c := range []struct {
		fen, bm string
		want    string // the UCI move; "" for an error
	}{
		{castles, "0-0-0", "e1c1"},
		{castles, "0-0", "e1g1"},
		{castles, "O-O-O+", "e1c1"},
		{promotes, "a8Q", "a7a8q"},
		{promotes, "axb8N", "a7b8n"},
		{promotes, "a8=q", "a7a8q"},
		{promotes, "a7a8q", "a7a8q"},
		{castles, "a1a8", "a1a8"},
		{castles, "Ra1-a8", "a1a8"},
		{castles, "Ra1xa8", "a1a8"},
		{castles, "a1a9", ""},
		{castles, "Kd3", ""},
		{castles, "b1b2", ""},
	} {
		recs, bad, err := Parse(strings.NewReader(c.fen + " bm " + c.bm + ";"))
		switch {
		case err != nil:
			t.Errorf("%s: %v", c.bm, err)
		case c.want == "" && (len(bad) != 1 || !strings.Contains(bad[0].Error(), "not legal")):
			t.Errorf("%s: records %+v, bad %v; want it not legal", c.bm, recs, bad)
		case c.want != "" && (len(recs) != 1 || !slices.Equal(recs[0].Best, []string{c.want})):
			t.Errorf("%s: records %+v, bad %v; want %s", c.bm, recs, bad, c.want)
		}
	}
}

// A line too long to read is an error naming its line.
func TestParseLongLine(t *testing.T) {
	good := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"a\";\n"
	for _, c := range []struct {
		text string
		want string
	}{
		{strings.Repeat("x", maxLine+1) + "\n", "line 1: longer than 1048576 bytes"},
		{good + "\n" + strings.Repeat("x", 2*maxLine), "line 3: longer than 1048576 bytes"},
	} {
		_, _, err := Parse(strings.NewReader(c.text))
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse = %v, want %q", err, c.want)
		}
	}
	// Just under the limit: read, and reported as a bad line.
	recs, bad, err := Parse(strings.NewReader(good + strings.Repeat("x", maxLine-1) + "\n"))
	if err != nil || len(recs) != 1 || len(bad) != 1 || bad[0].Line != 2 {
		t.Errorf("Parse = %d records, bad %v, %v; want 1 and line 2 bad", len(recs), bad, err)
	}
}
