package standings

import (
	"testing"

	"selfplay/stats"
	"selfplay/store/record"
)

// Settle decides a merged tournament's SPRT as a runner with concurrency 1
// would (pair by pair in schedule order, up to the first missing game),
// keeps a stored decision, and completes a tournament whose SPRT decided
// or whose games are all there.
func TestSettle(t *testing.T) {
	test := stats.SPRT{Elo0: 0, Elo1: 150, Alpha: 0.1, Beta: 0.1, Model: stats.LogisticElo}
	const withSPRT = `{"format":"match","players":["a","b"],"sprt":{"elo0":0,"elo1":150,"alpha":0.1,"beta":0.1,"model":"logistic"}}`
	const noSPRT = `{"format":"match","players":["a","b"]}`
	// The fixture of TestSPRTDecisionIsFinal: above the upper bound after
	// pair 7 (index 6), back inside after all 9.
	var games []record.Game
	for i, s := range []string{"WW", "WD", "WW", "WD", "WW", "DD", "WD", "LL", "LL"} {
		games = append(games, pairGames(i, s)...)
	}
	h1, err := test.Pentanomial(stats.Pentanomial{DD: 1, WD: 3, WW: 3})
	if err != nil || h1.State != stats.SPRTAcceptH1 {
		t.Fatalf("fixture: %v %v", h1, err)
	}
	prefix5, _ := test.Pentanomial(stats.Pentanomial{WD: 2, WW: 3})
	without := func(skip ...int) []record.Game { // games without those indices in the schedule
		var out []record.Game
		for i, g := range games {
			if !containsInt(skip, i) {
				out = append(out, g)
			}
		}
		return out
	}
	tests := []struct {
		name   string
		config string
		total  int
		stored string // the row's SPRT state
		games  []record.Game
		want   Settlement
	}{
		{"decides at the first crossing", withSPRT, 40, "", games, Settlement{record.StatusComplete, "H1", h1.LLR}},
		{"a gap before the crossing: no decision, LLR before the gap", withSPRT, 40, "", without(10),
			Settlement{record.StatusRunning, "continue", prefix5.LLR}},
		{"a gap after the crossing", withSPRT, 40, "", without(15), Settlement{record.StatusComplete, "H1", h1.LLR}},
		{"a stored decision is final", withSPRT, 40, "H0", games, Settlement{record.StatusComplete, "H0", -1}},
		{"a stored continue is not", withSPRT, 40, "continue", games, Settlement{record.StatusComplete, "H1", h1.LLR}},
		{"no SPRT, all games", noSPRT, 18, "", games, Settlement{Status: record.StatusComplete}},
		{"no SPRT, a game missing", noSPRT, 18, "", without(3), Settlement{Status: record.StatusRunning}},
		{"no games", withSPRT, 40, "", nil, Settlement{record.StatusRunning, "continue", 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := record.Tournament{Name: "m", Config: tt.config, TotalGames: tt.total, SPRTState: tt.stored, SPRTLLR: -1}
			got, err := Settle(row, tt.games)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Settle = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
