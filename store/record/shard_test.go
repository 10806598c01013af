package record

import "testing"

// The shares of N shards are disjoint and together the whole schedule;
// Pairs keeps the first pairs of each share.
func TestShardShares(t *testing.T) {
	for _, total := range []int{0, 1, 7, 25, 64} {
		for _, n := range []int{1, 2, 3, 4, 16, 100} {
			for _, k := range []int{0, 1, 3} {
				owner := make([]int, total)
				count := 0
				for i := 0; i < n; i++ {
					sh := Shard{Index: i, Count: n, Pairs: k}
					in := 0
					for p := 0; p < total; p++ {
						if sh.Contains(p) {
							owner[p]++
							in++
						}
					}
					if got := sh.PairsOf(total); got != in {
						t.Errorf("%+v: PairsOf(%d) = %d, Contains says %d", sh, total, got, in)
					}
					count += in
				}
				for p, o := range owner {
					want := 1
					if k > 0 && p/n >= k {
						want = 0
					}
					if o != want {
						t.Errorf("total %d, %d shards, pairs %d: pair %d in %d shares, want %d", total, n, k, p, o, want)
					}
				}
			}
		}
	}
	tests := []struct {
		s      Shard
		whole  bool
		covers bool // of 25 pairs
		text   string
	}{
		{Shard{}, true, true, "all pairs"},
		{Shard{Count: 1}, true, true, "all pairs"},
		{Shard{Count: 1, Pairs: 30}, false, true, "first 30 pairs"},
		{Shard{Count: 1, Pairs: 10}, false, false, "first 10 pairs"},
		{Shard{Index: 3, Count: 16}, false, false, "shard 3 of 16"},
		{Shard{Index: 3, Count: 16, Pairs: 2}, false, false, "shard 3 of 16, first 2 pairs of its share"},
	}
	for _, tt := range tests {
		if tt.s.Whole() != tt.whole || tt.s.Covers(25) != tt.covers || tt.s.String() != tt.text {
			t.Errorf("%+v: Whole %v, Covers(25) %v, %q", tt.s, tt.s.Whole(), tt.s.Covers(25), tt.s.String())
		}
	}
	for _, bad := range []Shard{{Index: 2, Count: 2}, {Index: -1, Count: 2}, {Count: -1}, {Pairs: -1}, {Index: 1}} {
		if bad.Validate() == nil {
			t.Errorf("%+v: valid", bad)
		}
	}
}
