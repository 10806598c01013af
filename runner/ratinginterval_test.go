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
