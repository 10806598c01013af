package report

import (
	"strconv"
	"time"

	"selfplay/stats"
)

// elo prints an Elo figure with one decimal and a sign ("+32.1", "-inf").
func elo(x Float) string { return stats.FormatSigned(float64(x), 1) }

// ratingText prints a rating of t's table: signed, as a difference from the
// anchor rated 0, or unsigned on the scale of a RatingOffset, as Ordo
// prints ratings around its -a.
func ratingText(t Tournament, x Float) string {
	if t.RatingOffset == 0 {
		return elo(x)
	}
	return stats.FormatFloat(float64(x), 1)
}

// ratingInterval prints the bounds of a rating of t's table, as ratingText.
func ratingInterval(t Tournament, low, high Float) string {
	return "[" + ratingText(t, low) + ", " + ratingText(t, high) + "]"
}

// anchorText says what t's ratings are relative to: "sf-2000 = 2000", or
// with no anchor engine, average (the caller's word for it) "= 0".
func anchorText(t Tournament, average string) string {
	who := average
	if t.RatingAnchor != "" {
		who = t.RatingAnchor
	}
	return who + " = " + strconv.FormatFloat(float64(t.RatingOffset), 'f', -1, 64)
}

// interval prints a two-sided interval of Elo figures.
func interval(low, high Float) string { return "[" + elo(low) + ", " + elo(high) + "]" }

// errorText prints the half-width of an interval, or "----" when it is
// unbounded or zero (an anchor), as Ordo prints it.
func errorText(half Float) string {
	if !finite(float64(half)) || half <= 0 {
		return "----"
	}
	return stats.FormatFloat(float64(half), 1)
}

// points prints a score in half points without trailing zeros: "31.5", "34".
func points(x Float) string { return strconv.FormatFloat(float64(x), 'f', -1, 64) }

// percent prints a fraction as a percentage with one decimal.
func percent(x Float) string { return stats.FormatFloat(100*float64(x), 1) + "%" }

// probability prints a probability such as LOS as a percentage, never
// rounding one short of certainty to "100.0%" or "0.0%".
func probability(p Float) string { return stats.FormatPercent(float64(p)) }

// fixed prints x with prec decimals.
func fixed(x Float, prec int) string { return stats.FormatFloat(float64(x), prec) }

// timestamp prints a time in UTC to the second.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

// itoa is strconv.Itoa, short for the many counts in tables.
func itoa(n int) string { return strconv.Itoa(n) }
