package stats

import (
	"math"
	"strings"
	"testing"
)

// The NMR paper's Table 6 result, +309 -217 =474, worked by hand with the
// fishtest/fastchess formulas.
func TestAnalyzeTrinomialNMRTable6(t *testing.T) {
	e, err := AnalyzeTrinomial(Trinomial{Wins: 309, Losses: 217, Draws: 474}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	// score = (309 + 474/2)/1000 = 546/1000
	checkNear(t, "Score", e.Score, 0.546, 1e-12)
	// Elo = -400·log10(1/0.546 - 1) = -400·log10(0.454/0.546)
	//     = -400·(-0.0801368) = 32.0547; the paper says about +32.
	checkNear(t, "Elo", e.Elo, 32.05471593905334, 1e-9)
	// per-game variance = 0.309·(1-0.546)² + 0.474·(0.5-0.546)² + 0.217·0.546²
	//                   = 0.0636898 + 0.0010030 + 0.0646912 = 0.129384
	// standard error    = sqrt(0.129384/1000) = 0.0113747
	// 95%: 0.546 ± 1.959964·0.0113747 = [0.523706, 0.568294]
	// Elo of the ends   = [16.4850, 47.7540], half-width 15.63
	checkNear(t, "ScoreLow", e.ScoreLow, 0.546-1.959963984540054*0.011374708787481112, 1e-12)
	checkNear(t, "EloLow", e.EloLow, 16.484961952738285, 1e-8)
	checkNear(t, "EloHigh", e.EloHigh, 47.754008308994955, 1e-8)
	checkNear(t, "HalfWidth", e.HalfWidth(), 15.634523178128335, 1e-8)
	// The paper quotes ±16 at 2 sigma: the 2-sigma half-width is
	// 2·0.0113747·400/(ln10·0.546·0.454) ≈ 15.95.
	e2, err := AnalyzeTrinomial(Trinomial{Wins: 309, Losses: 217, Draws: 474}, 2*normalCDF(2)-1)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "2-sigma HalfWidth", e2.HalfWidth(), 15.954344209892781, 1e-7)
	if math.Round(e2.HalfWidth()) != 16 {
		t.Errorf("2-sigma half-width %.2f does not round to the paper's 16", e2.HalfWidth())
	}
	// LOS = Phi(0.046/0.0113747) = Phi(4.0441) = 0.999974
	checkNear(t, "LOS", e.LOS, 0.9999737332196443, 1e-12)
	checkNear(t, "DrawRatio", e.DrawRatio, 0.474, 1e-12)
	// nElo (fishtest tests_stats): t = 0.046/sqrt(0.129384) = 0.127885,
	// skew = -0.138642, exkurt = -1.063640,
	// var_t = 1 - t·skew + t²·(exkurt+2)/4 = 1.021559,
	// nElo = 347.4356·t = 44.4316, ± 347.4356·1.959964·sqrt(1.021559/1000)
	checkNear(t, "NElo", e.NElo, 44.431588803506806, 1e-8)
	checkNear(t, "NEloLow", e.NEloLow, 22.66682150412215, 1e-8)
	checkNear(t, "NEloHigh", e.NEloHigh, 66.19635610289146, 1e-8)
	if e.Games != 1000 || e.Pairs != 0 || e.Points != 546 || e.Exact {
		t.Errorf("counts wrong: %+v", e)
	}
	if e.significance() != sigStronger {
		t.Errorf("significance = %v, want sigStronger", e.significance())
	}
}

