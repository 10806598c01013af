package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/outcome"
	"selfplay/standings"
	"selfplay/stats"
	"selfplay/store/record"
)

// pairsOf plays game pairs of A against B (A White in the pair's first
// game) with A's scores in each, counted by the tally and the side counts.
func pairsOf(t *testing.T, pairs map[[2]float64]int) (*standings.Tally, *sideCounts) {
	t.Helper()
	tally, sides := standings.NewTally(), newSideCounts()
	result := func(white float64) outcome.Result {
		switch white {
		case 1:
			return outcome.WhiteWins
		case 0:
			return outcome.BlackWins
		}
		return outcome.Draw
	}
	pair := 0
	for _, s := range [][2]float64{{0, 0}, {0, 0.5}, {1, 0}, {0.5, 0.5}, {1, 0.5}, {1, 1}} {
		for range pairs[s] {
			for _, g := range []*record.Game{
				{Pair: pair, Index: 0, White: "A", Black: "B", Result: result(s[0])},
				{Pair: pair, Index: 1, White: "B", Black: "A", Result: result(1 - s[1])},
			} {
				if err := tally.Add(g); err != nil {
					t.Fatal(err)
				}
				sides.add(g)
			}
			pair++
		}
	}
	return tally, sides
}

// The result blocks' texts against the sources (see resultblock.go for
// the commits): the format strings of cutechess-cli's
// projects/lib/src/tournament.cpp:971 ("Elo difference: %1 +/- %2, LOS: %3
// %, DrawRatio: %4 %") and :1110 ("SPRT: llr %1 (%2%), lbound %3, ubound
// %4"), enginematch.cpp:166 ("Finished match"); fastchess's
// output_fastchess.hpp:21-27 (the dashes), :182 ("Results of {} vs {} ({}, {}, {}{}):", here without the parenthesis, which TestFastchessMatchup checks),
// :187 ("Elo: {}, nElo: {}"), :191 ("LOS: {}, DrawRatio: {:.2f} %{}", ", PairsRatio: {:.2f}"), :203 ("Ptnml(0-2): {}, {}"), :207 ("WL/DD Ratio: {:.2f}"), :197
// ("Games: {}, Wins: {}, ..."), :85 ("LLR: {:.2f} ({:.1f}%) {} {}"), :108
// ("Tournament finished"). The numbers for the pairs LL 1, LD 3, WL 2, DD 4, WD 5, WW 2
// are those of elo.cpp's and elo_pentanomial.cpp's formulas, transcribed
// into Python apart from this code.
func TestResultBlocks(t *testing.T) {
	tally, sides := pairsOf(t, map[[2]float64]int{{0, 0}: 1, {0, 0.5}: 3, {1, 0}: 2, {0.5, 0.5}: 4, {1, 0.5}: 5, {1, 1}: 2})
	cute := []string{
		"...      A playing White: 9 - 4 - 4  [0.647] 17",
		"...      A playing Black: 2 - 3 - 12  [0.471] 17",
		"...      White vs Black: 12 - 6 - 16  [0.588] 34",
		"Elo difference: 41.1 +/- 86.7, LOS: 82.7 %, DrawRatio: 47.1 %",
	}
	test := stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: stats.NormalizedElo}
	sprt := &sprtState{run: stats.NewSPRTRun(test)}
	sprt.run.Restore(stats.SPRTContinue, 0.123)
	for _, c := range []struct {
		format OutputFormat
		sprt   *sprtState
		want   []string
	}{
		{outputCutechess, &sprtState{}, cute},
		{outputCutechess, sprt, append(slices.Clone(cute), "SPRT: llr 0.123 (4.2%), lbound -2.94, ubound 2.94")},
		{outputFastchess, sprt, []string{
			"--------------------------------------------------",
			"Results of A vs B:",
			"Elo: 41.06 +/- 90.76, nElo: 54.59 +/- 116.78",
			"LOS: 82.02 %, DrawRatio: 35.29 %, PairsRatio: 1.75",
			"Games: 34, Wins: 11, Losses: 7, Draws: 16, Points: 19.0 (55.88 %)",
			"Ptnml(0-2): [1, 3, 6, 5, 2], WL/DD Ratio: 0.50",
			"LLR: 0.12 (4.2%) (-2.94, 2.94) [0.00, 5.00]",
			"--------------------------------------------------"}},
	} {
		if got := resultBlock(c.format, tally, sides, []string{"A", "B"}, 0, c.sprt, true); !slices.Equal(got, c.want) {
			t.Errorf("%s:\n%s\nwant\n%s", c.format, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
	decided := &sprtState{run: stats.NewSPRTRun(test)}
	decided.run.Restore(stats.SPRTAcceptH1, 2.95)
	if got := resultBlock(outputCutechess, tally, sides, []string{"A", "B"}, 0, decided, false); !strings.HasSuffix(got[4], " - H1 was accepted") {
		t.Errorf("accepted: %q", got[4])
	}
	// The end lines: fastchess main.cpp:59 and roundrobin.cpp:154-163.
	undecided := &sprtState{run: stats.NewSPRTRun(test)}
	for _, c := range []struct {
		format OutputFormat
		sprt   *sprtState
		want   []string
	}{
		{outputCutechess, nil, []string{"Finished match"}},
		{outputCutechess, decided, []string{"Finished match"}},
		{outputFastchess, nil, []string{"Finished match"}},
		{outputFastchess, undecided, []string{"Finished match"}},
		{outputFastchess, decided, []string{"SPRT ([0.00, 5.00]) completed - H1 was accepted", "Finished match"}},
		{outputNone, nil, nil},
	} {
		if got := endLines(c.format, c.sprt); !slices.Equal(got, c.want) {
			t.Errorf("%s end lines %q, want %q", c.format, got, c.want)
		}
	}
}

// fastchess's "Results of A vs B (tc, threads, hash, book):" parenthesis
// (output_fastchess.hpp:182 and getTime :130: "{moves/}{secs}{+inc:.2g}",
// "{secs}/move", "{} plies", "{} nodes").
func TestFastchessMatchup(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.epd")
	if err := os.WriteFile(book, []byte("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse([]byte(`
[engines.sf]
command = "/usr/games/stockfish"
options = { Threads = "1", Hash = "16" }

[engines.fhr]
preset = "fhr"
hash = 8

[engines.plain]
preset = "plain"

[[tournament]]
name = "a"
engines = ["fhr", "plain"]
limits.depth = 3

[[tournament]]
name = "b"
engines = ["sf", "fhr"]
limits.tc = "8+0.08"
openings.file = "book.epd"

[[tournament]]
name = "c"
engines = ["fhr", "plain", "sf"]
limits.nodes = 5000
`), filepath.Join(dir, "t.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{" (3 plies, NULL, 8MB - 16MB)", " (8+0.08, 1t - NULL, 16MB - 8MB, book.epd)", ""} {
		if got := fastchessMatchup(cfg, &cfg.Tournaments[i]); got != want {
			t.Errorf("tournament %s: %q, want %q", cfg.Tournaments[i].Name, got, want)
		}
	}
	for _, c := range []struct {
		l    config.Limits
		want string
	}{
		{config.Limits{TC: &config.TimeControl{Moves: 40, Base: 60 * time.Second}}, "40/60"},
		{config.Limits{TC: &config.TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}}, "10+0.1"},
		{config.Limits{TC: &config.TimeControl{Base: 2500 * time.Millisecond, Increment: 25 * time.Millisecond}}, "2.5+0.025"},
		{config.Limits{MoveTime: 100 * time.Millisecond}, "0.1/move"},
		{config.Limits{Nodes: 5000}, "5000 nodes"},
		// fastchess 1.8.2 prints these for tc=40/0.3+0.3 and st=0.3.
		{config.Limits{TC: &config.TimeControl{Moves: 40, Base: 300 * time.Millisecond, Increment: 300 * time.Millisecond}}, "40/0.299+0.3"},
		{config.Limits{MoveTime: 300 * time.Millisecond}, "0.299/move"},
	} {
		if got := fastchessTime(c.l); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}

// A gauntlet's seeds lead cutechess-cli's ranking from rank 0, the later
// seed first as its QMultiMap of equal keys gives them
// (tournament.cpp:1029, :1052); the others follow by score.
func TestCutechessRankingSeeds(t *testing.T) {
	ts := []engineTotal{
		{name: "A", g: stats.Trinomial{Wins: 1, Losses: 2}},
		{name: "B", g: stats.Trinomial{Wins: 0, Losses: 3}},
		{name: "C", g: stats.Trinomial{Wins: 2, Draws: 1}},
		{name: "D", g: stats.Trinomial{Wins: 1, Losses: 1}},
	}
	rankOf := func(lines []string) string {
		var out []string
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			out = append(out, f[0]+f[1])
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		seeds int
		want  string
	}{
		{0, "1C 2D 3A 4B"},
		{1, "0A 1C 2D 3B"},
		{2, "0B 1A 2C 3D"},
	} {
		if got := rankOf(cutechessRanking(ts, c.seeds)); got != c.want {
			t.Errorf("%d seeds: ranks %s, want %s", c.seeds, got, c.want)
		}
	}
}

// fastchess's table of more than two engines ends with the Ptnml(0-2)
// column (output_fastchess.hpp:64-74). These rows are fastchess 1.8.2's
// last block of a 4-engine round robin (stockfish at 2000, 1000, 1500 and
// 500 nodes, -rounds 2, fhr25.epd, -maxmoves 30), "-nan" (0/0) where an
// engine drew every pair. Without the pentanomial report the rows are of
// all games and the column is blank.
func TestFastchessRankingPtnml(t *testing.T) {
	total := func(name string, pairs [5]int, g stats.Trinomial) engineTotal {
		return engineTotal{name: name, g: g, paired: g, pairs: stats.PentanomialFromCounts(pairs)}
	}
	ts := []engineTotal{
		total("a", [5]int{0, 0, 6, 0, 0}, stats.Trinomial{Draws: 12}),
		total("b", [5]int{0, 2, 4, 0, 0}, stats.Trinomial{Losses: 2, Draws: 10}),
		total("c", [5]int{0, 0, 4, 2, 0}, stats.Trinomial{Wins: 2, Draws: 10}),
		total("long-engine-name-exceeding-25", [5]int{0, 0, 6, 0, 0}, stats.Trinomial{Draws: 12}),
	}
	want := []string{
		"Rank Name                                 Elo        +/-       nElo        +/-      Games      Score       Draw           Ptnml(0-2)",
		"   1 c                                  58.45      68.34     173.72     196.58         12      58.3%      66.7%      [0, 0, 4, 2, 0]",
		"   2 a                                  -0.00       0.00       -nan       -nan         12      50.0%     100.0%      [0, 0, 6, 0, 0]",
		"   3 long-engine-name-exceeding-25      -0.00       0.00       -nan       -nan         12      50.0%     100.0%      [0, 0, 6, 0, 0]",
		"   4 b                                 -58.45      68.34    -173.72     196.58         12      41.7%      66.7%      [0, 2, 4, 0, 0]",
	}
	if got := fastchessRanking(ts, true, true); !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A pair not yet complete is in the games, not in the pentanomial report.
	ts[1].g.Losses++
	if got := fastchessRanking(ts, true, true); !slices.Equal(got, want) {
		t.Errorf("an incomplete pair counted:\n%s", strings.Join(got, "\n"))
	}
	wdl := fastchessRanking(ts, false, true)
	if !strings.HasSuffix(wdl[1], "%"+strings.Repeat(" ", 21)) || !strings.Contains(wdl[len(wdl)-1], "        13      38.5%      76.9%") {
		t.Errorf("without pentanomial statistics:\n%s", strings.Join(wdl, "\n"))
	}
}

// fastchess's -output format=cutechess prints its own figures in
// cutechess-cli's layout (output_cutechess.hpp:17-97), of all games' W/L/D
// (no pentanomial report with it, sanitize.cpp:32). The reviewer's 6 games
// of sf-5k against sf-2500 (+5 -1 =0, -sprt elo0=0 elo1=5 normalized):
// fastchess 1.8.2 printed these two lines, where cutechess-cli's formulas
// gave "279.6 +/- nan, LOS: 94.9 %, DrawRatio: 0.0 %" and "llr 0.0493".
func TestFastchessCutechessBlock(t *testing.T) {
	tally, sides := pairsOf(t, map[[2]float64]int{{1, 1}: 2, {1, 0}: 1})
	test := stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: stats.NormalizedElo}
	s := newSPRTState(&config.Tournament{Format: config.FormatMatch, SPRT: &test}, tally)
	want := []string{
		"Elo difference: 279.59 +/- nan, LOS: 98.58 %, DrawRatio: 0.00 %",
		"SPRT: llr 0.06 (1.9%), lbound -2.94, ubound 2.94",
	}
	if got := resultBlock(outputFastchessCutechess, tally, sides, []string{"A", "B"}, 0, s, false); !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Its table of more engines is fastchess's without the Ptnml(0-2)
	// column (output_cutechess.hpp:66-73).
	table := fastchessCutechessBlock(tally, []string{"A", "B", "C"}, &sprtState{})
	if h := table[0]; !strings.HasSuffix(h, "     Score       Draw") || len(table) != 4 || !strings.HasSuffix(table[1], "%") {
		t.Errorf("table:\n%s", strings.Join(table, "\n"))
	}
	// A decided test ends with "Tournament finished" (output_cutechess.hpp:113-115).
	decided := &sprtState{run: stats.NewSPRTRun(test)}
	decided.run.Restore(stats.SPRTAcceptH1, 2.95)
	for _, c := range []struct {
		s    *sprtState
		want []string
	}{
		{nil, []string{"Finished match"}},
		{s, []string{"Finished match"}},
		{decided, []string{"Tournament finished", "Finished match"}},
	} {
		if got := endLines(outputFastchessCutechess, c.s); !slices.Equal(got, c.want) {
			t.Errorf("end lines %q, want %q", got, c.want)
		}
	}
	// fastchess's two-engine block without its pentanomial report (-games
	// 1): all games' W/L/D, no PairsRatio or Ptnml(0-2) line, and their
	// LLR (output_fastchess.hpp:115-136, 200-206).
	wdl := []string{
		"--------------------------------------------------",
		"Results of A vs B:",
		"Elo: 279.59 +/- nan, nElo: 310.76 +/- 278.00",
		"LOS: 98.58 %, DrawRatio: 0.00 %",
		"Games: 6, Wins: 5, Losses: 1, Draws: 0, Points: 5.0 (83.33 %)",
		"LLR: 0.06 (1.9%) (-2.94, 2.94) [0.00, 5.00]",
		"--------------------------------------------------",
	}
	if got := resultBlock(outputFastchess, tally, sides, []string{"A", "B"}, 0, s, false); !slices.Equal(got, wdl) {
		t.Errorf("without pentanomial statistics:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wdl, "\n"))
	}
}

// fastchess's undefined figures are "-nan" where its NaN has the sign bit
// (0/0, inf-inf on x86-64, and glibc's log10 and erf keep it) and "nan"
// where glibc's log10 of a negative number made it. fastchess 1.8.2's
// blocks: 10 drawn pairs (the reviewer's b1 vs b2), 10 won pairs (good vs
// bad); a ranking row without games is "-nan" throughout.
func TestFastchessNaNSigns(t *testing.T) {
	for _, c := range []struct {
		pairs map[[2]float64]int
		want  []string
	}{
		{map[[2]float64]int{{0.5, 0.5}: 10}, []string{
			"Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan",
			"LOS: -nan %, DrawRatio: 100.00 %, PairsRatio: -nan",
			"Games: 20, Wins: 0, Losses: 0, Draws: 20, Points: 10.0 (50.00 %)",
			"Ptnml(0-2): [0, 0, 10, 0, 0], WL/DD Ratio: 0.00"}},
		{map[[2]float64]int{{1, 1}: 10}, []string{
			"Elo: inf +/- -nan, nElo: inf +/- -nan",
			"LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf",
			"Games: 20, Wins: 20, Losses: 0, Draws: 0, Points: 20.0 (100.00 %)",
			"Ptnml(0-2): [0, 0, 0, 0, 10], WL/DD Ratio: -nan"}},
	} {
		tally, sides := pairsOf(t, c.pairs)
		got := resultBlock(outputFastchess, tally, sides, []string{"A", "B"}, 0, &sprtState{}, true)
		if len(got) != 7 || !slices.Equal(got[2:6], c.want) {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
	tally, _ := pairsOf(t, map[[2]float64]int{{1, 0.5}: 1})
	rows := fastchessRanking(totals(tally, []string{"A", "B", "C"}), true, true)
	if want := "   3 C                               -nan       -nan       -nan       -nan          0      -nan%      -nan%      [0, 0, 0, 0, 0]"; rows[3] != want {
		t.Errorf("no games: %q, want %q", rows[3], want)
	}
	if got := stats.FastchessTrinomial(stats.Trinomial{Wins: 5, Losses: 1}).Margin; fmtNumber(fastchessNaN(stats.FixedSigma{Margin: got}, 6).Margin, 2) != "nan" {
		t.Errorf("a bound past a score of 1: %s, want nan", fmtNumber(got, 2))
	}
}
