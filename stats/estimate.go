package stats

import (
	"fmt"
	"math"
)

// Model names the variance model behind an interval.
type Model int

const (
	// ModelTrinomial treats every game as an independent sample (W/L/D).
	ModelTrinomial Model = iota
	// ModelPentanomial treats every game pair as an independent sample;
	// use it whenever games are played in pairs with colours reversed.
	ModelPentanomial
)

func (m Model) String() string {
	if m == ModelPentanomial {
		return "pentanomial"
	}
	return "trinomial"
}

// DefaultLevel is the confidence level used when none is chosen.
const DefaultLevel = 0.95

// Estimate is the two-player summary of a match from the first engine's
// point of view. No field is ever NaN; Elo fields may be ±Inf.
type Estimate struct {
	Model Model
	Level float64 // confidence level of the intervals, e.g. 0.95

	Games  int     // games played
	Pairs  int     // game pairs (pentanomial model only, else 0)
	Points float64 // first engine's points

	// Score is the mean points per game; ScoreLow and ScoreHigh bound it,
	// clamped to [0, 1].
	Score, ScoreLow, ScoreHigh float64

	// DrawRatio is drawn games / games for the trinomial model and
	// pairs with pair score 1 (DD or WL) / pairs for the pentanomial model,
	// which is what fastchess's and fishtest's pentanomial draw ratio
	// report (the pentanomial counts cannot tell DD from WL).
	DrawRatio float64

	// Elo is eloFromScore(Score); EloLow and EloHigh are the score interval
	// endpoints mapped through eloFromScore, so the interval is asymmetric
	// in Elo. A score endpoint at 0 or 1 maps to -Inf or +Inf.
	Elo, EloLow, EloHigh float64

	// LOS is the likelihood of superiority, the probability that the
	// first engine is the stronger one: Phi((Score-0.5)/se) with se the
	// standard error of the score under the model (per game or per pair),
	// as fishtest's get_elo and fastchess's los() compute it. It is
	// 1 minus the one-sided p-value of "not stronger". When Exact, the
	// p-value comes from the exact bound instead, and LOS is never below
	// 0.5 for a winning result nor above it for a losing one.
	LOS float64

	// NElo is normalized Elo (fishtest): (Score-0.5)/σ·800/ln10 with σ the
	// standard deviation per game (in the pentanomial model, that of the
	// per-game pair score times √2). NEloLow and NEloHigh bound it. When
	// Exact, NElo is ±Inf (or 0 for a score of exactly 0.5) and the
	// interval is unbounded.
	NElo, NEloLow, NEloHigh float64

	// Exact is true when every game (trinomial) or pair (pentanomial) had
	// the same result, so the sample variance is zero and the normal
	// approximation cannot say anything about the spread. Score interval
	// and LOS then come from an exact worst-case bound instead (see
	// zeroVarianceBounds) and the normalized Elo interval is unbounded.
	Exact bool
}

// HalfWidth is half the width of the Elo interval, the "±" figure fishtest
// (get_elo's elo95) and fastchess (EloBase error_) print. It is +Inf when
// the interval is unbounded.
func (e Estimate) HalfWidth() float64 {
	return (e.EloHigh - e.EloLow) / 2
}

// AnalyzeTrinomial summarises W/L/D counts with per-game variance. Level is
// the two-sided confidence level in (0, 1); 0 means DefaultLevel.
func AnalyzeTrinomial(t Trinomial, level float64) (Estimate, error) {
	if err := t.Validate(); err != nil {
		return Estimate{}, err
	}
	counts, values := t.bins()
	e, err := analyze(counts, values, ModelTrinomial, level)
	if err != nil {
		return Estimate{}, err
	}
	e.Games = t.Games()
	e.Points = t.Points()
	if e.Games > 0 {
		e.DrawRatio = float64(t.Draws) / float64(e.Games)
	}
	return e, nil
}

// AnalyzePentanomial summarises game-pair counts with per-pair variance.
// Level is the two-sided confidence level in (0, 1); 0 means DefaultLevel.
func AnalyzePentanomial(p Pentanomial, level float64) (Estimate, error) {
	if err := p.Validate(); err != nil {
		return Estimate{}, err
	}
	counts, values := p.bins()
	e, err := analyze(counts, values, ModelPentanomial, level)
	if err != nil {
		return Estimate{}, err
	}
	e.Pairs = p.Pairs()
	e.Games = p.Games()
	e.Points = p.Points()
	if e.Pairs > 0 {
		e.DrawRatio = float64(p.DD) / float64(e.Pairs)
	}
	return e, nil
}

// validLevel rejects confidence levels outside (0, 1).
func validLevel(level float64) error {
	if !(level > 0 && level < 1) {
		return fmt.Errorf("confidence level %v is not in (0, 1)", level)
	}
	return nil
}

