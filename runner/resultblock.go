package runner

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"selfplay/config"
	"selfplay/outcome"
	"selfplay/standings"
	"selfplay/stats"
	"selfplay/store/record"
)

// OutputFormat is the result block that -output format= prints every
// -ratinginterval games and at the end, beside the per-game lines.
type OutputFormat string

const (
	outputNone      OutputFormat = ""          // no result block
	outputCutechess OutputFormat = "cutechess" // cutechess-cli's results, "Finished match"
	outputFastchess OutputFormat = "fastchess" // fastchess's interval block, "Finished match"
	// outputFastchessCutechess is fastchess's -output format=cutechess:
	// cutechess-cli's layout with fastchess's own figures and rules
	// (output_cutechess.hpp), which differ from cutechess-cli's (its Elo
	// margin, LOS and SPRT digits, no per-colour lines, a Score of line
	// for every pairing).
	outputFastchessCutechess OutputFormat = "fastchess-cutechess"
)

// ParseOutputFormat reads a format's name.
func ParseOutputFormat(s string) (OutputFormat, error) {
	switch f := OutputFormat(s); f {
	case outputCutechess, outputFastchess, outputFastchessCutechess:
		return f, nil
	}
	return outputNone, fmt.Errorf("unknown output format %q: want cutechess, fastchess or fastchess-cutechess", s)
}

// fastchessOutput tells fastchess's formats: its per-game texts and
// its end of an SPRT.
func (f OutputFormat) fastchessOutput() bool {
	return f == outputFastchess || f == outputFastchessCutechess
}

// The sources of the result blocks' texts, cutechess-cli at commit
// 5e84232be4546aaedc9d87a96c91867a1da06ada and fastchess at commit
// 74deac23aadc6718fa0f8e24ac95d16392d79444:
//
//   - cutechess projects/lib/src/tournament.cpp:971 (Elo difference),
//     :1110 (SPRT), :1050-1100 and tournament.h:77 (the ranking table of
//     more than two players), projects/cli/src/enginematch.cpp:166
//     (Finished match);
//   - fastchess app/src/matchmaking/output/output_fastchess.hpp (the
//     interval block).
//
// Their Elo figures (cutechess-cli's elo.cpp, fastchess's elo_wdl.cpp and
// elo_pentanomial.cpp) are stats.CutechessTrinomial,
// stats.FastchessTrinomial and stats.FastchessPentanomial.

// resultBlock is the block's lines for the tally now, in format f; engines
// are the tournament's engines in config order, seeds a gauntlet's seeds
// (its first engines; 0: not a gauntlet), penta fastchess's pentanomial
// report (fastchessPenta).
func resultBlock(f OutputFormat, tally *standings.Tally, sides *sideCounts, engines []string, seeds int, s *sprtState, penta bool) []string {
	var sprt *stats.SPRTResult
	if s.enabled() {
		r := s.result()
		sprt = &r
	}
	switch f {
	case outputCutechess:
		return cutechessBlock(tally, sides, engines, seeds, sprt)
	case outputFastchess:
		return fastchessBlock(tally, sides, engines, s, penta)
	case outputFastchessCutechess:
		return fastchessCutechessBlock(tally, engines, s)
	}
	return nil
}

// endLines are the format's last lines of a tournament: cutechess-cli's
// "Finished match" (enginematch.cpp:166); fastchess's "Finished match"
// (main.cpp:59), after its "SPRT ([elo0, elo1]) completed - H0 was
// accepted" when the test decided (roundrobin.cpp:154-163, getElo at
// sprt.cpp:332). fastchess also says "completed - H1 was accepted" of a
// test that reached its last game undecided; selfplay does not claim a
// decision that was not taken.
func endLines(f OutputFormat, s *sprtState) []string {
	switch f {
	case outputCutechess:
		return []string{"Finished match"}
	case outputFastchessCutechess:
		if s.decided() {
			return []string{"Tournament finished", "Finished match"} // output_cutechess.hpp:113-115
		}
		return []string{"Finished match"}
	case outputFastchess:
		if !s.enabled() {
			return []string{"Finished match"}
		}
		test, r := s.run.Test(), s.result()
		var accepted string
		switch r.State {
		case stats.SPRTAcceptH0:
			accepted = "H0"
		case stats.SPRTAcceptH1:
			accepted = "H1"
		default:
			return []string{"Finished match"}
		}
		return []string{fmt.Sprintf("SPRT ([%.2f, %.2f]) completed - %s was accepted", test.Elo0, test.Elo1, accepted), "Finished match"}
	}
	return nil
}

