package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The built-in suites work by name wherever an EPD file does, with nothing
// beside the repository: suite over Bratko-Kopec and zugzwang, bench over
// the CRAFTY positions (each with its id).
func TestBuiltinSuitesByName(t *testing.T) {
	code, out, stderr := suiteCmd(t, context.Background(), "-epd", "bk", "-variant", "plain", "-depth", "1", "-hash", "1")
	if code != exitOK || !strings.Contains(out, "suite bk: 24 positions") || !regexp.MustCompile(`(?m)^ +plain +1 +24 `).MatchString(out) {
		t.Errorf("suite -epd bk: exit %d\n%s\n%s", code, out, stderr)
	}
	code, out, stderr = suiteCmd(t, context.Background(), "-epd", "zugzwang", "-variant", "null-r3", "-depth", "1..2",
		"-hash", "1", "-format", "json")
	if code != exitOK || !strings.Contains(out, `"nmr-fig3"`) || !strings.Contains(out, `"suite": "zugzwang"`) {
		t.Errorf("suite -epd zugzwang: exit %d\n%s\n%s", code, out, stderr)
	}
	code, out, stderr = run(t, "bench", "-epd", "crafty", "-depth", "1", "-hash", "1")
	if code != exitOK || strings.Count(out, "position crafty-bench.") != 6 {
		t.Errorf("bench -epd crafty: exit %d\n%s\n%s", code, out, stderr)
	}
}

// A name that is neither a suite nor a file is an error listing the suites;
// a file named like a suite is read with a path.
func TestBuiltinSuiteErrors(t *testing.T) {
	for _, cmd := range [][]string{
		{"suite", "-epd", "wac3", "-variant", "plain", "-depth", "1"},
		{"bench", "-epd", "wac3", "-depth", "1"},
	} {
		code, out, stderr := run(t, cmd...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, `"wac3"`) ||
			!strings.Contains(stderr, "wac, wac-classic, bk, crafty, ecm, zugzwang") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", cmd, code, out, stderr)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bk"), []byte(suiteTestEPD), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run(t, "bench", "-epd", filepath.Join(dir, "bk"), "-depth", "1", "-hash", "1")
	if code != exitOK || strings.Count(out, "position ") != 5 {
		t.Errorf("bench -epd DIR/bk: exit %d\n%s\n%s", code, out, stderr)
	}
}
