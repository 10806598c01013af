package epd

import (
	"os"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	in := strings.Join([]string{
		`2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";`,
		``,
		`# a comment`,
		`r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - bm Bxc6; id "with; semicolon";`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`,
		`8/8/8/8 w -`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e5;`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4 d4; am a3; c0 "x"`,
		`6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8+; hmvc 3; fmvn 40;`,
	}, "\n")
	recs, bad, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("got %d records, want 4: %+v", len(recs), recs)
	}
	if recs[0].ID != "WAC.001" || recs[0].Best[0] != "g3g6" || recs[0].Line != 1 {
		t.Errorf("record 1 = %+v", recs[0])
	}
	if recs[1].ID != "with; semicolon" || recs[1].Best[0] != "b6c6" && recs[1].Best[0] != "f3c6" {
		t.Errorf("record 2 = %+v", recs[1])
	}
	if recs[2].ID != "line 5" || len(recs[2].Best) != 0 || !strings.HasSuffix(recs[2].FEN, " 0 1") {
		t.Errorf("plain FEN record = %+v", recs[2])
	}
	if recs[3].FEN != "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 3 40" || recs[3].Best[0] != "a1a8" {
		t.Errorf("clock opcodes / mate suffix: %+v", recs[3])
	}
	wantBad := map[int]string{6: "want 4 FEN fields", 7: "not legal", 8: "not ended by ';'"}
	if len(bad) != len(wantBad) {
		t.Fatalf("bad lines = %v", bad)
	}
	for _, b := range bad {
		if !strings.Contains(b.Error(), wantBad[b.Line]) {
			t.Errorf("line %d: %v, want %q", b.Line, b.Err, wantBad[b.Line])
		}
	}
}

func TestSharedSuites(t *testing.T) {
	for _, name := range []string{"wac.epd", "bk.epd", "ecm.epd", "crafty-bench.epd", "zugzwang.epd", "wac-classic.epd"} {
		path := "../../shared/data/" + name
		if _, err := os.Stat(path); err != nil {
			t.Skipf("%s not present", path)
		}
		recs, bad, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) != 0 || len(recs) == 0 {
			t.Errorf("%s: %d records, bad lines %v", name, len(recs), bad)
		}
	}
}
