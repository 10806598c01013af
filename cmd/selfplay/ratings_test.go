package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"selfplay/internal/testkit"
	"selfplay/report"
)

// rrConfig is a three-engine round robin (150 games).
var rrConfig = testkit.Config{
	Database: "games.db",
	Engines:  []testkit.Engine{{Name: "a", Preset: "plain", Hash: 1}, {Name: "b", Preset: "fhr", Hash: 1}, {Name: "c", Preset: "null-r1", Hash: 1}},
	Tournaments: []testkit.Tournament{{
		Name: "rr", Engines: []string{"a", "b", "c"}, Format: "round-robin", Concurrency: 2,
		Openings:     testkit.Table{"set": "fhr25"},
		Limits:       testkit.Table{"nodes": 200},
		Adjudication: testkit.Table{"move": 25, "referee_nodes": 1000},
	}},
}

// jsonReport parses a JSON report (whose figures are finite here: an
// unbounded one, written "+inf", would fail the decoding loudly).
func jsonReport(t *testing.T, out string) report.Report {
	t.Helper()
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, out)
	}
	return r
}

// The golden round trip: the ratings of an exported tournament are the
// numbers `report` gives for it (rating table with LOS, every pairing's
// counts, pairs and both models' estimates, the terminations that
// occurred), for a match and for a three-engine round robin, also gzipped
// and from standard input.
func TestRatingsOfExportEqualReport(t *testing.T) {
	dir := t.TempDir()
	cfg := rrConfig.Write(t, dir, "rr.toml")
	if code, _, stderr := run(t, "run", "-config", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	dbs := map[string]string{"rr": filepath.Join(dir, "games.db"), "tiny": storedTiny(t)}
	for name, db := range dbs {
		for _, anchor := range []string{"", "a"} {
			pgn := filepath.Join(dir, name+".pgn")
			if code, _, stderr := run(t, "export", "-db", db, "-tournament", name, "-o", pgn); code != exitOK {
				t.Fatalf("export: exit %d: %s", code, stderr)
			}
			args := []string{"-format", "json", "-level", "0.9"}
			if anchor != "" {
				args = append(args, "-anchor", anchor)
			}
			code, out, stderr := run(t, append([]string{"report", "-db", db, "-tournament", name}, args...)...)
			if code != exitOK {
				t.Fatalf("report: exit %d: %s", code, stderr)
			}
			want := jsonReport(t, out).Tournaments[0]
			code, out, stderr = run(t, append(append([]string{"ratings"}, args...), pgn)...)
			if code != exitOK || stderr != "" {
				t.Fatalf("ratings: exit %d: %s", code, stderr)
			}
			got := jsonReport(t, out).Tournaments[0]
			compareRated(t, name, got, want)
			if in := got.Input; in == nil || in.Rated != want.GamesStored || 2*in.Pairs+in.Unpaired != want.GamesStored {
				t.Errorf("%s: input %+v for %d stored games", name, in, want.GamesStored)
			}
		}
	}

	// Gzipped, and through standard input.
	pgn, err := os.ReadFile(filepath.Join(dir, "rr.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(pgn)
	zw.Close()
	gz := writeFile(t, dir, "rr.pgn.gz", z.String())
	_, plain, _ := run(t, "ratings", filepath.Join(dir, "rr.pgn"))
	code, fromGz, stderr := run(t, "ratings", gz)
	if code != exitOK || strings.Replace(fromGz, gz, filepath.Join(dir, "rr.pgn"), -1) != plain {
		t.Errorf("gzip: exit %d, %s\n%s", code, stderr, fromGz)
	}
	code, fromStdin, stderr := runStdin(t, z.String(), "ratings", "-")
	if code != exitOK || strings.Replace(fromStdin, "files    -", "files    "+filepath.Join(dir, "rr.pgn"), 1) !=
		strings.Replace(plain, "Games of "+filepath.Join(dir, "rr.pgn"), "Games of -", 1) {
		t.Errorf("stdin: exit %d, %s\n%s", code, stderr, fromStdin)
	}
}

// compareRated compares what a PGN can carry of a tournament's report.
func compareRated(t *testing.T, name string, got, want report.Tournament) {
	t.Helper()
	if !reflect.DeepEqual(got.Ratings, want.Ratings) {
		t.Errorf("%s ratings:\n got %s\nwant %s", name, dump(got.Ratings), dump(want.Ratings))
	}
	if len(got.Pairings) != len(want.Pairings) {
		t.Fatalf("%s: %d pairings, want %d", name, len(got.Pairings), len(want.Pairings))
	}
	for i, w := range want.Pairings {
		g := got.Pairings[i]
		g.Openings, g.Progress, w.Progress, g.SPRT, w.SPRT = w.Openings, nil, nil, nil, nil // not in a PGN
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s pairing %d:\n got %s\nwant %s", name, i, dump(g), dump(w))
		}
	}
	played := map[string]report.TerminationRow{}
	for _, row := range want.Terminations.Rows {
		if row.Games > 0 {
			played[row.Termination] = row
		}
	}
	if len(got.Terminations.Rows) != len(played) {
		t.Errorf("%s: terminations %s, want %s", name, dump(got.Terminations.Rows), dump(played))
	}
	for _, row := range got.Terminations.Rows {
		w := played[row.Termination]
		for e, n := range w.Against {
			if n == 0 {
				delete(w.Against, e)
			}
		}
		if !reflect.DeepEqual(row, w) {
			t.Errorf("%s termination %s: %s, want %s", name, row.Termination, dump(row), dump(w))
		}
	}
}

func dump(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// runStdin is run with standard input.
func runStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(t.Context(), env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

const ratingsPGN = `[White "x"]
[Black "y"]
[Result "1-0"]

1. e4 {book} e5 {book} 2. Nf3 {+0.30/5 0.01s} 1-0

[White "y"]
[Black "x"]
[Result "1/2-1/2"]

1. e4 {book} e5 {book} 2. Nf3 {+0.00/5 0.01s} 1/2-1/2
`

// Bad input: exit 2 with a message naming the problem; malformed games
// are listed with file and line and the rest is rated.
func TestRatingsBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.pgn", ratingsPGN)
	broken := writeFile(t, dir, "broken.pgn", "[White \"x\"]\n[Black \"y\"]\n[Result \"1-0\"]\n\n1. e4 0-1\n\n"+ratingsPGN+
		"[White \"z\"]\n[Black \"x\"]\n[Result \"*\"]\n\n1. d4 *\n")
	notGzip := writeFile(t, dir, "plain.pgn.gz", ratingsPGN)
	tests := []struct {
		name string
		args []string
		code int
		want []string // in stderr
	}{
		{"no files", nil, exitUsage, []string{"usage: selfplay ratings"}},
		{"missing file", []string{filepath.Join(dir, "nope.pgn")}, exitUsage, []string{"nope.pgn"}},
		{"the same file twice", []string{good, good}, exitUsage, []string{"are the same file: its games would count twice"}},
		{"not gzip", []string{notGzip}, exitUsage, []string{"plain.pgn.gz", "not gzip"}},
		{"unknown anchor", []string{good, "-anchor", "z"}, exitUsage, []string{`anchor "z"`, "x, y"}},
		{"unknown format", []string{"-format", "pdf", good}, exitUsage, []string{"pdf"}},
		{"bad level", []string{"-level", "95", good}, exitUsage, []string{"-level"}},
		{"anchor rating not a number", []string{"-anchor-rating", "2k", good}, exitUsage, []string{"-anchor-rating"}},
		{"anchor rating NaN", []string{"-anchor-rating", "NaN", good}, exitUsage, []string{"-anchor-rating NaN: want a rating between"}},
		{"anchor rating infinite", []string{"-anchor-rating", "-Inf", good}, exitUsage, []string{"-anchor-rating -Inf: want a rating between"}},
		{"nothing rated", []string{writeFile(t, dir, "star.pgn", "[White \"a\"]\n[Black \"b\"]\n\n*\n")}, exitUsage,
			[]string{"no rated games", "1 without a result"}},
		{"malformed listed", []string{broken}, exitOK, []string{"broken.pgn:1: game (x vs y) skipped: Result tag", "1 malformed games skipped"}},
		{"quiet", []string{"-q", broken}, exitOK, []string{"1 malformed games skipped"}},
	}
	for _, tc := range tests {
		code, out, stderr := run(t, append([]string{"ratings"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d: %s", tc.name, code, tc.code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr lacks %q: %s", tc.name, w, stderr)
			}
		}
		if tc.name == "quiet" && strings.Contains(stderr, "broken.pgn:1") {
			t.Errorf("quiet: %s", stderr)
		}
		if tc.code != exitOK && out != "" {
			t.Errorf("%s: output on failure: %s", tc.name, out)
		}
		if tc.name == "malformed listed" && !strings.Contains(out, "games    4 read: 2 rated, 1 without a result (*) skipped, 1 malformed skipped") {
			t.Errorf("%s: header:\n%s", tc.name, out)
		}
	}
}

// Flags may follow the files; "--" ends the flags; -o writes a file.
func TestRatingsArguments(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.pgn", ratingsPGN)
	dash := writeFile(t, dir, "-odd.pgn", ratingsPGN)
	code, out, stderr := run(t, "ratings", good, "-anchor", "y", "-format", "json", "--", dash)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := jsonReport(t, out)
	if r.Anchor != "y" || len(r.Tournaments) != 1 || r.Tournaments[0].Input.Games != 4 || r.Tournaments[0].Input.Pairs != 2 {
		t.Errorf("report %s", out)
	}
	page := filepath.Join(dir, "r.html")
	code, out, stderr = run(t, "ratings", "-format", "html", "-o", page, good)
	if code != exitOK || out != "" {
		t.Fatalf("html: exit %d %s", code, stderr)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "colour-swapped pairs found") {
		t.Errorf("html page: %v %.200s", err, b)
	}
	if code, out, _ := run(t, "ratings", "-h"); code != exitOK || out != "" {
		t.Errorf("-h: exit %d", code)
	}
	if code, out, _ := run(t, "help"); code != exitOK || !strings.Contains(out, "  ratings ") {
		t.Errorf("help: exit %d, the command list lacks ratings:\n%s", code, out)
	}
}

// -anchor-rating (Ordo's -a) moves every rating and bound by the same
// amount, for an anchor and for the average, in ratings and report alike;
// errors and LOS stay; the text prints the scale's ratings unsigned.
func TestAnchorRating(t *testing.T) {
	dir := t.TempDir()
	cfg := rrConfig.Write(t, dir, "rr.toml")
	if code, _, stderr := run(t, "run", "-config", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	db := filepath.Join(dir, "games.db")
	pgn := filepath.Join(dir, "rr.pgn")
	if code, _, stderr := run(t, "export", "-db", db, "-o", pgn); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		name   string
		anchor []string
		offset string
		want   float64
		header string
	}{
		{"anchor", []string{"-anchor", "a"}, "2000", 2000, "a = 2000"},
		{"average", nil, "1500.5", 1500.5, "average rating = 1500.5"},
		{"negative", []string{"-anchor", "b"}, "-100", -100, "b = -100"},
	} {
		for _, cmd := range [][]string{{"ratings", pgn}, {"report", "-db", db}} {
			base := append(append([]string{}, cmd...), tc.anchor...)
			_, out, stderr := run(t, append(base, "-format", "json")...)
			plain := jsonReport(t, out).Tournaments[0]
			code, out, stderr := run(t, append(base, "-format", "json", "-anchor-rating", tc.offset)...)
			if code != exitOK {
				t.Fatalf("%s %s: exit %d: %s", tc.name, cmd[0], code, stderr)
			}
			moved := jsonReport(t, out).Tournaments[0]
			if float64(moved.RatingOffset) != tc.want || len(moved.Ratings) != len(plain.Ratings) || len(plain.Ratings) < 3 {
				t.Fatalf("%s %s: offset %v, %d rows against %d", tc.name, cmd[0], moved.RatingOffset, len(moved.Ratings), len(plain.Ratings))
			}
			for i, m := range moved.Ratings {
				p := plain.Ratings[i]
				shifted := func(got, was report.Float) bool { // JSON keeps 10 significant digits
					return math.Abs(float64(got-was)-tc.want) < 1e-5
				}
				if m.Engine != p.Engine || !shifted(m.Rating, p.Rating) || !shifted(m.Low, p.Low) ||
					!shifted(m.High, p.High) || m.Error != p.Error || !sameLOS(m.LOSNext, p.LOSNext) {
					t.Errorf("%s %s: row %+v, without the offset %+v", tc.name, cmd[0], m, p)
				}
			}
			_, text, _ := run(t, append(base, "-anchor-rating", tc.offset)...)
			if !strings.Contains(text, "Ratings (Bradley-Terry, "+tc.header+", 95% intervals") {
				t.Errorf("%s %s: the heading lacks %q:\n%s", tc.name, cmd[0], tc.header, text)
			}
			top := fmt.Sprintf("%.1f", float64(moved.Ratings[0].Rating))
			if !strings.Contains(text, "  "+top+"  ") || strings.Contains(text, "+"+top) {
				t.Errorf("%s %s: the table does not print %s unsigned:\n%s", tc.name, cmd[0], top, text)
			}
		}
	}
}

func sameLOS(a, b *report.Float) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
