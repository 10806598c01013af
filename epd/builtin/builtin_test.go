package builtin

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/epd"
)

// Every built-in suite parses without a bad line into the positions and
// answers README.md counts (the counts of the shared data's README).
func TestSuitesParse(t *testing.T) {
	want := map[string][3]int{ // positions, bm moves, am moves
		"wac": {300, 348, 1}, "wac-classic": {300, 327, 0}, "bk": {24, 26, 0},
		"crafty": {6, 6, 0}, "ecm": {879, 881, 0}, "zugzwang": {6, 6, 1},
	}
	if len(allSuites()) != len(want) {
		t.Fatalf("%d suites, want %d", len(allSuites()), len(want))
	}
	for _, s := range allSuites() {
		recs, bad, err := Load(s.Name)
		if err != nil || len(bad) != 0 {
			t.Fatalf("%s: %v, bad lines %v", s.Name, err, bad)
		}
		var bm, am int
		for _, r := range recs {
			bm += len(r.Best)
			am += len(r.Avoid)
		}
		if got := [3]int{len(recs), bm, am}; got != want[s.Name] {
			t.Errorf("%s: positions, bm, am = %v, want %v", s.Name, got, want[s.Name])
		}
	}
}

// The crafty suite carries the NMR paper's depths, the zugzwang suite its
// Figure 3 position.
func TestSuiteContents(t *testing.T) {
	recs, _, err := Load("crafty")
	if err != nil {
		t.Fatal(err)
	}
	var depths []string
	for _, r := range recs {
		depths = append(depths, strings.Join(r.Ops["c0"], " "))
	}
	if strings.Join(depths, ",") != "depth 11,depth 11,depth 14,depth 11,depth 12,depth 11" {
		t.Errorf("crafty depths %v", depths)
	}
	recs, _, err = Load("zugzwang")
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].ID != "nmr-fig3" || strings.Join(recs[0].BestSAN, " ") != "h3" {
		t.Errorf("zugzwang first record %+v", recs[0])
	}
}

// A path still works; a name that is neither a suite nor a file is an
// error that lists the suites.
func TestLoadPathAndUnknown(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "two.epd")
	text := "8/8/8/8/8/8/8/K6k w - - bm Kb1; id \"one\";\n8/8/8/8/8/8/8/K6k w - - bm Kb2; id \"two\";\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, bad, err := Load(path)
	if err != nil || len(bad) != 0 || len(recs) != 2 || recs[1].ID != "two" {
		t.Errorf("file: %d records, %v, %v", len(recs), bad, err)
	}
	_, _, err = Load("wac2")
	if err == nil || !strings.Contains(err.Error(), `"wac2"`) || !strings.Contains(err.Error(), Names()) {
		t.Errorf("unknown name: %v", err)
	}
	if _, ok := lookup("WAC"); ok {
		t.Error("names are case-sensitive, as file names are")
	}
}

// The embedded copies are the shared test data's files, when that folder
// is beside the repository (it is in CI): a change there must be copied
// here.
func TestCopiesMatchSharedData(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not present: nothing to compare the embedded copies with", dir)
	}
	for _, s := range allSuites() {
		shared, err := os.ReadFile(filepath.Join(dir, s.File))
		if err != nil {
			t.Fatal(err)
		}
		embedded, err := s.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(shared, embedded) {
			t.Errorf("%s: the embedded %s differs from %s", s.Name, s.File, filepath.Join(dir, s.File))
		}
	}
}

// Loading by name gives the records epd.Parse gives for the text.
func TestLoadEqualsParse(t *testing.T) {
	s, _ := lookup("bk")
	text, err := s.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := epd.Parse(bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := Load("bk")
	if err != nil || len(got) != len(want) || got[23].FEN != want[23].FEN {
		t.Errorf("Load(bk) differs from Parse: %v", err)
	}
}