// engineTotal is an engine's results against the field: all its games
// (g), and its complete pairs (pairs) with their games (paired), which
// alone fastchess's pentanomial report counts (its scoreboard adds a pair
// once both games are in, scoreboard.hpp:118-145).
type engineTotal struct {
	name   string
	g      stats.Trinomial
	paired stats.Trinomial
	pairs  stats.Pentanomial
}

// totals sums each engine's results over the pairings, in engines' order.
func totals(tally *standings.Tally, engines []string) []engineTotal {
	out := make([]engineTotal, len(engines))
	add := func(t *stats.Trinomial, g stats.Trinomial) {
		t.Wins += g.Wins
		t.Losses += g.Losses
		t.Draws += g.Draws
	}
	for i, e := range engines {
		out[i].name = e
		for _, p := range tally.Pairings() {
			g, paired, pairs := p.Games, p.PairedGames, p.Pairs
			switch e {
			case p.First:
			case p.Second:
				g, paired, pairs = g.Swapped(), paired.Swapped(), pairs.Swapped()
			default:
				continue
			}
			add(&out[i].g, g)
			add(&out[i].paired, paired)
			c, sum := out[i].pairs.Counts(), pairs.Counts()
			for k := range c {
				c[k] += sum[k]
			}
			out[i].pairs = stats.PentanomialFromCounts(c)
		}
	}
	return out
}

// qtNumber is QString::arg(x, 0, format, prec), and {fmt}'s {:.Nf}: inf
// and nan as both write them.
func qtNumber(x float64, format byte, prec int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, format, prec, 64)
}

// cutechessBlock is cutechess-cli's Tournament::results(): for two
// engines the Elo difference of the first, else the ranking table in its
// default format (Rank,Name,Elo,Error,Games,Score,DScore); then the SPRT.
func cutechessBlock(tally *standings.Tally, sides *sideCounts, engines []string, seeds int, sprt *stats.SPRTResult) []string {
	var lines []string
	ts := totals(tally, engines)
	if len(engines) == 2 {
		lines = append(lines, sides.cutechessSides(engines[0])...)
		e := stats.CutechessTrinomial(ts[0].g)
		lines = append(lines, fmt.Sprintf("Elo difference: %s +/- %s, LOS: %s %%, DrawRatio: %s %%",
			qtNumber(e.Elo, 'f', 1), qtNumber(e.Margin, 'f', 1), qtNumber(e.LOS, 'f', 1), qtNumber(e.DrawRatio*100, 'f', 1)))
	} else {
		lines = append(lines, cutechessRanking(ts, seeds)...)
	}
	if r := sprt; r != nil {
		s := fmt.Sprintf("SPRT: llr %s (%s%%), lbound %s, ubound %s", qtNumber(r.LLR, 'g', 3),
			qtNumber(r.LLR/r.Upper*100, 'f', 1), qtNumber(r.Lower, 'g', 3), qtNumber(r.Upper, 'g', 3))
		switch r.State {
		case stats.SPRTAcceptH0:
			s += " - H0 was accepted"
		case stats.SPRTAcceptH1:
			s += " - H1 was accepted"
		}
		lines = append(lines, s)
	}
	return lines
}

