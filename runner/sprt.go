package runner

import (
	"selfplay/config"
	"selfplay/stats"
)

// sprtState runs a match's SPRT over its complete game pairs (pentanomial
// model, as fishtest does for paired openings).
type sprtState struct {
	test   stats.SPRT
	on     bool
	result stats.SPRTResult
	llrs   []float64 // LLR after each complete pair, for progress
}

func newSPRTState(t *config.Tournament, tally *Tally) *sprtState {
	s := &sprtState{}
	if t.SPRT == nil || t.Format != config.FormatMatch {
		return s
	}
	model := stats.NormalizedElo
	if t.SPRT.Model == config.SPRTLogistic {
		model = stats.LogisticElo
	}
	s.test = stats.SPRT{Elo0: t.SPRT.Elo0, Elo1: t.SPRT.Elo1, Alpha: t.SPRT.Alpha, Beta: t.SPRT.Beta, Model: model}
	s.on = true
	s.update(tally)
	return s
}

func (s *sprtState) enabled() bool { return s.on }

// update recomputes the test from the tally's complete pairs.
func (s *sprtState) update(tally *Tally) {
	if !s.on {
		return
	}
	ps := tally.Pairings()
	if len(ps) == 0 {
		lo, hi := s.test.Bounds()
		s.result = stats.SPRTResult{Lower: lo, Upper: hi, State: stats.SPRTContinue}
		return
	}
	r, err := s.test.Pentanomial(ps[0].Pairs)
	if err != nil {
		return
	}
	s.result = r
}

// decided reports whether the SPRT accepted H0 or H1.
func (s *sprtState) decided() bool {
	return s.on && s.result.State != stats.SPRTContinue
}
