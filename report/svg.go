package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line chart geometry in SVG user units. The SVG scales to the width of
// its container (viewBox, width 100%), so these fix the proportions and
// the size of the text relative to the plot, not the size on the page.
const (
	lineWidth        = 600
	lineHeight       = 300
	lineMarginLeft   = 52
	lineMarginRight  = 84 // room for the reference lines' labels
	lineMarginTop    = 14
	lineMarginBottom = 40
)

// Interval chart geometry: one row per engine.
const (
	intervalWidth     = 640
	intervalRowHeight = 22
	intervalTop       = 10
	intervalBottom    = 40
	intervalTextWidth = 120 // the figures beside each bar
	labelFontSize     = 12  // svg .label in the style sheet
	maxLabelChars     = 28  // longer names are cut (the full name is the row's tooltip)
)

func (c lineChart) caption() string { return c.title }
func (c lineChart) wide() bool      { return false }

func (c intervalChart) caption() string { return c.title }
func (c intervalChart) wide() bool      { return true }

// svgOpen starts a responsive SVG element: it takes its container's width
// and keeps its proportions (no height: the viewBox gives the aspect).
func svgOpen(b *strings.Builder, class string, w, h int, title string) {
	t := html.EscapeString(title)
	fmt.Fprintf(b, `<svg class="%s" viewBox="0 0 %d %d" width="100%%" preserveAspectRatio="xMidYMid meet" role="img" aria-label="%s">`,
		class, w, h, t)
	fmt.Fprintf(b, `<title>%s</title>`, t)
}

// edge says where a value lies against a range: -1 below (or NaN), +1
// above, 0 inside.
func edge(v, lo, hi float64) int {
	switch {
	case math.IsNaN(v) || v < lo:
		return -1
	case v > hi:
		return 1
	}
	return 0
}

// run is a stretch of consecutive points beyond the same edge.
type run struct{ from, to, edge int }

// runs finds the stretches of vals beyond lo..hi.
func runs(vals []float64, lo, hi float64) []run {
	var out []run
	for i, v := range vals {
		e := edge(v, lo, hi)
		if e == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].edge == e && out[n-1].to == i-1 {
			out[n-1].to = i
			continue
		}
		out = append(out, run{i, i, e})
	}
	return out
}

