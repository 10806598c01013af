package record

import "fmt"

// Shard is the part of a tournament's schedule that one database plays:
// the game pairs whose index is congruent to Index modulo Count, and of
// those at most the first Pairs (0: no limit). The zero value, like Count
// 1 with Pairs 0, is the whole tournament.
type Shard struct {
	Index int // 0 <= Index < Count
	Count int // 0 or 1: unsharded
	Pairs int // at most this many pairs of the residue class; 0: all
}

// Sharded reports whether the schedule is split across databases
// (Count > 1).
func (s Shard) Sharded() bool { return s.Count > 1 }

// Whole reports whether s is the whole tournament.
func (s Shard) Whole() bool { return !s.Sharded() && s.Pairs == 0 }

// Equal reports whether s and o are the same share (Count 0 and 1 are
// both unsharded).
func (s Shard) Equal(o Shard) bool {
	return s.Index == o.Index && s.count() == o.count() && s.Pairs == o.Pairs
}

// count is Count with the zero value read as 1.
func (s Shard) count() int { return max(s.Count, 1) }

// Contains reports whether the game pair of that index is in the share.
func (s Shard) Contains(pair int) bool {
	n := s.count()
	if pair < 0 || pair%n != s.Index {
		return false
	}
	return s.Pairs == 0 || pair/n < s.Pairs
}

// PairsOf returns how many of a schedule's totalPairs pairs are in the
// share.
func (s Shard) PairsOf(totalPairs int) int {
	n := s.count()
	if s.Index >= totalPairs {
		return 0
	}
	k := (totalPairs - s.Index + n - 1) / n
	if s.Pairs > 0 {
		k = min(k, s.Pairs)
	}
	return k
}

// Covers reports whether the share is the whole of a schedule of
// totalPairs pairs.
func (s Shard) Covers(totalPairs int) bool {
	return !s.Sharded() && s.PairsOf(totalPairs) == totalPairs
}

// Validate checks the ranges.
func (s Shard) Validate() error {
	switch {
	case s.Count < 0:
		return fmt.Errorf("shard count %d is negative", s.Count)
	case s.Index < 0 || s.Index >= s.count():
		return fmt.Errorf("shard index %d is outside 0..%d", s.Index, s.count()-1)
	case s.Pairs < 0:
		return fmt.Errorf("pairs limit %d is negative", s.Pairs)
	}
	return nil
}

// String describes the share: "shard 3 of 16", "shard 3 of 16, first 40
// pairs of its share", "first 40 pairs", "all pairs".
func (s Shard) String() string {
	switch {
	case s.Sharded() && s.Pairs > 0:
		return fmt.Sprintf("shard %d of %d, first %d pairs of its share", s.Index, s.Count, s.Pairs)
	case s.Sharded():
		return fmt.Sprintf("shard %d of %d", s.Index, s.Count)
	case s.Pairs > 0:
		return fmt.Sprintf("first %d pairs", s.Pairs)
	}
	return "all pairs"
}
