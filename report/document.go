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
}

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

// chart is a line with an optional interval band and horizontal reference
// lines, against a count of games.
type chart struct {
	title  string
	xLabel string
	yLabel string
	x      []float64
	y      []float64 // the line; ±Inf is drawn at the plot's edge
	low    []float64 // optional band, same length as y
	high   []float64
	refs   []refLine
	// yMin and yMax fix the vertical range (the band may be unbounded).
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
