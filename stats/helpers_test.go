package stats

import (
	"math"
	"testing"
)

// near reports whether got is within tol of want, treating equal infinities
// as equal.
func near(got, want, tol float64) bool {
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol
}

func checkNear(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if !near(got, want, tol) {
		t.Errorf("%s = %.10g, want %.10g (±%g)", name, got, want, tol)
	}
}

// checkNoNaN fails on any NaN field of an estimate.
func checkNoNaN(t *testing.T, e Estimate) {
	t.Helper()
	fields := map[string]float64{
		"Score": e.Score, "ScoreLow": e.ScoreLow, "ScoreHigh": e.ScoreHigh,
		"DrawRatio": e.DrawRatio, "Elo": e.Elo, "EloLow": e.EloLow, "EloHigh": e.EloHigh,
		"LOS": e.LOS, "NElo": e.NElo, "NEloLow": e.NEloLow, "NEloHigh": e.NEloHigh,
		"HalfWidth": e.HalfWidth(), "Points": e.Points,
	}
	for name, v := range fields {
		if math.IsNaN(v) {
			t.Errorf("%s is NaN in %+v", name, e)
		}
	}
}
