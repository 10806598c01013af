package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// matchArgs is a small match: depth-limited, so its games do not depend on
// the machine, with switches, hash, openings order and seed, adjudication.
var matchArgs = []string{"match", "nmr-r3-4:dr=2", "plain", "hash=8", "-depth", "3", "-openings", "two-ply",
	"-order", "random", "-seed", "7", "-move", "40", "-referee-nodes", "1000", "-concurrency", "1"}

// matchByHand is the config file one would write for matchArgs, by hand.
const matchByHand = `database = "config.db"

[engines."nmr-r3-4:dr=2"]
preset = "nmr-r3-4"
dr = 2

[engines.plain]
preset = "plain"
hash = 8

[[tournament]]
name = "%NAME%"
engines = ["nmr-r3-4:dr=2", "plain"]
concurrency = 1
seed = 7

[tournament.openings]
set = "two-ply"
order = "random"

[tournament.limits]
depth = 3

[tournament.adjudication]
move = 40
referee_nodes = 1000
`

// matchName is the tournament name that match prints.
func matchName(t *testing.T, stdout string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^match: tournament (\S+) in `).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no tournament name in\n%s", stdout)
	}
	return m[1]
}

// maskPGN blanks what depends on the clock: the Date tag and each move's
// time, digit for digit, so that line breaks stay where they are.
func maskPGN(pgn string) string {
	pgn = regexp.MustCompile(`\[Date "[^"]*"\]`).ReplaceAllString(pgn, `[Date "?"]`)
	return regexp.MustCompile(`\d+\.\d+s\}`).ReplaceAllStringFunc(pgn, func(s string) string {
		return regexp.MustCompile(`\d`).ReplaceAllString(s, "0")
	})
}

// match plays the same games as the equivalent config file: the same PGN
// but for dates and move times.
func TestMatchSameGamesAsConfigFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, stdout, stderr := run(t, append(matchArgs, "-pairs", "3")...)
	if code != exitOK {
		t.Fatalf("match: exit %d\n%s%s", code, stdout, stderr)
	}
	name := matchName(t, stdout)
	cfg := writeFile(t, dir, "by-hand.toml", strings.Replace(matchByHand, "%NAME%", name, 1))
	if code, stdout, stderr := run(t, "run", "-config", cfg, "-pairs", "3"); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	export := func(db string) string {
		t.Helper()
		out := filepath.Join(dir, db+".pgn")
		if code, _, stderr := run(t, "export", "-db", db, "-o", out); code != exitOK {
			t.Fatalf("export %s: exit %d: %s", db, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	fromMatch, fromConfig := export("selfplay.db"), export("config.db")
	if n := strings.Count(fromMatch, "[Event "); n != 6 {
		t.Fatalf("match stored %d games, want 6", n)
	}
	if maskPGN(fromMatch) != maskPGN(fromConfig) {
		t.Errorf("match and config file played different games:\n%s\n---\n%s", fromMatch, fromConfig)
	}
	// The config file's tournament is match's: run continues it in match's database.
	code, stdout, stderr = run(t, "run", "-config", cfg, "-db", "selfplay.db", "-pairs", "4")
	if code != exitOK || !strings.Contains(stdout, "resuming, 6 of 8 games stored") {
		t.Errorf("run of the config file on match's database: exit %d, want it to resume\n%s%s", code, stdout, stderr)
	}
}

// Running the same command again resumes the tournament: a larger -pairs
// plays only the new pairs; the printed config runs it too.
func TestMatchResumes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	args := []string{"match", "fhr", "plain", "-depth", "2", "-move", "20", "-referee-nodes", "1000", "-db", "m.db"}
	code, stdout, stderr := run(t, append(args, "-pairs", "1")...)
	if code != exitOK {
		t.Fatalf("match: exit %d\n%s%s", code, stdout, stderr)
	}
	name := matchName(t, stdout)
	// The flags in another order, a default given: the same tournament.
	again := []string{"match", "-db", "m.db", "-referee-nodes", "1000", "fhr", "-move", "20", "plain", "-depth", "2", "-openings", "fhr25", "-pairs", "2"}
	code, stdout, stderr = run(t, again...)
	if code != exitOK || matchName(t, stdout) != name || !strings.Contains(stdout, "resuming, 2 of 4 games stored") ||
		strings.Count(stdout, "Finished game ") != 2 || !strings.Contains(stdout, "Finished game 3 (fhr vs plain)") {
		t.Fatalf("the same match again: exit %d, want it to resume %s and play games 3 and 4\n%s%s", code, name, stdout, stderr)
	}
	// The equivalent config file, printed, runs the same tournament.
	code, text, stderr := run(t, append(args, "-print-config")...)
	if code != exitOK || !strings.Contains(text, `name = "`+name+`"`) || !strings.Contains(text, `database = "m.db"`) {
		t.Fatalf("-print-config: exit %d\n%s%s", code, text, stderr)
	}
	cfg := writeFile(t, dir, "printed.toml", text)
	code, stdout, stderr = run(t, "run", "-config", cfg, "-pairs", "3")
	if code != exitOK || !strings.Contains(stdout, "resuming, 4 of 6 games stored") {
		t.Errorf("run of the printed config: exit %d, want it to resume\n%s%s", code, stdout, stderr)
	}
	// Another setting is another tournament.
	code, stdout, _ = run(t, "match", "fhr", "plain", "-depth", "3", "-db", "m.db", "-print-config")
	if code != exitOK || strings.Contains(stdout, name) {
		t.Errorf("-depth 3 gives the name of -depth 2 (%s):\n%s", name, stdout)
	}
}

// Bad arguments: exit 2, a message naming the argument, nothing written.
func TestMatchBadArgs(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"fhr", "plain"}, "no limit: give one of -nodes, -depth, -movetime, -tc"},
		{[]string{"fhr", "-nodes", "100"}, "want at least 2 engines, got 1"},
		{[]string{"fhr", "plain", "-nodes", "x"}, `-nodes "x": want an integer`},
		{[]string{"fhr", "plain", "-nodes", "-5"}, "-nodes: -5 is out of range"},
		{[]string{"fhr:dr=9", "plain", "-nodes", "100"}, `engine 1 "fhr:dr=9": dr: `},
		{[]string{"dr=2", "fhr", "plain", "-nodes", "100"}, `"dr=2" comes before any engine`},
		{[]string{"fhr", "plain", "-nodes", "100", "-sprt", "5"}, `-sprt "5": want ELO0,ELO1`},
		{[]string{"fhr", "plain", "-nodes", "100", "-beta", "0.1"}, "-beta applies only with -sprt"},
		{[]string{"fhr", "plain", "-nodes", "100", "-openings", "book.epd"}, "-openings: "},
		{[]string{"fhr", "plain", "-nodes", "100", "-log", "moves"}, `-log "moves": want "games"`},
		{[]string{"fhr", "plain", "-nodes", "100", "-pairs", "-1"}, "-pairs -1 is negative"},
		{[]string{"fhr", "plain", "-nodes", "100", "-concurrency", "0"}, "-concurrency: 0 is out of range"},
		// A database that cannot be opened: no "tournament ... in ..." line that says it resumes.
		{[]string{"fhr", "plain", "-nodes", "100", "-db", "no-such-dir/x.db"}, "no-such-dir"},
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for _, tt := range tests {
		code, stdout, stderr := run(t, append([]string{"match"}, tt.args...)...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "selfplay match: ") || !strings.Contains(stderr, tt.want) {
			t.Errorf("match %q: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.args, code, stdout, stderr, exitUsage, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("bad arguments wrote %v", entries)
	}
}