// svg draws the chart as an inline SVG element (no external resources;
// every text escaped; XML-compatible markup). Values beyond the vertical
// range (unbounded intervals early in a match, an infinite Elo after a
// sweep) are drawn on the plot's edge, and every such stretch is marked
// there with a thick orange line, the line's own with arrowheads, and
// explained under the plot, so a clamped value never passes for a real
// flat line.
func (c lineChart) svg() string {
	c = c.thinned()
	var b strings.Builder
	svgOpen(&b, "chart line-chart", lineWidth, lineHeight, c.title)
	p := newLinePlot(c)
	fmt.Fprintf(&b, `<rect class="plot" x="%s" y="%s" width="%s" height="%s"/>`, num(p.left), num(p.top),
		num(p.right-p.left), num(p.bottom-p.top))
	c.drawAxes(&b, p)
	band := len(c.low) == len(c.x) && len(c.high) == len(c.x) && len(c.x) > 0
	if band {
		c.drawBand(&b, p)
	}
	for _, r := range c.refs {
		y := p.py(r.y)
		fmt.Fprintf(&b, `<line class="ref %s" x1="%s" y1="%s" x2="%s" y2="%s"/>`, r.kind, num(p.left), num(y), num(p.right), num(y))
		fmt.Fprintf(&b, `<text class="reflabel" x="%s" y="%s">%s</text>`, num(p.right+4), num(y+4), html.EscapeString(r.label))
	}
	if len(c.x) > 0 {
		var pts []string
		for i := range c.x {
			pts = append(pts, num(p.px(c.x[i]))+","+num(p.py(c.y[i])))
		}
		fmt.Fprintf(&b, `<polyline class="line" points="%s"/>`, strings.Join(pts, " "))
		n := len(c.x) - 1
		fmt.Fprintf(&b, `<circle class="last" cx="%s" cy="%s" r="3"/>`, num(p.px(c.x[n])), num(p.py(c.y[n])))
	}
	if c.markClamped(&b, p, band) > 0 {
		clipLegend(&b, lineWidth, lineHeight, "beyond the scale")
	}
	if c.note != "" {
		fmt.Fprintf(&b, `<text class="note" x="%s" y="%s" text-anchor="middle">%s</text>`, num((p.left+p.right)/2),
			num((p.top+p.bottom)/2), html.EscapeString(c.note))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// linePlot places a line chart's values in its plot area: x from 0 to the
// largest x (at least 1), y from yMin to yMax, values beyond that range on
// the plot's edge.
type linePlot struct {
	left, top, right, bottom float64
	xMax, yMin, yMax         float64
}

func newLinePlot(c lineChart) linePlot {
	p := linePlot{
		left: lineMarginLeft, top: lineMarginTop,
		right: lineWidth - lineMarginRight, bottom: lineHeight - lineMarginBottom,
		xMax: 1, yMin: c.yMin, yMax: c.yMax,
	}
	for _, x := range c.x {
		p.xMax = max(p.xMax, x)
	}
	return p
}

func (p linePlot) px(x float64) float64 { return p.left + (p.right-p.left)*x/p.xMax }

func (p linePlot) py(y float64) float64 {
	switch edge(y, p.yMin, p.yMax) {
	case 1:
		return p.top
	case -1:
		return p.bottom
	}
	return p.bottom - (p.bottom-p.top)*(y-p.yMin)/(p.yMax-p.yMin)
}

// edgeY is the plot's edge beyond which values of edge e lie.
func (p linePlot) edgeY(e int) float64 {
	if e > 0 {
		return p.top
	}
	return p.bottom
}

// drawAxes draws the grid, the ticks and the axis labels.
func (c lineChart) drawAxes(b *strings.Builder, p linePlot) {
	left, top, right, bottom := p.left, p.top, p.right, p.bottom
	for _, t := range ticks(0, p.xMax) {
		x := p.px(t)
		fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x), num(top), num(x), num(bottom))
		fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, num(x), num(bottom+14), tickLabel(t))
	}
	for _, t := range ticks(c.yMin, c.yMax) {
		y := p.py(t)
		fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(left), num(y), num(right), num(y))
		fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, num(left-4), num(y+4), tickLabel(t))
	}
	fmt.Fprintf(b, `<text class="axis" x="%s" y="%d" text-anchor="middle">%s</text>`, num((left+right)/2), lineHeight-6,
		html.EscapeString(c.xLabel))
	fmt.Fprintf(b, `<text class="axis" x="14" y="%s" text-anchor="middle" transform="rotate(-90 14 %s)">%s</text>`,
		num((top+bottom)/2), num((top+bottom)/2), html.EscapeString(c.yLabel))
}

// drawBand draws the interval band between low and high.
func (c lineChart) drawBand(b *strings.Builder, p linePlot) {
	var pts []string
	for i := range c.x {
		pts = append(pts, num(p.px(c.x[i]))+","+num(p.py(c.high[i])))
	}
	for i := len(c.x) - 1; i >= 0; i-- {
		pts = append(pts, num(p.px(c.x[i]))+","+num(p.py(c.low[i])))
	}
	fmt.Fprintf(b, `<polygon class="band" points="%s"/>`, strings.Join(pts, " "))
}

