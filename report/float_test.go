package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestFloatJSON(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{math.Inf(1), `"+inf"`},
		{math.Inf(-1), `"-inf"`},
		{math.NaN(), `null`},
		{0, `0`},
		{math.Copysign(0, -1), `0`},
		{0.5, `0.5`},
		{-106.29578339999999, `-106.2957834`},
		{1.0 / 3, `0.3333333333`},
		{0.1 + 0.2, `0.3`}, // last-bit noise is rounded away
		{1e-7, `1e-7`},
		{123456789012, `123456789000`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(Float(tt.in))
		if err != nil || string(b) != tt.want {
			t.Errorf("Float(%v) = %s, %v; want %s", tt.in, b, err, tt.want)
		}
	}
}

func TestTicksAreRoundAndInside(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 10, []float64{0, 2, 4, 6, 8, 10}},
		{-3.2, 3.2, []float64{-3, -2, -1, 0, 1, 2, 3}},
		{-52.5, 52.5, []float64{-40, -20, 0, 20, 40}},
		{-120, 250, []float64{-100, 0, 100, 200}},
		{0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
	}
	for _, tt := range tests {
		got := ticks(tt.lo, tt.hi)
		if len(got) != len(tt.want) {
			t.Errorf("ticks(%v, %v) = %v, want %v", tt.lo, tt.hi, got, tt.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-tt.want[i]) > 1e-9 {
				t.Errorf("ticks(%v, %v) = %v, want %v", tt.lo, tt.hi, got, tt.want)
				break
			}
		}
	}
	if got := ticks(1, 1); got != nil {
		t.Errorf("ticks of an empty range = %v", got)
	}
	if got := tickLabel(0.6000000000000001); got != "0.6" {
		t.Errorf("tickLabel = %q", got)
	}
}

// Unbounded values sit on the plot's edge instead of breaking the SVG.
func TestChartClampsInfinities(t *testing.T) {
	c := lineChart{x: []float64{2, 4}, y: []float64{math.Inf(1), 10}, low: []float64{math.Inf(-1), -50},
		high: []float64{math.Inf(1), 70}, yMin: -100, yMax: 100}
	svg := c.svg()
	for _, bad := range []string{"Inf", "NaN"} {
		if strings.Contains(svg, bad) {
			t.Fatalf("SVG holds %s: %s", bad, svg)
		}
	}
}

// JSON numbers read back as they were written, unbounded ones included.
func TestFloatJSONRoundTrip(t *testing.T) {
	for _, x := range []float64{0, -1.5, 123.456789, math.Inf(1), math.Inf(-1)} {
		b, err := json.Marshal(Float(x))
		if err != nil {
			t.Fatal(err)
		}
		var back Float
		if err := json.Unmarshal(b, &back); err != nil || float64(back) != x {
			t.Errorf("%v: %s read back as %v, %v", x, b, back, err)
		}
	}
	var f Float
	if err := json.Unmarshal([]byte(`"inf"`), &f); err == nil {
		t.Error(`"inf" read without an error`)
	}
	if err := json.Unmarshal([]byte(`null`), &f); err != nil || !math.IsNaN(float64(f)) {
		t.Errorf("null: %v %v", f, err)
	}
}
