package readmetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The output the README's "Our results" shows (the unlabelled blocks: the
// ratings, pairings and search tables of the experiments) is copied from
// the committed reports under results/, line for line: a report that
// changes, or a figure edited by hand, fails here. The ratings blocks'
// first lines are also checked against `selfplay ratings` by their expect
// annotations, which run the command.
func TestOurResultsShowTheCommittedReports(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start, end := strings.Index(text, "\n## Our results\n"), strings.Index(text, "\n## Design and layout\n")
	if start < 0 || end < start {
		t.Fatal(`README.md has no "## Our results" section before "## Design and layout"`)
	}
	reports, err := filepath.Glob(filepath.Join(root, "results", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(root, "results", "*", "*.txt"))
	reports = append(reports, more...)
	lines := map[string]bool{}
	for _, f := range reports {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			lines[l] = true
		}
	}
	if len(reports) < 4 {
		t.Fatalf("found %d reports under results/", len(reports))
	}
	offset := strings.Count(text[:start+1], "\n")
	fences, err := Fences(text[start+1 : end])
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range fences {
		if f.Lang != "" {
			continue
		}
		for i, l := range strings.Split(strings.TrimSuffix(f.Text, "\n"), "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			checked++
			if !lines[l] {
				t.Errorf("README.md line %d: not a line of any report under results/:\n%s", offset+f.Line+i, l)
			}
		}
	}
	if checked < 50 {
		t.Errorf("checked only %d lines of shown output; the section's blocks were not found", checked)
	}
}
