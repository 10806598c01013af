package stats

import (
	"math"
	"testing"
)

func TestSPRTValidate(t *testing.T) {
	ok := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid config rejected: %v", err)
	}
	bad := []SPRT{
		{Elo0: 5, Elo1: 5, Alpha: 0.05, Beta: 0.05},
		{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 1, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: -0.1},
		{Elo0: 0, Elo1: 5, Alpha: 0.6, Beta: 0.5},
		{Elo0: math.NaN(), Elo1: 5, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: math.Inf(1), Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: EloModel(7)},
	}
	for _, c := range bad {
		if c.Validate() == nil {
			t.Errorf("%+v accepted", c)
		}
		if _, err := c.Trinomial(Trinomial{Wins: 1}); err == nil {
			t.Errorf("%+v: Trinomial accepted it", c)
		}
	}
}

func TestParseEloModel(t *testing.T) {
	tests := []struct {
		in   string
		want EloModel
		ok   bool
	}{
		{"logistic", LogisticElo, true},
		{"normalized", NormalizedElo, true},
		{" Normalized ", NormalizedElo, true},
		{"bayesian", BayesianElo, true},
		{"bayes", 0, false},
		{"", 0, false},
	}
	for _, tc := range tests {
		got, err := ParseEloModel(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseEloModel(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestSPRTBounds(t *testing.T) {
	// alpha = beta = 0.05: log(0.05/0.95) = -2.944439, log(0.95/0.05) = +2.944439
	lo, hi := SPRT{Alpha: 0.05, Beta: 0.05}.Bounds()
	checkNear(t, "lower", lo, -2.9444389791664403, 1e-12)
	checkNear(t, "upper", hi, 2.9444389791664403, 1e-12)
	// alpha = 0.05, beta = 0.1: log(0.1/0.95) = -2.251292, log(0.9/0.05) = 2.890372
	lo, hi = SPRT{Alpha: 0.05, Beta: 0.1}.Bounds()
	checkNear(t, "lower", lo, math.Log(0.1/0.95), 1e-12)
	checkNear(t, "upper", hi, math.Log(18), 1e-12)
}

// trinomialLLRByHand re-derives the logistic trinomial LLR without the
// secular equation: under a mean-score constraint s the trinomial
// distribution has one free parameter, the draw probability d, with
// P(win) = s - d/2 and P(loss) = 1 - s - d/2. The constrained maximum
// likelihood is found by golden-section search over d, and the LLR is the
// difference of the two maxima (empty bins count 1e-3 as in fishtest).
func trinomialLLRByHand(r Trinomial, elo0, elo1 float64) float64 {
	reg := func(c int) float64 {
		if c == 0 {
			return 1e-3
		}
		return float64(c)
	}
	l, d, w := reg(r.Losses), reg(r.Draws), reg(r.Wins)
	maxLL := func(s float64) float64 {
		f := func(pd float64) float64 {
			pw, pl := s-pd/2, 1-s-pd/2
			return l*math.Log(pl) + d*math.Log(pd) + w*math.Log(pw)
		}
		lo, hi := 1e-15, 2*math.Min(s, 1-s)-1e-15
		g := (math.Sqrt(5) - 1) / 2
		for range 200 {
			a, b := hi-g*(hi-lo), lo+g*(hi-lo)
			if f(a) > f(b) {
				hi = b
			} else {
				lo = a
			}
		}
		return f((lo + hi) / 2)
	}
	return maxLL(ScoreFromElo(elo1)) - maxLL(ScoreFromElo(elo0))
}

func TestSPRTLogisticLLR(t *testing.T) {
	logistic := func(e0, e1 float64) SPRT { return SPRT{Elo0: e0, Elo1: e1, Alpha: 0.05, Beta: 0.05} }
	tri := []struct {
		r      Trinomial
		e0, e1 float64
		want   float64 // testdata/reference.py: golden search and KKT Newton agree
	}{
		{Trinomial{Wins: 309, Losses: 217, Draws: 474}, 0, 10, 4.255040406344051},
		{Trinomial{Wins: 309, Losses: 217, Draws: 474}, 0, 5, 2.322665804887265},
		{Trinomial{Wins: 13543, Losses: 13624, Draws: 34333}, -3, 1, 2.502100426645484},
	}
	for _, tc := range tri {
		res, err := logistic(tc.e0, tc.e1).Trinomial(tc.r)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, "trinomial LLR", res.LLR, tc.want, 1e-6)
		checkNear(t, "trinomial LLR by hand", res.LLR, trinomialLLRByHand(tc.r, tc.e0, tc.e1), 1e-6)
	}
	// Trinomial with an empty bin, checked only against the in-test derivation.
	res, err := logistic(0, 20).Trinomial(Trinomial{Wins: 7, Draws: 5})
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "zero-loss LLR", res.LLR, trinomialLLRByHand(Trinomial{Wins: 7, Draws: 5}, 0, 20), 1e-6)

	penta := []struct {
		p      Pentanomial
		e0, e1 float64
		want   float64 // testdata/reference.py: Newton on the KKT equations of the constrained MLE
	}{
		// fishtest stat_util.py's own example run
		{Pentanomial{10789, 19328, 33806, 19402, 10543}, -3, 1, 2.1310678118024953},
		{Pentanomial{12, 85, 190, 100, 13}, 0, 10, 0.443026493306661},
		{Pentanomial{0, 3, 10, 6, 2}, 0, 5, 0.2869932632139829},
	}
	for _, tc := range penta {
		res, err := logistic(tc.e0, tc.e1).Pentanomial(tc.p)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, "pentanomial LLR", res.LLR, tc.want, 1e-6)
	}
}

// fishtest's Brownian approximation LLR_alt2 = N·(s1-s0)(2s-s0-s1)/(2·var)
// should be close to the exact LLR for many games and narrow bounds.
func TestSPRTLogisticNearBrownianApproximation(t *testing.T) {
	p := Pentanomial{10789, 19328, 33806, 19402, 10543}
	counts, values := p.bins()
	m := momentsOf(values, distribution(counts))
	n := float64(p.Pairs())
	s0, s1 := ScoreFromElo(-3), ScoreFromElo(1)
	approx := n * (s1 - s0) * (2*m.mean - s0 - s1) / m.variance / 2
	res, err := SPRT{Elo0: -3, Elo1: 1, Alpha: 0.05, Beta: 0.05}.Pentanomial(p)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.LLR-approx) > 0.01*math.Abs(approx) {
		t.Errorf("exact LLR %.5f vs Brownian approximation %.5f", res.LLR, approx)
	}
}

