package runner

import (
	"fmt"

	"selfplay/config"
	"selfplay/standings"
	"selfplay/stats"
)

// sprtState runs a match's SPRT over its complete game pairs (pentanomial
// model, as fishtest does for paired openings). Once the test decides, the
// decision is final: games that finish afterwards (in flight when it was
// reached) are stored and counted in the tally, but do not change it.
type sprtState struct {
	test   *stats.SPRT // nil: no SPRT
	result stats.SPRTResult
}

// newSPRTState sets up the tournament's SPRT (matches only) and evaluates
// it over the games already in the tally.
func newSPRTState(t *config.Tournament, tally *standings.Tally) (*sprtState, error) {
	s := &sprtState{}
	if t.SPRT == nil || t.Format != config.FormatMatch {
		return s, nil
	}
	model, err := stats.ParseEloModel(t.SPRT.Model)
	if err != nil {
		return nil, fmt.Errorf("tournament %s: sprt: %w", t.Name, err)
	}
	s.test = &stats.SPRT{Elo0: t.SPRT.Elo0, Elo1: t.SPRT.Elo1, Alpha: t.SPRT.Alpha, Beta: t.SPRT.Beta, Model: model}
	s.update(tally)
	return s, nil
}

func (s *sprtState) enabled() bool { return s.test != nil }

// update recomputes the test from the tally's complete pairs, unless it has
// already decided.
func (s *sprtState) update(tally *standings.Tally) {
	if !s.enabled() || s.decided() {
		return
	}
	ps := tally.Pairings()
	if len(ps) == 0 {
		lo, hi := s.test.Bounds()
		s.result = stats.SPRTResult{Lower: lo, Upper: hi, State: stats.SPRTContinue}
		return
	}
	r, err := s.test.Paired(ps[0].Pairs, ps[0].PairedGames)
	if err != nil {
		return // undefined LLR (e.g. too few kinds of results yet): keep the last one
	}
	s.result = r
}

// decided reports whether the SPRT accepted H0 or H1.
func (s *sprtState) decided() bool {
	return s.enabled() && s.result.State != stats.SPRTContinue
}
