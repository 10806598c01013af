package config

import (
	"testing"

	"selfplay/stats"
)

// model = "bayesian" is accepted and kept as written, for the runner's
// stats.ParseEloModel.
func TestSPRTModelBayesian(t *testing.T) {
	f := mustLoad(t, engAB+tourn("t", limits+"[tournament.sprt]\nelo0 = 0\nelo1 = 5\nmodel = \"bayesian\"\n"), nil)
	if s := f.Tournaments[0].SPRT; s == nil || s.Model != stats.BayesianElo {
		t.Fatalf("SPRT = %+v, want model bayesian", s)
	}
}
