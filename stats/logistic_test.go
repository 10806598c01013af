package stats

import (
	"math"
	"testing"
)

func TestEloFromScore(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		score, elo float64
	}{
		{0.5, 0},
		// 0.75 = 1/(1+10^(-rd/400)) ⇒ 10^(-rd/400) = 1/3 ⇒ rd = 400·log10(3) = 190.8485
		{0.75, 400 * math.Log10(3)},
		{0.25, -400 * math.Log10(3)},
		// 10/11 ⇒ 1/s - 1 = 0.1 ⇒ rd = 400
		{10.0 / 11, 400},
		{1, inf},
		{1.2, inf},
		{0, -inf},
		{-0.1, -inf},
	}
	for _, tc := range tests {
		checkNear(t, "eloFromScore", eloFromScore(tc.score), tc.elo, 1e-9)
	}
	if !math.IsNaN(eloFromScore(math.NaN())) {
		t.Error("eloFromScore(NaN) should stay NaN")
	}
}

func TestScoreFromEloRoundTrip(t *testing.T) {
	for _, elo := range []float64{-800, -191, -32.05, 0, 5, 32.05, 400, 1200} {
		checkNear(t, "round trip", eloFromScore(ScoreFromElo(elo)), elo, 1e-9)
	}
	checkNear(t, "ScoreFromElo(+inf)", ScoreFromElo(math.Inf(1)), 1, 0)
	checkNear(t, "ScoreFromElo(-inf)", ScoreFromElo(math.Inf(-1)), 0, 0)
	checkNear(t, "neloPerT", neloPerT, 347.43558552260146, 1e-10)
}

func TestNormalQuantile(t *testing.T) {
	tests := []struct{ p, z float64 }{
		{0.5, 0},
		{0.975, 1.959963984540054}, // fastchess CI95ZSCORE
		{0.995, 2.5758293035489},
		{0.025, -1.959963984540054},
	}
	for _, tc := range tests {
		checkNear(t, "normalQuantile", normalQuantile(tc.p), tc.z, 1e-12)
		checkNear(t, "normalCDF", normalCDF(tc.z), tc.p, 1e-12)
	}
}