// A pentanomial example worked by hand: 400 pairs [12, 85, 190, 100, 13].
func TestAnalyzePentanomialByHand(t *testing.T) {
	e, err := AnalyzePentanomial(Pentanomial{LL: 12, LD: 85, DD: 190, WD: 100, WW: 13}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	// per-game score of a pair = pair score / 2 ∈ {0, .25, .5, .75, 1}
	// mean = (85·.25 + 190·.5 + 100·.75 + 13·1)/400 = 204.25/400 = 0.510625
	checkNear(t, "Score", e.Score, 0.510625, 1e-12)
	// var per pair = Σ n_i (a_i - 0.510625)²/400 = 0.0444183594
	// se = sqrt(0.0444183594/400) = 0.0105378
	// Elo(0.510625) = 7.3841; ends Elo(0.510625 ∓ 1.959964·0.0105378) = [-6.9696, 21.7631]
	checkNear(t, "Elo", e.Elo, 7.384117789788847, 1e-9)
	checkNear(t, "EloLow", e.EloLow, -6.969638413209448, 1e-8)
	checkNear(t, "EloHigh", e.EloHigh, 21.7631353637827, 1e-8)
	// LOS = Phi(0.010625/0.0105378) = Phi(1.00827) = 0.843338
	checkNear(t, "LOS", e.LOS, 0.8433380331582074, 1e-10)
	// nElo: t = 0.010625/sqrt(0.0444184) = 0.050414 per pair, /√2 per game
	checkNear(t, "NElo", e.NElo, 12.385312883905963, 1e-8)
	checkNear(t, "NEloLow", e.NEloLow, -11.73834034762482, 1e-8)
	checkNear(t, "NEloHigh", e.NEloHigh, 36.50896611543674, 1e-8)
	// draw ratio of pairs: 190/400
	checkNear(t, "DrawRatio", e.DrawRatio, 0.475, 1e-12)
	if e.Games != 800 || e.Pairs != 400 || e.Points != 408.5 {
		t.Errorf("counts wrong: %+v", e)
	}
	if e.significance() != sigNoDifference {
		t.Errorf("significance = %v, want sigNoDifference", e.significance())
	}
}

// Pairing cancels the opening's bias: with the same games the pentanomial
// interval is narrower than the trinomial one when pairs are balanced.
func TestPentanomialNarrowerWhenPairsCorrelate(t *testing.T) {
	// 200 pairs that nearly all score 1 (WL or DD); the same 400 games
	// counted one by one could be 95 W, 95 L, 210 D.
	p := Pentanomial{LL: 0, LD: 10, DD: 180, WD: 10, WW: 0}
	tri := Trinomial{Wins: 95, Losses: 95, Draws: 210}
	ep, _ := AnalyzePentanomial(p, 0.95)
	et, _ := AnalyzeTrinomial(tri, 0.95)
	if !(ep.HalfWidth() < et.HalfWidth()) {
		t.Errorf("pentanomial ±%.2f not narrower than trinomial ±%.2f", ep.HalfWidth(), et.HalfWidth())
	}
}

func TestEstimateEdgeCases(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name               string
		tri                *Trinomial
		penta              *Pentanomial
		elo, eloLow, eloHi float64
		los                float64
		exact              bool
		sig                significance
	}{
		{name: "no games", tri: &Trinomial{}, elo: 0, eloLow: -inf, eloHi: inf, los: 0.5, sig: sigNoGames},
		{name: "no pairs", penta: &Pentanomial{}, elo: 0, eloLow: -inf, eloHi: inf, los: 0.5, sig: sigNoGames},
		// one win: score 1, Elo +inf; lower end 0.025^(1/1) = 0.025 → Elo(0.025) = -636.4;
		// LOS = 1 - 0.5^1
		{name: "single win", tri: &Trinomial{Wins: 1}, elo: inf, eloLow: eloFromScore(0.025), eloHi: inf, los: 0.5, exact: true, sig: sigNoDifference},
		{name: "single loss", tri: &Trinomial{Losses: 1}, elo: -inf, eloLow: -inf, eloHi: eloFromScore(0.975), los: 0.5, exact: true, sig: sigNoDifference},
		// one draw: [0.5·0.025, 1-0.5·0.025]
		{name: "single draw", tri: &Trinomial{Draws: 1}, elo: 0, eloLow: eloFromScore(0.0125), eloHi: eloFromScore(0.9875), los: 0.5, exact: true, sig: sigNoDifference},
		// 20 wins: lower end 0.025^(1/20) = 0.83185 → +277.6 Elo; LOS = 1 - 2^-20
		{name: "all wins", tri: &Trinomial{Wins: 20}, elo: inf, eloLow: eloFromScore(math.Pow(0.025, 1.0/20)), eloHi: inf, los: 1 - math.Pow(0.5, 20), exact: true, sig: sigStronger},
		{name: "all losses", tri: &Trinomial{Losses: 20}, elo: -inf, eloLow: -inf, eloHi: -eloFromScore(math.Pow(0.025, 1.0/20)), los: math.Pow(0.5, 20), exact: true, sig: sigWeaker},
		// 100 draws: [0.5·0.025^(1/100), 1 - 0.5·0.025^(1/100)] = [0.48191, 0.51809] → ±12.57 Elo
		{name: "all draws", tri: &Trinomial{Draws: 100}, elo: 0, eloLow: eloFromScore(0.5 * math.Pow(0.025, 0.01)), eloHi: eloFromScore(1 - 0.5*math.Pow(0.025, 0.01)), los: 0.5, exact: true, sig: sigNoDifference},
		{name: "single pair WL", penta: &Pentanomial{DD: 1}, elo: 0, eloLow: eloFromScore(0.0125), eloHi: eloFromScore(0.9875), los: 0.5, exact: true, sig: sigNoDifference},
		{name: "single pair WW", penta: &Pentanomial{WW: 1}, elo: inf, eloLow: eloFromScore(0.025), eloHi: inf, los: 0.5, exact: true, sig: sigNoDifference},
		// one WD pair: v = 0.75, [0.75·0.025, 1-0.25·0.025]. The bound's
		// 1 - (0.5/0.75)^1 = 1/3 (the value this test used to expect) would
		// call a winning result "likely weaker"; a bound that weak means no
		// evidence, so LOS is clamped to 0.5.
		{name: "single pair WD", penta: &Pentanomial{WD: 1}, elo: eloFromScore(0.75), eloLow: eloFromScore(0.75 * 0.025), eloHi: eloFromScore(1 - 0.25*0.025), los: 0.5, exact: true, sig: sigNoDifference},
		// the mirror: one LD pair, v = 0.25; (0.5/0.75)^1 = 2/3 clamped to 0.5
		{name: "single pair LD", penta: &Pentanomial{LD: 1}, elo: eloFromScore(0.25), eloLow: eloFromScore(0.25 * 0.025), eloHi: eloFromScore(1 - 0.75*0.025), los: 0.5, exact: true, sig: sigNoDifference},
		// three WD pairs: 1 - (2/3)^3 = 19/27 > 0.5, not clamped
		{name: "three pairs WD", penta: &Pentanomial{WD: 3}, elo: eloFromScore(0.75), eloLow: eloFromScore(0.75 * math.Pow(0.025, 1.0/3)), eloHi: eloFromScore(1 - 0.25*math.Pow(0.025, 1.0/3)), los: 19.0 / 27, exact: true, sig: sigNoDifference},
		// W=1, D=1: score .75, var = .5·.25²·2 = .0625, se = .25/√2 = .17678,
		// upper end .75+.34648 > 1 → +inf
		{name: "win and draw", tri: &Trinomial{Wins: 1, Draws: 1}, elo: eloFromScore(0.75), eloLow: eloFromScore(0.75 - 1.959963984540054*0.25/math.Sqrt2), eloHi: inf, los: normalCDF(0.25 / (0.25 / math.Sqrt2)), sig: sigNoDifference},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e Estimate
			var err error
			if tc.tri != nil {
				e, err = AnalyzeTrinomial(*tc.tri, 0.95)
			} else {
				e, err = AnalyzePentanomial(*tc.penta, 0.95)
			}
			if err != nil {
				t.Fatal(err)
			}
			checkNoNaN(t, e)
			checkNear(t, "Elo", e.Elo, tc.elo, 1e-9)
			checkNear(t, "EloLow", e.EloLow, tc.eloLow, 1e-9)
			checkNear(t, "EloHigh", e.EloHigh, tc.eloHi, 1e-9)
			checkNear(t, "LOS", e.LOS, tc.los, 1e-12)
			if e.Exact != tc.exact {
				t.Errorf("Exact = %v, want %v", e.Exact, tc.exact)
			}
			if e.significance() != tc.sig {
				t.Errorf("significance = %v, want %v", e.significance(), tc.sig)
			}
			if !(e.EloLow <= e.Elo && e.Elo <= e.EloHigh) {
				t.Errorf("interval [%v, %v] misses estimate %v", e.EloLow, e.EloHigh, e.Elo)
			}
			if !(e.NEloLow <= e.NElo && e.NElo <= e.NEloHigh) {
				t.Errorf("nElo interval [%v, %v] misses estimate %v", e.NEloLow, e.NEloHigh, e.NElo)
			}
		})
	}
}

