package suite

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"selfplay/engines"
	"selfplay/engines/search"
)

// Kind is what limits each search of a run.
type Kind string

// The three kinds of limit.
const (
	Nodes    Kind = "nodes"    // a hard node budget per search
	Depth    Kind = "depth"    // a fixed iteration depth
	MoveTime Kind = "movetime" // a fixed time per search, in milliseconds
)

// Limits bounding the budgets a run accepts.
const (
	maxBudgets = 64               // budgets in one run
	maxNodes   = int64(1) << 50   // one node budget
	maxDepth   = search.MaxDepth  // the search's own iteration cap
	maxExp     = 50               // the exponent in BASEx2^E
	minMove    = time.Millisecond // smallest -movetime
	maxMove    = 24 * time.Hour   // largest -movetime
	rangeSep   = ".."             // 4..8, 2^1..10
	powMarker  = "2^"             // 2700x2^3
	mulSymbols = "x*X×"           // 2700x2^3, 2700*2^3
)

// Plan is the list of budgets of a run, ascending and distinct; each
// position is searched once per variant and budget, from scratch.
type Plan struct {
	Kind   Kind
	Values []int64 // nodes, plies, or milliseconds (MoveTime)
	Spec   string  // the flag text it was parsed from, for headers
}

// Limits returns the search limits of budget v.
func (p Plan) Limits(v int64) engines.Limits {
	switch p.Kind {
	case Nodes:
		return engines.Limits{Nodes: v}
	case Depth:
		return engines.Limits{Depth: int(v)}
	default:
		return engines.Limits{MoveTime: time.Duration(v) * time.Millisecond}
	}
}

// Format writes budget v for tables: "5400", "8", "5s".
func (p Plan) Format(v int64) string {
	if p.Kind == MoveTime {
		return (time.Duration(v) * time.Millisecond).String()
	}
	return strconv.FormatInt(v, 10)
}

// ParseNodes parses a -nodes value: a comma-separated list whose items are a
// number (5400), a power of two times a base (2700x2^3 = 21600) or a range
// of exponents (2700x2^1..10 = 5400, 10800, ..., 2764800, the FHR paper's
// Table 1 budgets). Without a base, 2^E means 1x2^E. The result is sorted;
// a budget given twice is an error.
func ParseNodes(s string) (Plan, error) {
	items, err := splitList("-nodes", s)
	if err != nil {
		return Plan{}, err
	}
	var vals []int64
	for _, it := range items {
		vs, err := parseNodeItem(it)
		if err != nil {
			return Plan{}, fmt.Errorf("-nodes %q: %w", it, err)
		}
		vals = append(vals, vs...)
	}
	vals, err = finish("-nodes", vals)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Kind: Nodes, Values: vals, Spec: s}, nil
}

func parseNodeItem(it string) ([]int64, error) {
	i := strings.Index(it, powMarker)
	if i < 0 {
		n, err := parsePositive(it, maxNodes)
		if err != nil {
			return nil, err
		}
		return []int64{n}, nil
	}
	base := int64(1)
	if head := it[:i]; head != "" {
		r, size := utf8.DecodeLastRuneInString(head)
		if !strings.ContainsRune(mulSymbols, r) {
			return nil, errors.New(`want BASEx2^E or BASEx2^A..B, e.g. 2700x2^1..10`)
		}
		b, err := parsePositive(head[:len(head)-size], maxNodes)
		if err != nil {
			return nil, fmt.Errorf("base: %w", err)
		}
		base = b
	}
	lo, hi, err := parseRange(it[i+len(powMarker):], 0, maxExp)
	if err != nil {
		return nil, fmt.Errorf("exponent: %w", err)
	}
	var out []int64
	for e := lo; e <= hi; e++ {
		if base > maxNodes>>e {
			return nil, fmt.Errorf("%dx2^%d is more than the largest budget %d", base, e, maxNodes)
		}
		out = append(out, base<<e)
	}
	return out, nil
}

// ParseDepths parses a -depth value: a comma-separated list of depths and
// ranges (4..8 = 4, 5, 6, 7, 8), sorted, each in 1..maxDepth.
func ParseDepths(s string) (Plan, error) {
	items, err := splitList("-depth", s)
	if err != nil {
		return Plan{}, err
	}
	var vals []int64
	for _, it := range items {
		lo, hi, err := parseRange(it, 1, maxDepth)
		if err != nil {
			return Plan{}, fmt.Errorf("-depth %q: %w", it, err)
		}
		for d := lo; d <= hi; d++ {
			vals = append(vals, int64(d))
		}
	}
	vals, err = finish("-depth", vals)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Kind: Depth, Values: vals, Spec: s}, nil
}

// ParseMoveTime parses a -movetime value: one Go duration (5s, 500ms), at
// least 1ms, kept to the millisecond.
func ParseMoveTime(s string) (Plan, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return Plan{}, fmt.Errorf("-movetime %q: want one duration like 5s or 500ms", s)
	}
	if d < minMove || d > maxMove {
		return Plan{}, fmt.Errorf("-movetime %q: want between %v and %v", s, minMove, maxMove)
	}
	return Plan{Kind: MoveTime, Values: []int64{d.Milliseconds()}, Spec: s}, nil
}

func splitList(flag, s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("%s: empty list", flag)
	}
	var items []string
	for _, it := range strings.Split(s, ",") {
		it = strings.TrimSpace(it)
		if it == "" {
			return nil, fmt.Errorf("%s %q: empty item in the list", flag, s)
		}
		items = append(items, it)
	}
	return items, nil
}

// finish sorts the budgets and rejects duplicates and overlong lists.
func finish(flag string, vals []int64) ([]int64, error) {
	if len(vals) > maxBudgets {
		return nil, fmt.Errorf("%s: %d budgets, at most %d", flag, len(vals), maxBudgets)
	}
	slices.Sort(vals)
	for i := 1; i < len(vals); i++ {
		if vals[i] == vals[i-1] {
			return nil, fmt.Errorf("%s: %d is given twice", flag, vals[i])
		}
	}
	return vals, nil
}

// parseRange parses "N" or "A..B" with lo <= A <= B <= hi.
func parseRange(s string, lo, hi int) (int, int, error) {
	a, b, isRange := strings.Cut(s, rangeSep)
	x, err := parseBounded(a, lo, hi)
	if err != nil {
		return 0, 0, err
	}
	if !isRange {
		return x, x, nil
	}
	y, err := parseBounded(b, lo, hi)
	if err != nil {
		return 0, 0, err
	}
	if y < x {
		return 0, 0, fmt.Errorf("range %d..%d runs backwards", x, y)
	}
	return x, y, nil
}

func parseBounded(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		if s == "" {
			return 0, errors.New("missing number")
		}
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%d is out of range %d..%d", n, lo, hi)
	}
	return n, nil
}

func parsePositive(s string, hi int64) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if s == "" {
			return 0, errors.New("missing number")
		}
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	if n < 1 || n > hi {
		return 0, fmt.Errorf("%d is out of range 1..%d", n, hi)
	}
	return n, nil
}
