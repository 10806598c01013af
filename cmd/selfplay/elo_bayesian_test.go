package main

import (
	"fmt"
	"strings"
	"testing"

	"selfplay/stats"
)

// -model bayesian runs fastchess's bayesian SPRT on W/L/D counts and
// refuses pentanomial counts, for which it has no form.
func TestEloBayesianModel(t *testing.T) {
	test := stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: stats.BayesianElo}
	want, err := test.Trinomial(stats.Trinomial{Wins: 60, Losses: 40, Draws: 100})
	if err != nil || want.LLR == 0 {
		t.Fatalf("fixture: %+v, %v", want, err)
	}
	code, out, errOut := runElo(t, "-w", "60", "-l", "40", "-d", "100", "-sprt", "0,5", "-model", "bayesian")
	if code != exitOK || !strings.Contains(out, fmt.Sprintf("llr %.4f\n", want.LLR)) || !strings.Contains(out, "] bayesian: ") {
		t.Errorf("exit %d, stdout %q, stderr %q; want llr %.4f", code, out, errOut, want.LLR)
	}
	code, _, errOut = runElo(t, "-penta", "1,2,3,2,1", "-sprt", "0,5", "-model", "bayesian")
	if code == exitOK || !strings.Contains(errOut, "no pentanomial form") {
		t.Errorf("pentanomial: exit %d, stderr %q; want an error", code, errOut)
	}
}