// cutechessRanking is the default ranking table: players with games by
// score, best first (equal scores: the later player first, as
// cutechess-cli's QMultiMap gives them), then those without; a gauntlet's
// seeds lead, from rank 0 (tournament.cpp:1029 and :1052).
func cutechessRanking(ts []engineTotal, seeds int) []string {
	type row struct {
		t   engineTotal
		key float64
		at  int
	}
	var rows []row
	for i, t := range ts {
		key := -1.0
		if i >= seeds {
			key = 2
			if n := t.g.Games(); n > 0 {
				key = 1 - t.g.Points()/float64(n)
			}
		}
		rows = append(rows, row{t, key, i})
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return b.at - a.at
	})
	lines := []string{fmt.Sprintf("%4s %-25s %7s %7s %7s %7s %7s ", "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw")}
	rank := 0
	if seeds > 0 {
		rank = -1
	}
	for _, r := range rows {
		rank++
		n := r.t.g.Games()
		e := stats.CutechessTrinomial(r.t.g)
		score := r.t.g.Points() / float64(n)
		lines = append(lines, fmt.Sprintf("%4d %-25s %7s %7s %7d %6s%% %6s%% ", rank, r.t.name,
			padQt(e.Elo, 7, 0), padQt(e.Margin, 7, 0), n, padQt(score*100, 6, 1), padQt(e.DrawRatio*100, 6, 1)))
	}
	return lines
}

// padQt is QString("%1").arg(x, width, 'f', prec).
func padQt(x float64, width, prec int) string {
	return fmt.Sprintf("%*s", width, qtNumber(x, 'f', prec))
}

// fastchessBlock is fastchess's interval block between its dashed lines:
// for two engines the first's results, else its ranking table; then the
// SPRT (output_fastchess.hpp:20-28, 79-88, 115-136, 182-208). Under its
// pentanomial report (penta) the figures are of the complete pairs, with
// PairsRatio and the Ptnml(0-2) line; without it (-games 1, a bayesian
// SPRT) of all games' W/L/D, and the LLR too.
func fastchessBlock(tally *standings.Tally, sides *sideCounts, engines []string, s *sprtState, penta bool) []string {
	const dashes = "--------------------------------------------------"
	lines := []string{dashes}
	ts := totals(tally, engines)
	g := ts[0].g
	if len(engines) == 2 {
		pp := ts[0].pairs
		e := fastchessNaN(stats.FastchessTrinomial(g), g.Games())
		drawRatio := 100 * float64(g.Draws) / float64(g.Games())
		pairsRatio := ""
		if penta {
			g = ts[0].paired
			e, drawRatio = fastchessNaN(stats.FastchessPentanomial(pp), pp.Pairs()), float64(pp.DD)/float64(pp.Pairs())*100
			pairsRatio = ", PairsRatio: " + f2(float64(pp.WW+pp.WD)/float64(pp.LD+pp.LL))
		}
		n := g.Games()
		lines = append(lines,
			fmt.Sprintf("Results of %s vs %s%s:", engines[0], engines[1], sides.matchup),
			fmt.Sprintf("Elo: %s +/- %s, nElo: %s +/- %s", f2(e.Elo), f2(e.Margin), f2(e.NElo), f2(e.NMargin)),
			fmt.Sprintf("LOS: %s %%, DrawRatio: %s %%%s", f2(e.LOS), f2(drawRatio), pairsRatio),
			fmt.Sprintf("Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%s %%)",
				n, g.Wins, g.Losses, g.Draws, g.Points(), f2(100*g.Points()/float64(n))))
		if penta {
			wl := sides.winLossPairs(engines[0], engines[1])
			lines = append(lines, fmt.Sprintf("Ptnml(0-2): [%d, %d, %d, %d, %d], WL/DD Ratio: %s", pp.LL, pp.LD, pp.DD, pp.WD, pp.WW,
				f2(float64(wl)/float64(pp.DD-wl))))
		}
	} else {
		lines = append(lines, fastchessRanking(ts, penta, true)...)
	}
	if r, test, ok := blockLLR(s, g, penta); ok {
		frac := r.LLR / r.Upper // sprt.cpp:85 getFraction
		if r.LLR < 0 {
			frac = -r.LLR / r.Lower
		}
		lines = append(lines, fmt.Sprintf("LLR: %s (%s%%) (%.2f, %.2f) [%.2f, %.2f]", f2(r.LLR), fmtNumber(frac*100, 1), r.Lower, r.Upper, test.Elo0, test.Elo1))
	}
	return append(lines, dashes)
}

// fmtNumber is {fmt}'s {:.Nf} (prec N): "inf", "-inf", "nan", and
// "-nan" for a NaN with its sign bit set, as x86-64 makes 0/0 and inf-inf.
func fmtNumber(x float64, prec int) string {
	if math.IsNaN(x) && math.Signbit(x) {
		return "-nan"
	}
	return qtNumber(x, 'f', prec)
}

