package stats

import "math"

// The figures of the result blocks that fastchess and cutechess-cli print,
// with their formulas and their digits (runner's -output format=): unlike
// Estimate they keep the tools' undefined cases as the tools compute them
// (NaN for no games, a NaN bound past a score of 1, a zero-width interval
// for one result only), because a log scraper compares their text.

// ci95Z is fastchess's CI95ZSCORE (matchmaking/elo/elo.hpp), the z of a
// two-sided 95% interval.
const ci95Z = 1.959963984540054

// logisticElo is -400·log10(1/s - 1) unclamped: the formula of
// eloFromScore, which names its edge cases, and of fastchess's
// EloBase::scoreToEloDiff and cutechess-cli's Elo::diff, which do not
// (a score past 1 is NaN there).
func logisticElo(s float64) float64 { return -400 * math.Log10(1/s-1) }

// FixedSigma is fastchess's Elo of a match (EloWDL, elo_wdl.cpp, for
// game counts; EloPentanomial, elo_pentanomial.cpp, for game pairs): the
// Elo and its 95% margin, the normalized Elo and its margin with the
// standard deviation held fixed (where Estimate's follows fishtest), and
// the LOS in percent.
type FixedSigma struct{ Elo, Margin, NElo, NMargin, LOS float64 }

// FastchessTrinomial is fastchess's EloWDL of W/L/D counts.
func FastchessTrinomial(t Trinomial) FixedSigma {
	counts, values := t.bins()
	return fixedSigma(counts, values, 1)
}

// FastchessPentanomial is fastchess's EloPentanomial of pair counts.
func FastchessPentanomial(p Pentanomial) FixedSigma {
	counts, values := p.bins()
	return fixedSigma(counts, values, 2)
}

// fixedSigma is fastchess's figures of counts per bin with the per-game
// score of each bin; perPair is 2 for pairs (the pair's variance is twice a
// game's in nElo), else 1. It sums as fastchess does, best bin first and
// w·(v-s)² (momentsOf sums worst first and (w·d)·d: other last bits,
// which a figure printed at a rounding edge would show).
func fixedSigma(counts, values []float64, perPair float64) FixedSigma {
	n := 0.0
	for _, c := range counts {
		n += c
	}
	score, variance := 0.0, 0.0
	for i := len(counts) - 1; i >= 0; i-- { // best bin first, as fastchess sums
		score += counts[i] / n * values[i]
	}
	for i := len(counts) - 1; i >= 0; i-- {
		variance += counts[i] / n * math.Pow(values[i]-score, 2)
	}
	perSample := variance / n
	se := math.Sqrt(perSample)
	hi, lo := score+ci95Z*se, score-ci95Z*se
	nElo := func(s float64) float64 { return (s - 0.5) / math.Sqrt(perPair*variance) * neloPerT }
	return FixedSigma{
		Elo: logisticElo(score), Margin: (logisticElo(hi) - logisticElo(lo)) / 2,
		NElo: nElo(score), NMargin: (nElo(hi) - nElo(lo)) / 2,
		LOS: 100 * (1 - math.Erf(-(score-0.5)/math.Sqrt(2*perSample))) / 2,
	}
}

// Cutechess is cutechess-cli's Elo of W/L/D counts (projects/lib/src/elo.cpp):
// the difference, its 95% margin, the LOS in percent and the draw ratio.
type Cutechess struct{ Elo, Margin, LOS, DrawRatio float64 }

// CutechessTrinomial is cutechess-cli's Elo of the counts.
func CutechessTrinomial(t Trinomial) Cutechess {
	n := float64(t.Games())
	w, l, d := float64(t.Wins)/n, float64(t.Losses)/n, float64(t.Draws)/n
	mu := w + d/2
	stdev := math.Sqrt(w*math.Pow(1-mu, 2)+l*math.Pow(0-mu, 2)+d*math.Pow(0.5-mu, 2)) / math.Sqrt(n)
	muMin, muMax := mu+cutechessPhiInv(0.025)*stdev, mu+cutechessPhiInv(0.975)*stdev
	return Cutechess{
		Elo:       logisticElo(mu),
		Margin:    (logisticElo(muMax) - logisticElo(muMin)) / 2,
		LOS:       100 * (0.5 + 0.5*math.Erf(float64(t.Wins-t.Losses)/math.Sqrt(2*float64(t.Wins+t.Losses)))),
		DrawRatio: d,
	}
}

// cutechessPhiInv is elo.cpp's phiInv with its approximation of erfInv
// (not the exact inverse, normalQuantile: the digits are cutechess-cli's).
func cutechessPhiInv(p float64) float64 {
	const pi = 3.1415926535897
	x := 2*p - 1
	a := 8 * (pi - 3) / (3 * pi * (4 - pi))
	y := math.Log(1 - x*x)
	z := 2/(pi*a) + y/2
	r := math.Sqrt(math.Sqrt(z*z-y/a) - z)
	if x < 0 {
		r = -r
	}
	return math.Sqrt2 * r
}
