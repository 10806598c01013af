package stats

// SPRTRun is an SPRT followed pair by pair over a match, as the runner
// plays it, a resume replays it, a merge settles it and the report draws
// its LLR path: the one place where the test decides. Its decision is
// final, as in fishtest: once the LLR leaves the bounds, later pairs (games
// that were in flight, or stored after it) do not change the result. A
// pair whose LLR is undefined (too few kinds of results yet, or bounds too
// extreme for the result) keeps the last defined result.
//
// The zero SPRTRun is not usable: NewSPRTRun.
type SPRTRun struct {
	test   SPRT
	result SPRTResult
	err    error // the last evaluation's, while undecided
	final  bool  // result is a decision, or a result restored as final
}

// NewSPRTRun starts the test t without pairs: LLR 0, continue.
func NewSPRTRun(t SPRT) *SPRTRun {
	r := &SPRTRun{test: t}
	r.result.Lower, r.result.Upper = t.Bounds()
	return r
}

// Test is the SPRT followed.
func (r *SPRTRun) Test() SPRT { return r.test }

// Add evaluates the test on the pairs so far (pairs, and games: the W/D/L
// of their games, which the bayesian model reads), unless it has decided.
func (r *SPRTRun) Add(pairs Pentanomial, games Trinomial) {
	if r.final {
		return
	}
	r.Step(r.test.Paired(pairs, games))
}

// Step takes the test's evaluation on the pairs so far (res, or err where
// the LLR is undefined), computed by the caller (who may keep it), unless
// the test has decided.
func (r *SPRTRun) Step(res SPRTResult, err error) {
	if r.final {
		return
	}
	if r.err = err; err != nil {
		return
	}
	r.result = res
	r.final = res.State.Decided()
}

// Restore sets the result to a stored one (its state and LLR), as final:
// later pairs do not change it.
func (r *SPRTRun) Restore(state SPRTState, llr float64) {
	r.result.State, r.result.LLR = state, llr
	r.err, r.final = nil, true
}

// Result is the decision, or without one the result after the last pair
// with a defined LLR (LLR 0, continue, before any).
func (r *SPRTRun) Result() SPRTResult { return r.result }

// Decided reports whether the test accepted H0 or H1.
func (r *SPRTRun) Decided() bool { return r.result.State.Decided() }

// Err is the error of the last evaluation when its LLR was undefined and
// the test had not decided (nor been restored); nil otherwise.
func (r *SPRTRun) Err() error { return r.err }
