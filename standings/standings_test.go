package standings

import (
	"slices"
	"strings"
	"testing"
	"time"

	"selfplay/config/snapshot"
	"selfplay/outcome"
	"selfplay/report"
	"selfplay/stats"
	"selfplay/store/record"
)

// Moves are charged to the engine that played them, also when the opening
// leaves Black to move.
func TestSearchReportAttributesMovesBySide(t *testing.T) {
	g := record.Game{
		White: "w", Black: "b",
		StartFEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		Moves: []record.Move{
			{Ply: 1, Book: true}, // Black's book move
			{Ply: 2, Depth: 10, SelDepth: 20, Nodes: 1000, Time: 10 * time.Millisecond}, // White
			{Ply: 3, Depth: 4, SelDepth: 6, Nodes: 100, Time: 2 * time.Millisecond},     // Black
			{Ply: 4, Depth: 12, SelDepth: 22, Nodes: 3000, Time: 30 * time.Millisecond}, // White
		},
	}
	rows := searchReport([]string{"w", "b"}, record.SumSearch([]record.Game{g}))
	w, b := rows[0], rows[1]
	if w.Moves != 2 || w.Depth != 11 || w.SelDepth != 21 || w.Nodes != 2000 || w.TimeMS != 20 || w.NPS != 100000 {
		t.Errorf("white: %+v", w)
	}
	if b.Moves != 1 || b.Depth != 4 || b.Nodes != 100 {
		t.Errorf("black: %+v", b)
	}
}

// The average depth and seldepth leave out sentinel depths (Stockfish
// reports depth 245 when it is mated or the position is trivial) while the
// nodes and time per move count every move; an engine whose every move is
// a sentinel has no average depth rather than a huge one.
func TestSearchReportIgnoresSentinelDepths(t *testing.T) {
	tests := []struct {
		name                   string
		moves                  []record.Move // White's moves, one ply apart
		moves0                 int
		depth, selDepth, nodes float64
	}{
		{"plausible only", []record.Move{{Depth: 10, SelDepth: 20}, {Depth: 12, SelDepth: 22}}, 2, 11, 21, 1000},
		{"mate sentinel", []record.Move{{Depth: 10, SelDepth: 20}, {Depth: 12, SelDepth: 22}, {Depth: 245, SelDepth: 246}}, 3, 11, 21, 1000},
		{"seldepth sentinel", []record.Move{{Depth: 10, SelDepth: 20}, {Depth: 60, SelDepth: 246}}, 2, 10, 20, 1000},
		{"depth 127 counts", []record.Move{{Depth: 127, SelDepth: 127}, {Depth: 128, SelDepth: 128}}, 2, 127, 127, 1000},
		{"negative", []record.Move{{Depth: 10, SelDepth: 20}, {Depth: -1, SelDepth: 0}}, 2, 10, 20, 1000},
		{"all sentinels", []record.Move{{Depth: 245, SelDepth: 246}}, 1, 0, 0, 1000},
	}
	for _, tt := range tests {
		g := record.Game{White: "w", Black: "b", StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}
		for i, m := range tt.moves {
			m.Ply, m.Nodes, m.Time = 2*i+1, 1000, time.Millisecond
			g.Moves = append(g.Moves, m)
		}
		w := searchReport([]string{"w"}, record.SumSearch([]record.Game{g}))[0]
		if w.Moves != tt.moves0 || float64(w.Depth) != tt.depth || float64(w.SelDepth) != tt.selDepth || float64(w.Nodes) != tt.nodes ||
			w.TimeMS != 1 {
			t.Errorf("%s: %+v; want %d moves, depth %v, seldepth %v, %v nodes and 1 ms per move", tt.name, w, tt.moves0, tt.depth,
				tt.selDepth, tt.nodes)
		}
	}
}

