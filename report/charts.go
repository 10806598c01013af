package report

import (
	"fmt"
	"math"

	"selfplay/stats"
)

// eloChart is the running Elo estimate of a pairing with its interval band.
func eloChart(p Pairing, lvl float64) lineChart {
	c := lineChart{
		title:  fmt.Sprintf("Elo of %s vs %s (%s, %s interval)", p.First, p.Second, p.VerdictModel, stats.FormatLevel(lvl)),
		xLabel: "games",
		yLabel: "Elo",
		refs:   []refLine{{y: 0, label: "0", kind: "zero"}},
	}
	if len(p.Progress) == 0 {
		c.note = "no games"
		c.yMin, c.yMax = -100, 100
		return c
	}
	for _, pt := range p.Progress {
		c.x = append(c.x, float64(pt.Games))
		c.y = append(c.y, float64(pt.Elo))
		c.low = append(c.low, float64(pt.EloLow))
		c.high = append(c.high, float64(pt.EloHigh))
	}
	c.yMin, c.yMax = eloRange(p.Progress)
	return c
}

// eloRange picks the vertical range of an Elo chart from the data: every
// finite value, but no more than 2.5 times the final interval's reach
// from 0 (early estimates and intervals are huge or unbounded and would
// flatten the rest; what lies beyond is drawn marked on the edge), and
// never less than ±50 Elo around 0.
func eloRange(pts []Progress) (lo, hi float64) {
	last := pts[len(pts)-1]
	reach := 800.0
	if a, b := float64(last.EloLow), float64(last.EloHigh); finite(a) && finite(b) {
		reach = max(50, 2.5*max(math.Abs(a), math.Abs(b)))
	}
	lo, hi = -50, 50
	for _, pt := range pts {
		for _, v := range []Float{pt.Elo, pt.EloLow, pt.EloHigh} {
			if x := float64(v); finite(x) {
				lo, hi = min(lo, max(x, -reach)), max(hi, min(x, reach))
			}
		}
	}
	pad := (hi - lo) * 0.05
	return lo - pad, hi + pad
}

// llrChart is the SPRT's log-likelihood ratio after each pair with the
// bounds at which it stops.
func llrChart(p Pairing) lineChart {
	s := p.SPRT
	c := lineChart{
		title:  fmt.Sprintf("SPRT log-likelihood ratio of %s vs %s [%s, %s] %s", p.First, p.Second, fixed(s.Elo0, 2), fixed(s.Elo1, 2), s.Model),
		xLabel: "games",
		yLabel: "LLR",
		refs: []refLine{
			{y: float64(s.Upper), label: "H1 " + fixed(s.Upper, 2), kind: "bound"},
			{y: 0, label: "0", kind: "zero"},
			{y: float64(s.Lower), label: "H0 " + fixed(s.Lower, 2), kind: "bound"},
		},
	}
	lo, hi := float64(s.Lower), float64(s.Upper)
	if len(s.Path) > 0 {
		c.x, c.y = []float64{0}, []float64{0} // the test starts at LLR 0
	}
	for _, pt := range s.Path {
		c.x = append(c.x, float64(pt.Games))
		c.y = append(c.y, float64(pt.LLR))
		if x := float64(pt.LLR); finite(x) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	if len(s.Path) == 0 {
		c.note = "no complete pairs"
	}
	pad := (hi - lo) * 0.08
	c.yMin, c.yMax = lo-pad, hi+pad
	return c
}

// ratingChart is the tournament's rating table as points with interval
// bars, best first, on a scale that holds every finite interval.
func ratingChart(t Tournament, lvl float64) intervalChart {
	anchor := anchorText(t, "average")
	c := intervalChart{
		title:  fmt.Sprintf("Ratings of %s (Bradley-Terry, %s intervals)", t.Name, stats.FormatLevel(lvl)),
		xLabel: "rating (Elo, " + anchor + ")",
		ref:    float64(t.RatingOffset),
	}
	for _, r := range t.Ratings {
		row := intervalRow{label: r.Engine, value: float64(r.Rating), low: float64(r.Low), high: float64(r.High)}
		switch {
		case r.Status == "unconnected":
			row.note, row.text = "not rated: no games connect it to the others", "n/a"
			row.value, row.low, row.high = math.NaN(), math.NaN(), math.NaN() // its 0 would widen the scale
		case r.Games == 0:
			row.note, row.text = "no games", "n/a"
			row.value, row.low, row.high = math.NaN(), math.NaN(), math.NaN()
		case finite(row.value) && finite(row.low) && finite(row.high):
			row.text = ratingText(t, r.Rating) + " ± " + errorText(r.Error)
		default:
			row.text = ratingText(t, r.Rating) + " " + ratingInterval(t, r.Low, r.High)
		}
		c.rows = append(c.rows, row)
	}
	return c
}
