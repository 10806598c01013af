package stats

import "math"

// moments are the first four moments of a discrete distribution of per-game
// scores (fishtest LLRcalc.stats_ex).
type moments struct {
	mean, variance, skewness, exKurtosis float64
}

// distribution normalises counts into probabilities. The caller guarantees
// a positive total.
func distribution(counts []float64) []float64 {
	total := 0.0
	for _, c := range counts {
		total += c
	}
	probs := make([]float64, len(counts))
	for i, c := range counts {
		probs[i] = c / total
	}
	return probs
}

// momentsOf computes mean, population variance, skewness and excess kurtosis
// of the values weighted by probs. Skewness and kurtosis are zero when the
// variance is zero (they are undefined there and only used when it is not).
func momentsOf(values, probs []float64) moments {
	var m moments
	for i, v := range values {
		m.mean += probs[i] * v
	}
	var m3, m4 float64
	for i, v := range values {
		d := v - m.mean
		m.variance += probs[i] * d * d
		m3 += probs[i] * d * d * d
		m4 += probs[i] * d * d * d * d
	}
	if m.variance > 0 {
		m.skewness = m3 / math.Pow(m.variance, 1.5)
		m.exKurtosis = m4/(m.variance*m.variance) - 3
	}
	return m
}
