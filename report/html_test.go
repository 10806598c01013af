package report_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"selfplay/outcome"
	"selfplay/report"
	"selfplay/standings"
)

// parseXHTML checks that the page is well-formed XML (every element closed
// and nested properly, no named HTML entities) and counts its elements.
func parseXHTML(t *testing.T, page string) map[string]int {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(page))
	counts := map[string]int{}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return counts
		}
		if err != nil {
			t.Fatalf("HTML report is not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
		}
	}
}

// chartsOf counts the charts a report should draw: a rating chart per
// tournament of more than two engines, one Elo chart per pairing and one
// LLR chart per SPRT.
func chartsOf(r report.Report) int {
	n := 0
	for _, t := range r.Tournaments {
		if len(t.Ratings) > 2 {
			n++
		}
		for _, p := range t.Pairings {
			n++
			if p.SPRT != nil {
				n++
			}
		}
	}
	return n
}

func TestHTMLIsSelfContainedAndWellFormed(t *testing.T) {
	r := fixtureReport(t, standings.Options{})
	page := string(render(t, r, writeHTML))
	counts := parseXHTML(t, page)
	if want := chartsOf(r); counts["svg"] != want || want != 6 {
		t.Errorf("%d <svg> elements, want one per chart: %d (6)", counts["svg"], want)
	}
	if counts["html"] != 1 || counts["body"] != 1 || counts["style"] != 1 {
		t.Errorf("page structure: %v", counts)
	}
	for _, bad := range []string{"http://", "https://", "<script", "<link", "<img", "@import", "url(", "src="} {
		if strings.Contains(page, bad) {
			t.Errorf("HTML report contains %q: it must not load anything", bad)
		}
	}
	for _, want := range []string{"Tournament fhr-vs-plain", "Openings fhr vs plain", "Terminations", "Suite run 1: wac.epd",
		"SPRT log-likelihood ratio of fhr vs plain"} {
		if !strings.Contains(page, want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
}

// Names come from config files and the database: every one is escaped.
func TestHTMLEscapesNames(t *testing.T) {
	evil := `<script>alert("x")</script>&amp;`
	r := report.Report{Level: 0.95, Tournaments: []report.Tournament{{
		Name: evil, Format: "match", Status: "complete", Engines: []string{evil, "b"},
		Ratings: []report.Rating{{Rank: 1, Engine: evil, Status: "unconnected"}},
		Pairings: []report.Pairing{{First: evil, Second: "b", Verdict: evil + " vs b: no games played",
			Openings: report.Openings{Rows: []report.OpeningRow{{ID: evil, Name: evil, FirstWhite: []outcome.Result{"1-0"}}}}}},
		Terminations: report.Terminations{Engines: []string{evil}, Rows: []report.TerminationRow{{Termination: evil}}},
		Search:       []report.EngineSearch{{Engine: evil}},
	}}}
	page := string(render(t, r, writeHTML))
	if strings.Contains(page, "<script") || strings.Contains(page, `alert("x")`) {
		t.Fatal("a name reached the page unescaped")
	}
	parseXHTML(t, page)
	if n := strings.Count(page, "&lt;script&gt;"); n < 8 {
		t.Errorf("escaped name appears %d times, want it in every place it is shown", n)
	}
}

// An empty database still gives a valid page, text and JSON.
func TestEmptyReport(t *testing.T) {
	r := report.Report{Level: 0.95}
	parseXHTML(t, string(render(t, r, writeHTML)))
	if got := string(render(t, r, writeText)); got != "no tournaments stored\n" {
		t.Errorf("text of an empty report = %q", got)
	}
	if got := string(render(t, r, writeJSON)); !strings.Contains(got, `"tournaments": []`) || !strings.Contains(got, `"suite_runs": []`) {
		t.Errorf("JSON of an empty report lacks empty lists:\n%s", got)
	}
}

// TestHTMLSectionsArePartOfThePage: the fragment and the style sheet that
// selfplay serve embeds are exactly what the HTML report contains.
func TestHTMLSectionsArePartOfThePage(t *testing.T) {
	r := fixtureReport(t, standings.Options{})
	var page, sections bytes.Buffer
	if err := report.WriteHTML(&page, r); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteHTMLSections(&sections, r, report.SectionOptions{}); err != nil {
		t.Fatal(err)
	}
	style, err := report.HTMLStyle()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sections.String(), "<svg") || !strings.Contains(sections.String(), "<section") {
		t.Fatalf("no sections or charts in the fragment")
	}
	if !strings.Contains(page.String(), sections.String()) || strings.Contains(sections.String(), "<body") {
		t.Errorf("the fragment is not the page's sections")
	}
	if !strings.Contains(style, "svg .band") || !strings.Contains(page.String(), "<style>\n"+style+"</style>") {
		t.Errorf("the style is not the page's")
	}
}

// An opening whose name is its id (an EPD line's id) shows it once, in the
// text and HTML tables; other names stay.
func TestOpeningIDShownOnce(t *testing.T) {
	r := report.Report{Level: 0.95, Tournaments: []report.Tournament{{
		Name: "t", Format: "match", Status: "complete", Engines: []string{"a", "b"},
		Pairings: []report.Pairing{{First: "a", Second: "b", Openings: report.Openings{Rows: []report.OpeningRow{
			{ID: "fhr-01 e4 e5", Name: "fhr-01 e4 e5", Games: 1, FirstWhite: []outcome.Result{"1-0"}},
			{ID: "fhr-02", Name: "1. e4 e6", Games: 1, FirstWhite: []outcome.Result{"0-1"}},
		}}}},
	}}}
	for name, write := range map[string]func(*bytes.Buffer, report.Report) error{"text": writeText, "HTML": writeHTML} {
		out := string(render(t, r, write))
		if n := strings.Count(out, "fhr-01 e4 e5"); n != 1 {
			t.Errorf("%s: the id fhr-01 e4 e5 shown %d times, want once:\n%s", name, n, out)
		}
		if !strings.Contains(out, "1. e4 e6") {
			t.Errorf("%s: the name 1. e4 e6 is not shown", name)
		}
	}
}

// Names come from config files, PGN tags, EPD ids and the database: the
// text report prints every one escaped, with no control or bidirectional
// character left, and aligns the escaped text.
func TestTextEscapesNames(t *testing.T) {
	evil := "\x1b]0;PWNED\x07\x1b[2JEvil\u202e\x00"
	r := report.Report{Level: 0.95, Tournaments: []report.Tournament{{
		Name: evil, Format: "match", Status: "complete", Engines: []string{evil, "b"},
		Ratings: []report.Rating{{Rank: 1, Engine: evil, Status: "unconnected"}, {Rank: 2, Engine: "b", Status: "unconnected"}},
		Pairings: []report.Pairing{{First: evil, Second: "b", Verdict: evil + " vs b: no games played",
			Openings: report.Openings{Rows: []report.OpeningRow{{ID: evil, Name: evil + " name", FirstWhite: []outcome.Result{"1-0"}}}}}},
		Terminations: report.Terminations{Engines: []string{evil}, Rows: []report.TerminationRow{{Termination: evil}}},
		Search:       []report.EngineSearch{{Engine: evil}},
	}}}
	text := string(render(t, r, writeText))
	if strings.ContainsFunc(text, func(r rune) bool {
		return r < 0x20 && r != '\n' || r == 0x7f || r == 0x202e
	}) {
		t.Fatalf("a name reached the text unescaped:\n%q", text)
	}
	escaped := `\x1b]0;PWNED\x07\x1b[2JEvil\u202e\x00`
	if n := strings.Count(text, escaped); n < 8 {
		t.Errorf("escaped name appears %d times, want it in every place it is shown:\n%s", n, text)
	}
	if !strings.Contains(text, "1  "+escaped+"  ") || !strings.Contains(text, "\n2  b"+strings.Repeat(" ", len(escaped)-1)+"  ") {
		t.Errorf("the ratings table is not aligned on the escaped name:\n%s", text)
	}
}
