package uci

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"selfplay/engines"
)

func TestPVProblem(t *testing.T) {
	// White mates in one with Qxf7 (scholar's mate); Black is mated in one
	// after 1.f3 e5 2.g4 (Qh4).
	scholar := []string{"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"}
	fools := []string{"f2f3", "e7e5"}
	tests := []struct {
		name  string
		moves []string
		info  string
		mates bool
		want  string
	}{
		{"mate in one", scholar, "score mate 1 pv h5f7", true, ""},
		{"a move after mate", scholar, "score mate 1 pv h5f7 e8e7", true, "PV continues after checkmate - move e8e7"},
		{"illegal", scholar, "score cp 300 pv h5h8", false, "Illegal PV move - move h5h8"},
		{"illegal later", scholar, "score cp 300 pv c4b5 e8e7 b5e8", false, "Illegal PV move - move b5e8"},
		{"too short", scholar, "score mate 2 pv h5f7", true, "Incomplete mating PV (mate 2, 1 plies)"},
		{"too short unchecked", scholar, "score mate 2 pv h5f7", false, ""},
		{"too long", scholar, "score mate 1 pv h5g5 a7a6 g5g7", true, "Too long mating PV (mate 1, 3 plies)"},
		{"no mate at the end", scholar, "score mate 1 pv c4f7", true, "Mating PV does not end with checkmate (mate 1)"},
		{"a bound is not checked", scholar, "score mate 2 lowerbound pv h5f7", true, ""},
		{"mated in one", fools, "score mate -1 pv g2g4 d8h4", true, ""},
		{"mated, pv short", fools, "score mate -1 pv g2g4", true, "Incomplete mating PV (mate -1, 1 plies)"},
	}
	for _, tc := range tests {
		g, err := gameAt("", tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		li := parseInfo(strings.Fields(tc.info))
		if got := pvProblem(g, li.pv, li.score, li.bound, tc.mates); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestPVWarnings: with Config.PVWarnings an engine's unsound PV is one
// warning line naming the engine, the move, the info line and the
// position; without it nothing is checked.
func TestPVWarnings(t *testing.T) {
	var w bytes.Buffer
	cfg := fakeConfig("-mode", "illegal-pv")
	cfg.Name = "liar"
	cfg.PVWarnings = &w
	e, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Search(context.Background(), "", []string{"e2e4"}, engines.Limits{Nodes: 10}); err != nil {
		t.Fatal(err)
	}
	const want = "Warning; Illegal PV move - move e2e5 from liar :: Info; info depth 2 score cp 10 pv b8a6 e2e5 :: Position; startpos :: Moves; e2e4\n"
	if w.String() != want {
		t.Errorf("warnings:\n%q\nwant\n%q", w.String(), want)
	}
}
