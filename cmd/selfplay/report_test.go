package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/internal/testkit"
)

// A tiny match under an SPRT, then its report in every format.
func TestReportAfterRun(t *testing.T) {
	dir := t.TempDir()
	c := tinyConfig()
	c.Tournaments[0].SPRT = testkit.Table{"elo0": 0, "elo1": 10}
	cfg := c.Write(t, dir, "t.toml")
	if code, _, stderr := run(t, "run", "-config", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	db := filepath.Join(dir, "games.db")

	code, text, stderr := run(t, "report", "-db", db)
	if code != exitOK {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"== Tournament tiny ==", "-- Pairing a vs b (a's view) --", "verdict    a vs b: ",
		"SPRT LLR ", "-- Openings a vs b", "fhr-25 ", "-- Terminations", "-- Search per engine"} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "/50 games stored") {
		t.Errorf("text report does not say how many games are stored:\n%s", text)
	}

	code, out, stderr := run(t, "report", "-db", db, "-format", "json", "-tournament", "tiny", "-level", "0.9")
	if code != exitOK {
		t.Fatalf("report -format json: exit %d: %s", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, out)
	}
	if doc["level"] != 0.9 || len(doc["tournaments"].([]any)) != 1 {
		t.Errorf("JSON report: level %v, %d tournaments", doc["level"], len(doc["tournaments"].([]any)))
	}

	page := filepath.Join(dir, "report.html")
	code, out, stderr = run(t, "report", "-db", db, "-format", "html", "-o", page, "-anchor", "b")
	if code != exitOK || out != "" {
		t.Fatalf("report -format html -o: exit %d, stdout %q: %s", code, out, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "<svg"); n != 2 {
		t.Errorf("HTML report of a match under an SPRT has %d charts, want 2 (Elo and LLR)", n)
	}
	if !strings.Contains(string(b), "b = 0") {
		t.Error("HTML report does not show the anchor")
	}
}

func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig().Write(t, dir, "t.toml")
	if code, _, stderr := run(t, "run", "-config", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	db := filepath.Join(dir, "games.db")
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown tournament", []string{"-db", db, "-tournament", "nope"}, `"nope"`},
		{"unknown anchor", []string{"-db", db, "-anchor", "nobody"}, "engines: a, b"},
		{"missing database", []string{"-db", filepath.Join(dir, "missing.db")}, "missing.db"},
		{"unknown format", []string{"-db", db, "-format", "pdf"}, "pdf"},
		{"bad level", []string{"-db", db, "-level", "95"}, "-level"},
		{"stray argument", []string{"-db", db, "tiny"}, "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"report"}, tt.args...)...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr: %s", code, exitUsage, stderr)
			}
			if !strings.Contains(stderr, tt.wantErr) || stdout != "" {
				t.Errorf("stderr %q lacks %q (stdout %q)", stderr, tt.wantErr, stdout)
			}
		})
	}
	// The unknown tournament's message lists the stored ones.
	if _, _, stderr := run(t, "report", "-db", db, "-tournament", "nope"); !strings.Contains(stderr, "stored tournaments: tiny") {
		t.Errorf("message does not list the stored tournaments: %s", stderr)
	}
}
