package stats

import (
	"fmt"
	"math"
)

// eloScale is c in p = 1/(1+exp(-c·Δr)): ln(10)/400 per Elo point.
const eloScale = math.Ln10 / 400

// logSigmoid is log(1/(1+exp(-x))) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// groupLogLikelihood is the half-point logistic log-likelihood of the games
// inside the group given ratings r (indexed like group): Ordo's model, each
// game scoring s ∈ {0, ½, 1} contributing s·log p + (1-s)·log(1-p).
func groupLogLikelihood(group []int, g games, r []float64) float64 {
	ll := 0.0
	for a := range group {
		for b := a + 1; b < len(group); b++ {
			n := g.n[group[a]][group[b]]
			if n == 0 {
				continue
			}
			s := g.points[group[a]][group[b]]
			x := eloScale * (r[a] - r[b])
			ll += s*logSigmoid(x) + (n-s)*logSigmoid(-x)
		}
	}
	return ll
}

// fitGroup maximises the likelihood of the games inside a strongly connected
// group (the maximum Ordo finds by its own iteration) by Newton's method with
// step halving, holding the first player of
// the group at 0 (the likelihood only sees differences). It returns the
// ratings in Elo and their sandwich covariance (see Ratings), with a zero
// row and column for the reference player.
func fitGroup(group []int, g games) ([]float64, [][]float64, error) {
	m := len(group)
	r := make([]float64, m)
	if m == 1 {
		return r, newMatrix(1), nil
	}
	for iter := 0; ; iter++ {
		if iter == 500 {
			return nil, nil, fmt.Errorf("no convergence after %d Newton steps", iter)
		}
		grad, info, _ := groupDerivatives(group, g, r)
		inv, err := invert(info)
		if err != nil {
			return nil, nil, fmt.Errorf("information matrix: %w", err)
		}
		step := mulVec(inv, grad) // Newton step on the free ratings r[1:]
		before := groupLogLikelihood(group, g, r)
		t := 1.0
		trial := make([]float64, m)
		for range 60 {
			for k := 1; k < m; k++ {
				trial[k] = r[k] + t*step[k-1]
			}
			if groupLogLikelihood(group, g, trial) >= before-1e-12*math.Abs(before) {
				break
			}
			t /= 2
		}
		moved := 0.0
		for k := 1; k < m; k++ {
			moved = math.Max(moved, math.Abs(trial[k]-r[k]))
		}
		copy(r, trial)
		if moved < 1e-9 {
			break
		}
	}

	_, info, meat := groupDerivatives(group, g, r)
	inv, err := invert(info)
	if err != nil {
		return nil, nil, fmt.Errorf("information matrix: %w", err)
	}
	reduced := mulMat(mulMat(inv, meat), inv)
	cov := newMatrix(m)
	for a := 1; a < m; a++ {
		for b := 1; b < m; b++ {
			cov[a][b] = reduced[a-1][b-1]
		}
	}
	return r, cov, nil
}

// groupDerivatives returns, for the free ratings r[1:] in Elo, the gradient
// of the log-likelihood, the Fisher information A (minus the Hessian, per
// game c²·p(1-p)) and the draw-aware score variance B (per game
// c²·(p(1-p) - d/4), d the smoothed draw rate draws/(games+1), capped at the
// most draws a score of p allows, 2·min(p, 1-p)).
func groupDerivatives(group []int, g games, r []float64) (grad []float64, info, meat [][]float64) {
	m := len(group)
	grad = make([]float64, m-1)
	info, meat = newMatrix(m-1), newMatrix(m-1)
	add := func(mat [][]float64, a, b int, w float64) {
		if a > 0 {
			mat[a-1][a-1] += w
		}
		if b > 0 {
			mat[b-1][b-1] += w
		}
		if a > 0 && b > 0 {
			mat[a-1][b-1] -= w
			mat[b-1][a-1] -= w
		}
	}
	for a := range m {
		for b := a + 1; b < m; b++ {
			i, j := group[a], group[b]
			n := g.n[i][j]
			if n == 0 {
				continue
			}
			p := 1 / (1 + math.Exp(-eloScale*(r[a]-r[b])))
			residual := eloScale * (g.points[i][j] - n*p)
			if a > 0 {
				grad[a-1] += residual
			}
			if b > 0 {
				grad[b-1] -= residual
			}
			pq := p * (1 - p)
			d := math.Min(g.draws[i][j]/(n+1), 2*math.Min(p, 1-p))
			add(info, a, b, eloScale*eloScale*n*pq)
			add(meat, a, b, eloScale*eloScale*n*(pq-d/4))
		}
	}
	return grad, info, meat
}

// applyAnchor shifts the ratings so the anchor (an index into them, or -1
// for the average; Ordo's -A option or its default) is at 0 and transforms
// the covariance to match:
// Var(r_i - r_k) for a named anchor k, or the covariance of the centred
// ratings P·C·P (P = I - 11ᵀ/m) for the average.
func applyAnchor(r []float64, cov [][]float64, anchor int) ([]float64, [][]float64) {
	m := len(r)
	// weights w: the anchor value is sum_k w_k r_k.
	w := make([]float64, m)
	if anchor >= 0 {
		w[anchor] = 1
	} else {
		for k := range w {
			w[k] = 1 / float64(m)
		}
	}
	shift := 0.0
	for k := range r {
		shift += w[k] * r[k]
	}
	cw := mulVec(cov, w) // C·w
	wcw := 0.0
	for k := range w {
		wcw += w[k] * cw[k]
	}
	out, outCov := make([]float64, m), newMatrix(m)
	for i := range m {
		out[i] = r[i] - shift
		for j := range m {
			// Cov(r_i - w·r, r_j - w·r)
			outCov[i][j] = cov[i][j] - cw[i] - cw[j] + wcw
		}
	}
	if anchor >= 0 { // exactly zero, not rounding noise
		for j := range m {
			outCov[anchor][j], outCov[j][anchor] = 0, 0
		}
		out[anchor] = 0
	}
	return out, outCov
}