// f2 is {fmt}'s {:.2f}.
func f2(x float64) string { return fmtNumber(x, 2) }

// padFmt is {fmt}'s {:>W.Nf}.
func padFmt(x float64, width, prec int) string { return fmt.Sprintf("%*s", width, fmtNumber(x, prec)) }

// fastchessNaN gives e's undefined figures the sign fastchess's have,
// which {fmt} writes ("-nan" or "nan"); samples are its games or pairs.
// The arithmetic's NaNs (0/0, inf-inf) have the same sign in Go as in
// C++ on the same machine, and so has log10 of a negative number (a bound
// past a score of 1: "+/- nan"), but glibc's log10 and erf keep a NaN's
// sign where Go's return a positive one: without samples every figure
// is "-nan" in fastchess (0/0 throughout), and an LOS that is NaN comes
// from erf of 0/0 (all draws: "LOS: -nan %").
func fastchessNaN(e stats.FixedSigma, samples int) stats.FixedSigma {
	neg := math.Copysign(math.NaN(), -1)
	for _, f := range []*float64{&e.Elo, &e.Margin, &e.NElo, &e.NMargin, &e.LOS} {
		if math.IsNaN(*f) && (samples == 0 || f == &e.LOS) {
			*f = neg
		}
	}
	return e
}

// blockLLR is the SPRT as fastchess's block shows it (ok: there is one):
// the match's test on its complete pairs under the pentanomial report,
// else on the W/L/D counts g of all its games (sprt.cpp:78-83, getLLR
// with penta false), which the decision, taken on the pairs, does not
// follow.
func blockLLR(s *sprtState, g stats.Trinomial, penta bool) (r stats.SPRTResult, test stats.SPRT, ok bool) {
	if !s.enabled() {
		return r, test, false
	}
	r, test = s.result(), s.run.Test()
	if !penta {
		if t, err := test.Trinomial(g); err == nil {
			r.LLR = t.LLR
		}
	}
	return r, test, true
}

// fastchessCutechessBlock is fastchess's -output format=cutechess block
// (output_cutechess.hpp:17-97), of all games' W/L/D counts (fastchess has
// no pentanomial report with it: sanitize.cpp:32): for two engines "Elo
// difference: 279.59 +/- nan, LOS: 98.58 %, DrawRatio: 0.00 %" (EloWDL,
// elo_wdl.cpp), else fastchess's ranking table without its Ptnml(0-2)
// column; then "SPRT: llr 0.06 (1.9%), lbound -2.94, ubound 2.94" on the
// W/L/D counts, with " - H1 was accepted" from an LLR at the upper bound
// and " - H0 was accepted" below the lower one.
func fastchessCutechessBlock(tally *standings.Tally, engines []string, s *sprtState) []string {
	var lines []string
	ts := totals(tally, engines)
	if len(engines) == 2 {
		g := ts[0].g
		e := fastchessNaN(stats.FastchessTrinomial(g), g.Games())
		lines = append(lines, fmt.Sprintf("Elo difference: %s +/- %s, LOS: %s %%, DrawRatio: %s %%",
			f2(e.Elo), f2(e.Margin), f2(e.LOS), f2(100*float64(g.Draws)/float64(g.Games()))))
	} else {
		lines = append(lines, fastchessRanking(ts, false, false)...)
	}
	if r, _, ok := blockLLR(s, ts[0].g, false); ok {
		pct := r.LLR / r.Upper * 100
		if r.LLR < 0 {
			pct = r.LLR / r.Lower * 100
		}
		result := ""
		switch {
		case r.LLR >= r.Upper:
			result = " - H1 was accepted"
		case r.LLR < r.Lower:
			result = " - H0 was accepted"
		}
		lines = append(lines, fmt.Sprintf("SPRT: llr %s (%s%%), lbound %s, ubound %s%s", f2(r.LLR), fmtNumber(pct, 1),
			f2(r.Lower), f2(r.Upper), result))
	}
	return lines
}