// analyze computes the figures shared by both models from counts per bin and
// the per-game score of each bin. The samples are games (trinomial) or pairs
// (pentanomial); their scores are on the per-game scale [0, 1] either way.
//
// Follows fishtest stat_util.get_elo and fastchess EloWDL/EloPentanomial:
// mean and population variance of the sample scores, standard error
// sqrt(var/N), interval mean ± z·se mapped through eloFromScore, and
// LOS = Phi((mean-0.5)/se). Unlike fishtest it does not add 1e-3 pseudo-counts
// to empty bins, so an all-wins result gives +Inf rather than a clamped value.
func analyze(counts, values []float64, model Model, level float64) (Estimate, error) {
	if level == 0 {
		level = DefaultLevel
	}
	if err := validLevel(level); err != nil {
		return Estimate{}, err
	}
	e := Estimate{Model: model, Level: level}

	samples, nonEmpty, only := 0.0, 0, 0
	for i, c := range counts {
		samples += c
		if c > 0 {
			nonEmpty++
			only = i
		}
	}
	if samples == 0 {
		return noGames(e), nil
	}

	m := momentsOf(values, distribution(counts))
	e.Score = m.mean
	e.Elo = eloFromScore(e.Score)

	if nonEmpty == 1 {
		e.Exact = true
		e.ScoreLow, e.ScoreHigh, e.LOS = zeroVarianceBounds(values[only], samples, level)
		e.EloLow, e.EloHigh = eloFromScore(e.ScoreLow), eloFromScore(e.ScoreHigh)
		e.NElo = signedInf(e.Score - 0.5)
		e.NEloLow, e.NEloHigh = math.Inf(-1), math.Inf(1)
		return e, nil
	}

	z := twoSidedZ(level)
	se := math.Sqrt(m.variance / samples)
	e.ScoreLow = math.Max(0, e.Score-z*se)
	e.ScoreHigh = math.Min(1, e.Score+z*se)
	e.EloLow, e.EloHigh = eloFromScore(e.ScoreLow), eloFromScore(e.ScoreHigh)
	e.LOS = normalCDF((e.Score - 0.5) / se)
	e.NElo, e.NEloLow, e.NEloHigh = normalizedElo(m, samples, model, z)
	return e, nil
}

// noGames is the estimate of an empty match, a case neither fishtest nor
// fastchess defines: no evidence either way, so the score is taken as 0.5
// (Elo 0, LOS 0.5) and every interval is unbounded.
func noGames(e Estimate) Estimate {
	e.Score, e.ScoreLow, e.ScoreHigh = 0.5, 0, 1
	e.EloLow, e.EloHigh = math.Inf(-1), math.Inf(1)
	e.LOS = 0.5
	e.NEloLow, e.NEloHigh = math.Inf(-1), math.Inf(1)
	return e
}

// signedInf is +Inf for positive x, -Inf for negative x and 0 for zero.
func signedInf(x float64) float64 {
	switch {
	case x > 0:
		return math.Inf(1)
	case x < 0:
		return math.Inf(-1)
	}
	return 0
}

// zeroVarianceBounds handles samples that all scored the same value v
// (all draws, all wins, a single game...). The normal approximation has no
// spread to work with there (fastchess would print a zero-width interval,
// fishtest pads empty bins with 1e-3 pseudo-counts and gets an overconfident
// one), so this inverts an exact test instead.
//
// For any distribution on [0, 1] with mean s, the probability of the value v
// is at most s/v when s < v (put the rest of the mass at 0) and
// (1-s)/(1-v) when s > v (rest at 1). Seeing v in all n samples has
// probability at most that bound to the power n, so every s for which it is
// below a = (1-level)/2 is rejected on that side:
//
//	s_low = v·a^(1/n),  s_high = 1 - (1-v)·a^(1/n).
//
// The same worst case gives the one-sided p-value of "no stronger than
// equal" (s ≤ 0.5) when v > 0.5, and LOS is 1 minus it, just as fishtest's
// LOS is 1 minus the z-test p-value: LOS = 1-(0.5/v)^n, and symmetrically
// (0.5/(1-v))^n when v < 0.5, and 0.5 when v = 0.5. For n wins this is the
// familiar a^(1/n) "rule of three" style bound.
//
// A worst-case bound that is weak (p-value above 0.5, e.g. 1-(0.5/0.75) =
// 1/3 for a single WD pair) says only that there is no evidence either way,
// not that a winning result makes the first engine likely weaker, so LOS is
// clamped to at least 0.5 when v > 0.5 and at most 0.5 when v < 0.5.
func zeroVarianceBounds(v, n, level float64) (low, high, los float64) {
	r := math.Pow((1-level)/2, 1/n)
	low, high = v*r, 1-(1-v)*r
	switch {
	case v > 0.5:
		los = max(0.5, 1-math.Pow(0.5/v, n))
	case v < 0.5:
		los = min(0.5, math.Pow(0.5/(1-v), n))
	default:
		los = 0.5
	}
	return low, high, los
}
