package stats

import "math"

// Small dense linear algebra for the rating fit (a few dozen players at most).

const errSingular = constError("singular matrix")

// newMatrix returns an n×n zero matrix.
func newMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// invert returns the inverse of a by Gauss–Jordan elimination with partial
// pivoting, leaving a untouched.
func invert(a [][]float64) ([][]float64, error) {
	n := len(a)
	work := newMatrix(n)
	inv := newMatrix(n)
	for i := range n {
		copy(work[i], a[i])
		inv[i][i] = 1
	}
	for col := range n {
		pivot := col
		for r := col + 1; r < n; r++ {
			if math.Abs(work[r][col]) > math.Abs(work[pivot][col]) {
				pivot = r
			}
		}
		if work[pivot][col] == 0 || math.IsNaN(work[pivot][col]) {
			return nil, errSingular
		}
		work[col], work[pivot] = work[pivot], work[col]
		inv[col], inv[pivot] = inv[pivot], inv[col]
		d := work[col][col]
		for k := range n {
			work[col][k] /= d
			inv[col][k] /= d
		}
		for r := range n {
			if r == col || work[r][col] == 0 {
				continue
			}
			f := work[r][col]
			for k := range n {
				work[r][k] -= f * work[col][k]
				inv[r][k] -= f * inv[col][k]
			}
		}
	}
	return inv, nil
}

// mulMat returns a·b for square matrices.
func mulMat(a, b [][]float64) [][]float64 {
	n := len(a)
	out := newMatrix(n)
	for i := range n {
		for k := range n {
			if a[i][k] == 0 {
				continue
			}
			for j := range n {
				out[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return out
}

// mulVec returns a·v.
func mulVec(a [][]float64, v []float64) []float64 {
	out := make([]float64, len(a))
	for i, row := range a {
		for j, x := range row {
			out[i] += x * v[j]
		}
	}
	return out
}
