package report

// document is a report laid out as titled sections of facts, tables and
// charts. The text and HTML renderers both draw it, so the two show the
// same figures in the same words; only HTML draws the charts.
type document struct {
	sections []section
}

// section is one tournament or one suite run.
type section struct {
	title string
	parts []part
}

// part is a run of facts, a table and charts under an optional heading.
type part struct {
	heading string
	facts   []fact
	table   *table
	charts  []chart
	link    *link // HTML only: a page with more (selfplay serve)
}

// link is a hyperlink under a part.
type link struct{ text, url string }

// fact is a "key  value" line.
type fact struct{ key, value string }

// table is a grid of cells; numeric columns are right-aligned.
type table struct {
	head    []string
	numeric []bool
	rows    [][]string
	// total, when set, is a last row summing the others (drawn apart).
	total []string
}

// chart is a figure that only the HTML renderer draws: a titled SVG.
type chart interface {
	caption() string
	svg() string
	// wide charts take the page's width; the others share a row.
	wide() bool
}

// lineChart is a line with an optional interval band and horizontal
// reference lines, against a count of games.
type lineChart struct {
	title  string
	xLabel string
	yLabel string
	x      []float64
	y      []float64 // the line; ±Inf and values beyond yMin..yMax are drawn, marked, at the plot's edge
	low    []float64 // optional band, same length as y
	high   []float64
	refs   []refLine
	// yMin and yMax are the vertical range, chosen from the data (the band
	// may be unbounded).
	yMin, yMax float64
	// note is shown when there is nothing to draw.
	note string
}

// refLine is a labelled horizontal line such as 0 Elo or an SPRT bound.
type refLine struct {
	y     float64
	label string
	kind  string // "zero" or "bound": the CSS class that styles it
}

// intervalChart is one row per engine: its rating as a point with its
// interval as a bar, on one horizontal scale chosen from the data.
type intervalChart struct {
	title  string
	xLabel string
	rows   []intervalRow
	ref    float64 // the reference line and a value the scale holds: 0, or a rating table's anchor rating
}

// intervalRow is one engine of an intervalChart. value, low and high may
// be ±Inf (an engine that never lost or never scored); unrated rows (an
// engine without games against the others) have NaN values and a note.
type intervalRow struct {
	label            string
	value, low, high float64
	text             string // the figures shown beside the bar
	note             string // shown instead of a bar when there is no rating
}
