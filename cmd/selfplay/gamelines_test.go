package main

import (
	"flag"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"selfplay/internal/golden"
	"selfplay/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// gauntletConfig: three in-process engines, depth-limited (so the games do
// not depend on the machine), a gauntlet of a against b and c.
var gauntletConfig = testkit.Config{
	Database: "games.db",
	Engines:  []testkit.Engine{{Name: "a", Preset: "plain", Hash: 1}, {Name: "b", Preset: "fhr", Hash: 1}, {Name: "c", Preset: "nmr-r3-4", Hash: 1}},
	Tournaments: []testkit.Tournament{{
		Name: "lines", Engines: []string{"a", "b", "c"}, Format: "gauntlet", Concurrency: 1,
		Limits:       testkit.Table{"depth": 3},
		Adjudication: testkit.Table{"move": 40, "referee_nodes": 1000},
	}},
}

// gameLines are the per-game lines of run's output.
func gameLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Started game ") || strings.HasPrefix(l, "Finished game ") || strings.HasPrefix(l, "Score of ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// The per-game lines of a small run, as a script parsing cutechess-cli's
// output reads them, against testdata/game-lines.txt; the progress lines
// are included with their times masked. Game numbers are places in the
// schedule: with two games at a time the same games get the same numbers.
func TestGameLinesGolden(t *testing.T) {
	dir := t.TempDir()
	cfg := gauntletConfig.Write(t, dir, "t.toml")
	code, stdout, stderr := run(t, "run", "-config", cfg, "-pairs", "3")
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	head, _, _ := strings.Cut(stdout, "\n\n") // the report follows a blank line
	masked := regexp.MustCompile(`(elapsed|ETA) [0-9hms.µ]+`).ReplaceAllString(head, "$1 T") + "\n"
	golden.Check(t, "game-lines.txt", masked, *update)

	lines := gameLines(stdout)
	// A gauntlet of three engines has no Score of lines: cutechess-cli
	// prints them only for two players (projects/cli/src/enginematch.cpp:132,
	// "if (m_tournament->playerCount() == 2)").
	if len(lines) != 2*6 || strings.Contains(stdout, "Score of") {
		t.Fatalf("%d game lines, want 12 (6 games x Started, Finished) and no Score of:\n%s", len(lines), stdout)
	}
	// Concurrency 2: the games finish in another order, with the same numbers.
	code, stdout2, stderr := run(t, "run", "-config", cfg, "-pairs", "3", "-concurrency", "2", "-db", filepath.Join(dir, "two.db"))
	if code != exitOK {
		t.Fatalf("run -concurrency 2: exit %d\n%s%s", code, stdout2, stderr)
	}
	finished := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			if strings.HasPrefix(l, "Finished game ") || strings.HasPrefix(l, "Started game ") {
				out = append(out, l)
			}
		}
		slices.Sort(out)
		return out
	}
	if a, b := finished(lines), finished(gameLines(stdout2)); !slices.Equal(a, b) {
		t.Errorf("Started and Finished lines differ with concurrency 2:\n%s\nvs\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// -scoreinterval N: the Score of line after every Nth game, counting the
// games stored before a resume, and after the run's last, as fastchess
// prints it (matchmaking/tournament/roundrobin/roundrobin.cpp:122-124,
// 176-182; its text, output_cutechess.hpp:28, is the line's).
func TestScoreInterval(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	scores := func(pairs string) []string {
		t.Helper()
		code, stdout, stderr := run(t, "match", "fhr", "plain", "-depth", "2", "-log", "games", "-db", db,
			"-pairs", pairs, "-scoreinterval", "4")
		if code != exitOK {
			t.Fatalf("match -pairs %s: exit %d\n%s%s", pairs, code, stdout, stderr)
		}
		var ns []string
		for _, l := range gameLines(stdout) {
			if strings.HasPrefix(l, "Score of ") {
				ns = append(ns, l[strings.LastIndexByte(l, ' ')+1:])
			}
		}
		return ns
	}
	if got := scores("3"); !slices.Equal(got, []string{"4", "6"}) {
		t.Errorf("games 1-6: Score lines after games %v, want [4 6]", got)
	}
	if got := scores("5"); !slices.Equal(got, []string{"8", "10"}) {
		t.Errorf("games 7-10 (a resume): Score lines after games %v, want [8 10]", got)
	}
}