// fastchessRanking is fastchess's table of more than two engines, by Elo
// (an engine without one last; equal ones in the engines' order, as
// std::sort's insertion sort leaves up to 16), with its Ptnml(0-2) column
// (output_fastchess.hpp:42-76): under its pentanomial report (penta) each
// engine's Elo, games, score and draws are those of its complete pairs
// (EloPentanomial, drawRatioPenta: the pairs scoring 1), the column their
// counts; without it, all games (EloWDL, drawRatio) and the column blank.
// Its cutechess format's table has no such column (ptnml false:
// output_cutechess.hpp:66-73).
func fastchessRanking(ts []engineTotal, penta, ptnml bool) []string {
	type row struct {
		t     engineTotal
		g     stats.Trinomial
		e     stats.FixedSigma
		draw  float64
		ptnml string
	}
	var rows []row
	width := 25
	for _, t := range ts {
		r := row{t: t, g: t.g, e: fastchessNaN(stats.FastchessTrinomial(t.g), t.g.Games()), draw: 100 * float64(t.g.Draws) / float64(t.g.Games())}
		if penta {
			p := t.pairs
			r.g, r.e, r.draw = t.paired, fastchessNaN(stats.FastchessPentanomial(p), p.Pairs()), float64(p.DD)/float64(p.Pairs())*100
			r.ptnml = fmt.Sprintf("[%d, %d, %d, %d, %d]", p.LL, p.LD, p.DD, p.WD, p.WW) // formatPentaStats: WL+DD in the middle
		}
		rows = append(rows, r)
		width = max(width, len(t.name))
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		switch {
		case !math.IsNaN(a.e.Elo) && math.IsNaN(b.e.Elo), a.e.Elo > b.e.Elo:
			return -1
		case math.IsNaN(a.e.Elo) && !math.IsNaN(b.e.Elo), a.e.Elo < b.e.Elo:
			return 1
		}
		return 0
	})
	column := func(s string) string {
		if !ptnml {
			return ""
		}
		return fmt.Sprintf(" %20s", s)
	}
	lines := []string{fmt.Sprintf("%-4s %-*s %10s %10s %10s %10s %10s %10s %10s", "Rank", width, "Name",
		"Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw") + column("Ptnml(0-2)")}
	for i, r := range rows {
		n := r.g.Games()
		lines = append(lines, fmt.Sprintf("%4d %-*s %s %s %s %s %10d %s%% %s%%", i+1, width, r.t.name,
			padFmt(r.e.Elo, 10, 2), padFmt(r.e.Margin, 10, 2), padFmt(r.e.NElo, 10, 2), padFmt(r.e.NMargin, 10, 2),
			n, padFmt(100*r.g.Points()/float64(n), 9, 1), padFmt(r.draw, 9, 1))+column(r.ptnml))
	}
	return lines
}

// sideCounts keeps what the tally does not, for the result blocks: each
// engine's results by colour (cutechess-cli's per-colour lines) and the
// pairs of a win and a loss apart from those of two draws (fastchess's
// WL/DD ratio), and fastchess's matchup text.
type sideCounts struct {
	white, black map[string]*stats.Trinomial // an engine's results as White, as Black
	half         map[pairKey]float64         // the pairing's first engine's score in a pair's first game counted
	wl           map[[2]string]int           // a pairing's pairs of a win and a loss
	matchup      string                      // " (tc, threads, hash, book)" of a match
}

type pairKey struct {
	pairing [2]string
	pair    int
}

func newSideCounts() *sideCounts {
	return &sideCounts{white: map[string]*stats.Trinomial{}, black: map[string]*stats.Trinomial{},
		half: map[pairKey]float64{}, wl: map[[2]string]int{}}
}

// add counts a game (one the tally counts without error); pairDone says
// it completed its pair.
func (c *sideCounts) add(g *record.Game) (pairDone bool) {
	key, score, err := standings.PairingOf(g)
	if err != nil {
		return false
	}
	w, _ := g.Result.Points(outcome.White)
	for _, side := range []struct {
		m      map[string]*stats.Trinomial
		name   string
		points float64
	}{{c.white, g.White, w}, {c.black, g.Black, 1 - w}} {
		t := side.m[side.name]
		if t == nil {
			t = &stats.Trinomial{}
			side.m[side.name] = t
		}
		t.Add(side.points)
	}
	k := pairKey{key, g.Pair}
	other, ok := c.half[k]
	if !ok {
		c.half[k] = score
		return false
	}
	delete(c.half, k)
	if other+score == 1 && other != 0.5 {
		c.wl[key]++
	}
	return true
}

