package standings

import (
	"fmt"

	"selfplay/config/snapshot"
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
	text, err := t.Snapshot()
	if err != nil {
		return Settlement{}, err
	}
	snap, err := snapshot.Parse(text)
	if err != nil {
		return Settlement{}, fmt.Errorf("reading its config snapshot: %w", err)
	}
	test, err := snap.MatchSPRT()
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
	run := stats.NewSPRTRun(*test)
	if d, ok := storedSPRT(t); ok && d.State.Decided() {
		run.Restore(d.State, d.LLR)
	}
	if err := settleSPRT(run, games); err != nil {
		return Settlement{}, err
	}
	r := run.Result()
	s.SPRTState, s.SPRTLLR = r.State.String(), r.LLR
	if run.Decided() {
		s.Status = record.StatusComplete
	}
	return s, nil
}

// settleSPRT runs the test pair by pair over the games (in schedule
// order) before the first missing one, until it decides.
func settleSPRT(run *stats.SPRTRun, games []record.Game) error {
	tally := NewTally()
	for i := range games {
		g := &games[i]
		if run.Decided() || 2*g.Pair+g.Index != i {
			return nil // decided, or the first missing game
		}
		if err := tally.Add(g); err != nil {
			return err
		}
		if g.Index == 1 { // a pair completes with its second game
			ps := tally.Pairings()
			run.Add(ps[0].Pairs, ps[0].PairedGames)
		}
	}
	return nil
}
