package runner

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The plan and interruption lines fit an 80-column terminal: each part on a
// line of its own, broken at spaces where longer, continuations indented.
func TestPrintBroken(t *testing.T) {
	long := strings.Repeat("x", 90)
	cases := []struct {
		parts []string
		want  string
	}{
		{[]string{"fhr-vs-plain: fhr vs plain, 450000 nodes per move, concurrency 2,",
			"50 games (25 openings x 1 pairings x 2 colors x 1 rounds)"},
			"fhr-vs-plain: fhr vs plain, 450000 nodes per move, concurrency 2,\n" +
				"  50 games (25 openings x 1 pairings x 2 colors x 1 rounds)\n"},
		{[]string{"fhr-vs-plain-a651de42: interrupted with 26 of 50 games stored;", "run the same command again to resume"},
			"fhr-vs-plain-a651de42: interrupted with 26 of 50 games stored;\n  run the same command again to resume\n"},
		{[]string{"null-move-round-robin: round robin of null-r1, null-r2, null-r3, null-r4, adaptive-r2-3, verified-r3, nmr-r3-4, 450000 nodes per move, concurrency 2,",
			"1050 games (25 openings x 21 pairings x 2 colors x 1 rounds)"},
			"null-move-round-robin: round robin of null-r1, null-r2, null-r3, null-r4,\n" +
				"  adaptive-r2-3, verified-r3, nmr-r3-4, 450000 nodes per move, concurrency 2,\n" +
				"  1050 games (25 openings x 21 pairings x 2 colors x 1 rounds)\n"},
		{[]string{"t: " + long + " end"}, "t:\n  " + long + "\n  end\n"},
	}
	for _, c := range cases {
		var b strings.Builder
		printBroken(&b, c.parts...)
		if b.String() != c.want {
			t.Errorf("printBroken(%q) =\n%s\nwant\n%s", c.parts, b.String(), c.want)
		}
		for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if n := utf8.RuneCountInString(line); n > lineWidth && !strings.Contains(line, long) {
				t.Errorf("line of %d columns: %q", n, line)
			}
		}
	}
}
