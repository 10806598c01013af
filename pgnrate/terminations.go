package pgnrate

import (
	"slices"

	"selfplay/report"
)

// noTag is the termination row of games without a Termination tag
// (cutechess-cli writes none for a game ended by the rules).
const noTag = "(no tag)"

// terminations counts the rated games by their Termination tag, and per
// engine the games lost that way.
type terminations struct {
	rows  []report.TerminationRow
	index map[string]int
	tags  int // games with a Termination tag
	lost  []map[int32]int
}

func newTerminations() *terminations {
	return &terminations{index: map[string]int{}}
}

// add counts a game between white and black that White scored whiteScore
// in and that ended as term ("" without the tag).
func (t *terminations) add(term string, white, black int32, whiteScore float64) {
	if term == "" {
		term = noTag
	} else {
		t.tags++
	}
	i, ok := t.index[term]
	if !ok {
		i = len(t.rows)
		t.index[term] = i
		t.rows = append(t.rows, report.TerminationRow{Termination: term})
		t.lost = append(t.lost, map[int32]int{})
	}
	row := &t.rows[i]
	row.Games++
	switch whiteScore {
	case 1:
		row.WhiteWins++
		t.lost[i][black]++
	case 0:
		row.BlackWins++
		t.lost[i][white]++
	default:
		row.Draws++
	}
}

// report is the terminations table, rows in order of first appearance
// with the untagged ones last, or an empty one when no game had the tag.
func (t *terminations) report(engines []string) report.Terminations {
	if t.tags == 0 {
		return report.Terminations{}
	}
	out := report.Terminations{Engines: engines}
	order := make([]int, len(t.rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return boolInt(t.rows[a].Termination == noTag) - boolInt(t.rows[b].Termination == noTag)
	})
	for _, i := range order {
		row := t.rows[i]
		row.Against = map[string]int{}
		for e, n := range t.lost[i] {
			row.Against[engines[e]] = n
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
