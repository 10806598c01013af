package pgnrate

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"selfplay/internal/golden"
	"selfplay/pgnscan"
	"selfplay/report"
	"selfplay/stats"
)

// rate reads PGN texts (one stream each) and returns the report and the
// malformed games.
func rate(t *testing.T, window int, level float64, anchor string, texts ...string) (report.Tournament, []*pgnscan.GameError) {
	t.Helper()
	p := NewPool(window)
	var bad []*pgnscan.GameError
	for i, text := range texts {
		if err := p.Read(context.Background(), strings.NewReader(text), fmt.Sprintf("in%d.pgn", i+1),
			func(e *pgnscan.GameError) { bad = append(bad, e) }); err != nil {
			t.Fatal(err)
		}
	}
	r, err := p.Report(level, anchor)
	if err != nil {
		t.Fatal(err)
	}
	return r.Tournaments[0], bad
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "pgnscan", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pairingOf finds the pairing of two engines in either order.
func pairingOf(t *testing.T, r report.Tournament, a, b string) report.Pairing {
	t.Helper()
	for _, p := range r.Pairings {
		if p.First == a && p.Second == b || p.First == b && p.Second == a {
			return p
		}
	}
	t.Fatalf("no pairing %s vs %s in %+v", a, b, r.Pairings)
	return report.Pairing{}
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// The cutechess fixture by hand: Stockfish, White in the first game, scores
// 1 + ½ (WD), ½ + 1 (WD) and 1 + 0 (DD): W/L/D 3/1/2, 4/6.
func TestCutechessByHand(t *testing.T) {
	r, bad := rate(t, 0, 0, "", readFixture(t, "cutechess.pgn"))
	if len(bad) != 0 {
		t.Fatal(bad)
	}
	p := pairingOf(t, r, "Stockfish 16", "Ethereal 14.25")
	if p.First != "Stockfish 16" || p.Wins != 3 || p.Losses != 1 || p.Draws != 2 || p.Points != 4 ||
		p.Pairs != 3 || p.Ptnml != [5]int{0, 0, 1, 2, 0} || p.UnpairedGames != 0 {
		t.Errorf("pairing %+v", p)
	}
	want := report.Input{Files: []string{"in1.pgn"}, Games: 6, Rated: 6, Pairs: 3}
	if !inputEqual(*r.Input, want) {
		t.Errorf("input %+v, want %+v", *r.Input, want)
	}
	terms := map[string][3]int{}
	for _, row := range r.Terminations.Rows {
		terms[row.Termination] = [3]int{row.Games, row.Against["Stockfish 16"], row.Against["Ethereal 14.25"]}
	}
	wantTerms := map[string][3]int{"adjudication": {3, 1, 1}, "time forfeit": {1, 0, 1}, "(no tag)": {2, 0, 1}}
	if fmt.Sprint(terms) != fmt.Sprint(wantTerms) || r.Terminations.Rows[len(r.Terminations.Rows)-1].Termination != "(no tag)" {
		t.Errorf("terminations %v, want %v", terms, wantTerms)
	}
}

func inputEqual(a, b report.Input) bool {
	return slices.Equal(a.Files, b.Files) && a.Games == b.Games && a.Rated == b.Rated && a.Unfinished == b.Unfinished &&
		a.Malformed == b.Malformed && a.Pairs == b.Pairs && a.Unpaired == b.Unpaired
}

// The fastchess fixture: pairs share a Round tag and are interleaved (round
// 2's first game comes before round 1's). Pairing each game with the
// earliest candidate would make the pairs (R2: 1, R1: 1) = WW and (R1: ½,
// R2: 0) = LD; the Round tag gives (1 + 0) DD, (½ + 1) WD and (1 + 0) DD.
// The "*" game is counted and skipped.
func TestFastchessByHand(t *testing.T) {
	r, bad := rate(t, 0, 0, "", readFixture(t, "fastchess.pgn"))
	if len(bad) != 0 {
		t.Fatal(bad)
	}
	p := pairingOf(t, r, "dev", "base")
	if p.First != "dev" || p.Wins != 3 || p.Losses != 2 || p.Draws != 1 || p.Ptnml != [5]int{0, 0, 2, 1, 0} {
		t.Errorf("pairing %+v", p)
	}
	want := report.Input{Files: []string{"in1.pgn"}, Games: 7, Rated: 6, Unfinished: 1, Pairs: 3}
	if !inputEqual(*r.Input, want) {
		t.Errorf("input %+v, want %+v", *r.Input, want)
	}
}

// game is a minimal PGN game.
func game(round, white, black, result, fen string, book ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Round %q]\n[White %q]\n[Black %q]\n[Result %q]\n", round, white, black, result)
	if fen != "" {
		fmt.Fprintf(&b, "[SetUp \"1\"]\n[FEN %q]\n", fen)
	}
	b.WriteString("\n")
	for i, m := range book {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		fmt.Fprintf(&b, "%s {book} ", m)
	}
	b.WriteString("a3 {+0.10/5 0.01s} a6 {-0.10/5 0.01s} " + result + "\n\n")
	return b.String()
}

// Two engines' hand-computed result: 7 wins, 2 losses, 1 draw is a 75%
// score, 400·log10(3) = +190.85 Elo for the first engine, which the
// two-player maximum-likelihood rating reproduces (±95.4 around the
// average); its trinomial estimate is stats' for the same counts.
func TestTwoPlayersByHand(t *testing.T) {
	var b strings.Builder
	results := []string{"1-0", "0-1", "1-0", "1-0", "1/2-1/2", "1-0", "0-1", "1-0", "1-0", "1-0"}
	for i, res := range results { // "a" scores res; no pairs (different openings)
		op := []string{"e4", "e5", "Nf3", fmt.Sprint("N", "a6bcd"[i%5:i%5+1], "6")}
		if i%2 == 0 {
			b.WriteString(game(fmt.Sprint(i+1), "a", "b", res, "", op...))
		} else {
			flipped := map[string]string{"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2"}[res]
			b.WriteString(game(fmt.Sprint(i+1), "b", "a", flipped, "", append(op, "d4")...))
		}
	}
	r, bad := rate(t, 0, 0, "", b.String())
	if len(bad) != 0 {
		t.Fatal(bad)
	}
	p := pairingOf(t, r, "a", "b")
	if p.First != "a" || p.Wins != 7 || p.Losses != 2 || p.Draws != 1 || p.Pairs != 0 || p.UnpairedGames != 10 {
		t.Fatalf("pairing %+v", p)
	}
	est, err := stats.AnalyzeTrinomial(stats.Trinomial{Wins: 7, Losses: 2, Draws: 1}, stats.DefaultLevel)
	if err != nil {
		t.Fatal(err)
	}
	tri, ok := p.Estimate("trinomial")
	if !ok || len(p.Estimates) != 1 || float64(tri.Elo) != est.Elo || float64(tri.EloLow) != est.EloLow {
		t.Errorf("estimates %+v, want %+v", p.Estimates, est)
	}
	elo := 400 * math.Log10(3)
	if !near(float64(tri.Elo), elo, 1e-9) {
		t.Errorf("Elo %v, want %v", tri.Elo, elo)
	}
	if r.Ratings[0].Engine != "a" || !near(float64(r.Ratings[0].Rating), elo/2, 1e-6) ||
		!near(float64(r.Ratings[1].Rating), -elo/2, 1e-6) {
		t.Errorf("ratings %+v", r.Ratings)
	}
	anchored, _ := rate(t, 0, 0.9, "b", b.String())
	if !near(float64(anchored.Ratings[0].Rating), elo, 1e-6) || anchored.Ratings[1].Rating != 0 || anchored.RatingAnchor != "b" {
		t.Errorf("anchored ratings %+v", anchored.Ratings)
	}
}

// Pairs: the same engines with the colours swapped and the same start
// (FEN and book moves); a pair does not span files; the window bounds how
// far back a partner is looked for.
func TestPairDetection(t *testing.T) {
	fenA := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	fenB := "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
	start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	tests := []struct {
		name     string
		window   int
		texts    []string
		pairs    int
		unpaired int
	}{
		{"consecutive swapped", 0, []string{game("1", "x", "y", "1-0", fenA) + game("2", "y", "x", "1-0", fenA)}, 1, 0},
		{"same colours", 0, []string{game("1", "x", "y", "1-0", fenA) + game("2", "x", "y", "1-0", fenA)}, 0, 2},
		{"other FEN", 0, []string{game("1", "x", "y", "1-0", fenA) + game("2", "y", "x", "1-0", fenB)}, 0, 2},
		{"startpos FEN equals none", 0, []string{game("1", "x", "y", "1-0", start, "e4", "e5") +
			game("2", "y", "x", "1-0", "", "e4", "e5")}, 1, 0},
		{"other book moves", 0, []string{game("1", "x", "y", "1-0", "", "e4", "e5") + game("2", "y", "x", "1-0", "", "e4", "c5")}, 0, 2},
		{"other engines", 0, []string{game("1", "x", "y", "1-0", fenA) + game("2", "z", "x", "1-0", fenA)}, 0, 2},
		{"across files", 0, []string{game("1", "x", "y", "1-0", fenA), game("2", "y", "x", "1-0", fenA)}, 0, 2},
		{"interleaved", 0, []string{game("1", "x", "y", "1-0", fenA) + game("2", "x", "y", "1-0", fenB) +
			game("3", "y", "x", "1-0", fenB) + game("4", "y", "x", "1-0", fenA)}, 2, 0},
		{"beyond the window", 2, []string{game("1", "x", "y", "1-0", fenA) + game("2", "x", "y", "1-0", fenB) +
			game("3", "x", "z", "1-0", fenB) + game("4", "y", "x", "1-0", fenA)}, 0, 4},
		{"a star game is no partner", 0, []string{game("1", "x", "y", "*", fenA) + game("2", "y", "x", "1-0", fenA)}, 0, 1},
	}
	for _, tc := range tests {
		r, bad := rate(t, tc.window, 0, "", tc.texts...)
		if len(bad) != 0 {
			t.Fatalf("%s: %v", tc.name, bad)
		}
		if r.Input.Pairs != tc.pairs || r.Input.Unpaired != tc.unpaired || r.Input.Rated != 2*tc.pairs+tc.unpaired {
			t.Errorf("%s: input %+v, want %d pairs, %d unpaired", tc.name, *r.Input, tc.pairs, tc.unpaired)
		}
	}
}

// Malformed games are reported and skipped, "*" games counted; the rest is
// rated as if they were not there.
func TestMalformedAndUnfinishedSkipped(t *testing.T) {
	fen := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	good := game("1", "x", "y", "1-0", fen) + game("1", "y", "x", "1/2-1/2", fen)
	text := game("0", "x", "y", "*", fen) + good +
		"[White \"x\"]\n[Black \"y\"]\n[Result \"1-0\"]\n\n1. e4 0-1\n\n" + // result disagrees
		"[White \"x\"]\n[Black \"x\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n" + // plays itself
		"[White \"y\"]\n[Black \"x\"]\n[Result \"1-0\"]\n\n1. e4 {no end\n\n" + game("2", "y", "x", "0-1", fen)
	r, bad := rate(t, 0, 0, "", text)
	var lines []string
	for _, e := range bad {
		lines = append(lines, fmt.Sprint(e.Line))
	}
	if len(bad) != 3 || strings.Join(lines, ",") != "28,34,44" || !strings.Contains(bad[1].Reason, "plays itself") {
		t.Errorf("errors %v", bad)
	}
	want := report.Input{Files: []string{"in1.pgn"}, Games: 7, Rated: 3, Unfinished: 1, Malformed: 3, Pairs: 1, Unpaired: 1}
	if !inputEqual(*r.Input, want) {
		t.Errorf("input %+v, want %+v", *r.Input, want)
	}
	clean, _ := rate(t, 0, 0, "", good+game("2", "y", "x", "0-1", fen))
	if ratingsText(clean.Ratings) != ratingsText(r.Ratings) || fmt.Sprint(clean.Pairings) != fmt.Sprint(r.Pairings) {
		t.Errorf("skipped games changed the ratings:\n%s\n%s", ratingsText(r.Ratings), ratingsText(clean.Ratings))
	}
}

// A simulated seven-engine round robin, written as PGN in colour-swapped
// pairs, recovers the true ratings: each within its interval, the order
// right where the truth is far apart, the pairs all found.
func TestRoundRobinRecoversRatings(t *testing.T) {
	names := []string{"e1", "e2", "e3", "e4", "e5", "e6", "e7"}
	truth := []float64{150, 100, 40, 0, -30, -110, -150}
	rng := rand.New(rand.NewPCG(7, 9))
	var b strings.Builder
	pairsPerPairing := 150
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			for k := range pairsPerPairing {
				fen := fmt.Sprintf("8/8/8/8/8/8/8/K6k w - - 0 %d", k+1) // a distinct start per pair
				b.WriteString(game("1", names[i], names[j], simulate(rng, truth[i]-truth[j]), fen))
				b.WriteString(game("1", names[j], names[i], simulate(rng, truth[j]-truth[i]), fen))
			}
		}
	}
	r, bad := rate(t, 0, 0, "e4", b.String())
	if len(bad) != 0 {
		t.Fatal(bad)
	}
	if r.Input.Pairs != 21*pairsPerPairing || r.Input.Unpaired != 0 {
		t.Errorf("input %+v", *r.Input)
	}
	for i, name := range names {
		var row report.Rating
		for _, x := range r.Ratings {
			if x.Engine == name {
				row = x
			}
		}
		if row.Status != "rated" || !(float64(row.Low) <= truth[i] && truth[i] <= float64(row.High)) {
			t.Errorf("%s: true %v outside [%.1f, %.1f] (rating %.1f)", name, truth[i], row.Low, row.High, row.Rating)
		}
	}
	if r.Ratings[0].Engine != "e1" || r.Ratings[6].Engine != "e7" {
		t.Errorf("order: %+v", r.Ratings)
	}
	if len(r.Pairings) != 21 {
		t.Errorf("%d pairings", len(r.Pairings))
	}
}

