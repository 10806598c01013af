package stats

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// penta is the 95% estimate of pentanomial counts.
func penta(t *testing.T, counts [5]int) Estimate {
	t.Helper()
	e, err := AnalyzePentanomial(PentanomialFromCounts(counts), 0.95)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The expected figures were computed apart from this package (Python:
// the pentanomial mean and variance per pair, the Elo SE by the delta
// method, statistics.NormalDist for z and p).
func TestNewContrast(t *testing.T) {
	a, b := penta(t, [5]int{2, 5, 10, 8, 5}), penta(t, [5]int{4, 8, 10, 5, 3})
	c, d := penta(t, [5]int{3, 20, 41, 27, 9}), penta(t, [5]int{10, 30, 60, 20, 5})
	tests := []struct {
		name                  string
		es                    []Estimate
		coef                  []float64
		level                 float64
		elo, se, low, high, p float64
		significant           bool
		text                  string
	}{
		{"difference", []Estimate{a, b}, []float64{1, -1}, 0.95,
			81.531833, 52.055424, -20.494924, 183.558589, 0.11729, false,
			"+81.5 ± 102.0 Elo (95%), SE 52.1, z +1.57, p 0.117 — not significant at the 5% level"},
		{"difference at 99%", []Estimate{a, b}, []float64{1, -1}, 0.99,
			81.531833, 52.055424, -52.554054, 215.61772, 0.11729, false, "(99%)"},
		{"interaction", []Estimate{a, b, c, d}, []float64{1, -1, -1, 1}, 0.95,
			20.571245, 56.564536, -90.293207, 131.435698, 0.716099, false, "p 0.716"},
		{"one match", []Estimate{c}, []float64{1}, 0.95,
			33.106216, 16.758338, 0.260477, 65.951955, 0.048211, true, "significant at the 5% level"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewContrast(tt.es, tt.coef, tt.level)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct {
				name      string
				got, want float64
			}{{"Elo", c.Elo, tt.elo}, {"SE", c.SE, tt.se}, {"low", c.EloLow, tt.low}, {"high", c.EloHigh, tt.high}, {"p", c.P, tt.p}} {
				if math.Abs(f.got-f.want) > 1e-5 {
					t.Errorf("%s = %.6f, want %.6f", f.name, f.got, f.want)
				}
			}
			if c.Significant() != tt.significant {
				t.Errorf("significant %v, want %v", c.Significant(), tt.significant)
			}
			if !strings.Contains(c.String(), tt.text) {
				t.Errorf("String() = %q, want it to hold %q", c.String(), tt.text)
			}
		})
	}
}

func TestNewContrastErrors(t *testing.T) {
	ok := penta(t, [5]int{2, 5, 10, 8, 5})
	exact := ok
	exact.Exact = true
	inf := ok
	inf.EloHigh = math.Inf(1)
	tests := []struct {
		name     string
		es       []Estimate
		coef     []float64
		level    float64
		noSpread bool
	}{
		{"no estimates", nil, nil, 0.95, false},
		{"coefficients short", []Estimate{ok, ok}, []float64{1}, 0.95, false},
		{"bad level", []Estimate{ok}, []float64{1}, 1.5, false},
		{"all pairs alike", []Estimate{ok, exact}, []float64{1, -1}, 0.95, true},
		{"unbounded interval", []Estimate{inf, ok}, []float64{1, -1}, 0.95, true},
		{"no games", []Estimate{{Level: 0.95}}, []float64{1}, 0.95, true},
		{"zero coefficients", []Estimate{ok, ok}, []float64{0, 0}, 0.95, true},
	}
	for _, tt := range tests {
		_, err := NewContrast(tt.es, tt.coef, tt.level)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if errors.Is(err, errNoSpread) != tt.noSpread {
			t.Errorf("%s: %v; errNoSpread %v, want %v", tt.name, err, errors.Is(err, errNoSpread), tt.noSpread)
		}
	}
}

// Reversing an estimate must give what analysing the mirrored counts
// gives (pentanomial: the pair scores reversed; trinomial: W and L swapped).
func TestEstimateReversed(t *testing.T) {
	for _, c := range [][5]int{{3, 20, 41, 27, 9}, {0, 5, 10, 2, 0}, {1, 0, 0, 0, 4}} {
		e, err := AnalyzePentanomial(PentanomialFromCounts(c), 0.95)
		if err != nil {
			t.Fatal(err)
		}
		m, err := AnalyzePentanomial(PentanomialFromCounts([5]int{c[4], c[3], c[2], c[1], c[0]}), 0.95)
		if err != nil {
			t.Fatal(err)
		}
		assertSameEstimate(t, e.Reversed(), m)
	}
	for _, c := range [][2]Trinomial{
		{{Wins: 31, Losses: 22, Draws: 40}, {Wins: 22, Losses: 31, Draws: 40}},
		{{Wins: 7}, {Losses: 7}}, // exact: every game won
		{{Draws: 5}, {Draws: 5}}, // exact: every game drawn
	} {
		e, err := AnalyzeTrinomial(c[0], 0.9)
		if err != nil {
			t.Fatal(err)
		}
		m, err := AnalyzeTrinomial(c[1], 0.9)
		if err != nil {
			t.Fatal(err)
		}
		assertSameEstimate(t, e.Reversed(), m)
	}
}

func TestEloSEErrors(t *testing.T) {
	won, _ := AnalyzeTrinomial(Trinomial{Wins: 7}, 0.95)
	drawn, _ := AnalyzePentanomial(PentanomialFromCounts([5]int{0, 0, 6, 0, 0}), 0.95)
	for _, tt := range []struct {
		name string
		e    Estimate
		text string
	}{
		{"no games", Estimate{Level: 0.95}, "no games"},
		{"every game won", won, "every game had the same result"},
		{"every pair drawn", drawn, "every pair had the same result"},
		{"unbounded", Estimate{Games: 4, Level: 0.95, Elo: 200, EloLow: 10, EloHigh: math.Inf(1)}, "unbounded"},
	} {
		_, err := tt.e.EloSE()
		if !errors.Is(err, errNoSpread) || !strings.Contains(err.Error(), tt.text) {
			t.Errorf("%s: %v; want errNoSpread saying %q", tt.name, err, tt.text)
		}
	}
}

func assertSameEstimate(t *testing.T, got, want Estimate) {
	t.Helper()
	for _, f := range []struct {
		name string
		g, w float64
	}{
		{"Points", got.Points, want.Points}, {"Score", got.Score, want.Score},
		{"ScoreLow", got.ScoreLow, want.ScoreLow}, {"ScoreHigh", got.ScoreHigh, want.ScoreHigh},
		{"Elo", got.Elo, want.Elo}, {"EloLow", got.EloLow, want.EloLow}, {"EloHigh", got.EloHigh, want.EloHigh},
		{"NElo", got.NElo, want.NElo}, {"NEloLow", got.NEloLow, want.NEloLow}, {"NEloHigh", got.NEloHigh, want.NEloHigh},
		{"LOS", got.LOS, want.LOS}, {"DrawRatio", got.DrawRatio, want.DrawRatio},
	} {
		if !(math.Abs(f.g-f.w) < 1e-9 || f.g == f.w) {
			t.Errorf("%s = %v, want %v", f.name, f.g, f.w)
		}
	}
}

// The expected r and interval were computed apart (Python: Pearson's r,
// tanh(atanh r ± 1.959964/√(n − 3))).
func TestNewCorrelation(t *testing.T) {
	x := []float64{0, 1, 2, 1, 0.5, 1.5, 2, 0, 1, 1}
	y := []float64{1, 1, 2, 0.5, 0, 2, 1.5, 0.5, 1, 0}
	c, err := NewCorrelation(x, y, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.R-0.650600) > 1e-6 || math.Abs(c.Low-0.035527) > 1e-6 || math.Abs(c.High-0.908197) > 1e-6 || c.N != 10 {
		t.Errorf("got %+v, want r 0.650600 [0.035527, 0.908197] over 10", c)
	}
	if s := c.String(); s != "r +0.651 [+0.036, +0.908] over 10" {
		t.Errorf("String() = %q", s)
	}
	neg := make([]float64, len(y))
	for i, v := range y {
		neg[i] = -v
	}
	if c2, _ := NewCorrelation(x, neg, 0.95); math.Abs(c2.R+c.R) > 1e-12 || math.Abs(c2.Low+c.High) > 1e-12 {
		t.Errorf("negating y gave %+v, want the mirror of %+v", c2, c)
	}
	if c3, _ := NewCorrelation(x, x, 0.95); c3.R != 1 || c3.Low != 1 {
		t.Errorf("x against itself: %+v", c3)
	}
	for _, bad := range []struct {
		name string
		x, y []float64
	}{
		{"lengths differ", x, y[:9]},
		{"three samples", x[:3], y[:3]},
		{"constant", x, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
	} {
		if _, err := NewCorrelation(bad.x, bad.y, 0.95); err == nil {
			t.Errorf("%s: no error", bad.name)
		}
	}
}
