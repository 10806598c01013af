package report

import (
	"fmt"
	"strings"
)

// inputPart is the header of games read from PGN files: what was read,
// what was skipped and how many colour-swapped pairs were found.
func inputPart(t Tournament) part {
	in := t.Input
	games := fmt.Sprintf("%d read: %d rated", in.Games, in.Rated)
	if in.Unfinished > 0 {
		games += fmt.Sprintf(", %d without a result (*) skipped", in.Unfinished)
	}
	if in.Malformed > 0 {
		games += fmt.Sprintf(", %d malformed skipped", in.Malformed)
	}
	return part{facts: []fact{
		{"files", strings.Join(in.Files, ", ")},
		{"games", games},
		{"pairs", fmt.Sprintf("%d colour-swapped pairs found (%d games), %d games unpaired", in.Pairs, 2*in.Pairs, in.Unpaired)},
		{"engines", strings.Join(t.Engines, ", ")},
	}}
}

// crosstablePart is every engine's score against every other, in the
// order of the rating table: the row engine's points and the games, summed
// over the pairings of the two engines.
func crosstablePart(t Tournament) part {
	n := len(t.Ratings)
	row := make(map[string]int, n)
	for i, r := range t.Ratings {
		row[r.Engine] = i
	}
	pts, games := make([][]Float, n), make([][]int, n)
	for i := range n {
		pts[i], games[i] = make([]Float, n), make([]int, n)
	}
	for _, p := range t.Pairings {
		i, ok1 := row[p.First]
		j, ok2 := row[p.Second]
		if !ok1 || !ok2 {
			continue
		}
		pts[i][j] += p.Points
		pts[j][i] += Float(p.Games) - p.Points
		games[i][j] += p.Games
		games[j][i] += p.Games
	}
	tb := &table{head: []string{"#", "engine"}, numeric: []bool{true, false}}
	for i := range n {
		tb.head = append(tb.head, itoa(i+1))
		tb.numeric = append(tb.numeric, true)
	}
	tb.head = append(tb.head, "points", "games", "score")
	tb.numeric = append(tb.numeric, true, true, true)
	for i, r := range t.Ratings {
		cells := []string{itoa(i + 1), r.Engine}
		for j := range n {
			switch {
			case i == j:
				cells = append(cells, "-")
			case games[i][j] == 0:
				cells = append(cells, ".")
			default:
				cells = append(cells, points(pts[i][j])+"/"+itoa(games[i][j]))
			}
		}
		score := "----"
		if r.Games > 0 {
			score = percent(r.Score)
		}
		cells = append(cells, points(r.Points), itoa(r.Games), score)
		tb.rows = append(tb.rows, cells)
	}
	return part{heading: "Crosstable (the row engine's points / games against the column engine, numbered as ranked)", table: tb}
}
