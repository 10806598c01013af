package runner

import (
	"slices"
	"testing"
	"time"

	"selfplay/runner/store"
)

// Moves are charged to the engine that played them, also when the opening
// leaves Black to move.
func TestSearchReportAttributesMovesBySide(t *testing.T) {
	g := store.Game{
		White: "w", Black: "b",
		StartFEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		Moves: []store.Move{
			{Ply: 1, Book: true}, // Black's book move
			{Ply: 2, Depth: 10, SelDepth: 20, Nodes: 1000, Time: 10 * time.Millisecond}, // White
			{Ply: 3, Depth: 4, SelDepth: 6, Nodes: 100, Time: 2 * time.Millisecond},     // Black
			{Ply: 4, Depth: 12, SelDepth: 22, Nodes: 3000, Time: 30 * time.Millisecond}, // White
		},
	}
	rows := searchReport([]string{"w", "b"}, []store.Game{g})
	w, b := rows[0], rows[1]
	if w.Moves != 2 || w.Depth != 11 || w.SelDepth != 21 || w.Nodes != 2000 || w.TimeMS != 20 || w.NPS != 100000 {
		t.Errorf("white: %+v", w)
	}
	if b.Moves != 1 || b.Depth != 4 || b.Nodes != 100 {
		t.Errorf("black: %+v", b)
	}
}

// A drawn time forfeit is charged to the side that forfeited; decisive
// games to the loser.
func TestTerminationsChargeTheCulprit(t *testing.T) {
	games := []store.Game{
		{White: "x", Black: "y", Result: "1/2-1/2", Termination: TermTimeForfeit, Reason: "Black (y) loses on time"},
		{White: "x", Black: "y", Result: "0-1", Termination: TermEngineError, Reason: "White (x) failed"},
		{White: "y", Black: "x", Result: "1/2-1/2", Termination: TermRepetition},
		{White: "y", Black: "x", Result: "1-0", Termination: "odd"},
	}
	tr := terminationsReport([]string{"x", "y"}, games)
	byName := map[string]int{}
	for i, r := range tr.Rows {
		byName[r.Termination] = i
	}
	if len(tr.Rows) != len(standardTerminations())+1 || tr.Rows[len(tr.Rows)-1].Termination != "odd" {
		t.Fatalf("rows: %+v", tr.Rows)
	}
	check := func(term string, games, x, y int) {
		t.Helper()
		r := tr.Rows[byName[term]]
		if r.Games != games || r.Against["x"] != x || r.Against["y"] != y {
			t.Errorf("%s: %+v, want %d games, against x %d, y %d", term, r, games, x, y)
		}
	}
	check(TermTimeForfeit, 1, 0, 1)
	check(TermEngineError, 1, 1, 0)
	check(TermRepetition, 1, 0, 0)
	check("odd", 1, 1, 0)
}

// Pairings follow the schedule's order, including ones without games.
func TestPairingOrder(t *testing.T) {
	tally := NewTally([]string{"a", "b", "c"})
	got := pairingOrder(snapshotInfo{Format: "round-robin", Players: []string{"a", "b", "c"}}, tally)
	want := [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}}
	if !slices.Equal(got, want) {
		t.Errorf("round-robin: %v, want %v", got, want)
	}
	got = pairingOrder(snapshotInfo{Format: "gauntlet", Players: []string{"a", "b", "c"}}, tally)
	if want := [][2]string{{"a", "b"}, {"a", "c"}}; !slices.Equal(got, want) {
		t.Errorf("gauntlet: %v, want %v", got, want)
	}
}

// The pentanomial counts complete pairs only; the running estimate follows
// them, and an unpaired game stays in the trinomial.
func TestPairingReportLeavesUnpairedGamesOut(t *testing.T) {
	games := []store.Game{
		{Pair: 0, Index: 0, White: "a", Black: "b", Result: "1-0", OpeningID: "o1"},
		{Pair: 0, Index: 1, White: "b", Black: "a", Result: "1/2-1/2", OpeningID: "o1"},
		{Pair: 1, Index: 1, White: "b", Black: "a", Result: "0-1", OpeningID: "o2"},
		{Pair: 2, Index: 0, White: "a", Black: "b", Result: "0-1", OpeningID: "o3"},
		{Pair: 2, Index: 1, White: "b", Black: "a", Result: "0-1", OpeningID: "o3"},
	}
	p, err := pairingReport([2]string{"a", "b"}, games, 0.95, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Games != 5 || p.Pairs != 2 || p.UnpairedGames != 1 || p.Ptnml != [5]int{0, 0, 1, 1, 0} {
		t.Errorf("counts: games %d pairs %d unpaired %d ptnml %v", p.Games, p.Pairs, p.UnpairedGames, p.Ptnml)
	}
	if p.VerdictModel != "pentanomial" || len(p.Progress) != 2 || p.Progress[1].Games != 4 {
		t.Errorf("verdict model %s, progress %+v", p.VerdictModel, p.Progress)
	}
	if len(p.Openings.Rows) != 3 || p.Openings.Rows[1].FirstBlack[0] != "0-1" || p.Openings.Rows[1].FirstPoints != 1 {
		t.Errorf("openings: %+v", p.Openings.Rows)
	}
}
