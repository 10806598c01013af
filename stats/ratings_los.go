package stats

import "math"

// rowCovariance re-indexes the covariance of the rated group (cov, indexed
// like group) by the rows of the sorted table; rows outside the group get
// nil.
func rowCovariance(rows []PlayerRating, index map[string]int, group []int, cov [][]float64) [][]float64 {
	inGroup := make(map[int]int, len(group)) // player index -> group position
	for k, i := range group {
		inGroup[i] = k
	}
	pos := make([]int, len(rows)) // row -> group position, or -1
	for r, row := range rows {
		pos[r] = -1
		if k, ok := inGroup[index[row.Player]]; ok && row.Status == Rated {
			pos[r] = k
		}
	}
	out := make([][]float64, len(rows))
	for a := range rows {
		if pos[a] < 0 {
			continue
		}
		out[a] = make([]float64, len(rows))
		for b := range rows {
			if pos[b] >= 0 {
				out[a][b] = cov[pos[a]][pos[b]]
			}
		}
	}
	return out
}

// LOS is the likelihood of superiority of the player in row i over the one
// in row j: the probability that i's true rating is the higher, from the
// normal approximation of the fit, Φ((r_i - r_j)/sd(r_i - r_j)) with the
// covariance of the two ratings included (what BayesElo's "los" command
// computes from its Hessian; Ordo estimates it by simulation). The
// difference, and so LOS, does not depend on the anchor. ok is false unless
// both rows are Rated and distinct.
func (t RatingTable) LOS(i, j int) (los float64, ok bool) {
	if i == j || i < 0 || j < 0 || i >= len(t.Rows) || j >= len(t.Rows) || t.cov == nil ||
		t.cov[i] == nil || t.cov[j] == nil {
		return 0, false
	}
	diff := t.Rows[i].Rating - t.Rows[j].Rating
	variance := t.cov[i][i] + t.cov[j][j] - 2*t.cov[i][j]
	if !(variance > 0) { // no information on the difference: certain only in sign
		switch {
		case diff > 0:
			return 1, true
		case diff < 0:
			return 0, true
		}
		return 0.5, true
	}
	return normalCDF(diff / math.Sqrt(variance)), true
}
