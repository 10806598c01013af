package report

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// A long series is drawn with a bounded number of points that keep its
// first and last points and every stretch's extremes (a spike of one
// point among 50,000 still shows), and a short one is drawn whole.
func TestThinKeepsShapeAndBoundsPoints(t *testing.T) {
	for _, n := range []int{0, 1, 10, maxLinePoints, maxLinePoints + 1, 50_000} {
		y := make([]float64, n)
		for i := range y {
			y[i] = math.Sin(float64(i) / 1000)
		}
		spike := n / 3
		if n > 0 {
			y[spike] = 99
		}
		idx := thin(n, func(i int) float64 { return y[i] })
		if n <= maxLinePoints {
			if len(idx) != n {
				t.Errorf("n=%d: %d points kept, want all", n, len(idx))
			}
			continue
		}
		if len(idx) > maxLinePoints || !slices.IsSorted(idx) || len(slices.Compact(slices.Clone(idx))) != len(idx) {
			t.Errorf("n=%d: %d points, sorted %v", n, len(idx), slices.IsSorted(idx))
		}
		for _, must := range []int{0, n - 1, spike} {
			if !slices.Contains(idx, must) {
				t.Errorf("n=%d: point %d dropped", n, must)
			}
		}
	}
}

// ThinSeries bounds a pairing's progress and SPRT path and keeps the last
// points (the current estimate and LLR); short series stay as they are.
func TestThinSeries(t *testing.T) {
	const n = 30_000
	p := Pairing{SPRT: &SPRT{}}
	for i := range n {
		p.Progress = append(p.Progress, Progress{Games: 2 * (i + 1), Elo: Float(i % 7)})
		p.SPRT.Path = append(p.SPRT.Path, LLRPoint{Pairs: i + 1, Games: 2 * (i + 1), LLR: Float(i % 5)})
	}
	short := Pairing{Progress: p.Progress[:10]}
	progress, path := slices.Clone(p.Progress), slices.Clone(p.SPRT.Path)
	got := ThinSeries(Tournament{Pairings: []Pairing{p, short}})
	tp := got.Pairings[0]
	if len(tp.Progress) > maxLinePoints || len(tp.SPRT.Path) > maxLinePoints {
		t.Fatalf("%d progress and %d path points", len(tp.Progress), len(tp.SPRT.Path))
	}
	if tp.Progress[len(tp.Progress)-1] != p.Progress[n-1] || tp.SPRT.Path[len(tp.SPRT.Path)-1] != p.SPRT.Path[n-1] {
		t.Errorf("the last points are not kept")
	}
	if !slices.Equal(p.Progress, progress) || !slices.Equal(p.SPRT.Path, path) {
		t.Errorf("ThinSeries changed its argument's series")
	}
	if len(got.Pairings[1].Progress) != 10 {
		t.Errorf("a short series was thinned")
	}
	// The chart of the long pairing draws at most maxLinePoints points.
	svg := eloChart(p, 0.95).svg()
	i := strings.Index(svg, `<polyline class="line" points="`)
	if i < 0 {
		t.Fatal("no line")
	}
	pts := svg[i+len(`<polyline class="line" points="`):]
	pts = pts[:strings.IndexByte(pts, '"')]
	if c := strings.Count(pts, " ") + 1; c > maxLinePoints {
		t.Errorf("the chart draws %d points", c)
	}
}
