package standings

import (
	"fmt"

	"selfplay/stats"
	"selfplay/store/record"
)

// Pairing returns the pairing first-second (first being the engine with
// White in the first game of each pair), or nil when no game of it has been
// counted.
func (t *Tally) Pairing(first, second string) *PairingTally {
	return t.byKey[[2]string{first, second}]
}

// pairingStep is one game of a pairing as the tally counted it, with the
// pairing's counts after it: what the report's running figures (Elo
// progress, LLR path) and opening table are made of.
type pairingStep struct {
	game   *record.Game
	score  float64           // the pairing's first engine's points in the game
	paired bool              // the game completed a pair
	games  stats.Trinomial   // the pairing's game counts after the game
	pairs  stats.Pentanomial // its complete pairs after the game
}

// counts is the pairing's tally after the step (names and counts only), so
// that PairingTally.Estimate picks the model as it does for the totals.
func (s pairingStep) counts() *PairingTally {
	return &PairingTally{Games: s.games, Pairs: s.pairs}
}

// tallyGames counts the games (in schedule order) in a new tally of the
// engines and records, per pairing, the steps in the order Tally.Add counted
// them. The first engine's points and the pair completion are read off the
// pairing's counts, so Tally.Add's orientation and pairing rules are the
// only ones.
func tallyGames(games []record.Game) (*Tally, map[*PairingTally][]pairingStep, error) {
	tally := NewTally()
	steps := map[*PairingTally][]pairingStep{}
	for i := range games {
		g := &games[i]
		p, err := tally.addTo(g)
		if err != nil {
			return nil, nil, err
		}
		prev := pairingStep{}
		if s := steps[p]; len(s) > 0 {
			prev = s[len(s)-1]
		}
		steps[p] = append(steps[p], pairingStep{
			game: g, score: p.Games.Points() - prev.games.Points(),
			paired: p.Pairs.Pairs() > prev.pairs.Pairs(), games: p.Games, pairs: p.Pairs,
		})
	}
	return tally, steps, nil
}

// addTo counts g with Tally.Add and returns the pairing it was counted in:
// the new one if Add created one, else the one (of the two colour orders
// of g's engines) whose game count grew.
func (t *Tally) addTo(g *record.Game) (*PairingTally, error) {
	a, b := t.Pairing(g.White, g.Black), t.Pairing(g.Black, g.White)
	na, nb := gamesIn(a), gamesIn(b)
	n := len(t.pairings)
	if err := t.Add(g); err != nil {
		return nil, err
	}
	switch {
	case len(t.pairings) > n:
		return t.pairings[n], nil
	case gamesIn(a) > na:
		return a, nil
	case gamesIn(b) > nb:
		return b, nil
	}
	return nil, fmt.Errorf("game %d.%d: counted in no pairing", g.Pair, g.Index) // Add always counts a game it accepts
}

// gamesIn is a pairing's game count, 0 for nil.
func gamesIn(p *PairingTally) int {
	if p == nil {
		return 0
	}
	return p.Games.Games()
}
