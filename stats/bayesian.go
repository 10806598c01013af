package stats

import "math"

// The BayesElo model behind fastchess's "bayesian" SPRT (R. Coulom's
// bayeselo): a player bayesElo stronger wins with probability
// 1/(1+10^((drawElo-bayesElo)/400)) and loses with probability
// 1/(1+10^((drawElo+bayesElo)/400)); the rest is draws. drawElo grows with
// the draw rate and is estimated from the games.

// scoreFromBayesElo returns the expected score per game of a player
// bayesElo stronger when the draw Elo is drawElo: P(win) + P(draw)/2 in the
// BayesElo model (fastchess SPRT::bayeseloToScore).
func scoreFromBayesElo(bayesElo, drawElo float64) float64 {
	win := 1 / (1 + math.Pow(10, (drawElo-bayesElo)/400))
	loss := 1 / (1 + math.Pow(10, (drawElo+bayesElo)/400))
	return win + (1-win-loss)/2
}

// drawEloFrom is the draw Elo that the BayesElo model fits to a loss
// frequency pLoss and a win frequency pWin (both in (0, 1)):
// 200·log10((1-pLoss)/pLoss · (1-pWin)/pWin), as fastchess's bayesian
// SPRT estimates it from the regularized W/D/L frequencies. It is the
// solution of the two BayesElo equations for the observed wins and losses.
func drawEloFrom(pLoss, pWin float64) float64 {
	return 200 * math.Log10((1-pLoss)/pLoss*(1-pWin)/pWin)
}