// A drawn time forfeit is charged to the side that forfeited (the game's
// Culprit, not a reading of its reason); decisive games to the loser.
func TestTerminationsChargeTheCulprit(t *testing.T) {
	games := []record.Game{
		{White: "x", Black: "y", Result: "1/2-1/2", Termination: record.TimeForfeit, Reason: "White (x) ...", Culprit: "y"},
		{White: "x", Black: "y", Result: "0-1", Termination: record.EngineError, Reason: "White (x) failed", Culprit: "x"},
		{White: "y", Black: "x", Result: "1/2-1/2", Termination: record.Repetition, Reason: "White (y) repeats"},
		{White: "y", Black: "x", Result: "1-0", Termination: "odd"},
	}
	var tt terminationTally
	for i := range games {
		tt.add(&games[i])
	}
	tr := tt.report([]string{"x", "y"})
	byName := map[string]int{}
	for i, r := range tr.Rows {
		byName[r.Termination] = i
	}
	if len(tr.Rows) != len(record.Terminations())+1 || tr.Rows[len(tr.Rows)-1].Termination != "odd" {
		t.Fatalf("rows: %+v", tr.Rows)
	}
	check := func(term record.Termination, games, x, y int) {
		t.Helper()
		r := tr.Rows[byName[string(term)]]
		if r.Games != games || r.Against["x"] != x || r.Against["y"] != y {
			t.Errorf("%s: %+v, want %d games, against x %d, y %d", term, r, games, x, y)
		}
	}
	check(record.TimeForfeit, 1, 0, 1)
	check(record.EngineError, 1, 1, 0)
	check(record.Repetition, 1, 0, 0)
	check("odd", 1, 1, 0)
}

// Pairings follow the schedule's order, including ones without games.
func TestPairingOrder(t *testing.T) {
	tally := NewTally()
	got := pairingOrder(snapshot.Snapshot{Format: "round-robin", Players: []string{"a", "b", "c"}}, nil, tally)
	want := [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}}
	if !slices.Equal(got, want) {
		t.Errorf("round-robin: %v, want %v", got, want)
	}
	got = pairingOrder(snapshot.Snapshot{Format: "gauntlet", Players: []string{"a", "b", "c"}}, nil, tally)
	if want := [][2]string{{"a", "b"}, {"a", "c"}}; !slices.Equal(got, want) {
		t.Errorf("gauntlet: %v, want %v", got, want)
	}
}

