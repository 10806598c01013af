package stats

import "math"

// normalizedElo returns normalized Elo with its interval the way fishtest's
// tests_stats page computes it (its t_conf helper):
//
//	t     = (mean - 0.5) / sigma            (sigma per sample)
//	var_t = max(1 - t·skew + t²·(exkurt+2)/4, 0)
//	t ± z·sqrt(var_t / N)
//
// which is the delta-method variance of the sample t-value, accounting for
// the uncertainty of sigma as well as of the mean. For the pentanomial model
// the samples are pairs whose per-game sigma is sigma_pair·√2, so t is divided
// by √2. nElo = t·800/ln10. fastchess prints the same point value but keeps
// sigma fixed for its interval; fishtest's is the one followed here.
//
// The caller guarantees a positive variance.
func normalizedElo(m moments, samples float64, model Model, z float64) (nelo, low, high float64) {
	t := (m.mean - 0.5) / math.Sqrt(m.variance)
	varT := math.Max(1-t*m.skewness+0.25*t*t*(m.exKurtosis+2), 0)
	half := z * math.Sqrt(varT/samples)
	scale := neloPerT
	if model == ModelPentanomial {
		scale /= math.Sqrt2
	}
	return scale * t, scale * (t - half), scale * (t + half)
}