func TestEstimateRejectsBadInput(t *testing.T) {
	tests := []struct {
		name  string
		tri   Trinomial
		penta *Pentanomial
		level float64
	}{
		{name: "negative wins", tri: Trinomial{Wins: -1}, level: 0.95},
		{name: "negative draws", tri: Trinomial{Draws: -3, Wins: 5}, level: 0.95},
		{name: "negative pair", penta: &Pentanomial{LD: -1}, level: 0.95},
		{name: "level -0.95", tri: Trinomial{Wins: 1}, level: -0.95},
		{name: "level 1", tri: Trinomial{Wins: 1}, level: 1},
		{name: "level 95", tri: Trinomial{Wins: 1}, level: 95},
		{name: "level NaN", tri: Trinomial{Wins: 1}, level: math.NaN()},
	}
	for _, tc := range tests {
		var err error
		if tc.penta != nil {
			_, err = AnalyzePentanomial(*tc.penta, tc.level)
		} else {
			_, err = AnalyzeTrinomial(tc.tri, tc.level)
		}
		if err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// Swapping sides mirrors everything: Elo and its interval change sign, LOS
// becomes 1-LOS.
func TestEstimateSwapSymmetry(t *testing.T) {
	tris := []Trinomial{{309, 217, 474}, {5, 1, 0}, {0, 3, 2}, {10, 0, 0}, {1, 2, 3}, {40, 38, 122}}
	for _, tri := range tris {
		a, _ := AnalyzeTrinomial(tri, 0.95)
		b, _ := AnalyzeTrinomial(tri.Swapped(), 0.95)
		checkSwapped(t, a, b)
	}
	pentas := []Pentanomial{{12, 85, 190, 100, 13}, {0, 0, 0, 1, 0}, {3, 0, 0, 0, 9}, {1, 2, 3, 4, 5}}
	for _, p := range pentas {
		a, _ := AnalyzePentanomial(p, 0.9)
		b, _ := AnalyzePentanomial(p.Swapped(), 0.9)
		checkSwapped(t, a, b)
	}
}

func checkSwapped(t *testing.T, a, b Estimate) {
	t.Helper()
	checkNear(t, "Elo", b.Elo, -a.Elo, 1e-9)
	checkNear(t, "EloLow", b.EloLow, -a.EloHigh, 1e-9)
	checkNear(t, "EloHigh", b.EloHigh, -a.EloLow, 1e-9)
	checkNear(t, "LOS", b.LOS, 1-a.LOS, 1e-12)
	checkNear(t, "NElo", b.NElo, -a.NElo, 1e-9)
	checkNear(t, "NEloLow", b.NEloLow, -a.NEloHigh, 1e-9)
	checkNear(t, "Score", b.Score, 1-a.Score, 1e-12)
}

// The interval contains the estimate and narrows as the same proportions are
// observed over more games, roughly as 1/sqrt(games).
func TestIntervalContainsAndNarrows(t *testing.T) {
	prev := math.Inf(1)
	for _, k := range []int{1, 2, 4, 16, 64, 256} {
		e, err := AnalyzeTrinomial(Trinomial{Wins: 31 * k, Losses: 22 * k, Draws: 47 * k}, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if !(e.EloLow < e.Elo && e.Elo < e.EloHigh && e.NEloLow < e.NElo && e.NElo < e.NEloHigh) {
			t.Errorf("k=%d: interval misses estimate: %+v", k, e)
		}
		if !(e.HalfWidth() < prev) {
			t.Errorf("k=%d: half-width %.3f did not shrink from %.3f", k, e.HalfWidth(), prev)
		}
		prev = e.HalfWidth()
	}
	small, _ := AnalyzePentanomial(Pentanomial{5, 20, 50, 20, 5}, 0.95)
	large, _ := AnalyzePentanomial(Pentanomial{500, 2000, 5000, 2000, 500}, 0.95)
	checkNear(t, "penta width ratio", small.HalfWidth()/large.HalfWidth(), 10, 0.05)
	// A higher level gives a wider interval.
	e90, _ := AnalyzeTrinomial(Trinomial{30, 20, 50}, 0.90)
	e99, _ := AnalyzeTrinomial(Trinomial{30, 20, 50}, 0.99)
	if !(e99.HalfWidth() > e90.HalfWidth()) {
		t.Error("99% interval is not wider than 90%")
	}
}

func TestCountsHelpers(t *testing.T) {
	var tri Trinomial
	for _, s := range []float64{1, 0.5, 0, 1} {
		if err := tri.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if tri != (Trinomial{Wins: 2, Losses: 1, Draws: 1}) || tri.Points() != 2.5 {
		t.Errorf("Add gave %+v", tri)
	}
	if tri.Add(0.7) == nil {
		t.Error("Add(0.7) accepted")
	}
	var p Pentanomial
	pairs := [][2]float64{{1, 1}, {1, 0}, {0.5, 0.5}, {1, 0.5}, {0, 0.5}, {0, 0}}
	for _, pr := range pairs {
		if err := p.AddPair(pr[0], pr[1]); err != nil {
			t.Fatal(err)
		}
	}
	if p != (Pentanomial{LL: 1, LD: 1, DD: 2, WD: 1, WW: 1}) || p.Points() != 6 || p.Games() != 12 {
		t.Errorf("AddPair gave %+v", p)
	}
	if p.AddPair(2, 0) == nil {
		t.Error("AddPair(2, 0) accepted")
	}
	if PentanomialFromCounts(p.Counts()) != p {
		t.Error("Counts round trip")
	}
}

func TestZeroLevelMeansDefault(t *testing.T) {
	r := Trinomial{Wins: 30, Losses: 20, Draws: 50}
	zero, err1 := AnalyzeTrinomial(r, 0)
	def, err2 := AnalyzeTrinomial(r, DefaultLevel)
	if err1 != nil || err2 != nil || zero != def || zero.Level != 0.95 {
		t.Errorf("level 0 gave %+v (%v), default %+v (%v)", zero, err1, def, err2)
	}
}

// Counts whose sum would overflow, or lose exactness as a float64, are
// rejected; the largest allowed result is analysed.
func TestCountsBounds(t *testing.T) {
	const maxInt = int(^uint(0) >> 1)
	bad := []Trinomial{
		{Wins: maxInt, Losses: 1},
		{Wins: maxInt, Losses: maxInt, Draws: maxInt},
		{Wins: maxResultGames, Draws: 1},
	}
	for _, r := range bad {
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "more than") {
			t.Errorf("%+v: Validate = %v", r, err)
		}
		if _, err := AnalyzeTrinomial(r, 0.95); err == nil {
			t.Errorf("%+v analysed", r)
		}
	}
	if err := (Trinomial{Wins: maxResultGames / 2, Losses: maxResultGames / 2}).Validate(); err != nil {
		t.Errorf("maxResultGames games: %v", err)
	}
	for _, p := range []Pentanomial{{LL: maxInt, WW: maxInt}, {DD: maxResultGames/2 + 1}, {LL: maxResultGames / 4, WW: maxResultGames/4 + 1}} {
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "more than") {
			t.Errorf("%+v: Validate = %v", p, err)
		}
	}
	if err := (Pentanomial{LL: maxResultGames / 4, WW: maxResultGames / 4}).Validate(); err != nil {
		t.Errorf("maxResultGames/2 pairs: %v", err)
	}
}
