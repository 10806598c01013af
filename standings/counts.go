package standings

import (
	"fmt"
	"slices"
	"strings"

	"selfplay/report"
	"selfplay/stats"
)

// Counts is a pool of games known only by their counts per pairing, such as
// the games of PGN files (package pgnrate): no schedule, opening ids, moves
// or times, so its report has no progress, openings, SPRT or search figures.
type Counts struct {
	Name string
	// Engines in the order the report lists them (first appearance).
	Engines []string
	// Pairings counts each two engines' games once, from the point of view
	// of the pairing's First engine; Pairs holds the complete colour-swapped
	// pairs among them.
	Pairings     []*PairingTally
	Input        report.Input
	Terminations report.Terminations
}

// FromCounts builds the report of counted games at the confidence level,
// the ratings anchored at anchor ("" for the average; an engine not in
// c.Engines is an error wrapping ErrNotFound): the rating table and, per
// pairing, the counts, both models' estimates and the verdict, computed as
// Load computes them for stored games.
func FromCounts(c Counts, level float64, anchor string) (report.Tournament, error) {
	if level == 0 {
		level = stats.DefaultLevel
	}
	if anchor != "" && !slices.Contains(c.Engines, anchor) {
		return report.Tournament{}, fmt.Errorf("anchor %q: %w among the engines (%s)", anchor, ErrNotFound,
			strings.Join(c.Engines, ", "))
	}
	tally := NewTally()
	for _, p := range c.Pairings {
		key := [2]string{p.First, p.Second}
		if tally.byKey[key] != nil || tally.byKey[[2]string{p.Second, p.First}] != nil {
			return report.Tournament{}, fmt.Errorf("pairing %s vs %s counted twice", p.First, p.Second)
		}
		tally.byKey[key] = p
		tally.pairings = append(tally.pairings, p)
		tally.Games += p.Games.Games()
	}
	in := c.Input
	rt := report.Tournament{
		Name: c.Name, Format: "pgn", GamesStored: tally.Games, GamesScheduled: tally.Games,
		Engines: c.Engines, Input: &in, RatingAnchor: anchor, Terminations: c.Terminations,
	}
	var err error
	if rt.Ratings, err = ratingsReport(c.Engines, tally, level, anchor); err != nil {
		return report.Tournament{}, err
	}
	for _, p := range c.Pairings {
		pr, err := pairingReport(p, nil, level, nil, nil)
		if err != nil {
			return report.Tournament{}, fmt.Errorf("pairing %s vs %s: %w", p.First, p.Second, err)
		}
		rt.Pairings = append(rt.Pairings, pr)
	}
	return rt, nil
}