// winLossPairs is the pairing's pairs of a win and a loss.
func (c *sideCounts) winLossPairs(first, second string) int { return c.wl[[2]string{first, second}] }

// cutechessSides are cutechess-cli's lines of a two-player match's first
// player by colour and of White against Black (tournament.cpp:904-948).
func (c *sideCounts) cutechessSides(name string) []string {
	var lines []string
	var w, b stats.Trinomial
	if t := c.white[name]; t != nil {
		w = *t
	}
	if t := c.black[name]; t != nil {
		b = *t
	}
	line := func(who string, t stats.Trinomial) string {
		return fmt.Sprintf("...      %s: %d - %d - %d  [%.3f] %d", who, t.Wins, t.Losses, t.Draws, t.Points()/float64(t.Games()), t.Games())
	}
	if w.Games() > 0 {
		lines = append(lines, line(name+" playing White", w))
	}
	if b.Games() > 0 {
		lines = append(lines, line(name+" playing Black", b))
	}
	if w.Games()+b.Games() > 0 {
		lines = append(lines, line("White vs Black", stats.Trinomial{Wins: w.Wins + b.Losses, Losses: w.Losses + b.Wins, Draws: w.Draws + b.Draws}))
	}
	return lines
}

// fastchessMatchup is the parenthesis of fastchess's "Results of A vs B
// (tc, threads, hash, book):" (output_fastchess.hpp:182, getTime :130,
// getThreads :150, getHash :161, getShortName :172), each part once when
// both engines have the same, else "A's - B's". Threads and Hash are the
// option.Threads and option.Hash given to an external engine, an
// in-process variant's hash=; NULL where none is given (fastchess shows
// the engine's own default there, which only the engine knows).
func fastchessMatchup(cfg *config.File, t *config.Tournament) string {
	if len(t.Engines) != 2 {
		return ""
	}
	both := func(part func(name string) string) string {
		a, b := part(t.Engines[0]), part(t.Engines[1])
		if a == b {
			return a
		}
		return a + " - " + b
	}
	option := func(name, option, unit string) string {
		e, ok := cfg.Engine(name)
		switch {
		case !ok:
		case !e.External() && option == "Hash":
			return fmt.Sprintf("%d%s", e.Hash, unit)
		case e.UCIOptions[option] != "":
			return e.UCIOptions[option] + unit
		}
		return "NULL"
	}
	tc := both(func(name string) string { return fastchessTime(t.LimitsOf(name)) })
	threads := both(func(name string) string { return option(name, "Threads", "t") })
	hash := both(func(name string) string { return option(name, "Hash", "MB") })
	book := ""
	if f := t.Openings.File; f != "" {
		book = ", " + f[strings.LastIndexAny(f, `/\`)+1:]
	}
	return fmt.Sprintf(" (%s, %s, %s%s)", tc, threads, hash, book)
}

// fastchessTime is fastchess's getTime of a side's limits
// (output_fastchess.hpp:138-158), its times fastchess's whole
// milliseconds (fastchessMillis) over 1000.0: {} (the shortest text),
// the increment {:.2g}.
func fastchessTime(l config.Limits) string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(fastchessSeconds64(d), 'f', -1, 64) }
	switch {
	case l.TC != nil && fastchessMillis(l.TC.Base)+fastchessMillis(l.TC.Increment) > 0:
		s := secs(l.TC.Base)
		if l.TC.Moves > 0 {
			s = fmt.Sprintf("%d/%s", l.TC.Moves, s)
		}
		if fastchessMillis(l.TC.Increment) > 0 {
			s += "+" + strconv.FormatFloat(fastchessSeconds64(l.TC.Increment), 'g', 2, 64)
		}
		return s
	case fastchessMillis(l.MoveTime) > 0:
		return secs(l.MoveTime) + "/move"
	case l.Depth > 0:
		return fmt.Sprintf("%d plies", l.Depth)
	case l.Nodes > 0:
		return fmt.Sprintf("%d nodes", l.Nodes)
	}
	return ""
}