func TestSPRTNormalizedLLR(t *testing.T) {
	normalized := func(e0, e1 float64) SPRT {
		return SPRT{Elo0: e0, Elo1: e1, Alpha: 0.05, Beta: 0.05, Model: NormalizedElo}
	}
	// testdata/reference.py profile-likelihood re-derivation (and, for the trinomial case,
	// an independent one-dimensional search; both give 3.238186479868773)
	res, err := normalized(0, 10).Trinomial(Trinomial{Wins: 309, Losses: 217, Draws: 474})
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "trinomial normalized LLR", res.LLR, 3.238186479868773, 1e-6)
	tests := []struct {
		p      Pentanomial
		e0, e1 float64
		want   float64
	}{
		{Pentanomial{12, 85, 190, 100, 13}, 0, 10, 0.48800730135468484},
		// fishtest stat_util.py's own normalized example
		{Pentanomial{39, 2226, 31451, 2412, 40}, 0.764, 3.439, 2.1629408695807797},
	}
	for _, tc := range tests {
		res, err := normalized(tc.e0, tc.e1).Pentanomial(tc.p)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, "pentanomial normalized LLR", res.LLR, tc.want, 1e-6)
	}
}

func TestSPRTStatesAndEdges(t *testing.T) {
	c := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		name  string
		tri   *Trinomial
		penta *Pentanomial
		state SPRTState
	}{
		{name: "no games", tri: &Trinomial{}, state: SPRTContinue},
		{name: "no pairs", penta: &Pentanomial{}, state: SPRTContinue},
		{name: "one win", tri: &Trinomial{Wins: 1}, state: SPRTContinue},
		{name: "all draws", tri: &Trinomial{Draws: 50}, state: SPRTContinue},
		{name: "crushing", tri: &Trinomial{Wins: 3000, Losses: 2000, Draws: 5000}, state: SPRTAcceptH1},
		{name: "losing", tri: &Trinomial{Wins: 2000, Losses: 3000, Draws: 5000}, state: SPRTAcceptH0},
		{name: "crushing pairs", penta: &Pentanomial{100, 500, 1000, 700, 200}, state: SPRTAcceptH1},
		{name: "losing pairs", penta: &Pentanomial{200, 700, 1000, 500, 100}, state: SPRTAcceptH0},
		// all wins push the logistic LLR up only by about log(s1/s0) per pair
		// (the regularized empty bins absorb the rest), 2.86 after 200 pairs
		{name: "1000 WW pairs", penta: &Pentanomial{WW: 1000}, state: SPRTAcceptH1},
	}
	for _, tc := range tests {
		for _, model := range []EloModel{LogisticElo, NormalizedElo} {
			c.Model = model
			var res SPRTResult
			var err error
			if tc.tri != nil {
				res, err = c.Trinomial(*tc.tri)
			} else {
				res, err = c.Pentanomial(*tc.penta)
			}
			if err != nil {
				t.Errorf("%s/%v: %v", tc.name, model, err)
				continue
			}
			if math.IsNaN(res.LLR) || res.State != tc.state {
				t.Errorf("%s/%v: LLR %v state %v, want %v", tc.name, model, res.LLR, res.State, tc.state)
			}
		}
	}
	if got := (SPRTState(SPRTAcceptH1)).String(); got != "H1" {
		t.Errorf("H1 prints %q", got)
	}
	if _, err := c.Trinomial(Trinomial{Wins: -1}); err == nil {
		t.Error("negative counts accepted")
	}
}

