package runner

import (
	"selfplay/config"
	"selfplay/standings"
	"selfplay/stats"
)

// sprtState runs a match's SPRT over its complete game pairs (pentanomial
// model, as fishtest does for paired openings) with stats.SPRTRun: once the
// test decides, the decision is final, and games that finish afterwards (in
// flight when it was reached) are stored and counted in the tally but do
// not change it.
type sprtState struct {
	run *stats.SPRTRun // nil: no SPRT
}

// newSPRTState sets up the tournament's SPRT (matches only) and evaluates
// it over the games already in the tally.
func newSPRTState(t *config.Tournament, tally *standings.Tally) *sprtState {
	s := &sprtState{}
	if t.SPRT == nil || t.Format != config.FormatMatch {
		return s
	}
	s.run = stats.NewSPRTRun(*t.SPRT)
	s.update(tally)
	return s
}

func (s *sprtState) enabled() bool { return s != nil && s.run != nil }

// update evaluates the test on the tally's complete pairs, unless it has
// already decided.
func (s *sprtState) update(tally *standings.Tally) {
	if !s.enabled() {
		return
	}
	if ps := tally.Pairings(); len(ps) > 0 {
		s.run.Add(ps[0].Pairs, ps[0].PairedGames)
	}
}

// decided reports whether the SPRT accepted H0 or H1.
func (s *sprtState) decided() bool { return s.enabled() && s.run.Decided() }

// result is the test's state now (enabled only).
func (s *sprtState) result() stats.SPRTResult { return s.run.Result() }

// stored is the SPRT state as the database stores it with the tournament:
// "" and 0 without an SPRT.
func (s *sprtState) stored() (state string, llr float64) {
	if !s.enabled() {
		return "", 0
	}
	r := s.run.Result()
	return r.State.String(), r.LLR
}
