package report

import (
	"math"
	"strings"
	"testing"
)

// A value beyond a chart's range is drawn on the edge and marked there:
// every clamped stretch gets an orange edge line, the line's own also
// arrowheads, and the chart explains the mark; a chart inside its range
// has none of it.
func TestLineChartMarksClampedValues(t *testing.T) {
	inside := lineChart{x: []float64{2, 4, 6}, y: []float64{10, 20, 15}, low: []float64{-40, -20, -10},
		high: []float64{60, 50, 40}, yMin: -50, yMax: 80}
	if svg := inside.svg(); strings.Contains(svg, `class="clip"`) || strings.Contains(svg, "beyond the scale") {
		t.Errorf("a chart within its range has clamp marks:\n%s", svg)
	}
	tests := []struct {
		name          string
		c             lineChart
		clips, arrows int
	}{
		// The band's high above the range at the first two points, its
		// low below at the first: two edge marks, no arrowheads.
		{"band", lineChart{x: []float64{2, 4, 6}, y: []float64{10, 20, 15}, low: []float64{-90, -20, -10},
			high: []float64{math.Inf(1), 120, 40}, yMin: -50, yMax: 80}, 2, 0},
		// An infinite Elo for two points, then finite, then far below.
		{"line", lineChart{x: []float64{2, 4, 6, 8}, y: []float64{math.Inf(1), math.Inf(1), 10, -500}, yMin: -50, yMax: 80}, 2, 3},
	}
	for _, tt := range tests {
		svg := tt.c.svg()
		// One more clip line is the legend's sample.
		if got := strings.Count(svg, `class="clip"`); got != tt.clips+1 {
			t.Errorf("%s: %d clip lines, want %d and the legend's", tt.name, got-1, tt.clips)
		}
		if got := strings.Count(svg, `class="cliparrow"`); got != tt.arrows {
			t.Errorf("%s: %d arrowheads, want %d", tt.name, got, tt.arrows)
		}
		if !strings.Contains(svg, "beyond the scale") {
			t.Errorf("%s: no legend for the clamp marks", tt.name)
		}
		for _, bad := range []string{"Inf", "NaN"} {
			if strings.Contains(svg, bad) {
				t.Errorf("%s: SVG holds %s", tt.name, bad)
			}
		}
	}
}

// The rating chart draws every engine in order on one scale from the
// data: finite intervals as bars with caps, unbounded ends as arrowheads
// on the edge (explained), unrated engines as a note; names are escaped
// and long ones cut.
func TestIntervalChart(t *testing.T) {
	long := strings.Repeat("x", 40)
	c := ratingChart(Tournament{Name: "t<&>", Ratings: []Rating{
		{Rank: 1, Engine: "a<b>", Rating: 120, Low: 80, High: 160, Error: 40, Status: "rated", Games: 10},
		{Rank: 2, Engine: long, Rating: -20, Low: -60, High: 20, Error: 40, Status: "rated", Games: 10},
		{Rank: 3, Engine: "swept", Rating: Float(math.Inf(-1)), Low: Float(math.Inf(-1)), High: -100, Status: "-inf", Games: 4},
		{Rank: 4, Engine: "idle", Status: "unconnected"},
	}}, 0.95)
	if lo, hi := c.xRange(); lo > -100 || lo < -120 || hi < 160 || hi > 180 {
		t.Errorf("x range %v..%v, want about -100..160 with a margin", lo, hi)
	}
	svg := c.svg()
	for _, want := range []string{"a&lt;b&gt;", "+120.0 ± 40.0", strings.Repeat("x", maxLabelChars-1) + "…", long + ": -20.0 ± 40.0",
		"-inf [-inf, -100.0]", "not rated", "unbounded: drawn to the edge", `class="cliparrow"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("rating chart lacks %q", want)
		}
	}
	if strings.Contains(svg, "<b>") || strings.Contains(svg, "Inf") {
		t.Error("rating chart holds an unescaped name or an Inf")
	}
	if a, b := strings.Index(svg, "a&lt;b&gt;"), strings.Index(svg, "swept"); a < 0 || b < a {
		t.Error("rows are not in rank order")
	}
	// Two rated rows have caps at both ends; the -inf row one cap (its high).
	if got := strings.Count(svg, `class="cap"`); got != 5 {
		t.Errorf("%d interval caps, want 5", got)
	}
	if got := strings.Count(svg, `class="point"`); got != 2 {
		t.Errorf("%d points, want 2 (the -inf rating is an arrowhead)", got)
	}
}

// A rating table on a scale (Tournament.OffsetRatings) is charted around its
// anchor's rating: the reference line there, the scale not stretched to 0,
// the labels unsigned; an unconnected engine keeps its meaningless 0.
func TestRatingChartOnAScale(t *testing.T) {
	tr := Tournament{Name: "g", RatingAnchor: "sf", Ratings: []Rating{
		{Engine: "sf", Status: "rated", Games: 10},
		{Engine: "x", Rating: -80, Low: -180, High: 20, Error: 100, Status: "rated", Games: 10},
		{Engine: "y", Rating: Float(math.Inf(-1)), Low: Float(math.Inf(-1)), High: Float(math.Inf(1)), Status: "-inf", Games: 10},
		{Engine: "z", Status: "unconnected", Low: Float(math.Inf(-1)), High: Float(math.Inf(1))},
	}}
	tr.OffsetRatings(1000) // twice: the second sets the offset, it does not add to it
	tr.OffsetRatings(2000)
	want := []Float{2000, 1920, Float(math.Inf(-1)), 0}
	for i, r := range tr.Ratings {
		if r.Rating != want[i] {
			t.Errorf("%s rated %v, want %v", r.Engine, r.Rating, want[i])
		}
	}
	if tr.Ratings[1].Low != 1820 || tr.Ratings[1].High != 2020 || tr.Ratings[1].Error != 100 {
		t.Errorf("x's interval [%v, %v] ± %v", tr.Ratings[1].Low, tr.Ratings[1].High, tr.Ratings[1].Error)
	}
	c := ratingChart(tr, 0.95)
	if lo, hi := c.xRange(); lo < 1800 || hi > 2100 {
		t.Errorf("scale [%v, %v]: want about [1820, 2020]", lo, hi)
	}
	if c.ref != 2000 || !strings.Contains(c.xLabel, "sf = 2000") || c.rows[1].text != "1920.0 ± 100.0" {
		t.Errorf("ref %v, label %q, x's text %q", c.ref, c.xLabel, c.rows[1].text)
	}
}
