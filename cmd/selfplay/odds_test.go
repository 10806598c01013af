package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A node-odds match given on the command line (A at 10,000 nodes, B at
// 5,000, no tournament limit): the plan line, each PGN and the report say
// both budgets, and every move's recorded nodes stay within its side's.
func TestMatchNodeOdds(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, "two.epd", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"+
		"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n")
	code, stdout, stderr := run(t, "match", "fhr", "nodes=10000", "name=A", "fhr", "nodes=5000", "name=B",
		"-openings", "two.epd", "-move", "20", "-policy", "draw", "-concurrency", "1")
	if code != exitOK {
		t.Fatalf("match: exit %d\n%s%s", code, stdout, stderr)
	}
	// The plan line is broken to the terminal's width: compare words.
	if want := "A vs B, A: 10000 nodes per move, B: 5000 nodes per move, concurrency 1,"; !strings.Contains(strings.Join(strings.Fields(stdout), " "), want) {
		t.Errorf("the plan does not say %q:\n%s", want, stdout)
	}
	out := filepath.Join(dir, "games.pgn")
	if code, stdout, stderr := run(t, "export", "-db", "selfplay.db", "-o", out); code != exitOK {
		t.Fatalf("export: exit %d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	budget := map[string]int64{"A": 10000, "B": 5000}
	games := strings.Split(strings.TrimSpace(string(data)), "\n\n[Event")
	if len(games) != 4 {
		t.Fatalf("%d games exported, want 4", len(games))
	}
	most := map[string]int64{}
	for _, g := range games {
		white := regexp.MustCompile(`\[White "(\w+)"\]`).FindStringSubmatch(g)[1]
		black := map[string]string{"A": "B", "B": "A"}[white]
		for _, tag := range []string{
			`[WhiteTimeControl "-"]`, `[BlackTimeControl "-"]`,
			`[WhiteLimit "` + strconv.FormatInt(budget[white], 10) + ` nodes per move"]`,
			`[BlackLimit "` + strconv.FormatInt(budget[black], 10) + ` nodes per move"]`,
		} {
			if !strings.Contains(g, tag) {
				t.Errorf("no %s in\n%s", tag, g)
			}
		}
		if strings.Contains(g, `[TimeControl `) {
			t.Errorf("an odds game with a TimeControl tag:\n%s", g)
		}
		// "N." is White's move, "N..." Black's; book moves have no nodes.
		moves := regexp.MustCompile(`\d+(\.|\.\.\.) \S+ \{[^}]* (\d+)N `).FindAllStringSubmatch(strings.Join(strings.Fields(g), " "), -1)
		if len(moves) < 10 {
			t.Fatalf("%d engine moves in\n%s", len(moves), g)
		}
		for _, m := range moves {
			side := white
			if m[1] == "..." {
				side = black
			}
			n, _ := strconv.ParseInt(m[2], 10, 64)
			if n > budget[side] {
				t.Errorf("%s searched %d nodes in %q, over its %d", side, n, m[0], budget[side])
			}
			most[side] = max(most[side], n)
		}
	}
	if most["A"] <= budget["B"] {
		t.Errorf("A searched at most %d nodes a move: no more than B's budget, so the odds did not reach it", most["A"])
	}
	code, report, stderr := run(t, "report", "-db", "selfplay.db")
	if code != exitOK {
		t.Fatalf("report: exit %d\n%s%s", code, report, stderr)
	}
	if want := "limits   A: 10000 nodes per move; B: 5000 nodes per move"; !strings.Contains(report, want) {
		t.Errorf("the report's header does not say %q:\n%s", want, report)
	}
}
