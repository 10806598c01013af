package runner

import (
	"fmt"

	"selfplay/config"
	"selfplay/knockout"
	"selfplay/openings"
)

// schedule is a tournament's games in their deterministic order: rounds,
// then openings (in the configured order; a random order is reshuffled each
// round from the seed), then pairings; each opening and pairing is a pair
// of games with colors swapped. Game i is game i%2 of pair i/2. The games
// are computed on demand, so a tournament of a billion rounds (played until
// its SPRT decides) costs no memory up front; the order, and so each pair's
// index, is the same however the games are taken.
type schedule struct {
	t        *config.Tournament
	pairings [][2]string
	perRound int // game pairs per round: openings x pairings
	total    int // games

	round   int // the round whose opening order is cached, or -1
	ordered []openings.Opening
}

func newSchedule(t *config.Tournament) (*schedule, error) {
	if t.Format == config.FormatKnockout {
		// Its games are planned from the results (dealKnockout); total is
		// those without tie-breaks. A bad order shows here.
		if _, err := openings.Order(t.Openings.List, t.Openings.Order, t.Seed); err != nil {
			return nil, err
		}
		return &schedule{t: t, total: knockout.BaseGames(len(t.Engines), t.Knockout.Games), round: -1}, nil
	}
	pairings := t.Pairings()
	total, err := config.ScheduledGames(len(pairings), len(t.Openings.List), t.Rounds)
	if err != nil {
		return nil, err
	}
	s := &schedule{t: t, pairings: pairings, perRound: len(t.Openings.List) * len(pairings), total: int(total), round: -1}
	if s.total > 0 {
		// A bad order shows here, before any game.
		if _, err := s.job(0); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// job returns game i (0 <= i < total). It is not safe for concurrent use.
func (s *schedule) job(i int) (gameJob, error) {
	if i < 0 || i >= s.total {
		return gameJob{}, fmt.Errorf("game %d is outside the schedule of %d games", i, s.total)
	}
	pair, index := i/2, i%2
	round, k := pair/s.perRound, pair%s.perRound
	if round != s.round {
		ordered, err := openings.Order(s.t.Openings.List, s.t.Openings.Order, s.t.Seed+uint64(round))
		if err != nil {
			return gameJob{}, err
		}
		s.round, s.ordered = round, ordered
	}
	p := s.pairings[k%len(s.pairings)]
	j := gameJob{pair: pair, index: index, round: round, opening: s.ordered[k/len(s.pairings)], white: p[0], black: p[1]}
	if index == 1 {
		j.white, j.black = p[1], p[0]
	}
	return j, nil
}
