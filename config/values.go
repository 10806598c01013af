package config

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// table is one decoded TOML table with its key path. Its getters report a
// wrong type as a config error and return ok = false; an absent key also
// gives ok = false, without an error (use has to tell them apart).
type table struct {
	p    *parser
	path string
	m    map[string]any
}

func (t *table) key(k string) string { return join(t.path, k) }

func (t *table) has(k string) bool {
	_, ok := t.m[k]
	return ok
}

func (t *table) errf(k, format string, args ...any) {
	t.p.errf(t.key(k), format, args...)
}

// typeName describes a decoded TOML value for error messages.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "float"
	case bool:
		return "boolean"
	case map[string]any:
		return "table"
	case []map[string]any:
		return "array of tables"
	case []any:
		return "array"
	}
	return "datetime"
}

// describe renders a decoded value for "got ..." in messages.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return "string " + strconv.Quote(x)
	case int64, float64, bool:
		return fmt.Sprintf("%s %v", typeName(v), x)
	}
	return typeName(v)
}

func (t *table) wrongType(k, want string) {
	t.errf(k, "want %s, got %s", want, describe(t.m[k]))
}

func (t *table) str(k string) (string, bool) {
	v, ok := t.m[k]
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		t.wrongType(k, "a string")
	}
	return s, ok
}

// integer returns an integer value within lo..hi.
func (t *table) integer(k string, lo, hi int64) (int64, bool) {
	v, ok := t.m[k]
	if !ok {
		return 0, false
	}
	n, ok := v.(int64)
	if !ok {
		t.wrongType(k, "an integer")
		return 0, false
	}
	if n < lo || n > hi {
		t.errf(k, "%d is out of range: want %s", n, rangeText(lo, hi, n > hi))
		return 0, false
	}
	return n, true
}

// rangeText is lo..hi, or ">= lo" for a value below a bound too large to
// matter to it.
func rangeText(lo, hi int64, above bool) string {
	if hi >= math.MaxInt32 && !above {
		return fmt.Sprintf(">= %d", lo)
	}
	return fmt.Sprintf("%d..%d", lo, hi)
}

// number returns a float or integer value as a float64.
func (t *table) number(k string) (float64, bool) {
	v, ok := t.m[k]
	if !ok {
		return 0, false
	}
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.errf(k, "want a finite number, got %v", x)
			return 0, false
		}
		return x, true
	case int64:
		return float64(x), true
	}
	t.wrongType(k, "a number")
	return 0, false
}

// duration returns a Go duration string such as "100ms" or "10s", >= 0.
func (t *table) duration(k string) (time.Duration, bool) {
	v, ok := t.m[k]
	if !ok {
		return 0, false
	}
	s, ok := v.(string)
	if !ok {
		t.wrongType(k, `a duration string such as "100ms" or "10s"`)
		return 0, false
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		t.errf(k, `%q is not a duration (want a number with a unit: "ms", "s", "m", "h", such as "100ms" or "10s")`, s)
		return 0, false
	}
	if d < 0 {
		t.errf(k, "%q is negative", s)
		return 0, false
	}
	if d > maxDuration {
		t.errf(k, "%q is out of range: want at most %v (a year)", s, maxDuration)
		return 0, false
	}
	return d, true
}

// maxDuration bounds every duration of a config (movetime, time_margin,
// move_timeout, init_timeout, a time control's time and increment), so that
// the sums the runner makes of them never overflow.
const maxDuration = 365 * 24 * time.Hour

// stringList returns an array of strings.
func (t *table) stringList(k string) ([]string, bool) {
	v, ok := t.m[k]
	if !ok {
		return nil, false
	}
	arr, ok := v.([]any)
	if !ok {
		t.wrongType(k, "an array of strings")
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			t.p.errf(fmt.Sprintf("%s[%d]", t.key(k), i), "want a string, got %s", describe(e))
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// sub returns a nested table.
func (t *table) sub(k string) (*table, bool) {
	v, ok := t.m[k]
	if !ok {
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.wrongType(k, "a table")
		return nil, false
	}
	return &table{p: t.p, path: t.key(k), m: m}, true
}

// scalarText converts an integer, float, boolean or string to text: integers
// in decimal, floats without exponent ("0.5", "1000000").
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", false
		}
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// unknown reports every key of t not in valid, with a suggestion and the
// list of valid keys. extra, if not nil, explains keys that are valid
// elsewhere (e.g. a switch on an external engine) and returns "" otherwise.
func (t *table) unknown(valid []string, extra func(k string) string) {
	for _, k := range sortedKeys(t.m) {
		if slices.Contains(valid, k) {
			continue
		}
		if extra != nil {
			if msg := extra(k); msg != "" {
				t.errf(k, "%s", msg)
				continue
			}
		}
		hint := ""
		if s := didYouMean(k, valid); s != "" {
			hint = fmt.Sprintf("did you mean %q? ", s)
		}
		t.errf(k, "unknown key (%svalid keys: %s)", hint, strings.Join(valid, ", "))
	}
}

// checkName checks a name that is printed in reports, PGN tags and logs:
// non-empty, no leading or trailing space, only printable characters (no
// control or format characters such as newlines, tabs or bidi overrides).
func checkName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty name")
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("name %q has leading or trailing space", s)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("name %q contains the non-printable character %U", s, r)
		}
	}
	return nil
}
