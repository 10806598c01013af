package runner

import (
	"fmt"

	"selfplay/config"
	"selfplay/knockout"
	"selfplay/openings"
)

// schedule is a tournament's games in their deterministic order: rounds,
// then openings (in the configured order, rotated to the configured start;
// a random order is reshuffled each round from the seed), then pairings;
// each opening and pairing is a pair of games with colors swapped. Game i
// is game i%2 of pair i/2. With one game per opening (games_per_opening =
// 1, one pairing) each game takes the next opening, and a pair is two
// consecutive games with colors swapped, as fastchess's -games 1 plays
// them. The games are computed on demand, so a tournament of a billion
// rounds (played until its SPRT decides) costs no memory up front; the
// order, and so each pair's index, is the same however the games are
// taken.
//
// Under config.ScheduleFastchess (fastchess's gauntlet and round robin) a
// round is one game pair of each pairing, and pair p takes opening p of the
// ordered list cut to its first Rounds openings, wrapping around
// (fastchess 1.8.2: schedule/base_scheduler.hpp:43-45 fetches an opening
// for each pairing's first game; opening_book.cpp:50 cuts the book to the
// rounds; :70-76 wraps around it).
type schedule struct {
	t        *config.Tournament
	pairings [][2]string
	perRound int  // openings taken per round: openings x pairings
	single   bool // one game per opening: each game takes the next opening
	cycle    int  // fastchess: the openings pairs take in turn; 0: selfplay's schedule
	total    int  // games

	round   int // the round whose opening order is cached, or -1
	ordered []openings.Opening
}

func newSchedule(t *config.Tournament) (*schedule, error) {
	if t.Format == config.FormatKnockout {
		// Its games are planned from the results (dealKnockout); total is
		// those without tie-breaks. A bad order shows here.
		if _, err := openings.Order(t.Openings.List, t.Openings.Order, t.Seed, t.Openings.Offset+1); err != nil {
			return nil, err
		}
		return &schedule{t: t, total: knockout.BaseGames(len(t.Engines), t.Knockout.Games), round: -1}, nil
	}
	pairings := t.Pairings()
	total, err := config.ScheduledGames(len(pairings), t.ScheduledOpenings(len(t.Openings.List)), t.Rounds)
	if err != nil {
		return nil, err
	}
	s := &schedule{t: t, pairings: pairings, perRound: len(t.Openings.List) * len(pairings), total: int(total), round: -1}
	if t.Schedule == config.ScheduleFastchess {
		s.perRound, s.cycle = len(pairings), min(len(t.Openings.List), t.Rounds)
	}
	if t.OneGamePerOpening {
		if len(pairings) != 1 || total%4 != 0 {
			return nil, fmt.Errorf("one game per opening needs one pairing and an even number of games (%d pairings, %d games)", len(pairings), total/2)
		}
		s.single, s.total = true, int(total/2)
	}
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
	taken := pair // the openings taken before this game's
	if s.single {
		taken = i
	}
	round, k := taken/s.perRound, taken%s.perRound
	if err := s.order(round); err != nil {
		return gameJob{}, err
	}
	p := s.pairings[k%len(s.pairings)]
	opening := s.ordered[k/len(s.pairings)]
	if s.cycle > 0 {
		opening = s.ordered[pair%s.cycle]
	}
	j := gameJob{pair: pair, index: index, round: round, opening: opening, white: p[0], black: p[1]}
	// fastchess: the second game of a pair swaps colours unless -noswap,
	// and -reverse swaps every game (roundrobin.cpp:85-91).
	if (index == 1 && !s.t.NoSwap) != s.t.Reverse {
		j.white, j.black = p[1], p[0]
	}
	return j, nil
}

// order caches the openings in round's order. Only "random" depends on
// the round; the others are computed once.
func (s *schedule) order(round int) error {
	if s.round == round || (s.round >= 0 && !s.t.Openings.Order.PerRound()) {
		return nil
	}
	seed := s.t.Seed
	if s.t.Openings.Order.PerRound() {
		seed += uint64(round)
	}
	ordered, err := openings.Order(s.t.Openings.List, s.t.Openings.Order, seed, s.t.Openings.Offset+1)
	if err != nil {
		return err
	}
	s.round, s.ordered = round, ordered
	return nil
}

// gauntletSeeds is a gauntlet's seeds, its first engines that each play
// every engine after them (at most all but the last); 0 for other formats.
func gauntletSeeds(t *config.Tournament) int {
	if t.Format != config.FormatGauntlet || len(t.Engines) < 2 {
		return 0
	}
	return min(max(t.GauntletSeeds, 1), len(t.Engines)-1)
}
