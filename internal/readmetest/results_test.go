package readmetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The output that "Our results" (docs/papers.md) shows (the unlabelled
// blocks: the ratings, pairings and search tables of the experiments) is
// copied from the committed reports under results/, line for line: a report
// that changes, or a figure edited by hand, fails here. The ratings blocks'
// first lines are also checked against `selfplay ratings` by their expect
// annotations, which run the command.
func TestOurResultsShowTheCommittedReports(t *testing.T) {
	root := filepath.Join("..", "..")
	const doc = "docs/papers.md"
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n## Our results\n")
	if start < 0 {
		t.Fatalf(`%s has no "## Our results" section`, doc)
	}
	end := len(text) // the section ends at the next section or at the end of the file
	if i := strings.Index(text[start+1:], "\n## "); i >= 0 {
		end = start + 1 + i
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
				t.Errorf("%s line %d: not a line of any report under results/:\n%s", doc, offset+f.Line+i, l)
			}
		}
	}
	if checked < 50 {
		t.Errorf("checked only %d lines of shown output; the section's blocks were not found", checked)
	}
}
