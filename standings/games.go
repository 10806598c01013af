package standings

import (
	"maps"
	"slices"
	"time"

	"selfplay/outcome"
	"selfplay/report"
	"selfplay/store/record"
)

// terminationTally counts games per termination as they come (every
// standard one, played or not, so the lines are stable), and per engine
// the games that ended that way against it: lost, or drawn by its own
// fault (a time forfeit against a lone king), as record.Game.Culprit says.
type terminationTally struct {
	rows map[record.Termination]*report.TerminationRow
}

func (tt *terminationTally) add(g *record.Game) {
	if tt.rows == nil {
		tt.rows = map[record.Termination]*report.TerminationRow{}
	}
	row := tt.rows[g.Termination]
	if row == nil {
		row = &report.TerminationRow{Termination: string(g.Termination), Against: map[string]int{}}
		tt.rows[g.Termination] = row
	}
	row.Games++
	switch g.Result {
	case outcome.WhiteWins:
		row.WhiteWins++
		row.Against[g.Black]++
	case outcome.BlackWins:
		row.BlackWins++
		row.Against[g.White]++
	default:
		row.Draws++
		if g.Culprit != "" {
			row.Against[g.Culprit]++
		}
	}
}

// report lists every standard termination, then those unknown to this
// version that the games have, sorted; the rows are copies.
func (tt *terminationTally) report(engines []string) report.Terminations {
	t := report.Terminations{Engines: engines}
	standard := record.Terminations()
	var other []record.Termination
	for term := range tt.rows {
		if !slices.Contains(standard, term) {
			other = append(other, term)
		}
	}
	slices.Sort(other)
	for _, term := range append(slices.Clone(standard), other...) {
		row := report.TerminationRow{Termination: string(term), Against: map[string]int{}}
		if r := tt.rows[term]; r != nil {
			row = *r
			row.Against = maps.Clone(r.Against)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// searchReport averages each engine's search figures over its own moves
// (depth and seldepth over those with plausible depths), engines in the
// tournament's order (sums of engines it does not list are
// left out).
func searchReport(engines []string, sums map[string]record.SearchSums) []report.EngineSearch {
	out := make([]report.EngineSearch, 0, len(engines))
	for _, e := range engines {
		s := sums[e]
		r := report.EngineSearch{Engine: e, Moves: s.Moves}
		ms := float64(s.Time) / float64(time.Millisecond)
		if d := s.DepthMoves(); d > 0 {
			n := float64(d)
			r.Depth, r.SelDepth = report.Float(float64(s.Depth)/n), report.Float(float64(s.SelDepth)/n)
		}
		if s.Moves > 0 {
			n := float64(s.Moves)
			r.Nodes, r.TimeMS = report.Float(float64(s.Nodes)/n), report.Float(ms/n)
		}
		if s.Time > 0 {
			r.NPS = report.Float(float64(s.Nodes) / s.Time.Seconds())
		}
		out = append(out, r)
	}
	return out
}
