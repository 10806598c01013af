package runner

import (
	"slices"
	"strings"
	"testing"

	"selfplay/outcome"
	"selfplay/standings"
	"selfplay/stats"
	"selfplay/store/record"
)

// tallyOf counts A's wins, losses and draws against B, A always White.
func tallyOf(t *testing.T, wins, losses, draws int) *standings.Tally {
	t.Helper()
	tally := standings.NewTally()
	add := func(n int, r outcome.Result) {
		for range n {
			g := &record.Game{Pair: tally.Games, White: "A", Black: "B", Result: r}
			if err := tally.Add(g); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(wins, outcome.WhiteWins)
	add(losses, outcome.BlackWins)
	add(draws, outcome.Draw)
	return tally
}

// The result blocks' texts against the sources (see resultblock.go for
// the commits): the format strings of cutechess-cli's
// projects/lib/src/tournament.cpp:971 ("Elo difference: %1 +/- %2, LOS: %3
// %, DrawRatio: %4 %") and :1110 ("SPRT: llr %1 (%2%), lbound %3, ubound
// %4"), enginematch.cpp:166 ("Finished match"); fastchess's
// output_fastchess.hpp:21-27 (the dashes), :182 ("Results of {} vs {}"),
// :187 ("Elo: {}, nElo: {}"), :191 ("LOS: {}, DrawRatio: {:.2f} %"), :197
// ("Games: {}, Wins: {}, ..."), :85 ("LLR: {:.2f} ({:.1f}%) {} {}"), :108
// ("Tournament finished"). The numbers for 12 wins, 7 losses and 11 draws
// are those of elo.cpp's and elo_wdl.cpp's formulas, transcribed into
// Python apart from this code.
func TestResultBlocks(t *testing.T) {
	tally := tallyOf(t, 12, 7, 11)
	test := stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: stats.NormalizedElo}
	sprt := &sprtState{run: stats.NewSPRTRun(test)}
	sprt.run.Restore(stats.SPRTContinue, 0.123)
	for _, c := range []struct {
		format OutputFormat
		sprt   *sprtState
		want   []string
	}{
		{outputCutechess, &sprtState{}, []string{"Elo difference: 58.5 +/- 102.5, LOS: 87.4 %, DrawRatio: 36.7 %"}},
		{outputCutechess, sprt, []string{"Elo difference: 58.5 +/- 102.5, LOS: 87.4 %, DrawRatio: 36.7 %",
			"SPRT: llr 0.123 (4.2%), lbound -2.94, ubound 2.94"}},
		{outputFastchess, sprt, []string{
			"--------------------------------------------------",
			"Results of A vs B:",
			"Elo: 58.45 +/- 102.64, nElo: 74.41 +/- 124.33",
			"LOS: 87.96 %, DrawRatio: 36.67 %",
			"Games: 30, Wins: 12, Losses: 7, Draws: 11, Points: 17.5 (58.33 %)",
			"LLR: 0.12 (4.2%) (-2.94, 2.94) [0.00, 5.00]",
			"--------------------------------------------------"}},
	} {
		if got := resultBlock(c.format, tally, []string{"A", "B"}, false, c.sprt); !slices.Equal(got, c.want) {
			t.Errorf("%s:\n%s\nwant\n%s", c.format, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
	decided := &sprtState{run: stats.NewSPRTRun(test)}
	decided.run.Restore(stats.SPRTAcceptH1, 2.95)
	if got := resultBlock(outputCutechess, tally, []string{"A", "B"}, false, decided); !strings.HasSuffix(got[1], " - H1 was accepted") {
		t.Errorf("accepted: %q", got[1])
	}
	if endLine(outputCutechess) != "Finished match" || endLine(outputFastchess) != "Tournament finished" {
		t.Errorf("end lines %q, %q", endLine(outputCutechess), endLine(outputFastchess))
	}
}