// markClamped marks the stretches drawn on the plot's edge, the band's
// (with band) then the line's with arrowheads, and returns how many there
// are.
func (c lineChart) markClamped(b *strings.Builder, p linePlot, band bool) int {
	clampedRuns := 0
	mark := func(rs []run, arrows bool) {
		for _, r := range rs {
			clampedRuns++
			x1, x2 := p.px(c.x[r.from]), p.px(c.x[r.to])
			if x2-x1 < 4 {
				x1, x2 = x1-2, x2+2
			}
			y := p.edgeY(r.edge)
			fmt.Fprintf(b, `<line class="clip" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x1), num(y), num(x2), num(y))
			if arrows {
				for _, i := range []int{r.from, r.to} {
					b.WriteString(arrowhead(p.px(c.x[i]), y, r.edge))
					if r.from == r.to {
						break
					}
				}
			}
		}
	}
	if band {
		mark(runs(c.high, c.yMin, c.yMax), false)
		mark(runs(c.low, c.yMin, c.yMax), false)
	}
	mark(runs(c.y, c.yMin, c.yMax), true)
	return clampedRuns
}

// clipLegend explains the orange edge marks in the chart's bottom right
// corner: a sample mark and the text.
func clipLegend(b *strings.Builder, width, height int, text string) {
	x := float64(width - 4)
	start := x - textWidth(text, 10) // svg .cliplabel
	fmt.Fprintf(b, `<text class="cliplabel" x="%s" y="%d" text-anchor="end">%s</text>`, num(x), height-6, html.EscapeString(text))
	fmt.Fprintf(b, `<line class="clip" x1="%s" y1="%d" x2="%s" y2="%d"/>`, num(start-22), height-10, num(start-6), height-10)
}

// arrowhead is a small triangle at (x, y) pointing out of the plot: up
// for e > 0, down for e < 0.
func arrowhead(x, y float64, e int) string {
	d := float64(e) * 7 // length, outwards
	return fmt.Sprintf(`<polygon class="cliparrow" points="%s,%s %s,%s %s,%s"/>`,
		num(x-4), num(y), num(x+4), num(y), num(x), num(y-d))
}

// arrowheadX is arrowhead pointing right (e > 0) or left (e < 0).
func arrowheadX(x, y float64, e int) string {
	d := float64(e) * 7
	return fmt.Sprintf(`<polygon class="cliparrow" points="%s,%s %s,%s %s,%s"/>`,
		num(x), num(y-4), num(x), num(y+4), num(x+d), num(y))
}

// textWidth estimates the width of a text in a sans-serif font of the given
// size, on the wide side (DejaVu Sans, Chromium's default on Linux, is
// among the widest): the SVG is laid out before any font is known.
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("iljtf.,:;'|!() ", r):
			w += 0.36
		case strings.ContainsRune("mwMW@%", r):
			w += 1.0
		case r >= 'A' && r <= 'Z', r > unicode.MaxASCII:
			w += 0.76
		default:
			w += 0.64
		}
	}
	return w * size
}

// label cuts a name to maxLabelChars characters for an axis label.
func label(s string) string {
	if utf8.RuneCountInString(s) <= maxLabelChars {
		return s
	}
	r := []rune(s)
	return string(r[:maxLabelChars-1]) + "…"
}

// xRange is the horizontal range of an interval chart: every finite
// value, low and high, and the reference (0, or the anchor's rating), with a margin.
func (c intervalChart) xRange() (lo, hi float64) {
	lo, hi = c.ref, c.ref
	for _, r := range c.rows {
		for _, v := range []float64{r.value, r.low, r.high} {
			if finite(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if hi-lo < 20 {
		mid := (lo + hi) / 2
		lo, hi = mid-10, mid+10
	}
	pad := (hi - lo) * 0.05
	return lo - pad, hi + pad
}

// svg draws the rows as points with interval bars on one scale. An
// unbounded end (an engine that never lost, or never scored) runs to the
// plot's edge and is marked there with an arrowhead and an orange edge.
func (c intervalChart) svg() string {
	var b strings.Builder
	labelWidth := 30.0
	for _, r := range c.rows {
		labelWidth = max(labelWidth, textWidth(label(r.label), labelFontSize))
	}
	left := 18 + labelWidth // and room for a left arrowhead
	right := float64(intervalWidth - intervalTextWidth)
	top := float64(intervalTop)
	bottom := top + float64(len(c.rows)*intervalRowHeight)
	height := int(bottom) + intervalBottom
	svgOpen(&b, "chart interval-chart", intervalWidth, height, c.title)

	lo, hi := c.xRange()
	px := func(x float64) float64 {
		switch edge(x, lo, hi) {
		case 1:
			return right
		case -1:
			return left
		}
		return left + (right-left)*(x-lo)/(hi-lo)
	}
	for i := range c.rows {
		if i%2 == 1 {
			fmt.Fprintf(&b, `<rect class="stripe" x="0" y="%s" width="%d" height="%d"/>`,
				num(top+float64(i*intervalRowHeight)), intervalWidth, intervalRowHeight)
		}
	}
	fmt.Fprintf(&b, `<rect class="plot" x="%s" y="%s" width="%s" height="%s"/>`, num(left), num(top), num(right-left), num(bottom-top))
	for _, t := range ticks(lo, hi) {
		x := px(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x), num(top), num(x), num(bottom))
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, num(x), num(bottom+14), tickLabel(t))
	}
	fmt.Fprintf(&b, `<line class="ref zero" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(px(c.ref)), num(top), num(px(c.ref)), num(bottom))
	fmt.Fprintf(&b, `<text class="axis" x="%s" y="%d" text-anchor="middle">%s</text>`, num((left+right)/2), height-6,
		html.EscapeString(c.xLabel))

	clamped := false
	for i, r := range c.rows {
		y := top + (float64(i)+0.5)*intervalRowHeight
		fmt.Fprintf(&b, `<g class="row"><title>%s</title>`, html.EscapeString(r.label+": "+r.text))
		fmt.Fprintf(&b, `<text class="label" x="%s" y="%s" text-anchor="end">%s</text>`, num(left-12), num(y+4),
			html.EscapeString(label(r.label)))
		if r.note != "" {
			fmt.Fprintf(&b, `<text class="note small" x="%s" y="%s" text-anchor="middle">%s</text>`, num((left+right)/2), num(y+4),
				html.EscapeString(r.note))
		} else {
			x1, x2 := px(r.low), px(r.high)
			fmt.Fprintf(&b, `<line class="bar" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x1), num(y), num(x2), num(y))
			for _, end := range []struct {
				v float64
				x float64
			}{{r.low, x1}, {r.high, x2}} {
				if e := edge(end.v, lo, hi); e != 0 {
					clamped = true
					fmt.Fprintf(&b, `<line class="clip" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(end.x), num(y-7), num(end.x), num(y+7))
					b.WriteString(arrowheadX(end.x, y, e))
				} else {
					fmt.Fprintf(&b, `<line class="cap" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(end.x), num(y-5), num(end.x), num(y+5))
				}
			}
			if e := edge(r.value, lo, hi); e != 0 {
				clamped = true
				b.WriteString(arrowheadX(px(r.value), y, e))
			} else {
				fmt.Fprintf(&b, `<circle class="point" cx="%s" cy="%s" r="4"/>`, num(px(r.value)), num(y))
			}
		}
		fmt.Fprintf(&b, `<text class="figures" x="%s" y="%s">%s</text></g>`, num(right+12), num(y+4), html.EscapeString(r.text))
	}
	if clamped {
		clipLegend(&b, intervalWidth, height, "unbounded: drawn to the edge")
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// num prints a coordinate with one decimal.
func num(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// ticks returns round values (1, 2 or 5 times a power of ten apart) inside
// [lo, hi]: the finest such spacing that gives at most seven of them.
func ticks(lo, hi float64) []float64 {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return nil
	}
	mag := math.Pow(10, math.Floor(math.Log10((hi-lo)/5)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if (hi-lo)/(m*mag) <= 7 {
			step = m * mag
			break
		}
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
