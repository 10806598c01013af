package stats

import "math"

// normalCDF is Phi, the standard normal cumulative distribution function
// (fishtest stat_util.Phi; fastchess writes it as (1+erf(x/√2))/2).
func normalCDF(x float64) float64 {
	return 0.5 * math.Erfc(-x/math.Sqrt2)
}

// normalQuantile is Phi^-1 (fishtest stat_util.Phi_inv). p must lie in
// (0, 1); callers validate it.
func normalQuantile(p float64) float64 {
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// twoSidedZ is the z value of a two-sided interval at the given level, e.g.
// 1.959964 for 0.95 (fastchess's CI95ZSCORE, fishtest's Phi_inv(0.975)).
func twoSidedZ(level float64) float64 {
	return normalQuantile(1 - (1-level)/2)
}
