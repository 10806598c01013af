package standings

import (
	"fmt"

	"selfplay/config"
	"selfplay/stats"
	"selfplay/store/record"
)

// Settlement is a tournament's status and SPRT state as its stored games
// decide them.
type Settlement struct {
	Status    record.Status
	SPRTState string // "" without an SPRT; continue, H0 or H1
	SPRTLLR   float64
}

// Settle works out the status of a tournament of the whole schedule whose
// games no single runner played (the merge of shard databases) from its
// games in schedule order, as a runner with concurrency 1 would have: the
// SPRT is evaluated pair by pair over the games before the first missing
// one, so that the decision it finds is the one a single machine takes,
// and final: games merged later (after the gap, or a whole wave after the
// decision) cannot change it. A decision already stored (H0 or H1, e.g. by
// a runner) is final too. The tournament is complete when the SPRT has
// decided or every scheduled game is stored; otherwise it is running, and
// `selfplay run` on the database plays what is missing.
func Settle(t record.Tournament, games []record.Game) (Settlement, error) {
	snap, err := config.ParseSnapshot(t.Config)
	if err != nil {
		return Settlement{}, fmt.Errorf("reading its config snapshot: %w", err)
	}
	test, err := sprtTest(snap)
	if err != nil {
		return Settlement{}, err
	}
	s := Settlement{Status: record.StatusRunning}
	if len(games) >= t.TotalGames {
		s.Status = record.StatusComplete
	}
	if test == nil {
		return s, nil
	}
	if d, ok := sprtDecision(t); ok && d.State != stats.SPRTContinue {
		s.Status, s.SPRTState, s.SPRTLLR = record.StatusComplete, d.State.String(), d.LLR
		return s, nil
	}
	tally := NewTally()
	s.SPRTState = stats.SPRTContinue.String()
	for i := range games {
		g := &games[i]
		if 2*g.Pair+g.Index != i {
			break // the first missing game
		}
		if err := tally.Add(g); err != nil {
			return Settlement{}, err
		}
		if g.Index == 0 {
			continue // a pair completes with its second game
		}
		ps := tally.Pairings()
		r, err := test.Paired(ps[0].Pairs, ps[0].PairedGames)
		if err != nil {
			continue // undefined LLR (too few kinds of results yet): keep the last one, as the runner does
		}
		s.SPRTLLR = r.LLR
		if r.State != stats.SPRTContinue {
			s.Status, s.SPRTState = record.StatusComplete, r.State.String()
			break
		}
	}
	return s, nil
}