// Swapping sides and mirroring the bounds mirrors the LLR: testing [a, b] on
// a result equals testing [-b, -a] on the swapped result with the sign flipped.
func TestSPRTSwapSymmetry(t *testing.T) {
	r := Trinomial{Wins: 309, Losses: 217, Draws: 474}
	for _, model := range []EloModel{LogisticElo, NormalizedElo} {
		a, err1 := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: model}.Trinomial(r)
		b, err2 := SPRT{Elo0: -10, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: model}.Trinomial(r.Swapped())
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		checkNear(t, "mirrored LLR", b.LLR, -a.LLR, 1e-6)
	}
}

// Bounds no distribution on the outcomes can meet are reported, not turned
// into NaN or a panic.
func TestSPRTExtremeBoundsError(t *testing.T) {
	r := Trinomial{Wins: 30, Losses: 20, Draws: 50}
	for _, c := range []SPRT{
		{Elo0: 0, Elo1: 500, Alpha: 0.05, Beta: 0.05, Model: NormalizedElo},
		{Elo0: 0, Elo1: 1e6, Alpha: 0.05, Beta: 0.05, Model: LogisticElo},
	} {
		if res, err := c.Trinomial(r); err == nil {
			t.Errorf("%+v: no error, LLR %v", c, res.LLR)
		} else if err.Error() == "" {
			t.Error("empty error text")
		}
	}
}

func TestEnumStrings(t *testing.T) {
	got := []string{
		LogisticElo.String(), NormalizedElo.String(),
		SPRTContinue.String(), SPRTAcceptH0.String(), SPRTAcceptH1.String(),
		ModelTrinomial.String(), ModelPentanomial.String(),
		Rated.String(), AboveAll.String(), BelowAll.String(), Unconnected.String(),
	}
	want := []string{"logistic", "normalized", "continue", "H0", "H1", "trinomial", "pentanomial",
		"rated", "+inf", "-inf", "unconnected"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got %q, want %q", got[i], want[i])
		}
	}
}
