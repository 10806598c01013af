package report_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/report"
	"selfplay/runner"
	"selfplay/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report/ -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs from the output at line %d:\n got: %q\nwant: %q\n(run go test ./report/ -update if the change is intended)",
					path, i+1, g, w)
			}
		}
	}
}

func render(t *testing.T, r report.Report, write func(*bytes.Buffer, report.Report) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func writeText(b *bytes.Buffer, r report.Report) error { return report.WriteText(b, r) }
func writeJSON(b *bytes.Buffer, r report.Report) error { return report.WriteJSON(b, r) }
func writeHTML(b *bytes.Buffer, r report.Report) error { return report.WriteHTML(b, r) }

// The fixture database's report, from the real store through the runner's
// builder, is byte-for-byte the golden text and JSON.
func TestGoldenFromStore(t *testing.T) {
	r := fixtureReport(t, runner.ReportOptions{})
	checkGolden(t, "fixture.txt.golden", render(t, r, writeText))
	checkGolden(t, "fixture.json.golden", render(t, r, writeJSON))
}

// An anchor and another level change the rating table and intervals.
func TestGoldenAnchoredLevel(t *testing.T) {
	r := fixtureReport(t, runner.ReportOptions{Tournament: "gauntlet", Anchor: "null-r3", Level: 0.9})
	checkGolden(t, "gauntlet-anchored.txt.golden", render(t, r, writeText))
}

// The report is the same each time it is built (no map order, no clock).
func TestReportIsDeterministic(t *testing.T) {
	a := render(t, fixtureReport(t, runner.ReportOptions{}), writeHTML)
	b := render(t, fixtureReport(t, runner.ReportOptions{}), writeHTML)
	if !bytes.Equal(a, b) {
		t.Fatal("two HTML reports of the same database differ")
	}
}

// The JSON decodes as a generic object and holds the numbers the text shows.
func TestJSONHoldsTheTextNumbers(t *testing.T) {
	r := fixtureReport(t, runner.ReportOptions{})
	text := string(render(t, r, writeText))
	var doc map[string]any
	if err := json.Unmarshal(render(t, r, writeJSON), &doc); err != nil {
		t.Fatalf("JSON report does not decode: %v", err)
	}
	if doc["format"] != report.FormatName || doc["version"] != float64(report.Version) {
		t.Fatalf("format/version = %v/%v", doc["format"], doc["version"])
	}
	ts := doc["tournaments"].([]any)
	if len(ts) != 2 {
		t.Fatalf("%d tournaments in JSON, want 2", len(ts))
	}
	match := ts[0].(map[string]any)
	pairing := match["pairings"].([]any)[0].(map[string]any)
	penta := estimateOf(t, pairing, "pentanomial")

	// Each text figure is the JSON number rounded as the text rounds it.
	expect := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: text shows %q, JSON holds %q", what, got, want)
		}
	}
	wld := fieldsOf(t, text, "W/L/D ")
	expect("W/L/D", wld[1], fmt.Sprintf("%v/%v/%v", pairing["wins"], pairing["losses"], pairing["draws"]))
	row := fieldsOf(t, text, "pentanomial ")
	expect("pentanomial games", row[1], fmt.Sprint(penta["games"]))
	expect("pentanomial Elo", row[4], signed(penta["elo"], 1))
	expect("pentanomial error", row[5], fixed(penta["elo_error"], 1))
	expect("pentanomial interval", row[6]+" "+row[7], "["+signed(penta["elo_low"], 1)+", "+signed(penta["elo_high"], 1)+"]")
	expect("pentanomial LOS", row[8], fixed(100*penta["los"].(float64), 1)+"%")
	llr := fieldsOf(t, text, "SPRT LLR ")
	expect("SPRT LLR", llr[2], fixed(pairing["sprt"].(map[string]any)["llr"], 2))
	if !strings.Contains(text, "verdict    "+pairing["verdict"].(string)+"\n") {
		t.Errorf("text report lacks the verdict %q", pairing["verdict"])
	}
	search := match["search"].([]any)[0].(map[string]any)
	fhr := fieldsOf(t, text[strings.Index(text, "-- Search"):], "fhr ")
	expect("fhr moves", fhr[1], fmt.Sprint(search["moves"]))
	expect("fhr depth", fhr[2], fixed(search["depth"], 2))
	expect("fhr nodes/move", fhr[4], fixed(search["nodes"], 0))

	// The clean sweep's infinite Elo is the string "+inf" in JSON.
	gauntlet := ts[1].(map[string]any)
	sweep := gauntlet["pairings"].([]any)[1].(map[string]any)
	if got := estimateOf(t, sweep, "pentanomial")["elo"]; got != "+inf" {
		t.Errorf("fhr vs nmr pentanomial elo = %v, want \"+inf\"", got)
	}
	ratings := gauntlet["ratings"].([]any)
	if got := ratings[len(ratings)-1].(map[string]any); got["engine"] != "idle" || got["status"] != "unconnected" {
		t.Errorf("last rating row = %v, want idle unconnected", got)
	}
}

// fieldsOf splits the first line of text that starts with prefix.
func fieldsOf(t *testing.T, text, prefix string) []string {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			return strings.Fields(line)
		}
	}
	t.Fatalf("no line starting with %q", prefix)
	return nil
}

func estimateOf(t *testing.T, pairing map[string]any, model string) map[string]any {
	t.Helper()
	for _, e := range pairing["estimates"].([]any) {
		if m := e.(map[string]any); m["model"] == model {
			return m
		}
	}
	t.Fatalf("no %s estimate in %v", model, pairing["estimates"])
	return nil
}

// fixed and signed format a decoded JSON number as the text does.
func fixed(v any, prec int) string  { return stats.FormatFloat(v.(float64), prec) }
func signed(v any, prec int) string { return stats.FormatSigned(v.(float64), prec) }
