package runner

import (
	"bytes"
	"fmt"
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

// -ratinginterval N: fastchess with pentanomial statistics prints the
// block when the game completing pair p ends and p+1 is a multiple of N
// (roundrobin.cpp:126-127, 167-174), so -rounds 4 -ratinginterval 2
// prints after games 4 and 8, where counting games gave 2, 4, 6, 8;
// without them (-games 1, a bayesian SPRT) and in cutechess-cli's block
// it counts games.
func TestRatingIntervalCounts(t *testing.T) {
	pairs := &config.Tournament{}
	single := &config.Tournament{OneGamePerOpening: true}
	bayes := &config.Tournament{SPRT: &stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: stats.BayesianElo}}
	inOrder := []int{0, 1, 2, 3, 4, 5, 6, 7}
	// Two games at a time: pair 1's first game ends before pair 0's second.
	crossed := []int{0, 2, 1, 3, 4, 6, 5, 7}
	for _, c := range []struct {
		name     string
		t        *config.Tournament
		f        OutputFormat
		interval int
		order    []int // the games (2*pair+index) in the order they end
		want     []int // the blocks' game counts, the end's included
	}{
		{"fastchess: pairs", pairs, outputFastchess, 2, inOrder, []int{4, 8}},
		{"fastchess: pairs, 1", pairs, outputFastchess, 1, inOrder, []int{2, 4, 6, 8}},
		{"fastchess: pairs, 3", pairs, outputFastchess, 3, inOrder, []int{6, 8}},
		{"fastchess: a pair's own completion", pairs, outputFastchess, 2, crossed, []int{4, 8}},
		{"fastchess -games 1: games", single, outputFastchess, 2, inOrder, []int{2, 4, 6, 8}},
		{"fastchess, bayesian SPRT: games", bayes, outputFastchess, 3, inOrder, []int{3, 6, 8}},
		{"cutechess-cli: games", pairs, outputCutechess, 3, inOrder, []int{3, 6, 8}},
		{"only at the end", pairs, outputFastchess, 0, inOrder, []int{8}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			tally := standings.NewTally()
			p := &progress{w: &out, gameLines: true, output: c.f, ratingInterval: c.interval, penta: fastchessPenta(c.f, c.t),
				engines: []string{"A", "B"}, sides: newSideCounts(), tally: tally, sprt: &sprtState{}, blockAt: -1,
				total: 8, lastGame: 8, start: time.Now(), now: time.Now, lastLog: time.Now()}
			var got []int
			blocks := 0
			count := func() {
				if n := strings.Count(out.String(), "\nResults of ") + strings.Count(out.String(), "\nElo difference: "); n > blocks {
					blocks = n
					got = append(got, tally.Games)
				}
			}
			for _, i := range c.order {
				g := &record.Game{Pair: i / 2, Index: i % 2, White: "A", Black: "B", Result: outcome.WhiteWins}
				if g.Index == 1 {
					g.White, g.Black = "B", "A"
				}
				if err := tally.Add(g); err != nil {
					t.Fatal(err)
				}
				p.gameDone(g)
				count()
			}
			p.finish()
			count()
			if !slices.Equal(got, c.want) {
				t.Errorf("blocks after games %v, want %v\n%s", got, c.want, out.String())
			}
		})
	}
	if fmt.Sprint(fastchessPenta(outputCutechess, pairs)) != "false" {
		t.Error("cutechess-cli's block is not fastchess's")
	}
}

// fastchess's cutechess format prints the Score of line of the game's
// pairing whatever the players (roundrobin.cpp:122-124), and a decided
// SPRT ends with the block again after the one the game printed, in its
// cutechess format after a Score of line (roundrobin.cpp:132, 151-163).
func TestFastchessFormatsLines(t *testing.T) {
	games := []*record.Game{
		{Pair: 0, Index: 0, White: "A", Black: "B", Result: outcome.WhiteWins},
		{Pair: 0, Index: 1, White: "B", Black: "A", Result: outcome.BlackWins},
		{Pair: 1, Index: 0, White: "A", Black: "C", Result: outcome.Draw},
	}
	var out bytes.Buffer
	tally := standings.NewTally()
	p := &progress{w: &out, gameLines: true, output: outputFastchessCutechess, engines: []string{"A", "B", "C"},
		sides: newSideCounts(), tally: tally, sprt: &sprtState{}, blockAt: -1, total: 12, lastGame: 12,
		start: time.Now(), now: time.Now, lastLog: time.Now()}
	for _, g := range games {
		if err := tally.Add(g); err != nil {
			t.Fatal(err)
		}
		p.gameDone(g)
	}
	if got := strings.Count(out.String(), "\nScore of "); got != 3 || !strings.Contains(out.String(), "\nScore of A vs C: 0 - 0 - 1  [0.500] 1\n") {
		t.Errorf("%d Score of lines, want 3:\n%s", got, out.String())
	}

	test := stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: stats.NormalizedElo}
	for _, c := range []struct {
		f    OutputFormat
		want []string // the lines finish prints
	}{
		{outputFastchess, []string{"--------------------------------------------------", "Results of A vs B:", "Elo: inf +/- -nan, nElo: inf +/- -nan",
			"LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf", "Games: 2, Wins: 2, Losses: 0, Draws: 0, Points: 2.0 (100.00 %)",
			"Ptnml(0-2): [0, 0, 0, 0, 1], WL/DD Ratio: -nan", "LLR: 2.95 (100.2%) (-2.94, 2.94) [0.00, 5.00]",
			"--------------------------------------------------", "SPRT ([0.00, 5.00]) completed - H1 was accepted", "Finished match"}},
		{outputFastchessCutechess, []string{"Score of A vs B: 2 - 0 - 0  [1.000] 2", "Elo difference: inf +/- -nan, LOS: 100.00 %, DrawRatio: 0.00 %",
			"SPRT: llr 0.03 (1.0%), lbound -2.94, ubound 2.94", "Tournament finished", "Finished match"}},
	} {
		out.Reset()
		tally := standings.NewTally()
		decided := &sprtState{run: stats.NewSPRTRun(test)}
		decided.run.Restore(stats.SPRTAcceptH1, 2.95)
		p := &progress{w: &out, output: c.f, engines: []string{"A", "B"}, sides: newSideCounts(), tally: tally, sprt: decided,
			penta: fastchessPenta(c.f, &config.Tournament{}), total: 100, start: time.Now(), now: time.Now, lastLog: time.Now()}
		for _, g := range games[:2] {
			if err := tally.Add(g); err != nil {
				t.Fatal(err)
			}
			p.sides.add(g)
		}
		p.blockAt = tally.Games // the game printed its block
		p.lastN = tally.Games
		p.finish()
		if got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); !slices.Equal(got, c.want) {
			t.Errorf("%s:\n%s\nwant\n%s", c.f, out.String(), strings.Join(c.want, "\n"))
		}
	}
}
