package config

import (
	"strings"
	"testing"
)

const engABC = engAB

// koTourn is a tournament of a, b and c with more keys and a limit.
func koTourn(extra string) string {
	return "\n[[tournament]]\nname = \"ko\"\nengines = [\"a\", \"b\", \"c\"]\n" + extra + "\n" + limits
}

func TestKnockoutSettings(t *testing.T) {
	f := mustLoad(t, engABC+`
[[tournament]]
name = "ko"
engines = ["a", "b", "c"]
format = "knockout"
knockout = { games = 4, seeds = 2 }
[tournament.limits]
nodes = 100
`, nil)
	tr := f.Tournaments[0]
	if tr.Format != FormatKnockout || tr.Knockout != (Knockout{Games: 4, Seeds: 2}) {
		t.Fatalf("format %q, knockout %+v", tr.Format, tr.Knockout)
	}
	snap, err := tr.Snapshot(f)
	if err != nil || snap.Knockout == nil || snap.Knockout.Games != 4 || snap.Knockout.Seeds != 2 {
		t.Fatalf("snapshot knockout %+v (%v)", snap.Knockout, err)
	}
	// Defaults: one game pair per encounter, no seeds.
	f = mustLoad(t, engABC+koTourn(`format = "knockout"`), nil)
	if k := f.Tournaments[0].Knockout; k != (Knockout{Games: 2}) {
		t.Fatalf("default knockout %+v", k)
	}
}

func TestKnockoutErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`format = "knockout"
knockout = { games = 3 }`, `knockout.games: 3 is odd`},
		{`format = "knockout"
knockout = { games = 0 }`, `knockout.games: 0 is out of range`},
		{`format = "knockout"
knockout = { seeds = 4 }`, `knockout.seeds: 4 is out of range: want 0..3`},
		{`format = "knockout"
knockout = { byes = 1 }`, `knockout.byes: unknown key`},
		{`format = "knockout"
rounds = 2`, `rounds: a knockout has no rounds to repeat`},
		{`format = "round-robin"
knockout = { games = 2 }`, `knockout: applies only to format = "knockout"`},
		{`format = "knockout"
noswap = true`, `noswap: a knockout's encounters are game pairs with both colours`},
		{`format = "knockout"
reverse = false`, `reverse: a knockout's encounters are game pairs with both colours`},
		{`format = "knockout"
games_per_opening = 1`, `games_per_opening: a knockout's encounters are game pairs with both colours`},
	} {
		_, _, err := load(t, engABC+koTourn(c.body), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.body, err, c.want)
		}
	}
}
