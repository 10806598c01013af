package engines

import "testing"

// The score encoding is what stored games and the search share: mates by
// their distance in plies, printed in pawns for PGN and as cp/mate for UCI.
func TestScoreFormats(t *testing.T) {
	for _, c := range []struct {
		s     Score
		mate  bool
		pawns string
		uci   string
	}{
		{0, false, "0.00", "cp 0"},
		{31, false, "+0.31", "cp 31"},
		{-1, false, "-0.01", "cp -1"},
		{-250, false, "-2.50", "cp -250"},
		{MateBound - 1, false, "+318.71", "cp 31871"},
		{MateIn(1), true, "+M1", "mate 1"},
		{MateIn(3), true, "+M5", "mate 3"},
		{MateIn(-2), true, "-M4", "mate -2"},
		{MateBound, true, "+M128", "mate 64"},
		{-MateBound, true, "-M128", "mate -64"},
		{Mate, true, "-M0", "mate 0"},
		{-Mate, true, "-M0", "mate 0"},
	} {
		if got := c.s.IsMate(); got != c.mate {
			t.Errorf("Score(%d).IsMate() = %v, want %v", c.s, got, c.mate)
		}
		if got := c.s.Pawns(); got != c.pawns {
			t.Errorf("Score(%d).Pawns() = %q, want %q", c.s, got, c.pawns)
		}
		if got := c.s.UCI(); got != c.uci {
			t.Errorf("Score(%d).UCI() = %q, want %q", c.s, got, c.uci)
		}
	}
}

// MateMoves is the inverse of MateIn over every distance the search can
// report.
func TestMateInRoundTrip(t *testing.T) {
	for n := -MaxPly / 2; n <= MaxPly/2; n++ {
		if n == 0 {
			continue
		}
		s := MateIn(n)
		if !s.IsMate() || s.MateMoves() != n {
			t.Errorf("MateIn(%d) = %d: IsMate %v, MateMoves %d", n, s, s.IsMate(), s.MateMoves())
		}
	}
}
