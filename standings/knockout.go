package standings

import (
	"selfplay/config/snapshot"
	"selfplay/knockout"
	"selfplay/outcome"
	"selfplay/report"
)

// knockoutReport is a knockout's bracket as its stored games have it (nil
// for another format): knockout.Plan over the snapshot's players and
// settings, as the runner plans it, so the report shows the encounters the
// runner plays. white holds White's points of each stored game by pair
// and index. It also returns the knockout's games as far as the bracket
// goes (knockout.Bracket.Games).
func knockoutReport(snap snapshot.Snapshot, white map[[2]int]float64) (*report.Knockout, int) {
	if snap.Format != snapshot.FormatKnockout || snap.Knockout == nil {
		return nil, 0
	}
	s := knockout.Settings{Players: snap.Players, Seeds: snap.Knockout.Seeds, Games: snap.Knockout.Games, Seed: snap.Seed}
	b := knockout.Plan(s, func(pair, index int) (float64, bool) {
		w, ok := white[[2]int{pair, index}]
		return w, ok
	})
	seeds := snap.Players[:min(max(s.Seeds, 0), len(snap.Players))]
	k := &report.Knockout{Games: s.Games, MaxTieBreakPairs: knockout.MaxTieBreakPairs, Seeds: seeds,
		RoundCount: knockout.Rounds(len(s.Players)), Winner: b.Winner}
	seed := func(name string) int {
		for i, p := range seeds {
			if p == name {
				return i + 1
			}
		}
		return 0
	}
	for _, r := range b.Rounds {
		var rr report.KnockoutRound
		for _, e := range r.Encounters {
			re := report.KnockoutEncounter{First: e.First, FirstSeed: seed(e.First), Second: e.Second,
				SecondSeed: seed(e.Second), Bye: e.Bye(), Winner: e.Winner}
			if !e.Bye() {
				re.TieBreakPairs = max(len(e.Pairs)-s.Games/2, 0)
				encounterGames(&re, e.Pairs, white)
			}
			rr.Encounters = append(rr.Encounters, re)
		}
		k.Rounds = append(k.Rounds, rr)
	}
	return k, b.Games(s)
}

// encounterGames adds the stored games of an encounter's pairs to its
// points (those of a wave still being played too, which knockout.Plan
// leaves uncounted until the wave is complete) and lists the pairs from 1.
func encounterGames(e *report.KnockoutEncounter, pairs []int, white map[[2]int]float64) {
	for _, pair := range pairs {
		e.Pairs = append(e.Pairs, pair+1)
		for index := 0; index < 2; index++ {
			w, ok := white[[2]int{pair, index}]
			if !ok {
				continue
			}
			first := w // the first player has White in the pair's first game
			if index == 1 {
				first = 1 - w
			}
			e.FirstPoints += report.Float(first)
			e.SecondPoints += report.Float(1 - first)
			e.Games++
		}
	}
}

// knockoutPairings are the bracket's encounters as pairings (first,
// second), byes left out: a knockout's pairings in the order it plays
// them, where snapshot.Pairings would list every two players.
func knockoutPairings(k *report.Knockout) [][2]string {
	var keys [][2]string
	for _, r := range k.Rounds {
		for _, e := range r.Encounters {
			if !e.Bye {
				keys = append(keys, [2]string{e.First, e.Second})
			}
		}
	}
	return keys
}

// whitePoints is White's points of every game counted, by pair and index.
func (l *Live) whitePoints() map[[2]int]float64 {
	out := map[[2]int]float64{}
	for _, p := range l.pairings {
		for _, s := range p.steps {
			if w, ok := s.game.Result.Points(outcome.White); ok {
				out[[2]int{s.game.Pair, s.game.Index}] = w
			}
		}
	}
	return out
}
