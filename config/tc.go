package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseTimeControl parses a cutechess-cli / fastchess time control
// "[moves/]time[+increment]":
//
//	"40/7200+0"  40 moves in 7200 s, no increment
//	"40/120"     40 moves in 2 minutes
//	"60+0.6"     60 s for the whole game plus 0.6 s per move
//	"300"        5 minutes for the whole game
//	"2:30+1"     time may be written minutes:seconds, as in cutechess
//
// Times are seconds, decimal fractions allowed. moves must be >= 0 (0, like
// no moves, means the whole game), time > 0, increment >= 0. "inf" is not
// supported: use a depth or node limit for unlimited time. Text keeps s
// without surrounding spaces.
func ParseTimeControl(s string) (*TimeControl, error) {
	text := strings.TrimSpace(s)
	if text == "" {
		return nil, fmt.Errorf(`empty time control (want "[moves/]seconds[+increment]", e.g. "40/7200+0" or "60+0.6")`)
	}
	if strings.HasPrefix(strings.ToLower(text), "inf") {
		return nil, fmt.Errorf("time control %q: infinite time is not supported; use a depth or nodes limit", text)
	}
	bad := func(format string, args ...any) (*TimeControl, error) {
		return nil, fmt.Errorf("time control %q: %s (want \"[moves/]seconds[+increment]\", e.g. \"40/7200+0\" or \"60+0.6\")", text, fmt.Sprintf(format, args...))
	}
	tc := &TimeControl{Text: text}
	rest := text
	if m, after, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || !isDigits(m) {
			return bad("moves %q is not a whole number", m)
		}
		tc.Moves = n
		rest = after
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	var err error
	if tc.Base, err = parseClockTime(base, true); err != nil {
		return bad("time: %v", err)
	}
	if tc.Base <= 0 {
		return bad("time must be > 0")
	}
	if hasInc {
		if tc.Increment, err = parseClockTime(inc, false); err != nil {
			return bad("increment: %v", err)
		}
	}
	return tc, nil
}

// parseClockTime parses seconds ("7200", "0.6", ".5") or, when minutes is
// true, also minutes:seconds ("2:30", "1:05.5").
func parseClockTime(s string, minutes bool) (time.Duration, error) {
	var mins int64
	if m, sec, ok := strings.Cut(s, ":"); ok && minutes {
		if !isDigits(m) {
			return 0, fmt.Errorf("minutes %q is not a whole number", m)
		}
		n, err := strconv.ParseInt(m, 10, 64)
		if err != nil || n > 1e8 {
			return 0, fmt.Errorf("minutes %q is too large", m)
		}
		mins, s = n, sec
	}
	if !isDecimal(s) {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	total := float64(mins)*60 + f
	if total*1e9 > float64(maxDuration) {
		return 0, fmt.Errorf("%q is too large: want at most %v (a year)", s, maxDuration)
	}
	return time.Duration(math.Round(total * 1e9)), nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isDecimal reports whether s is digits with an optional fraction: "12",
// "0.6", ".5", "3.".
func isDecimal(s string) bool {
	whole, frac, dot := strings.Cut(s, ".")
	if !dot {
		return isDigits(whole)
	}
	return (whole == "" || isDigits(whole)) && (frac == "" || isDigits(frac)) && whole+frac != ""
}

// canonicalTC writes tc as "moves/seconds+increment" (moves omitted when
// 0), so that equivalent spellings ("40/7200", "40/120:00", "40/7200+0") compare equal.
func canonicalTC(tc *TimeControl) string {
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	s := sec(tc.Base) + "+" + sec(tc.Increment)
	if tc.Moves > 0 {
		s = strconv.Itoa(tc.Moves) + "/" + s
	}
	return s
}
