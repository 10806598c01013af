// Package stats turns chess match results into the figures engine authors
// judge a change by: score, Elo with a confidence interval, likelihood of
// superiority (LOS), normalized Elo, the generalized SPRT, and maximum
// likelihood ratings for several engines.
//
// The two-player figures follow the definitions used by fishtest
// (server/fishtest/stats/stat_util.py, LLRcalc.py and the tests_stats page)
// and fastchess (matchmaking/elo and matchmaking/sprt), so a result printed
// here can be compared number for number with theirs:
//
//   - Elo is the logistic Elo of the mean score per game,
//     RD = -400·log10(1/W - 1), the inverse of W = 1/(10^(-RD/400)+1)
//     (NMR paper, Appendix B).
//   - The confidence interval is a normal-approximation interval on the mean
//     score whose endpoints are mapped through the Elo function. The
//     trinomial model uses the variance of single games; the pentanomial
//     model uses the variance of game pairs (same opening, colours
//     reversed), which is the right one whenever games are paired.
//   - LOS is Phi((score-0.5)/standard error), fishtest's and fastchess's
//     formula.
//   - Normalized Elo and its interval follow fishtest's tests_stats page.
//   - The SPRT log-likelihood ratio is fishtest's generalized (MLE based)
//     LLR for the trinomial and pentanomial models, in logistic or
//     normalized Elo.
//
// Where the references leave a case undefined (no games, every game with the
// same result) this package returns documented finite or infinite values,
// never NaN: see Estimate. The exceptions are FixedSigma and Cutechess, the
// figures of fastchess's and cutechess-cli's result blocks, which keep the
// tools' own arithmetic, NaN included, because their text is compared.
//
// Ratings for several engines are maximum-likelihood Bradley–Terry
// (logistic) ratings with draws counted as half points, as Ordo computes
// them; see Ratings.
//
// The package does no I/O, keeps no package-level mutable state and
// reports bad input as errors instead of panicking.
package stats
