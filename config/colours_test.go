package config

import (
	"strings"
	"testing"
)

// start, games_per_opening, noswap and reverse at their defaults leave the
// snapshot byte for byte as before; set, each is in it; bad values are
// errors naming the key.
func TestScheduleKeys(t *testing.T) {
	conf := func(tournament, openings string) string {
		return engAB + `
[[tournament]]
name = "m"
engines = ["a", "b"]
rounds = 2
` + tournament + `
[tournament.openings]
set = "fhr25"
` + openings + `
[tournament.limits]
nodes = 1000
`
	}
	base := snapshots(t, conf("", ""), nil)[0]
	cases := []struct {
		tournament, openings string
		snapshot             string // in the snapshot; "": the default's snapshot
	}{
		{"", "start = 1\n", ""},
		{"games_per_opening = 2\nnoswap = false\nreverse = false\n", "", ""},
		{"", "start = 7\n", `"sha256"`},
		{"", "start = 7\n", `"start":7}`},
		{"games_per_opening = 1\n", "", `"games_per_opening":1,`},
		{"noswap = true\n", "", `"noswap":true,`},
		{"reverse = true\n", "", `"reverse":true,`},
		{"", `order = "fastchess-random"` + "\n", `"order":"fastchess-random"`},
		{`schedule = "selfplay"` + "\n", "", ""},
		{`schedule = "fastchess"` + "\n", "", `"rounds":2,"schedule":"fastchess",`},
	}
	for _, c := range cases {
		s := snapshots(t, conf(c.tournament, c.openings), nil)[0]
		switch {
		case c.snapshot == "" && s != base:
			t.Errorf("%q %q: snapshot\n%s\nwant the default's\n%s", c.tournament, c.openings, s, base)
		case c.snapshot == `"sha256"` && strings.Contains(s, c.snapshot):
			t.Errorf("%q: a built-in set has no sha256: %s", c.openings, s)
		case c.snapshot != "" && c.snapshot != `"sha256"` && !strings.Contains(s, c.snapshot):
			t.Errorf("%q %q: snapshot\n%s\nwant %s", c.tournament, c.openings, s, c.snapshot)
		}
	}
	f := mustLoad(t, conf("games_per_opening = 1\nnoswap = true\nreverse = true\n", "start = 30\n"), nil)
	if tr := f.Tournaments[0]; !tr.OneGamePerOpening || !tr.NoSwap || !tr.Reverse || tr.Openings.Offset != 29 || tr.Schedule != ScheduleSelfplay {
		t.Errorf("decoded %+v", tr)
	}
	// fastchess's schedule: one opening per pairing and round, whatever
	// the book's size (2 rounds x 1 pairing x 2 colours).
	f = mustLoad(t, conf(`schedule = "fastchess"`+"\n", ""), nil)
	if tr := f.Tournaments[0]; tr.Schedule != ScheduleFastchess || tr.Games(len(tr.Openings.List)) != 4 {
		t.Errorf("schedule fastchess: decoded %q, %d games; want fastchess, 4", tr.Schedule, tr.Games(len(tr.Openings.List)))
	}
	bad := []struct{ tournament, openings, want string }{
		{"games_per_opening = 3\n", "", "games_per_opening"},
		{"noswap = 1\n", "", "noswap"},
		{"", "start = 0\n", "start"},
		// 25 openings x 1 round is an odd number of games.
		{"games_per_opening = 1\nrounds = 1\n", "", "odd number of games"},
		{`schedule = "cutechess"` + "\n", "", `unknown value "cutechess"`},
		{`schedule = "fastchess"` + "\ngames_per_opening = 1\n", "", "plays game pairs"},
		{`schedule = "fastchess"` + "\n", `order = "random"` + "\n", "shuffles the openings once"},
	}
	for _, b := range bad {
		text := strings.Replace(conf(b.tournament, b.openings), "rounds = 2\n", "", strings.Count(b.tournament, "rounds"))
		if _, _, err := load(t, text, nil); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%q %q: %v, want an error with %q", b.tournament, b.openings, err, b.want)
		}
	}
}
