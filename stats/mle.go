package stats

import "math"

// The constrained maximum-likelihood distributions behind the generalized
// SPRT, after fishtest LLRcalc.py (secular, MLE_expected, MLE_t_value) and
// fastchess sprt.cpp, both of which follow M. Van den Bergh's notes
// "support_MLE_multinomial" (Proposition 1.1) and "normalized_elo_practical"
// (Section 4.1).

// constError is an error that can be a constant, so the package keeps no
// mutable package-level state.
type constError string

func (e constError) Error() string { return string(e) }

const errNoSignChange = constError("constraint cannot be met by any distribution on these outcomes")

// solveSecular finds the x with sum_i probs_i·a_i/(1+x·a_i) = 0 on the
// interval where every 1+x·a_i is positive, i.e. (-1/max a, -1/min a). The
// sum falls monotonically from +Inf to -Inf there, so bisection always
// converges; it needs both a negative and a positive a_i (with positive
// probability, which regularized counts guarantee).
func solveSecular(a, probs []float64) (float64, error) {
	minA, maxA := math.Inf(1), math.Inf(-1)
	for _, ai := range a {
		minA, maxA = math.Min(minA, ai), math.Max(maxA, ai)
	}
	if !(minA < 0 && maxA > 0) {
		return 0, errNoSignChange
	}
	lo, hi := -1/maxA, -1/minA
	f := func(x float64) float64 {
		sum := 0.0
		for i, ai := range a {
			sum += probs[i] * ai / (1 + x*ai)
		}
		return sum
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2, nil
}

// mleWithMean is the distribution on the outcome values that maximises the
// likelihood of the observed probabilities probs subject to having mean s
// (fishtest LLRcalc.MLE_expected): p_i = probs_i/(1+x·(a_i-s)) with x
// solving the secular equation for a_i = values_i - s.
func mleWithMean(values, probs []float64, s float64) ([]float64, error) {
	shifted := make([]float64, len(values))
	for i, v := range values {
		shifted[i] = v - s
	}
	x, err := solveSecular(shifted, probs)
	if err != nil {
		return nil, err
	}
	p := make([]float64, len(values))
	for i := range values {
		p[i] = probs[i] / (1 + x*shifted[i])
	}
	return p, nil
}

// mleWithT is the distribution maximising the likelihood of probs subject to
// (mean - ref)/sigma = t (fishtest LLRcalc.MLE_t_value). It iterates from the
// uniform distribution, each step solving a secular equation whose
// coefficients depend on the previous mean and sigma, until the
// probabilities move less than 1e-12 (fishtest stops at 1e-9 or after 10
// steps, fastchess at 1e-4).
func mleWithT(values, probs []float64, ref, t float64) ([]float64, error) {
	n := len(values)
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	phi := make([]float64, n)
	for range 100 {
		m := momentsOf(values, p)
		sigma := math.Sqrt(m.variance)
		if !(sigma > 0) {
			return nil, errNoSignChange
		}
		for i, a := range values {
			d := (m.mean - a) / sigma
			phi[i] = a - ref - t*sigma*(1+d*d)/2
		}
		x, err := solveSecular(phi, probs)
		if err != nil {
			return nil, err
		}
		moved := 0.0
		for i := range p {
			next := probs[i] / (1 + x*phi[i])
			moved = math.Max(moved, math.Abs(next-p[i]))
			p[i] = next
		}
		if moved < 1e-12 {
			break
		}
	}
	return p, nil
}
