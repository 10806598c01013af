package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// matchPGN writes colour-swapped pairs of first against second, counts[k]
// pairs of first's pair score k/2 (LL, LD, DD, WD, WW) in that order, pair
// i opening from its own position (a FEN with move number i + 1), the same
// in every file; reversed puts second on White in each pair's first game,
// so the file's pairing reads "second vs first".
func matchPGN(first, second string, counts [5]int, reversed bool) string {
	// Each pair's two results from first's view: first as White, then as Black.
	results := [5][2]string{{"0-1", "1-0"}, {"0-1", "1/2-1/2"}, {"1/2-1/2", "1/2-1/2"}, {"1-0", "1/2-1/2"}, {"1-0", "0-1"}}
	var b strings.Builder
	round := 0
	game := func(white, black, result string) {
		fmt.Fprintf(&b, "[Event \"m\"]\n[Site \"?\"]\n[Date \"2026.11.27\"]\n[Round \"%d\"]\n[White %q]\n[Black %q]\n[Result %q]\n"+
			"[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 %d\"]\n[SetUp \"1\"]\n\n%d. Nf3 Nc6 %s\n\n",
			round, white, black, result, round+1, round+1, result)
	}
	for k, n := range counts {
		for range n {
			round++
			asWhite, asBlack := results[k][0], results[k][1]
			if reversed {
				game(second, first, asBlack)
				game(first, second, asWhite)
			} else {
				game(first, second, asWhite)
				game(second, first, asBlack)
			}
		}
	}
	return b.String()
}

// The expected figures were computed apart from selfplay (Python: the
// pentanomial mean and variance per pair, Elo = -400·log10(1/s - 1), each
// match's Elo SE by the delta method, statistics.NormalDist for z and p).
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.pgn", matchPGN("Alpha", "Beta", [5]int{2, 5, 10, 8, 5}, false))
	b := writeFile(t, dir, "b.pgn", matchPGN("Alpha", "Beta", [5]int{4, 8, 10, 5, 3}, true))
	c := writeFile(t, dir, "c.pgn", matchPGN("Gamma", "Delta", [5]int{4, 8, 10, 5, 3}, false))
	d := writeFile(t, dir, "d.pgn", matchPGN("Gamma", "Delta", [5]int{10, 30, 60, 20, 5}, false))
	c2 := writeFile(t, dir, "c2.pgn", matchPGN("Gamma", "Delta", [5]int{3, 20, 41, 27, 9}, false))
	same := writeFile(t, dir, "same.pgn", matchPGN("Alpha", "Beta", [5]int{0, 0, 0, 0, 6}, false))
	copyOfA := writeFile(t, dir, "copy.pgn", matchPGN("Alpha", "Beta", [5]int{2, 5, 10, 8, 5}, false))
	empty := writeFile(t, dir, "empty.pgn", "")
	// Unpaired games (Alpha always White): the trinomial model, +5 -2 =3.
	var tri strings.Builder
	for i, r := range []string{"1-0", "1-0", "1-0", "1-0", "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "0-1", "0-1"} {
		fmt.Fprintf(&tri, "[White \"Alpha\"]\n[Black \"Beta\"]\n[Round \"%d\"]\n[Result %q]\n\n1. e4 e5 %s\n\n", i+1, r, r)
	}
	trinomial := writeFile(t, dir, "tri.pgn", tri.String())
	tests := []struct {
		name  string
		args  []string
		code  int
		holds []string // in standard output, or standard error when code is not exitOK
	}{
		{"difference, B read the other way round", []string{a, b}, exitOK, []string{
			"A     60     30  +52.5  73.0  36.7  Alpha vs Beta (pentanomial), " + a,
			"B     60     30  -29.0  73.5  37.0  Alpha vs Beta (pentanomial), " + b,
			"A − B: +81.5 ± 102.0 Elo (95%), SE 52.1, z +1.57, p 0.117 — not significant at the 5% level\n",
			"\nPair scores per opening both matches played, correlated (95%):\nA, B: r +0.905 [+0.808, +0.954] over 30 openings\n",
		}},
		{"other engines keep their own view", []string{a, c}, exitOK, []string{
			"B     60     30  -29.0  73.5  37.0  Gamma vs Delta (pentanomial)",
			"A − B: +81.5 ± 102.0 Elo (95%)",
		}},
		{"interaction", []string{a, b, c2, d}, exitOK, []string{
			"(A − B) − (C − D): +20.6 ± 110.9 Elo (95%), SE 56.6, z +0.36, p 0.716 — not significant at the 5% level\n",
			"A, C: r +0.830 [+0.670, +0.916] over 30 openings\n",
			"C, D: r +0.756 [+0.658, +0.829] over 100 openings\n",
		}},
		{"-first turns a match round", []string{"-first", "Beta", a, b}, exitOK, []string{
			"A     60     30  -52.5  73.0  36.7  Beta vs Alpha (pentanomial)",
			"B     60     30  +29.0  73.5  37.0  Beta vs Alpha (pentanomial)",
			"A − B: -81.5 ± 102.0 Elo (95%)",
		}},
		{"games without pairs", []string{a, trinomial}, exitOK, []string{
			"B     10      0  +107.5  215.8  94.3  Alpha vs Beta (trinomial)",
			"A, B: 0 openings in common, too few\n",
		}},
		{"a copy of one file", []string{a, copyOfA}, exitOK, []string{
			"A, B: r +1.000 [+1.000, +1.000] over 30 openings, every one scored alike: the same games twice? (the matches must be independent)\n",
		}},
		{"-first names both engines", []string{"-first", "Alpha,Beta", a, b}, exitUsage, []string{"-first names both Alpha and Beta"}},
		{"-first names an engine of no file", []string{"-first", "Beta,Gamma", a, b}, exitUsage, []string{"-first Gamma: plays in none of the files (engines: "}},
		{"the same file twice", []string{a, b, c, b}, exitUsage, []string{"are the same file"}},
		{"standard input twice", []string{"-", "-"}, exitUsage, []string{"standard input (-) given twice"}},
		{"a file without games", []string{a, empty}, exitUsage, []string{"empty.pgn: no rated games"}},
		{"99%", []string{"-level", "0.99", a, b}, exitOK, []string{"A − B: +81.5 ± 134.1 Elo (99%), SE 52.1"}},
		{"three files", []string{a, b, c}, exitUsage, []string{"want 2 files (A − B) or 4 ((A − B) − (C − D)), got 3"}},
		{"two pairings in a file", []string{a, "../../pgnrate/testdata/roundrobin.pgn"}, exitUsage, []string{"6 pairings with rated games"}},
		{"every pair alike", []string{a, b, c, same}, exitUsage, []string{"D (" + same + "): every pair had the same result: no standard error"}},
		{"no such file", []string{a, dir + "/none.pgn"}, exitUsage, []string{"none.pgn"}},
	}
	if _, err := os.Stat("/dev/full"); err == nil { // writing fails: exit 1
		tests = append(tests, struct {
			name  string
			args  []string
			code  int
			holds []string
		}{"a full disk", []string{"-o", "/dev/full", a, b}, exitFailure, []string{"/dev/full"}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"compare"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			got := stdout
			if code != exitOK {
				got = stderr
			}
			for _, h := range tt.holds {
				if !strings.Contains(got, h) {
					t.Errorf("output lacks %q:\n%s", h, got)
				}
			}
		})
	}
}
