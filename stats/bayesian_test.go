package stats

import (
	"errors"
	"math"
	"testing"
)

// TestBayesianLLR checks the bayesian model against fastchess's formula
// (fastchess commit 74deac23aadc6718fa0f8e24ac95d16392d79444,
// app/src/matchmaking/sprt/sprt.cpp): lines 36-42 (bayeseloToScore: P(win)
// = 1/(1+10^((-elo+drawelo)/400)), P(loss) = 1/(1+10^((elo+drawelo)/400)),
// score = P(win) + P(draw)/2), lines 73-76 (an empty bin counts 1e-3) and
// lines 106-113 (LLR 0 without a win and a loss; drawelo =
// 200·log10((1-L)/L·(1-W)/W) from the regularized frequencies; then the
// logistic MLE LLR of lines 201-242 at the two scores).
//
// The expected values were computed independently of this package, with
// the constrained maximum found by ternary search over the draw rate
// instead of the secular equation (python3):
//
//	from math import log, log10
//	def llr(W, D, L, e0, e1):
//	    if W == 0 or L == 0: return 0.0
//	    l, d, w = [c if c else 1e-3 for c in (L, D, W)]
//	    n = l + d + w; pl, pd, pw = l/n, d/n, w/n
//	    de = 200*log10((1-pl)/pl*(1-pw)/pw)
//	    def score(e):
//	        a = 1/(1+10**((de-e)/400)); b = 1/(1+10**((de+e)/400)); return a + (1-a-b)/2
//	    def best(s):  # max over the draw rate x of sum phat*log p, P(W)=s-x/2, P(L)=1-s-x/2
//	        lo, hi = 0.0, 2*min(s, 1-s)
//	        f = lambda x: pw*log(s-x/2) + pd*log(x) + pl*log(1-s-x/2)
//	        for _ in range(300):
//	            m1, m2 = lo+(hi-lo)/3, hi-(hi-lo)/3
//	            if f(m1) < f(m2): lo = m1
//	            else: hi = m2
//	        return f((lo+hi)/2)
//	    return n*(best(score(e1)) - best(score(e0)))
//
// fastchess solves for the MLE's multiplier with ITP to 1e-3; this package
// and the script solve to machine precision, so the last digits of
// fastchess's own output can differ below the two decimals it prints.
func TestBayesianLLR(t *testing.T) {
	tests := []struct {
		w, d, l    int
		elo0, elo1 float64
		want       float64
	}{
		{100, 150, 80, 0, 5, 0.3785789370410253},
		{80, 150, 100, 0, 5, -0.45662446051216943},
		{3000, 5000, 2900, 0, 2, 0.6316923492439175},
		{10, 0, 5, -5, 5, 0.14392116101849767}, // no draws: 1e-3 of them
		{1, 0, 1, 0, 10, -0.0008291353248719901},
		{25, 70, 5, -10, 10, 1.5852860527804102},
		{0, 40, 10, 0, 5, 0}, // no win: fastchess returns 0
		{12, 30, 0, 0, 5, 0}, // no loss
		{0, 0, 0, 0, 5, 0},
	}
	for _, tc := range tests {
		test := SPRT{Elo0: tc.elo0, Elo1: tc.elo1, Alpha: 0.05, Beta: 0.05, Model: BayesianElo}
		games := Trinomial{Wins: tc.w, Draws: tc.d, Losses: tc.l}
		r, err := test.Trinomial(games)
		if err != nil {
			t.Errorf("W/D/L %d/%d/%d [%v, %v]: %v", tc.w, tc.d, tc.l, tc.elo0, tc.elo1, err)
			continue
		}
		checkNear(t, "LLR", r.LLR, tc.want, 1e-9)
		// Paired uses the game counts under this model, whatever the pairs.
		p, err := test.Paired(Pentanomial{WW: 7}, games)
		if err != nil || p != r {
			t.Errorf("Paired = %+v, %v; want %+v", p, err, r)
		}
	}
}

// TestBayesEloByHand checks the model's two formulas at points worked out
// by hand.
func TestBayesEloByHand(t *testing.T) {
	// Equal players score 1/2 whatever the draw Elo.
	for _, drawElo := range []float64{0, 97.3, 300} {
		checkNear(t, "score(0)", scoreFromBayesElo(0, drawElo), 0.5, 1e-15)
	}
	// drawElo 0: no draws, so the score is the logistic 1/(1+10^(-elo/400)).
	checkNear(t, "score(100, 0)", scoreFromBayesElo(100, 0), ScoreFromElo(100), 1e-15)
	// elo = drawElo = 200: P(win) = 1/2, P(loss) = 1/(1+10) = 1/11, so the
	// score is 1/2 + (1 - 1/2 - 1/11)/2 = 1/2 + 9/44 = 31/44.
	checkNear(t, "score(200, 200)", scoreFromBayesElo(200, 200), 31.0/44, 1e-15)
	// W/D/L 100/150/80: (250/80)·(230/100) = 7.1875, 200·log10(7.1875).
	checkNear(t, "drawElo", drawEloFrom(80.0/330, 100.0/330), 200*math.Log10(7.1875), 1e-12)
	// The fitted draw Elo reproduces the observed frequencies: with the
	// bayesElo of the result, P(win) = 100/330.
	pl, pw := 80.0/330, 100.0/330
	de := drawEloFrom(pl, pw)
	elo := 200 * math.Log10(pw/pl*(1-pl)/(1-pw)) // the BayesElo difference that fits
	checkNear(t, "P(win)", 1/(1+math.Pow(10, (de-elo)/400)), pw, 1e-12)
	checkNear(t, "P(loss)", 1/(1+math.Pow(10, (de+elo)/400)), pl, 1e-12)
}

func TestBayesianNeedsGames(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: BayesianElo}
	if _, err := test.Pentanomial(Pentanomial{LL: 3, DD: 5, WW: 4}); !errors.Is(err, errBayesianPairs) {
		t.Errorf("Pentanomial under the bayesian model: err = %v, want %v", err, errBayesianPairs)
	}
	// The other models use the pairs in Paired.
	logistic := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	pairs := Pentanomial{LL: 3, LD: 10, DD: 20, WD: 12, WW: 4}
	want, err := logistic.Pentanomial(pairs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := logistic.Paired(pairs, Trinomial{Wins: 90})
	if err != nil || got != want {
		t.Errorf("Paired = %+v, %v; want the pentanomial %+v", got, err, want)
	}
	if BayesianElo.String() != "bayesian" {
		t.Errorf("String = %q", BayesianElo.String())
	}
}
