package stats

import "fmt"

// significance is what an Estimate's interval says about the first engine.
type significance int

const (
	// sigNoGames means there is nothing to judge.
	sigNoGames significance = iota
	// sigNoDifference means the Elo interval contains 0.
	sigNoDifference
	// sigStronger means the whole interval lies above 0.
	sigStronger
	// sigWeaker means the whole interval lies below 0.
	sigWeaker
)

// significance classifies the estimate by its interval (this package's own
// wording rule, consistent with the printed interval): the first engine is
// called stronger only when the lower end of the interval is above 0 Elo,
// which is a two-sided test at level 1-Level. (LOS > 1-(1-Level)/2 says the
// same in the normal approximation.)
func (e Estimate) significance() significance {
	switch {
	case e.Games == 0:
		return sigNoGames
	case e.ScoreLow > 0.5:
		return sigStronger
	case e.ScoreHigh < 0.5:
		return sigWeaker
	}
	return sigNoDifference
}

// Verdict is a one-line plain-language summary, for example
//
//	fhr vs plain: +128.4 ± 52.0 Elo (95%, pentanomial), LOS >99.9% — fhr is stronger at the 5% level
//
// The Elo part is FormatEloInterval's: the "±" figure is half the width of
// the (asymmetric) Elo interval, as fastchess ("Elo: x +/- y") and fishtest
// ("ELO: x +-y") print it; when the estimate or an end of the interval is
// infinite the interval is printed explicitly instead: "+inf Elo [+140.6, +inf]".
func Verdict(first, second string, e Estimate) string {
	if e.Games == 0 {
		return fmt.Sprintf("%s vs %s: no games played", first, second)
	}
	level := FormatLevel(1 - e.Level)
	var conclusion string
	switch e.significance() {
	case sigStronger:
		conclusion = fmt.Sprintf("%s is stronger at the %s level", first, level)
	case sigWeaker:
		conclusion = fmt.Sprintf("%s is weaker at the %s level", first, level)
	default:
		conclusion = fmt.Sprintf("no significant difference at the %s level", level)
	}
	return fmt.Sprintf("%s vs %s: %s (%s, %s), LOS %s — %s",
		first, second, FormatEloInterval(e), FormatLevel(e.Level), e.Model, FormatPercent(e.LOS), conclusion)
}

// SPRTVerdict summarises an SPRT state in one clause, for example
//
//	SPRT [0.00, 5.00] logistic: H1 accepted (LLR 2.98 > 2.94)
func SPRTVerdict(t SPRT, r SPRTResult) string {
	head := fmt.Sprintf("SPRT [%s, %s] %s", FormatFloat(t.Elo0, 2), FormatFloat(t.Elo1, 2), t.Model)
	llr := FormatFloat(r.LLR, 2)
	switch r.State {
	case SPRTAcceptH1:
		return fmt.Sprintf("%s: H1 accepted (LLR %s > %s)", head, llr, FormatFloat(r.Upper, 2))
	case SPRTAcceptH0:
		return fmt.Sprintf("%s: H0 accepted (LLR %s < %s)", head, llr, FormatFloat(r.Lower, 2))
	}
	return fmt.Sprintf("%s: continue (LLR %s in [%s, %s])", head, llr,
		FormatFloat(r.Lower, 2), FormatFloat(r.Upper, 2))
}
