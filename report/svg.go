package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Chart geometry in SVG user units (pixels at 100% zoom).
const (
	chartWidth   = 540
	chartHeight  = 280
	marginLeft   = 56
	marginRight  = 96 // room for the reference lines' labels
	marginTop    = 30
	marginBottom = 40
)

// svgChart draws a chart as an inline SVG element (no external resources;
// every text escaped). The markup is XML-compatible so the report parses as
// XHTML too.
func svgChart(c chart) string {
	var b strings.Builder
	title := html.EscapeString(c.title)
	fmt.Fprintf(&b, `<svg class="chart" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		chartWidth, chartHeight, chartWidth, chartHeight, title)
	fmt.Fprintf(&b, `<title>%s</title>`, title)
	fmt.Fprintf(&b, `<text class="title" x="%d" y="18">%s</text>`, marginLeft, title)

	left, top := float64(marginLeft), float64(marginTop)
	right, bottom := float64(chartWidth-marginRight), float64(chartHeight-marginBottom)
	fmt.Fprintf(&b, `<rect class="plot" x="%s" y="%s" width="%s" height="%s"/>`, num(left), num(top), num(right-left), num(bottom-top))

	xMax := 1.0
	for _, x := range c.x {
		xMax = max(xMax, x)
	}
	px := func(x float64) float64 { return left + (right-left)*x/xMax }
	clamped := false
	py := func(y float64) float64 {
		if y < c.yMin || y > c.yMax {
			clamped = true
			y = math.Max(c.yMin, math.Min(c.yMax, y)) // ±Inf and outliers sit on the edge
		}
		return bottom - (bottom-top)*(y-c.yMin)/(c.yMax-c.yMin)
	}

	for _, t := range ticks(0, xMax) {
		x := px(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x), num(top), num(x), num(bottom))
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, num(x), num(bottom+14), tickLabel(t))
	}
	for _, t := range ticks(c.yMin, c.yMax) {
		y := py(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(left), num(y), num(right), num(y))
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, num(left-4), num(y+4), tickLabel(t))
	}
	fmt.Fprintf(&b, `<text class="axis" x="%s" y="%d" text-anchor="middle">%s</text>`, num((left+right)/2), chartHeight-6,
		html.EscapeString(c.xLabel))
	fmt.Fprintf(&b, `<text class="axis" x="14" y="%s" text-anchor="middle" transform="rotate(-90 14 %s)">%s</text>`,
		num((top+bottom)/2), num((top+bottom)/2), html.EscapeString(c.yLabel))

	if len(c.low) == len(c.x) && len(c.high) == len(c.x) && len(c.x) > 0 {
		var pts []string
		for i := range c.x {
			pts = append(pts, num(px(c.x[i]))+","+num(py(c.high[i])))
		}
		for i := len(c.x) - 1; i >= 0; i-- {
			pts = append(pts, num(px(c.x[i]))+","+num(py(c.low[i])))
		}
		fmt.Fprintf(&b, `<polygon class="band" points="%s"/>`, strings.Join(pts, " "))
	}
	for _, r := range c.refs {
		y := py(r.y)
		fmt.Fprintf(&b, `<line class="ref %s" x1="%s" y1="%s" x2="%s" y2="%s"/>`, r.kind, num(left), num(y), num(right), num(y))
		fmt.Fprintf(&b, `<text class="reflabel" x="%s" y="%s">%s</text>`, num(right+4), num(y+4), html.EscapeString(r.label))
	}
	if len(c.x) > 0 {
		var pts []string
		for i := range c.x {
			pts = append(pts, num(px(c.x[i]))+","+num(py(c.y[i])))
		}
		fmt.Fprintf(&b, `<polyline class="line" points="%s"/>`, strings.Join(pts, " "))
		n := len(c.x) - 1
		fmt.Fprintf(&b, `<circle class="last" cx="%s" cy="%s" r="3"/>`, num(px(c.x[n])), num(py(c.y[n])))
	}
	if clamped {
		fmt.Fprintf(&b, `<text class="tick" x="%d" y="%d" text-anchor="end">off-scale values drawn at the edge</text>`,
			chartWidth-4, chartHeight-6)
	}
	if c.note != "" {
		fmt.Fprintf(&b, `<text class="note" x="%s" y="%s" text-anchor="middle">%s</text>`, num((left+right)/2),
			num((top+bottom)/2), html.EscapeString(c.note))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// num prints a coordinate with one decimal.
func num(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// ticks returns round values (1, 2 or 5 times a power of ten apart) inside
// [lo, hi], about five of them.
func ticks(lo, hi float64) []float64 {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return nil
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{2, 5, 10} {
		if step >= raw {
			break
		}
		step = m * mag
	}
	var out []float64
	for t := math.Ceil(lo/step) * step; t <= hi+step*1e-9; t += step {
		out = append(out, math.Round(t/step)*step)
	}
	return out
}

// tickLabel prints a tick value without needless decimals.
func tickLabel(t float64) string {
	if math.Abs(t) < 1e-9 {
		return "0"
	}
	return strconv.FormatFloat(t, 'g', 6, 64)
}
