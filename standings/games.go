package standings

import (
	"slices"
	"strings"

	"selfplay/report"
	"selfplay/store/record"
)

// terminationsReport counts the games per termination (every standard one,
// played or not, so the lines are stable), and per engine the
// games that ended that way against it: lost, or drawn by its own fault (a
// time forfeit against a lone king), as record.Game.Culprit says.
func terminationsReport(engines []string, games []record.Game) report.Terminations {
	t := report.Terminations{Engines: engines}
	index := map[record.Termination]int{}
	for _, term := range record.Terminations() {
		index[term] = len(t.Rows)
		t.Rows = append(t.Rows, report.TerminationRow{Termination: string(term), Against: map[string]int{}})
	}
	var other []record.Termination
	for _, g := range games {
		if _, ok := index[g.Termination]; !ok && !slices.Contains(other, g.Termination) {
			other = append(other, g.Termination)
		}
	}
	slices.Sort(other) // terminations unknown to this version, after the standard ones
	for _, term := range other {
		index[term] = len(t.Rows)
		t.Rows = append(t.Rows, report.TerminationRow{Termination: string(term), Against: map[string]int{}})
	}
	for _, g := range games {
		row := &t.Rows[index[g.Termination]]
		row.Games++
		switch g.Result {
		case "1-0":
			row.WhiteWins++
			row.Against[g.Black]++
		case "0-1":
			row.BlackWins++
			row.Against[g.White]++
		default:
			row.Draws++
			if g.Culprit != "" {
				row.Against[g.Culprit]++
			}
		}
	}
	return t
}

// searchReport averages each engine's search figures over its own moves.
func searchReport(engines []string, games []record.Game) []report.EngineSearch {
	type sums struct {
		moves                  int
		depth, seldepth, nodes float64
		ms                     float64
	}
	total := map[string]*sums{}
	for _, e := range engines {
		total[e] = &sums{}
	}
	for _, g := range games {
		blackStarts := len(strings.Fields(g.StartFEN)) > 1 && strings.Fields(g.StartFEN)[1] == "b"
		for _, m := range g.Moves {
			if m.Book {
				continue
			}
			// Ply 1 is played by the side to move in the start position.
			white := (m.Ply%2 == 1) != blackStarts
			mover := g.Black
			if white {
				mover = g.White
			}
			s := total[mover]
			if s == nil {
				continue // an engine the tournament does not list
			}
			s.moves++
			s.depth += float64(m.Depth)
			s.seldepth += float64(m.SelDepth)
			s.nodes += float64(m.Nodes)
			s.ms += m.Time.Seconds() * 1000
		}
	}
	out := make([]report.EngineSearch, 0, len(engines))
	for _, e := range engines {
		s := total[e]
		r := report.EngineSearch{Engine: e, Moves: s.moves}
		if s.moves > 0 {
			n := float64(s.moves)
			r.Depth, r.SelDepth = report.Float(s.depth/n), report.Float(s.seldepth/n)
			r.Nodes, r.TimeMS = report.Float(s.nodes/n), report.Float(s.ms/n)
		}
		if s.ms > 0 {
			r.NPS = report.Float(s.nodes / (s.ms / 1000))
		}
		out = append(out, r)
	}
	return out
}
