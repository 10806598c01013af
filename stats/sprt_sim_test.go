package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gameSimulator plays independent games whose first-engine score has mean
// ScoreFromElo(elo) and a fixed draw probability.
type gameSimulator struct {
	rng             *rand.Rand
	win, draw, loss float64
}

func newGameSimulator(seed uint64, elo, drawRatio float64) gameSimulator {
	s := ScoreFromElo(elo)
	return gameSimulator{
		rng:  rand.New(rand.NewPCG(seed, 0x5eed)),
		win:  s - drawRatio/2,
		draw: drawRatio,
		loss: 1 - s - drawRatio/2,
	}
}

// game returns the first engine's score in one game.
func (g gameSimulator) game() float64 {
	u := g.rng.Float64()
	switch {
	case u < g.win:
		return 1
	case u < g.win+g.draw:
		return 0.5
	}
	return 0
}

// runSPRT plays games (or pairs of games) until the test decides or maxGames
// games have been played, checking the LLR after every game (pair) as
// fastchess does.
func runSPRT(t *testing.T, test SPRT, sim gameSimulator, paired bool, maxGames int) (SPRTState, int) {
	t.Helper()
	var tri Trinomial
	var penta Pentanomial
	for games := 0; games < maxGames; {
		var res SPRTResult
		var err error
		if paired {
			_ = penta.AddPair(sim.game(), sim.game())
			games += 2
			res, err = test.Pentanomial(penta)
		} else {
			_ = tri.Add(sim.game())
			games++
			res, err = test.Trinomial(tri)
		}
		if err != nil {
			t.Fatal(err)
		}
		if res.State != SPRTContinue {
			return res.State, games
		}
	}
	return SPRTContinue, maxGames
}

func TestSPRTDecidesSimulatedStreams(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		name     string
		elo      float64
		paired   bool
		model    EloModel
		want     SPRTState
		maxGames int
	}{
		{"+20 games", 20, false, LogisticElo, SPRTAcceptH1, 8000},
		{"+20 pairs", 20, true, LogisticElo, SPRTAcceptH1, 8000},
		{"+20 pairs normalized", 20, true, NormalizedElo, SPRTAcceptH1, 8000},
		{"-5 games", -5, false, LogisticElo, SPRTAcceptH0, 8000},
		{"-5 pairs", -5, true, LogisticElo, SPRTAcceptH0, 8000},
		{"-5 games normalized", -5, false, NormalizedElo, SPRTAcceptH0, 8000},
	}
	for i, tc := range tests {
		test.Model = tc.model
		state, games := runSPRT(t, test, newGameSimulator(uint64(100+i), tc.elo, 0.4), tc.paired, tc.maxGames)
		if state != tc.want {
			t.Errorf("%s: %v after %d games, want %v", tc.name, state, games, tc.want)
		}
	}
}

// Over many seeded runs at the hypotheses themselves the test should err
// about as often as alpha (accepting H1 at elo0) and beta (accepting H0 at
// elo1). Wald's bounds make the real rates a little lower than nominal.
func TestSPRTErrorRates(t *testing.T) {
	runs := 300
	if testing.Short() {
		runs = 80
	}
	test := SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	rate := func(elo float64, wrong SPRTState, seedBase uint64) float64 {
		errs := 0
		for i := range runs {
			state, _ := runSPRT(t, test, newGameSimulator(seedBase+uint64(i), elo, 0.4), true, 40000)
			if state == wrong {
				errs++
			}
		}
		return float64(errs) / float64(runs)
	}
	typeI := rate(test.Elo0, SPRTAcceptH1, 1000)
	typeII := rate(test.Elo1, SPRTAcceptH0, 5000)
	t.Logf("type I %.3f (alpha %.2f), type II %.3f (beta %.2f) over %d runs", typeI, test.Alpha, typeII, test.Beta, runs)
	check := func(name string, got, nominal float64) {
		sd := math.Sqrt(nominal * (1 - nominal) / float64(runs))
		if got > nominal+3*sd {
			t.Errorf("%s error rate %.3f exceeds %.2f by more than 3 sd (%.3f)", name, got, nominal, sd)
		}
		// Far below nominal would mean the LLR is too timid; only checked
		// with enough runs for the bound to be meaningful.
		if !testing.Short() && got < nominal/4 {
			t.Errorf("%s error rate %.3f is far below %.2f", name, got, nominal)
		}
	}
	check("type I", typeI, test.Alpha)
	check("type II", typeII, test.Beta)
}
