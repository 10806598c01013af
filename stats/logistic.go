package stats

import "math"

// neloPerT converts a t-value (score excess over 0.5 divided by the standard
// deviation per game) into normalized Elo: 800/ln(10) ≈ 347.43558552. This is
// fishtest's nelo_divided_by_nt (LLRcalc.py); fastchess uses the same factor.
const neloPerT = 800 / math.Ln10

// eloFromScore returns the logistic Elo difference that predicts the mean
// score s per game: RD = -400·log10(1/s - 1) (NMR paper, Appendix B;
// fishtest stat_util.elo without its clamping). A score of 1 or more gives
// +Inf and 0 or less gives -Inf, so an all-wins result is reported as +inf
// rather than fishtest's clamped ±1200. NaN in gives NaN out.
func eloFromScore(s float64) float64 {
	switch {
	case math.IsNaN(s):
		return math.NaN()
	case s >= 1:
		return math.Inf(1)
	case s <= 0:
		return math.Inf(-1)
	}
	return logisticElo(s)
}

// ScoreFromElo returns the expected score per game of a player rd Elo
// stronger: W = 1/(10^(-rd/400)+1) (NMR paper, Appendix B; fishtest
// stat_util.L, fastchess SPRT::leloToScore). ±Inf map to 1 and 0.
func ScoreFromElo(rd float64) float64 {
	return 1 / (1 + math.Pow(10, -rd/400))
}
