package stats

import (
	"slices"
	"strconv"
	"testing"
)

// The tools' own figures, to their printed digits: fastchess 1.8.2's block
// of the 20 Stockfish games (cmd/selfplay/testdata/fastchess-sf20/
// fastchess-stdout.txt:43-46: "Elo: 168.40 +/- 98.63, nElo: 315.87 +/-
// 152.27", "LOS: 100.00 %", Ptnml(0-2) [0, 0, 3, 5, 2]); its EloWDL and
// cutechess-cli's Elo of 11 wins, 2 losses, 7 draws (elo_wdl.cpp,
// elo.cpp; score 0.725, variance 0.111875, worked by hand to these digits),
// and the undefined cases they print as nan.
func TestToolElo(t *testing.T) {
	f2 := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	f1 := func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
	p := FastchessPentanomial(Pentanomial{DD: 3, WD: 5, WW: 2})
	if got, want := []string{f2(p.Elo), f2(p.Margin), f2(p.NElo), f2(p.NMargin), f2(p.LOS)},
		[]string{"168.40", "98.63", "315.87", "152.27", "100.00"}; !slices.Equal(got, want) {
		t.Errorf("FastchessPentanomial = %v, want fastchess's %v", got, want)
	}
	g := Trinomial{Wins: 11, Losses: 2, Draws: 7}
	w := FastchessTrinomial(g)
	if got, want := []string{f2(w.Elo), f2(w.Margin), f2(w.NElo), f2(w.NMargin), f2(w.LOS)},
		[]string{"168.40", "138.87", "233.72", "152.27", "99.87"}; !slices.Equal(got, want) {
		t.Errorf("FastchessTrinomial = %v, want %v", got, want)
	}
	c := CutechessTrinomial(g)
	if got, want := []string{f1(c.Elo), f1(c.Margin), f1(c.LOS), f1(c.DrawRatio * 100)},
		[]string{"168.4", "138.6", "99.4", "35.0"}; !slices.Equal(got, want) {
		t.Errorf("CutechessTrinomial = %v, want %v", got, want)
	}
	// One result only: fastchess's zero-width interval and nan nElo
	// (testdata/output-fastchess.txt:13), no games: nan everywhere.
	one := FastchessPentanomial(Pentanomial{DD: 1})
	if got := []string{f2(one.Elo), f2(one.Margin), f2(one.NElo), f2(one.LOS)}; !slices.Equal(got, []string{"-0.00", "0.00", "NaN", "NaN"}) {
		t.Errorf("one DD pair: %v", got)
	}
	if none := CutechessTrinomial(Trinomial{}); f1(none.Elo) != "NaN" || f1(none.LOS) != "NaN" {
		t.Errorf("no games: %+v", none)
	}
}
