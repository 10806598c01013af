package standings

import (
	"fmt"

	"selfplay/outcome"
	"selfplay/stats"
	"selfplay/store/record"
)

// PairingTally accumulates the games between two engines, from the
// pairing's first engine's point of view (the one with White in the first
// game of each pair).
type PairingTally struct {
	First, Second string
	Games         stats.Trinomial
	Pairs         stats.Pentanomial
	PairedGames   stats.Trinomial // the games of the complete pairs (Pairs), for the bayesian SPRT
	half          map[int]float64 // first's score in a pair's game whose partner is missing
}

// Tally accumulates a tournament's results.
type Tally struct {
	pairings []*PairingTally
	byKey    map[[2]string]*PairingTally
	Games    int
}

// NewTally starts an empty tally.
func NewTally() *Tally {
	return &Tally{byKey: map[[2]string]*PairingTally{}}
}

// whiteScore is White's points for a result.
func whiteScore(result outcome.Result) (float64, error) {
	if p, ok := result.Points(outcome.White); ok {
		return p, nil
	}
	return 0, fmt.Errorf("unknown result %q", result)
}

// PairingOf is the pairing a game counts in, first engine first, and the
// first engine's score in it: the first engine is the one with White in
// the first game of each pair. Every count of games by pairing (Tally,
// Live, the runner's lines) orients them by it.
func PairingOf(g *record.Game) ([2]string, float64, error) {
	w, err := whiteScore(g.Result)
	if err != nil {
		return [2]string{}, 0, fmt.Errorf("game %s: %w", record.PGNRound(g.Pair, g.Index), err)
	}
	if g.Index == 1 {
		return [2]string{g.Black, g.White}, 1 - w, nil
	}
	return [2]string{g.White, g.Black}, w, nil
}

// Add counts a finished game.
func (t *Tally) Add(g *record.Game) error {
	key, score, err := PairingOf(g)
	if err != nil {
		return err
	}
	p := t.byKey[key]
	if p == nil {
		p = &PairingTally{First: key[0], Second: key[1], half: map[int]float64{}}
		t.byKey[key] = p
		t.pairings = append(t.pairings, p)
	}
	if err := p.Games.Add(score); err != nil {
		return err
	}
	if other, ok := p.half[g.Pair]; ok {
		delete(p.half, g.Pair)
		if err := p.Pairs.AddPair(other, score); err != nil {
			return err
		}
		p.PairedGames.Add(other) // scores checked by Games.Add
		p.PairedGames.Add(score)
	} else {
		p.half[g.Pair] = score
	}
	t.Games++
	return nil
}

// Pairings returns the pairings in the order their first game was counted.
func (t *Tally) Pairings() []*PairingTally { return t.pairings }

// Estimate is the pairing's Elo estimate as fishtest computes it for paired
// openings: the pentanomial model over the complete pairs whenever there is
// one (a game whose partner is missing, e.g. in flight when a run stopped,
// is left out), else the trinomial model over the games.
func (p *PairingTally) Estimate(level float64) (stats.Estimate, error) {
	if p.Pairs.Pairs() > 0 {
		return stats.AnalyzePentanomial(p.Pairs, level)
	}
	return stats.AnalyzeTrinomial(p.Games, level)
}

// ratings fits the given players, anchored at anchor ("" = average at 0).
func (t *Tally) ratings(players []string, level float64, anchor string) (stats.RatingTable, error) {
	var results []stats.PairResult
	for _, p := range t.pairings {
		results = append(results, stats.PairResult{First: p.First, Second: p.Second,
			Wins: p.Games.Wins, Losses: p.Games.Losses, Draws: p.Games.Draws})
	}
	return stats.Ratings(players, results, stats.RatingOptions{Anchor: anchor, Level: level})
}

// Pairing returns the pairing first-second (first being the engine with
// White in the first game of each pair), or nil when no game of it has been
// counted.
func (t *Tally) Pairing(first, second string) *PairingTally {
	return t.byKey[[2]string{first, second}]
}
