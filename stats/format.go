package stats

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatFloat prints x with prec decimals (fixed-point like fastchess's
// {:.2f}), infinities as "+inf" and "-inf"
// and never a negative zero ("-0.00" becomes "0.00"). NaN, which this package
// never returns, prints as "nan".
func FormatFloat(x float64, prec int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if strings.HasPrefix(s, "-") && strings.Trim(s, "-0.") == "" {
		s = s[1:]
	}
	return s
}

// FormatSigned is FormatFloat with a leading "+" on positive values, the
// usual way to print an Elo difference ("+32.1", "-4.0", "0.0", "+inf").
func FormatSigned(x float64, prec int) string {
	s := FormatFloat(x, prec)
	if x > 0 && !strings.HasPrefix(s, "+") && strings.Trim(s, "0.") != "" {
		s = "+" + s
	}
	return s
}

// FormatPercent prints a probability as a percentage with one decimal, but
// never as "100.0%" or "0.0%": from 99.95% up it prints ">99.9%", below
// 0.05% "<0.1%". Certainty included: an LOS of exactly 1 is a normal
// distribution's tail rounded away (one table said 100.0% where another
// said >99.9% of the same match). It is how LOS is printed.
func FormatPercent(p float64) string {
	pct := 100 * p
	switch {
	case pct >= 99.95:
		return ">99.9%"
	case pct < 0.05:
		return "<0.1%"
	}
	return FormatFloat(pct, 1) + "%"
}

// FormatLevel prints a fraction such as 0.95 or 0.05 as "95%" or "5%",
// with as many decimals as it needs ("99.9%").
func FormatLevel(f float64) string {
	// Rounded to 1e-9 percent: fine enough for 99.9999999% (a level)
	// and 0.0000001% (its complement, 1 - level) to keep their digits,
	// coarse enough to hide float noise (0.95*100 = 95.00000000000001;
	// 1 - 0.999999999 is 1e-9 to within 1e-16).
	pct := math.Round(f*100*1e9) / 1e9
	return strconv.FormatFloat(pct, 'f', -1, 64) + "%"
}

// FormatEloInterval prints an estimate's Elo with its interval the way
// Verdict does: "+32.1 ± 15.6 Elo", the "±" figure being half the width of
// the (asymmetric) interval as fastchess and fishtest print it, or, when
// the estimate or an end of the interval is infinite, the interval
// explicitly: "+inf Elo [+140.6, +inf]".
func FormatEloInterval(e Estimate) string {
	if math.IsInf(e.Elo, 0) || math.IsInf(e.EloLow, 0) || math.IsInf(e.EloHigh, 0) {
		return fmt.Sprintf("%s Elo [%s, %s]", FormatSigned(e.Elo, 1), FormatSigned(e.EloLow, 1), FormatSigned(e.EloHigh, 1))
	}
	return fmt.Sprintf("%s ± %s Elo", FormatSigned(e.Elo, 1), FormatFloat(e.HalfWidth(), 1))
}
