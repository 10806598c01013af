package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"selfplay/config/snapshot"
)

// Error is one problem in a config file. Its text is
//
//	FILE: KEY: REASON         (a bad value)
//	FILE:LINE:COL: REASON     (a TOML syntax error)
type Error struct {
	File string // the config file as given to Load or Parse
	Key  string // key path such as "tournament[1].limits.nodes"; empty for syntax errors
	Line int    // syntax errors: line from 1; 0 otherwise
	Col  int    // syntax errors: column from 1; 0 when unknown
	Msg  string
	Err  error // the underlying error (openings, search, toml), if any
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.Key != "" && e.File == "": // a config from arguments (ParseMatch): Key names the argument
		return fmt.Sprintf("%s: %s", e.Key, e.Msg)
	case e.Key != "":
		return fmt.Sprintf("%s: %s: %s", e.File, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Errors is every problem found in a config file, in the order of the file
// (engines, then tournaments). Parse returns a non-empty Errors as its error;
// use errors.As to get at the individual problems.
type Errors []*Error

// maxShown bounds the problems printed by Errors.Error.
const maxShown = 25

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i == maxShown {
			fmt.Fprintf(&b, "\n... and %d more problems", len(es)-maxShown)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap gives errors.Is and errors.As access to every problem.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// keyPart and join name keys as the stored snapshot's diff does.
func keyPart(k string) string { return snapshot.KeyPart(k) }

func join(path, key string) string { return snapshot.JoinKey(path, key) }

// quoteList renders names as `"a", "b", "c"`.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// didYouMean returns the valid name closest to s when it is close enough to
// be a likely typo, else "".
func didYouMean(s string, valid []string) string {
	best, bestD := "", 0
	ls := strings.ToLower(s)
	for _, v := range valid {
		lv := strings.ToLower(v)
		d := editDistance(ls, lv)
		if ls == lv {
			d = 0
		}
		limit := 2
		switch {
		case len(v) <= 2 || len(s) <= 2:
			limit = 0 // "a" is one edit from "b": no guess
		case len(v) <= 4:
			limit = 1
		}
		if d <= limit && (best == "" || d < bestD) {
			best, bestD = v, d
		}
	}
	if best == "" {
		// "node" for "nodes", "openings_file" for "file", ...
		for _, v := range valid {
			if len(v) >= 3 && len(s) >= 3 && (strings.HasPrefix(v, ls) || strings.HasPrefix(ls, v)) {
				return v
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b (bytes; the names
// compared are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// sortedKeys returns the keys of m in sorted order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
