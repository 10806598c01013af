package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"selfplay/internal/golden"
	"selfplay/internal/testkit"
)

// maskTraffic replaces a traffic log's timestamps and tournament names
// (made from the test binary's path) by fixed words, after checking that
// each line has both, and sorts the last two lines: the quits of the
// worker's two engines, closed in no fixed order.
func maskTraffic(t *testing.T, text string) string {
	t.Helper()
	prefix := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z tournament=[^ ]+ `)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		m := prefix.FindString(l)
		if m == "" {
			t.Fatalf("line %d has no timestamp and tournament: %q", i+1, l)
		}
		lines[i] = "TIME tournament=T " + l[len(m):]
	}
	if n := len(lines); n >= 2 {
		slices.Sort(lines[n-2:])
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestMatchTrafficLog: a match of two fake engines with fastchess's -log
// file=F engine=true logs every line each engine was sent and wrote, in
// order, with the game it belongs to (testdata/traffic.log: the preflight's
// start of each engine, whose engines the worker plays with, two
// adjudicated games, the quits). The config that -print-config shows keeps the log, and
// run with it writes the same traffic.
func TestMatchTrafficLog(t *testing.T) {
	exe, argv := testkit.HelperCommand(t, fakeEngine)
	engine := func(name string) []string {
		words := []string{"cmd=" + exe}
		for _, a := range argv {
			words = append(words, "arg="+a)
		}
		return append(words, "name="+name)
	}
	dir := t.TempDir()
	args := append(append([]string{"match"}, engine("a")...), engine("b")...)
	args = append(args, "-nodes", "10", "-openings", "two-ply", "-pairs", "1", "-concurrency", "1",
		"-move", "2", "-policy", "draw", "-db", filepath.Join(dir, "m.db"),
		"-log", "file="+filepath.Join(dir, "uci.log"), "engine=true", "level=info")
	code, stdout, stderr := run(t, args...)
	if code != exitOK {
		t.Fatalf("match: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "note: -log level= has no effect") {
		t.Errorf("no note on level=; stderr:\n%s", stderr)
	}
	first, err := os.ReadFile(filepath.Join(dir, "uci.log"))
	if err != nil {
		t.Fatal(err)
	}
	masked := maskTraffic(t, string(first))
	golden.Check(t, "traffic.log", masked, *update)

	code, text, stderr := run(t, append(args, "-print-config")...)
	if code != exitOK || !strings.Contains(text, "log = ") {
		t.Fatalf("-print-config: exit %d, no log key:\n%s%s", code, text, stderr)
	}
	cfg := writeFile(t, t.TempDir(), "t.toml", text)
	code, stdout, stderr = run(t, "run", "-config", cfg, "-db", filepath.Join(dir, "r.db"), "-concurrency", "1", "-pairs", "1")
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "uci.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, first) {
		t.Fatalf("run did not append to the log")
	}
	if got := maskTraffic(t, string(b[len(first):])); got != masked {
		t.Errorf("run with the printed config appended other traffic than the match's:\n%s", got)
	}
}

func TestTrafficLogArguments(t *testing.T) {
	tests := []struct {
		args      []string
		rest      []string
		words     []string
		err       string // "" : valid
		truncate  bool
		noteCount int
	}{
		{args: []string{"fhr", "-log", "file=x.log", "engine=true", "plain", "-nodes", "5"},
			rest: []string{"fhr", "plain", "-nodes", "5"}, words: []string{"file=x.log", "engine=true"}},
		{args: []string{"-log=file=x.log", "append=false", "level=warn", "realtime=true"},
			words: []string{"file=x.log", "append=false", "level=warn", "realtime=true"}, truncate: true, noteCount: 2},
		{args: []string{"-log", "games", "fhr"}, rest: []string{"-log", "games", "fhr"}},
		// fastchess's keys in any order (cli.cpp reads them as a map).
		{args: []string{"-log", "engine=true", "file=x.log", "fhr"}, rest: []string{"fhr"}, words: []string{"engine=true", "file=x.log"}},
		{args: []string{"-log", "engine=true"}, words: []string{"engine=true"}, err: "file="},
		{args: []string{"--", "-log", "file=x"}, rest: []string{"--", "-log", "file=x"}},
		{args: []string{"-log", "file=x", "engine=false"}, words: []string{"file=x", "engine=false"}, err: "engine=false"},
		{args: []string{"-log", "file=x", "compress=true"}, words: []string{"file=x", "compress=true"}, err: "compress=true: not supported"},
		{args: []string{"-log", "file=x", "engine=yes"}, words: []string{"file=x", "engine=yes"}, err: "want true or false"},
		{args: []string{"-log", "file="}, words: []string{"file="}, err: "empty path"},
	}
	for _, tc := range tests {
		rest, words := cutTrafficLog(tc.args)
		if !slices.Equal(rest, tc.rest) || !slices.Equal(words, tc.words) {
			t.Errorf("cutTrafficLog(%q) = %q, %q; want %q, %q", tc.args, rest, words, tc.rest, tc.words)
			continue
		}
		if words == nil {
			continue
		}
		spec, err := parseTrafficLog(words)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("parseTrafficLog(%q): error %v, want %q", words, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("parseTrafficLog(%q): %v", words, err)
		case tc.err == "" && (spec.truncate != tc.truncate || len(spec.notes) != tc.noteCount):
			t.Errorf("parseTrafficLog(%q) = %+v, want truncate %v and %d notes", words, spec, tc.truncate, tc.noteCount)
		}
	}
}

// TestMatchCheckMatePVs: with -check-mate-pvs each unsound PV of an
// external engine is a warning on standard error naming the engine and
// the move; without it there is none.
func TestMatchCheckMatePVs(t *testing.T) {
	exe, argv := testkit.HelperCommand(t, fakeEngine, "-mode", "illegal-pv")
	words := []string{"cmd=" + exe}
	for _, a := range argv {
		words = append(words, "arg="+a)
	}
	dir := t.TempDir()
	args := append(append([]string{"match"}, words...), "name=liar", "fhr",
		"-nodes", "10", "-openings", "two-ply", "-pairs", "1", "-concurrency", "1", "-move", "2", "-policy", "draw")
	code, stdout, stderr := run(t, append(args, "-db", filepath.Join(dir, "a.db"), "-check-mate-pvs")...)
	if code != exitOK {
		t.Fatalf("match: exit %d\n%s%s", code, stdout, stderr)
	}
	// Two games, one move of the liar in each: a warning for each.
	const want = "Warning; Illegal PV move - move e2e5 from liar :: Info; info depth 2 score cp 10 pv "
	if n := strings.Count(stderr, want); n != 2 || strings.Count(stderr, "\n") != 2 {
		t.Errorf("%d warnings, want 2 lines starting %q:\n%s", n, want, stderr)
	}
	code, stdout, stderr = run(t, append(args, "-db", filepath.Join(dir, "b.db"))...)
	if code != exitOK || stderr != "" {
		t.Errorf("without -check-mate-pvs: exit %d, stderr:\n%s%s", code, stderr, stdout)
	}
}

// TestTrafficLogKeepsTheTournament: -log does not define the games, so a
// match with it is the same tournament (the same name) as without.
func TestTrafficLogKeepsTheTournament(t *testing.T) {
	name := func(args ...string) string {
		code, text, stderr := run(t, append([]string{"match", "fhr", "plain", "-nodes", "100", "-print-config"}, args...)...)
		if code != exitOK {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "name = ") {
				return l
			}
		}
		t.Fatalf("no name in:\n%s", text)
		return ""
	}
	if a, b := name(), name("-log", "file=x.log", "engine=true"); a != b {
		t.Errorf("-log changes the tournament: %s, %s", a, b)
	}
}

// TestTrafficLogAppendFalseOnlyWhenTheRunStarts: -log append=false empties
// the log as the run starts (fastchess truncates it once its options are
// read, tournament_manager.cpp:38), never for a command that fails before:
// the old log stays as it was.
func TestTrafficLogAppendFalseOnlyWhenTheRunStarts(t *testing.T) {
	t.Chdir(t.TempDir())
	const old = "the log of an earlier run\n"
	if err := os.WriteFile("uci.log", []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"match", "fhr", "plain", "-nodes", "100", "-openings", "two-ply", "-pairs", "1", "-move", "2", "-policy", "draw",
		"-log", "file=uci.log", "engine=true", "append=false"}
	for _, bad := range [][]string{
		{"-nodes", "x"},                   // a bad flag value
		{"-db", "no-such-dir/x.db"},       // a database that cannot be opened
		{"-serve", "no-such-host.:-1"},    // an address that cannot be bound
		{"-affinity", "no-such-cpu-list"}, // refused after the config is read
	} {
		code, _, stderr := run(t, append(slices.Clone(base), bad...)...)
		if code == exitOK {
			t.Fatalf("%q: exit 0, want an error", bad)
		}
		if b, err := os.ReadFile("uci.log"); err != nil || string(b) != old {
			t.Errorf("%q (exit %d, %s): the log is %q (%v), want the old one", bad, code, strings.TrimSpace(stderr), b, err)
		}
	}
	if code, stdout, stderr := run(t, append(base, "-db", "m.db")...); code != exitOK {
		t.Fatalf("match: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, err := os.ReadFile("uci.log"); err != nil || strings.Contains(string(b), old) {
		t.Errorf("after the run the log is %q (%v): not emptied", b, err)
	}
}
