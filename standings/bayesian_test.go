package standings

import (
	"selfplay/outcome"
	"testing"

	"selfplay/stats"
	"selfplay/store/record"
)

// The bayesian SPRT runs on the W/D/L counts of the complete pairs' games,
// which the pentanomial counts cannot give back (a won-and-lost pair counts
// as DD, like two draws): Tally, Settle and the report's LLR path all
// evaluate it on those games.
func TestBayesianSPRTCountsPairGames(t *testing.T) {
	const config = `{"format":"match","players":["a","b"],"sprt":{"elo0":-10,"elo1":10,"alpha":0.05,"beta":0.05,"model":"bayesian"}}`
	test := stats.SPRT{Elo0: -10, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: stats.BayesianElo}
	w, b, d := outcome.WhiteWins, outcome.BlackWins, outcome.Draw
	results := map[string][2]outcome.Result{ // White-Black results; a is White in game 0
		"WW": {w, b}, "WL": {w, w}, "DD": {d, d}, "LD": {b, d},
	}
	var games []record.Game
	for i, s := range []string{"WL", "WW", "WL", "DD", "LD", "WL", "WW"} {
		r := results[s]
		games = append(games,
			record.Game{Pair: i, Index: 0, White: "a", Black: "b", Result: r[0], OpeningID: "o"},
			record.Game{Pair: i, Index: 1, White: "b", Black: "a", Result: r[1], OpeningID: "o"})
	}
	// Wins 3 (WL) + 4 (WW), losses 3 (WL) + 1 (LD), draws 2 (DD) + 1 (LD).
	want := stats.Trinomial{Wins: 7, Losses: 4, Draws: 3}
	llr, err := test.Trinomial(want)
	if err != nil || llr.LLR == 0 {
		t.Fatalf("fixture: %+v, %v", llr, err)
	}
	asDraws, _ := test.Trinomial(stats.Trinomial{Wins: 4, Losses: 1, Draws: 9}) // WL read as DD
	if asDraws.LLR == llr.LLR {
		t.Fatalf("fixture: the LLR does not tell WL pairs from DD")
	}

	tally := NewTally()
	lone := record.Game{Pair: 7, Index: 0, White: "a", Black: "b", Result: "1-0", OpeningID: "o"}
	for _, g := range append(games[:len(games):len(games)], lone) {
		if err := tally.Add(&g); err != nil {
			t.Fatal(err)
		}
	}
	if got := tally.Pairings()[0].PairedGames; got != want {
		t.Errorf("Tally PairedGames = %+v, want %+v (the lone game of pair 7 left out)", got, want)
	}

	row := record.Tournament{Name: "m", Config: config, TotalGames: 40, SPRTLLR: -1}
	settled, err := Settle(row, games)
	if err != nil {
		t.Fatal(err)
	}
	if settled.SPRTLLR != llr.LLR || settled.SPRTState != llr.State.String() {
		t.Errorf("Settle = %+v, want LLR %v, state %v", settled, llr.LLR, llr.State)
	}

	rt, err := tournamentReport(row, games, nil, 0.95, "")
	if err != nil {
		t.Fatal(err)
	}
	s := rt.Pairings[0].SPRT
	if s == nil || len(s.Path) != 7 {
		t.Fatalf("report SPRT = %+v, want a path of 7 pairs", s)
	}
	if got := float64(s.Path[6].LLR); got != llr.LLR {
		t.Errorf("report LLR after 7 pairs = %v, want %v", got, llr.LLR)
	}
}
