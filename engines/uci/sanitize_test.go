package uci

import "testing"

func TestSanitize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"info string ok", "info string ok"},
		{"Stockfish 16 by the Stockfish developers (see AUTHORS file)", "Stockfish 16 by the Stockfish developers (see AUTHORS file)"},
		{"tab\there", "tab here"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"bell\a nul\x00 del\x7f cr\r", `bell\x07 nul\x00 del\x7f cr\x0d`},
		{"bad \xff\xfe utf-8", "bad \ufffd\ufffd utf-8"},
		{"cut \xe2\x82", "cut \ufffd\ufffd"},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`},
		{"bidi \u202eevil\u202c \u2066x\u2069 \u200f", `bidi \u202eevil\u202c \u2066x\u2069 \u200f`},
		{"lines \u2028\u2029", `lines \u2028\u2029`},
		{"Schachprogramm Küchenmeister ♞ 象棋", "Schachprogramm Küchenmeister ♞ 象棋"},
	}
	for _, c := range cases {
		if got := sanitize(c.in); got != c.want {
			t.Errorf("sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := sanitize(sanitize(c.in)); got != sanitize(c.in) {
			t.Errorf("sanitize is not idempotent on %q", c.in)
		}
	}
	if n := testing.AllocsPerRun(100, func() { sanitize("info depth 12 score cp 31 pv e2e4 e7e5") }); n != 0 {
		t.Errorf("sanitize of printable ASCII allocates %v times", n)
	}
}

func TestExcerpt(t *testing.T) {
	t.Parallel()
	long := ""
	for len(long) < 1000 {
		long += "é"
	}
	got := excerpt(long)
	if len(got) > maxExcerpt+10 || got[len(got)-3:] != "..." {
		t.Errorf("excerpt of %d bytes = %d bytes %q", len(long), len(got), got)
	}
	if got := excerpt("bestmove xyzzy"); got != `"bestmove xyzzy"` {
		t.Errorf("excerpt = %s", got)
	}
	// A sanitized line is quoted as it is: its escapes are not escaped
	// again.
	if got := excerpt(sanitize("\x1b[31mred \u202e")); got != `"\x1b[31mred \u202e"` {
		t.Errorf("excerpt = %s, want the escapes once", got)
	}
	if _, err := parseBestMove([]string{sanitize("\x1b[2J")}); err == nil || err.Error() != `bestmove "\x1b[2J" is not a move` {
		t.Errorf("parseBestMove: %v, want the escapes once", err)
	}
}
