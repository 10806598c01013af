package report

import (
	"math"
	"slices"
)

// maxLinePoints bounds the points a line chart draws (and the site's JSON
// carries per series): a chart is a few hundred units wide, so a 50,000-pair
// LLR path drawn point by point is megabytes of SVG that look the same as
// its thinned form.
const maxLinePoints = 2000

// thinBuckets is how many stretches thin cuts a long series into; each
// keeps at most 2 + 2·(series) points.
const thinBuckets = maxLinePoints / 8

// thin picks the indices of n points to draw, all of them when n is at
// most maxLinePoints. Otherwise the series are cut into thinBuckets runs of
// consecutive points and each run keeps its first and last point and the
// lowest and highest value of every series (NaN skipped), so that the line
// keeps its shape at the chart's resolution: peaks, dips, bound crossings
// and the stretches beyond the plot's range are all still drawn.
func thin(n int, series ...func(i int) float64) []int {
	if n <= maxLinePoints {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	var idx []int
	for b := range thinBuckets {
		from, to := b*n/thinBuckets, (b+1)*n/thinBuckets
		if from >= to {
			continue
		}
		keep := []int{from, to - 1}
		for _, v := range series {
			lo, hi := -1, -1
			for i := from; i < to; i++ {
				x := v(i)
				if math.IsNaN(x) {
					continue
				}
				if lo < 0 || x < v(lo) {
					lo = i
				}
				if hi < 0 || x > v(hi) {
					hi = i
				}
			}
			if lo >= 0 {
				keep = append(keep, lo, hi)
			}
		}
		slices.Sort(keep)
		idx = append(idx, slices.Compact(keep)...)
	}
	return idx
}

// thinned is the chart with the points thin picks.
func (c lineChart) thinned() lineChart {
	if len(c.x) <= maxLinePoints {
		return c
	}
	band := len(c.low) == len(c.x) && len(c.high) == len(c.x)
	series := []func(int) float64{func(i int) float64 { return c.y[i] }}
	if band {
		series = append(series, func(i int) float64 { return c.low[i] }, func(i int) float64 { return c.high[i] })
	}
	idx := thin(len(c.x), series...)
	pick := func(s []float64) []float64 {
		out := make([]float64, len(idx))
		for k, i := range idx {
			out[k] = s[i]
		}
		return out
	}
	t := c
	t.x, t.y = pick(c.x), pick(c.y)
	if band {
		t.low, t.high = pick(c.low), pick(c.high)
	} else {
		t.low, t.high = nil, nil
	}
	return t
}

// ThinSeries returns t with each pairing's running estimate (Progress) and
// SPRT path thinned to the points its charts draw: at most a few thousand
// per series, the first and the last, and every stretch's extremes (see
// the HTML charts). The rest of t is shared, not copied. Series that the
// charts draw whole are left whole.
func ThinSeries(t Tournament) Tournament {
	ps := make([]Pairing, len(t.Pairings))
	for i, p := range t.Pairings {
		if n := len(p.Progress); n > maxLinePoints {
			pr := p.Progress
			idx := thin(n, func(i int) float64 { return float64(pr[i].Elo) },
				func(i int) float64 { return float64(pr[i].EloLow) }, func(i int) float64 { return float64(pr[i].EloHigh) })
			p.Progress = make([]Progress, len(idx))
			for k, j := range idx {
				p.Progress[k] = pr[j]
			}
		}
		if p.SPRT != nil && len(p.SPRT.Path) > maxLinePoints {
			s := *p.SPRT
			path := s.Path
			idx := thin(len(path), func(i int) float64 { return float64(path[i].LLR) })
			s.Path = make([]LLRPoint, len(idx))
			for k, j := range idx {
				s.Path[k] = path[j]
			}
			p.SPRT = &s
		}
		ps[i] = p
	}
	t.Pairings = ps
	return t
}
