package runner

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"selfplay/internal/golden"
	"selfplay/standings"
	"selfplay/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// matchStatus is a match in progress: 25 games, 12 complete pairs, with an
// SPRT when sprt is set.
func matchStatus(t *testing.T, sprt bool) status {
	t.Helper()
	pt := &standings.PairingTally{First: "nmr-r3-4:dr=2", Second: "adaptive-r2-3",
		Games: stats.Trinomial{Wins: 12, Losses: 6, Draws: 7},
		Pairs: stats.Pentanomial{LL: 1, LD: 1, DD: 3, WD: 4, WW: 3}}
	e, err := pt.Estimate(stats.DefaultLevel)
	if err != nil {
		t.Fatal(err)
	}
	s := status{name: "nmr-vs-adaptive", games: 25, total: 800, elapsed: 4*time.Minute + 34*time.Second,
		eta: 2*time.Hour + 13*time.Minute + 5*time.Second, match: pt, estimate: &e}
	if sprt {
		s.sprt = &stats.SPRTResult{LLR: 1.2134, Lower: -2.944, Upper: 2.944}
	}
	return s
}

// roundRobinStatus is a round robin of four engines in progress.
func roundRobinStatus() status {
	ps := []*standings.PairingTally{
		{First: "std-r2", Second: "std-r3", Games: stats.Trinomial{Wins: 5, Losses: 2, Draws: 3}},
		{First: "std-r2", Second: "nmr-r3-4", Games: stats.Trinomial{Wins: 2, Losses: 6, Draws: 2}},
		{First: "std-r3", Second: "nmr-r3-4", Games: stats.Trinomial{Wins: 3, Losses: 4, Draws: 3}},
		{First: "std-r2", Second: "verified", Games: stats.Trinomial{Wins: 4, Losses: 4, Draws: 1}},
	}
	return status{name: "null-move-round-robin", games: 39, total: 1050, elapsed: 95 * time.Second,
		eta: 41 * time.Minute, standings: standingsOf(ps)}
}

func TestProgressLineWidths(t *testing.T) {
	cases := []struct {
		name   string
		status func(t *testing.T) status
	}{
		{"match", func(t *testing.T) status { return matchStatus(t, false) }},
		{"sprt", func(t *testing.T) status { return matchStatus(t, true) }},
		{"round-robin", func(t *testing.T) status { return roundRobinStatus() }},
		{"start", func(t *testing.T) status {
			return status{name: "fhr-vs-plain", total: 50, eta: -1, elapsed: time.Second}
		}},
	}
	var got strings.Builder
	for _, c := range cases {
		s := c.status(t)
		full := progressLine(s, 0)
		for _, width := range []int{0, 40, 80, 120, 200} {
			line := progressLine(s, width)
			fmt.Fprintf(&got, "%s %d: %s\n", c.name, width, line)
			if width > 0 && utf8.RuneCountInString(line) > width {
				t.Errorf("%s at %d columns: %d columns: %q", c.name, width, utf8.RuneCountInString(line), line)
			}
			if utf8.RuneCountInString(full) <= width && line != full {
				t.Errorf("%s at %d columns: %q, want the whole line %q", c.name, width, line, full)
			}
			// The count of games is the last field to go.
			if width >= 40 && !strings.Contains(line, fmt.Sprintf("%d/%d", s.games, s.total)) {
				t.Errorf("%s at %d columns: no games count in %q", c.name, width, line)
			}
		}
	}
	golden.Check(t, "progress-lines.txt", got.String(), *update)
}

// A line too wide even in its shortest form is cut, never wider than asked.
func TestProgressLineTiny(t *testing.T) {
	s := matchStatus(t, true)
	for width := 1; width < 40; width++ {
		if n := utf8.RuneCountInString(progressLine(s, width)); n > width {
			t.Errorf("width %d: %d columns", width, n)
		}
	}
}

func TestStandingsOrder(t *testing.T) {
	st := roundRobinStatus().standings
	var got []string
	for _, s := range st {
		got = append(got, fmt.Sprintf("%s %g/%d", s.name, s.points, s.games))
	}
	// By points per game: nmr-r3-4 7/10 + 5.5/10 = 12.5/20 (62.5%),
	// verified 4.5/9 (50%), std-r2 6.5/10 + 3/10 + 4.5/9 = 14/29 (48.3%),
	// std-r3 3.5/10 + 4.5/10 = 8/20 (40%).
	want := "nmr-r3-4 12.5/20, verified 4.5/9, std-r2 14/29, std-r3 8/20"
	if strings.Join(got, ", ") != want {
		t.Errorf("standings %q, want %q", strings.Join(got, ", "), want)
	}
}

// Before any pair is complete the Elo is the games' trinomial estimate,
// and the line says so.
func TestProgressLineTrinomialBeforePairs(t *testing.T) {
	pt := &standings.PairingTally{First: "fhr", Second: "plain", Games: stats.Trinomial{Draws: 1}}
	e, err := pt.Estimate(stats.DefaultLevel)
	if err != nil {
		t.Fatal(err)
	}
	s := status{name: "m", games: 1, total: 50, eta: -1, match: pt, estimate: &e}
	if line := progressLine(s, 0); !strings.Contains(line, "Elo (trinomial, no pair complete)") {
		t.Errorf("line %q does not say the Elo is trinomial", line)
	}
}
