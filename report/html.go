package report

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"selfplay/stats"
)

//go:embed page.html.tmpl
var pageTemplate string

// htmlPage is the template's view of a document; html/template escapes
// every string in it (engine and tournament names included), and the
// charts are SVG markup that their svg methods escaped themselves.
type htmlPage struct {
	Title    string
	Level    string
	Empty    bool
	Sections []htmlSection
}

type htmlSection struct {
	ID, Title string
	Parts     []htmlPart
}

type htmlPart struct {
	Heading string
	Facts   []htmlFact
	Table   *htmlTable
	Charts  []htmlChart
	Link    *htmlLink
}

// htmlLink is a link under a part; the template escapes both (the URL as
// a URL).
type htmlLink struct{ Text, URL string }

// htmlChart is a figure: its caption (escaped by the template) and its SVG
// markup (escaped by the chart's svg method).
type htmlChart struct {
	Caption string
	SVG     template.HTML
	Wide    bool
}

type htmlFact struct{ Key, Value string }

type htmlTable struct {
	Head  []htmlCell
	Rows  [][]htmlCell
	Total []htmlCell
}

type htmlCell struct {
	Text    string
	Numeric bool
}

// WriteHTML writes the report as one self-contained HTML page: inline CSS,
// inline SVG charts, no scripts and no external references. The markup is
// XML-compatible (void elements closed, no named entities).
func WriteHTML(w io.Writer, r Report) error {
	tmpl, err := template.New("report").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("HTML report template: %w", err)
	}
	bw := bufio.NewWriter(w)
	if err := tmpl.Execute(bw, htmlView(r)); err != nil {
		return fmt.Errorf("writing HTML report: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing HTML report: %w", err)
	}
	return nil
}

func htmlView(r Report) htmlPage { return htmlViewOf(r, layout(r)) }

func htmlViewOf(r Report, d document) htmlPage {
	page := htmlPage{Title: "selfplay report", Level: stats.FormatLevel(r.Level), Empty: len(r.Tournaments) == 0}
	page.Sections = htmlSections(d)
	return page
}

func htmlSections(d document) []htmlSection {
	var out []htmlSection
	for i, s := range d.sections {
		hs := htmlSection{ID: fmt.Sprintf("section-%d", i+1), Title: s.title}
		for _, p := range s.parts {
			hp := htmlPart{Heading: p.heading}
			for _, f := range p.facts {
				hp.Facts = append(hp.Facts, htmlFact{Key: f.key, Value: f.value})
			}
			if p.table != nil {
				hp.Table = htmlTableOf(p.table)
			}
			for _, c := range p.charts {
				hp.Charts = append(hp.Charts, htmlChart{Caption: c.caption(), SVG: template.HTML(c.svg()), Wide: c.wide()})
			}
			if p.link != nil {
				hp.Link = &htmlLink{Text: p.link.text, URL: p.link.url}
			}
			hs.Parts = append(hs.Parts, hp)
		}
		out = append(out, hs)
	}
	return out
}

func htmlTableOf(t *table) *htmlTable {
	cells := func(row []string) []htmlCell {
		out := make([]htmlCell, len(row))
		for i, s := range row {
			out[i] = htmlCell{Text: s, Numeric: i < len(t.numeric) && t.numeric[i]}
		}
		return out
	}
	ht := &htmlTable{Head: cells(t.head)}
	for _, row := range t.rows {
		ht.Rows = append(ht.Rows, cells(row))
	}
	if t.total != nil {
		ht.Total = cells(t.total)
	}
	return ht
}

// SectionOptions adapt the report's sections to a site's page, whose size
// must not grow with the games (WriteHTMLSections).
type SectionOptions struct {
	// OpeningsURL, when not "", replaces each pairing's table of every
	// game's result by opening (the FHR paper's Table 2 layout, which
	// grows with the games) with the first engine's score per opening with
	// each colour, linking to OpeningsURL for the results; MaxOpenings (0:
	// no limit) bounds its rows.
	OpeningsURL string
	MaxOpenings int
}

// WriteHTMLSections writes the report's sections (one per tournament and
// suite run) as an HTML fragment: the tables and SVG charts of WriteHTML
// without the page around them, for pages that show a report among other
// things (selfplay serve), as opt adapts them. HTMLStyle is their style
// sheet.
func WriteHTMLSections(w io.Writer, r Report, opt SectionOptions) error {
	return writeSections(w, htmlViewOf(r, layoutWith(r, opt)))
}

// WriteOpeningsHTML writes the FHR paper's Table 2 layout of each pairing
// (every game's result per opening, as WriteHTML draws it) as an HTML
// fragment: one section titled title. A site pages a long tournament's
// tables by giving each page's games' Openings; the scores and totals are
// then over those games, which the tables say.
func WriteOpeningsHTML(w io.Writer, title string, ps []Pairing) error {
	s := section{title: title}
	for _, p := range ps {
		if len(p.Openings.Rows) > 0 {
			s.parts = append(s.parts, openingsPartOf(p, "these games", "over this page's games"))
		}
	}
	return writeSections(w, htmlPage{Sections: htmlSections(document{sections: []section{s}})})
}

func writeSections(w io.Writer, page htmlPage) error {
	tmpl, err := template.New("report").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("HTML report template: %w", err)
	}
	if err := tmpl.ExecuteTemplate(w, "sections", page); err != nil {
		return fmt.Errorf("writing HTML report: %w", err)
	}
	return nil
}

// HTMLStyle returns the CSS of the HTML report (tables, charts).
func HTMLStyle() (string, error) {
	tmpl, err := template.New("report").Parse(pageTemplate)
	if err != nil {
		return "", fmt.Errorf("HTML report template: %w", err)
	}
	var b strings.Builder
	if err := tmpl.ExecuteTemplate(&b, "style", nil); err != nil {
		return "", fmt.Errorf("HTML report style: %w", err)
	}
	return b.String(), nil
}