// simulate draws a White result for a rating difference, draws 40% where
// possible.
func simulate(rng *rand.Rand, diff float64) string {
	s := stats.ScoreFromElo(diff)
	d := math.Min(0.4, 2*math.Min(s, 1-s))
	switch u := rng.Float64(); {
	case u < s-d/2:
		return "1-0"
	case u < s+d/2:
		return "1/2-1/2"
	}
	return "0-1"
}

// An unknown anchor is an error that lists the engines.
func TestUnknownAnchor(t *testing.T) {
	p := NewPool(0)
	if err := p.Read(context.Background(), strings.NewReader(game("1", "x", "y", "1-0", "")), "a.pgn", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Report(0, "z"); err == nil || !strings.Contains(err.Error(), "x, y") {
		t.Errorf("error %v", err)
	}
}

// ratingsText prints rating rows with their LOS values (not pointers).
func ratingsText(rows []report.Rating) string {
	var b strings.Builder
	for _, r := range rows {
		los := "nil"
		if r.LOSNext != nil {
			los = fmt.Sprint(*r.LOSNext)
		}
		r.LOSNext = nil
		fmt.Fprintf(&b, "%+v los %s\n", r, los)
	}
	return b.String()
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The text report of a hand-made four-engine round robin, two pairs per
// pairing, is byte for byte the golden file, whose crosstable holds the
// scores worked out by hand from the fixture: Alpha 3/4 against Beta,
// 2.5/4 against Gamma, 3/4 against Delta; Beta 2/4 against Gamma, 2.5/4
// against Delta; Gamma 3/4 against Delta.
func TestRoundRobinGolden(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "roundrobin.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(0)
	if err := p.Read(context.Background(), strings.NewReader(string(text)), "roundrobin.pgn", nil); err != nil {
		t.Fatal(err)
	}
	r, err := p.Report(0, "")
	if err != nil {
		t.Fatal(err)
	}
	cells := map[[2]string]string{}
	for _, pr := range r.Tournaments[0].Pairings {
		cells[[2]string{pr.First, pr.Second}] = fmt.Sprintf("%v/%d", pr.Points, pr.Games)
	}
	want := map[[2]string]string{{"Alpha", "Beta"}: "3/4", {"Alpha", "Gamma"}: "2.5/4", {"Alpha", "Delta"}: "3/4",
		{"Beta", "Gamma"}: "2/4", {"Beta", "Delta"}: "2.5/4", {"Gamma", "Delta"}: "3/4"}
	if fmt.Sprint(cells) != fmt.Sprint(want) {
		t.Errorf("pairings %v, want %v", cells, want)
	}
	var b bytes.Buffer
	if err := report.WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "roundrobin.txt.golden", b.String(), *update)
}

// KeepOpenings remembers each complete pair's score by pairing and start,
// from the pairing's first engine's view; past its limit Openings says so.
func TestOpenings(t *testing.T) {
	fenA := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	fenB := "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
	text := game("1", "x", "y", "1-0", fenA) + game("1", "y", "x", "1/2-1/2", fenA) + // x: 1.5
		game("2", "y", "x", "1-0", fenB) + game("2", "x", "y", "0-1", fenB) + // x: 0
		game("3", "x", "y", "1/2-1/2", fenA) + game("3", "y", "x", "0-1", fenA) + // x: 1.5
		game("4", "x", "y", "1-0", fenB) // unpaired
	read := func(p *Pool) {
		if err := p.Read(context.Background(), strings.NewReader(text), "o.pgn", func(e *pgnscan.GameError) { t.Error(e) }); err != nil {
			t.Fatal(err)
		}
	}
	p := NewPool(0)
	if _, ok := p.Openings(0); ok {
		t.Error("Openings without KeepOpenings: ok")
	}
	p.KeepOpenings(0)
	read(p)
	got, ok := p.Openings(0)
	if !ok || len(got) != 2 {
		t.Fatalf("Openings(0) = %v, %v; want two starts", got, ok)
	}
	var sums []OpeningScore
	for _, o := range got {
		sums = append(sums, o)
	}
	slices.SortFunc(sums, func(a, b OpeningScore) int { return a.Pairs - b.Pairs })
	if want := []OpeningScore{{Sum: 0, Pairs: 1}, {Sum: 3, Pairs: 2}}; !slices.Equal(sums, want) {
		t.Errorf("scores %v, want %v", sums, want)
	}
	small := NewPool(0)
	small.KeepOpenings(1)
	read(small)
	if _, ok := small.Openings(0); ok {
		t.Error("two starts within a limit of one: ok")
	}
}
