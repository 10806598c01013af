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
}

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

func htmlView(r Report) htmlPage {
	page := htmlPage{Title: "selfplay report", Level: stats.FormatLevel(r.Level), Empty: len(r.Tournaments) == 0}
	for i, s := range layout(r).sections {
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
			hs.Parts = append(hs.Parts, hp)
		}
		page.Sections = append(page.Sections, hs)
	}
	return page
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

// WriteHTMLSections writes the report's sections (one per tournament and
// suite run) as an HTML fragment: the tables and SVG charts of WriteHTML
// without the page around them, for pages that show a report among other
// things (selfplay serve). HTMLStyle is their style sheet.
func WriteHTMLSections(w io.Writer, r Report) error {
	tmpl, err := template.New("report").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("HTML report template: %w", err)
	}
	if err := tmpl.ExecuteTemplate(w, "sections", htmlView(r)); err != nil {
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
