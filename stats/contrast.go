package stats

import (
	"errors"
	"fmt"
	"math"
)

// Contrast is a signed sum of the Elo of independent matches: the
// difference between two (a − b: does a change gain more at a longer time
// control?) or the interaction of a 2×2 design ((a − b) − (c − d): does
// depth help one engine more than the other?), with its interval in the
// normal approximation.
type Contrast struct {
	Level           float64 // confidence level of the interval
	Elo             float64 // the signed sum of the matches' Elo
	SE              float64 // its standard error
	EloLow, EloHigh float64 // Elo ∓ z·SE
	Z               float64 // Elo / SE
	P               float64 // two-sided p-value of a true contrast of 0
}

// errNoSpread is wrapped by NewContrast's error for a match whose Elo or
// interval is infinite or whose samples all had the same result: it has
// no standard error.
var errNoSpread = errors.New("no standard error")

// NewContrast combines the estimates of independent matches with the
// coefficients coef (one per estimate, such as +1 and -1). A match's
// standard error in Elo is its score's (the score interval's half-width
// over its level's z) times the slope of Elo at its score, 400 / (ln 10 ·
// s(1 − s)): the delta method, so it does not depend on the level, as half
// the asymmetric Elo interval over z would, slightly. Independent matches
// add their variances. The interval is at level (0 means DefaultLevel).
func NewContrast(es []Estimate, coef []float64, level float64) (Contrast, error) {
	if level == 0 {
		level = DefaultLevel
	}
	if err := validLevel(level); err != nil {
		return Contrast{}, err
	}
	if len(es) == 0 || len(es) != len(coef) {
		return Contrast{}, fmt.Errorf("%d estimates with %d coefficients", len(es), len(coef))
	}
	c := Contrast{Level: level}
	variance := 0.0
	for i, e := range es {
		se, err := e.EloSE()
		if err != nil {
			return Contrast{}, fmt.Errorf("match %d: %w", i+1, err)
		}
		c.Elo += coef[i] * e.Elo
		variance += coef[i] * coef[i] * se * se
	}
	c.SE = math.Sqrt(variance)
	if c.SE == 0 {
		return Contrast{}, fmt.Errorf("the coefficients are all 0: %w", errNoSpread)
	}
	z := twoSidedZ(level)
	c.EloLow, c.EloHigh = c.Elo-z*c.SE, c.Elo+z*c.SE
	c.Z = c.Elo / c.SE
	c.P = 2 * normalCDF(-math.Abs(c.Z))
	return c, nil
}

// EloSE is the estimate's standard error in Elo (NewContrast's delta
// method), or errNoSpread.
func (e Estimate) EloSE() (float64, error) {
	switch {
	case e.Games == 0:
		return 0, fmt.Errorf("no games: %w", errNoSpread)
	case e.Exact:
		unit := "game"
		if e.Model == ModelPentanomial {
			unit = "pair"
		}
		return 0, fmt.Errorf("every %s had the same result: %w", unit, errNoSpread)
	case math.IsInf(e.Elo, 0) || math.IsInf(e.EloLow, 0) || math.IsInf(e.EloHigh, 0):
		return 0, fmt.Errorf("the Elo interval is unbounded (%s): %w", FormatEloInterval(e), errNoSpread)
	}
	if err := validLevel(e.Level); err != nil {
		return 0, err
	}
	seScore := (e.ScoreHigh - e.ScoreLow) / 2 / twoSidedZ(e.Level)
	return seScore * 400 / math.Ln10 / (e.Score * (1 - e.Score)), nil
}

// Significant reports whether the interval excludes 0.
func (c Contrast) Significant() bool { return c.EloLow > 0 || c.EloHigh < 0 }

// String is the contrast in one line, e.g.
//
//	+27.8 ± 36.7 Elo (95%), SE 18.7, z +1.49, p 0.138 — not significant at the 5% level
func (c Contrast) String() string {
	verdict := "not significant"
	if c.Significant() {
		verdict = "significant"
	}
	return fmt.Sprintf("%s ± %s Elo (%s), SE %s, z %s, p %s — %s at the %s level",
		FormatSigned(c.Elo, 1), FormatFloat(c.EloHigh-c.Elo, 1), FormatLevel(c.Level),
		FormatFloat(c.SE, 1), FormatSigned(c.Z, 2), formatP(c.P), verdict, FormatLevel(1-c.Level))
}

// formatP prints a p-value with three decimals, below 0.001 as "<0.001".
func formatP(p float64) string {
	if p < 0.0005 {
		return "<0.001"
	}
	return FormatFloat(p, 3)
}

// Reversed is the estimate from the second engine's point of view: the
// score mirrored about 1/2, the Elo and normalized Elo negated with their
// intervals, the LOS complemented. (Elo is odd about a score of 1/2, so
// this is exactly what analysing the mirrored counts gives.)
func (e Estimate) Reversed() Estimate {
	r := e
	r.Points = float64(e.Games) - e.Points
	r.Score, r.ScoreLow, r.ScoreHigh = 1-e.Score, 1-e.ScoreHigh, 1-e.ScoreLow
	r.Elo, r.EloLow, r.EloHigh = -e.Elo, -e.EloHigh, -e.EloLow
	r.NElo, r.NEloLow, r.NEloHigh = -e.NElo, -e.NEloHigh, -e.NEloLow
	r.LOS = 1 - e.LOS
	return r
}

// Correlation is Pearson's r of paired samples with its interval at level
// by Fisher's z transformation (tanh(atanh r ± z/√(n − 3))).
type Correlation struct {
	N            int
	R, Low, High float64
	Level        float64
}

// NewCorrelation computes r of x and y (the same length, at least 4, and
// neither constant). Level 0 means DefaultLevel.
func NewCorrelation(x, y []float64, level float64) (Correlation, error) {
	if level == 0 {
		level = DefaultLevel
	}
	if err := validLevel(level); err != nil {
		return Correlation{}, err
	}
	n := len(x)
	if n != len(y) {
		return Correlation{}, fmt.Errorf("%d values against %d", len(x), len(y))
	}
	if n < 4 {
		return Correlation{}, fmt.Errorf("%d samples: want at least 4", n)
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(n)
	my /= float64(n)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return Correlation{}, errors.New("a constant sample has no correlation")
	}
	r := max(-1, min(1, sxy/math.Sqrt(sxx*syy)))
	c := Correlation{N: n, R: r, Level: level, Low: r, High: r}
	if math.Abs(r) < 1 {
		h := twoSidedZ(level) / math.Sqrt(float64(n-3))
		c.Low, c.High = math.Tanh(math.Atanh(r)-h), math.Tanh(math.Atanh(r)+h)
	}
	return c, nil
}

// String is the correlation in one line, e.g. "r -0.071 [-0.224, +0.086] over 158".
func (c Correlation) String() string {
	return fmt.Sprintf("r %s [%s, %s] over %d", FormatSigned(c.R, 3), FormatSigned(c.Low, 3), FormatSigned(c.High, 3), c.N)
}
