package report_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"selfplay/internal/golden"
	"selfplay/report"
	"selfplay/standings"
	"selfplay/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, name, string(got), *update)
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

// The fixture records' report is byte-for-byte the golden text and JSON.
func TestGoldenFromRecords(t *testing.T) {
	r := fixtureReport(t, standings.Options{})
	checkGolden(t, "fixture.txt.golden", render(t, r, writeText))
	checkGolden(t, "fixture.json.golden", render(t, r, writeJSON))
}

// An anchor and another level change the rating table and intervals.
func TestGoldenAnchoredLevel(t *testing.T) {
	r := fixtureReport(t, standings.Options{Tournament: "gauntlet", Anchor: "null-r3", Level: 0.9})
	checkGolden(t, "gauntlet-anchored.txt.golden", render(t, r, writeText))
}

// The report is the same each time it is built (no map order, no clock).
func TestReportIsDeterministic(t *testing.T) {
	a := render(t, fixtureReport(t, standings.Options{}), writeHTML)
	b := render(t, fixtureReport(t, standings.Options{}), writeHTML)
	if !bytes.Equal(a, b) {
		t.Fatal("two HTML reports of the same database differ")
	}
}

// The JSON decodes as a generic object and holds the numbers the text shows.
func TestJSONHoldsTheTextNumbers(t *testing.T) {
	r := fixtureReport(t, standings.Options{})
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

// The figures of two fixture pairings, computed here by hand from the
// formulas of fishtest (stat_util.get_elo) and fastchess (EloWDL,
// EloPentanomial) rather than read back from another rendering: mean and
// population variance of the sample scores, se = sqrt(var/N), interval
// mean ± 1.96·se mapped through Elo(s) = -400·log10(1/s - 1),
// LOS = Phi((mean-0.5)/se), nElo = (mean-0.5)/(σ_pair·√2)·800/ln10.
func TestPairingFiguresByHand(t *testing.T) {
	const z = 1.959963984540054 // two-sided 95%
	eloOf := func(s float64) float64 { return -400 * math.Log10(1/s-1) }
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	type figures struct{ score, elo, low, high, los, nelo float64 }
	byHand := func(samples []float64, pairs bool) figures {
		n := float64(len(samples))
		mean, variance := 0.0, 0.0
		for _, x := range samples {
			mean += x / n
		}
		for _, x := range samples {
			variance += (x - mean) * (x - mean) / n
		}
		se := math.Sqrt(variance / n)
		f := figures{score: mean, elo: eloOf(mean), los: phi((mean - 0.5) / se)}
		f.low, f.high = eloOf(math.Max(0, mean-z*se)), eloOf(math.Min(1, mean+z*se))
		if pairs {
			f.nelo = (mean - 0.5) / (math.Sqrt(variance) * math.Sqrt2) * 800 / math.Ln10
		} else {
			f.nelo = (mean - 0.5) / math.Sqrt(variance) * 800 / math.Ln10
		}
		return f
	}
	near := func(what string, got report.Float, want float64) {
		t.Helper()
		g := float64(got)
		if math.IsInf(want, 0) && g == want {
			return
		}
		if math.Abs(g-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v (by hand)", what, g, want)
		}
	}
	check := func(name string, e report.Estimate, want figures) {
		t.Helper()
		near(name+" score", e.Score, want.score)
		near(name+" Elo", e.Elo, want.elo)
		near(name+" Elo low", e.EloLow, want.low)
		near(name+" Elo high", e.EloHigh, want.high)
		near(name+" error", e.EloError, (want.high-want.low)/2)
		near(name+" LOS", e.LOS, want.los)
		near(name+" nElo", e.NElo, want.nelo)
	}
	repeat := func(x float64, n int) []float64 { return slices.Repeat([]float64{x}, n) }

	r := fixtureReport(t, standings.Options{})
	text := string(render(t, r, writeText))

	// fhr vs plain, fhr's points per game: 1 ½ | 1 1 | ½ 0 | 1 1 | ½ 1 | 1
	// (pair 5's second game is not stored): W/L/D 7/1/3, and the pairs
	// LD, WD, WD, WW, WW = ptnml [0, 1, 0, 2, 2].
	match := r.Tournaments[0].Pairings[0]
	if match.Wins != 7 || match.Losses != 1 || match.Draws != 3 || match.Points != 8.5 ||
		match.Ptnml != [5]int{0, 1, 0, 2, 2} || match.UnpairedGames != 1 {
		t.Fatalf("fhr vs plain counts: %+v", match)
	}
	tri, _ := match.Estimate("trinomial")
	check("fhr vs plain trinomial", tri, byHand(slices.Concat(repeat(1, 7), repeat(0, 1), repeat(0.5, 3)), false))
	penta, _ := match.Estimate("pentanomial")
	want := byHand([]float64{0.25, 0.75, 0.75, 1, 1}, true) // pair scores per game
	check("fhr vs plain pentanomial", penta, want)
	// Rounded as the reviewer computed them: 75% is 400·log10(3) = +190.8,
	// 0.75 ± 1.96·sqrt(0.075/5) = [0.50996, 0.99004] → [+6.9, +799.1].
	if s := stats.FormatSigned(want.elo, 1) + " " + stats.FormatSigned(want.low, 1) + " " + stats.FormatSigned(want.high, 1); s != "+190.8 +6.9 +799.1" {
		t.Errorf("hand figures %s, want +190.8 +6.9 +799.1", s)
	}
	row := fieldsOf(t, text, "pentanomial ")
	if got := strings.Join(row[4:8], " "); got != "+190.8 396.1 [+6.9, +799.1]" {
		t.Errorf("text pentanomial row %q, want Elo +190.8, error 396.1, interval [+6.9, +799.1]", strings.Join(row, " "))
	}
	// SPRT bounds: log(β/(1-α)) and log((1-β)/α) with α = β = 0.05.
	if s := match.SPRT; s == nil || math.Abs(float64(s.Lower)-math.Log(0.05/0.95)) > 1e-9 ||
		math.Abs(float64(s.Upper)-math.Log(0.95/0.05)) > 1e-9 {
		t.Errorf("SPRT bounds %+v", match.SPRT)
	}

	// fhr vs null-r3 in the gauntlet: pairs WD, WW, LD, WW = ptnml
	// [0, 1, 0, 1, 2]; 0.75 + 1.96·0.1531 > 1, so the upper end is +inf.
	g := r.Tournaments[1].Pairings[0]
	if g.Second != "null-r3" || g.Ptnml != [5]int{0, 1, 0, 1, 2} {
		t.Fatalf("gauntlet pairing %s vs %s, ptnml %v", g.First, g.Second, g.Ptnml)
	}
	penta, _ = g.Estimate("pentanomial")
	want = byHand([]float64{0.75, 1, 0.25, 1}, true)
	if !math.IsInf(want.high, 1) {
		t.Fatalf("hand upper end %v, want +inf", want.high)
	}
	check("fhr vs null-r3 pentanomial", penta, want)
	if !strings.Contains(text, "verdict  fhr vs null-r3: +190.8 Elo [-34.9, +inf] (95%, pentanomial), LOS 94.9%") {
		t.Errorf("text lacks the fhr vs null-r3 verdict with +190.8 Elo [-34.9, +inf], LOS 94.9%%")
	}
}

// SkipSuiteRuns leaves the suite runs out; by default they are in.
func TestReportSkipsSuiteRuns(t *testing.T) {
	if r := fixtureReport(t, standings.Options{}); len(r.SuiteRuns) != 1 {
		t.Errorf("default report has %d suite runs, want 1", len(r.SuiteRuns))
	}
	if r := fixtureReport(t, standings.Options{SkipSuiteRuns: true}); r.SuiteRuns != nil || len(r.Tournaments) != 2 {
		t.Errorf("SkipSuiteRuns: %d suite runs, %d tournaments; want none and 2", len(r.SuiteRuns), len(r.Tournaments))
	}
}