// The pentanomial counts complete pairs only; the running estimate follows
// them, and an unpaired game stays in the trinomial.
func TestPairingReportLeavesUnpairedGamesOut(t *testing.T) {
	games := []record.Game{
		{Pair: 0, Index: 0, White: "a", Black: "b", Result: "1-0", OpeningID: "o1"},
		{Pair: 0, Index: 1, White: "b", Black: "a", Result: "1/2-1/2", OpeningID: "o1"},
		{Pair: 1, Index: 1, White: "b", Black: "a", Result: "0-1", OpeningID: "o2"},
		{Pair: 2, Index: 0, White: "a", Black: "b", Result: "0-1", OpeningID: "o3"},
		{Pair: 2, Index: 1, White: "b", Black: "a", Result: "0-1", OpeningID: "o3"},
	}
	p := pairingReportOf(t, games, "a", "b", nil, nil)
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

// pairingReportOf tallies the games of engines a and b and reports the
// pairing first-second.
func pairingReportOf(t *testing.T, games []record.Game, first, second string, test *stats.SPRT,
	decision *stats.SPRTResult) report.Pairing {
	t.Helper()
	l := NewLive()
	if err := l.Add(games); err != nil {
		t.Fatal(err)
	}
	lp := l.pairings[[2]string{first, second}]
	if lp == nil {
		t.Fatalf("no pairing %s-%s", first, second)
	}
	p, err := pairingReport(lp.tally(), lp, 0.95, test, decision)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pairGames are the two games of pair n between a (White first) and b with
// a's pair score ("WW", "WD", "DD", "LD" or "LL").
func pairGames(n int, score string) []record.Game {
	results := map[string][2]string{ // White-Black results of the two games
		"WW": {"1-0", "0-1"}, "WD": {"1-0", "1/2-1/2"}, "DD": {"1/2-1/2", "1/2-1/2"},
		"LD": {"0-1", "1/2-1/2"}, "LL": {"0-1", "1-0"},
	}[score]
	return []record.Game{
		{Pair: n, Index: 0, White: "a", Black: "b", Result: outcome.Result(results[0]), OpeningID: "o"},
		{Pair: n, Index: 1, White: "b", Black: "a", Result: outcome.Result(results[1]), OpeningID: "o"},
	}
}

// A decision is final (fishtest): games stored after it that pull the LLR
// back inside the bounds do not undo it. Without a stored decision the
// first crossing of the path counts; with one, the runner's decision and
// LLR do. The path itself keeps every pair.
func TestSPRTDecisionIsFinal(t *testing.T) {
	test := stats.SPRT{Elo0: 0, Elo1: 150, Alpha: 0.1, Beta: 0.1, Model: stats.LogisticElo}
	var games []record.Game
	for i, s := range []string{"WW", "WD", "WW", "WD", "WW", "DD", "WD", "LL", "LL"} {
		games = append(games, pairGames(i, s)...)
	}
	// The fixture: inside after 6 pairs, above the upper bound after 7
	// (LL 0, LD 0, DD 1, WD 3, WW 3), back inside after all 9.
	lower, upper := test.Bounds()
	at := func(p stats.Pentanomial) stats.SPRTResult {
		r, err := test.Pentanomial(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	before, decided, final := at(stats.Pentanomial{DD: 1, WD: 2, WW: 3}), at(stats.Pentanomial{DD: 1, WD: 3, WW: 3}),
		at(stats.Pentanomial{LL: 2, DD: 1, WD: 3, WW: 3})
	if before.State != stats.SPRTContinue || decided.State != stats.SPRTAcceptH1 || final.State != stats.SPRTContinue {
		t.Fatalf("fixture does not cross and come back: LLR %v, %v, %v in [%v, %v]", before.LLR, decided.LLR, final.LLR, lower, upper)
	}

	p := pairingReportOf(t, games, "a", "b", &test, nil)
	s := p.SPRT
	if s.State != "H1" || float64(s.LLR) != decided.LLR || !strings.Contains(s.Verdict, "H1 accepted") {
		t.Errorf("no stored decision: state %s, LLR %v, verdict %q; want H1 at LLR %v (pair 7)", s.State, s.LLR, s.Verdict, decided.LLR)
	}
	if len(s.Path) != 9 || s.Path[6].Pairs != 7 || float64(s.Path[6].LLR) != decided.LLR || float64(s.Path[8].LLR) != final.LLR {
		t.Errorf("path %+v", s.Path)
	}

	stored := stats.SPRTResult{LLR: 2.5, State: stats.SPRTAcceptH1}
	if s := pairingReportOf(t, games, "a", "b", &test, &stored).SPRT; s.State != "H1" || s.LLR != 2.5 || len(s.Path) != 9 {
		t.Errorf("stored decision: state %s, LLR %v, %d points; want H1 at 2.5, 9 points", s.State, s.LLR, len(s.Path))
	}

	// Through the tournament row the runner stores, to the report header.
	row := record.Tournament{Name: "m", Status: record.StatusComplete, TotalGames: 40, SPRTState: "H1", SPRTLLR: 2.5,
		Engines: []record.Engine{{Name: "a"}, {Name: "b"}},
		Config:  `{"format":"match","players":["a","b"],"sprt":{"elo0":0,"elo1":150,"alpha":0.1,"beta":0.1,"model":"logistic"}}`}
	rt, err := tournamentReport(row, games, record.SumSearch(games), 0.95, "")
	if err != nil {
		t.Fatal(err)
	}
	if s := rt.SPRT(); s == nil || s.State != "H1" || s.LLR != 2.5 {
		t.Fatalf("tournament SPRT %+v", s)
	}
	var text strings.Builder
	if err := report.WriteText(&text, report.Report{Level: 0.95, Tournaments: []report.Tournament{rt}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "18/40 games stored, stopped by the SPRT") {
		t.Errorf("header does not say the SPRT stopped the match:\n%s", text.String())
	}
}
