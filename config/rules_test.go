package config

import (
	"strings"
	"testing"
)

// rules = "selfplay" (the default) keeps the snapshot byte for byte;
// "fastchess" is recorded while a rule it changes is on, and lets
// resign_score be 0 (fastchess's default score, resign_adjudication.hpp:12);
// anything else is an error.
func TestAdjudicationRules(t *testing.T) {
	conf := func(adjudication string) string {
		return engAB + `
[[tournament]]
name = "m"
engines = ["a", "b"]

[tournament.limits]
nodes = 1000

[tournament.adjudication]
` + adjudication
	}
	const resign = "resign_score = 600\nresign_moves = 3\n"
	base := snapshots(t, conf(resign), nil)[0]
	if strings.Contains(base, "rules") {
		t.Errorf("the default is in the snapshot:\n%s", base)
	}
	cases := []struct {
		keys     string
		rules    AdjudicationRules
		snapshot string // in the snapshot; "": the default's snapshot
	}{
		{resign, RulesSelfplay, ""},
		{resign + `rules = "selfplay"` + "\n", RulesSelfplay, ""},
		{resign + `rules = "fastchess"` + "\n", RulesFastchess, `"resign_score":600,"rules":"fastchess"}`},
		{`rules = "fastchess"` + "\nresign_moves = 3\nmove = 0\n", RulesFastchess, `"resign_moves":3,"rules":"fastchess"}`},
		{`rules = "fastchess"` + "\ndraw_moves = 2\nmove = 0\n", RulesFastchess, `"draw_score":0,"move":0,"rules":"fastchess"}`},
		{`rules = "fastchess"` + "\nmove = 0\n", RulesFastchess, `"adjudication":{"move":0}`},
	}
	for _, c := range cases {
		f := mustLoad(t, conf(c.keys), nil)
		if got := f.Tournaments[0].Adjudication.Rules; got != c.rules {
			t.Errorf("%q: rules %q, want %q", c.keys, got, c.rules)
		}
		s := snapshots(t, conf(c.keys), nil)[0]
		if c.snapshot == "" && s != base || c.snapshot != "" && !strings.Contains(s, c.snapshot) {
			t.Errorf("%q: snapshot\n%s\nwant the default's, or with %s", c.keys, s, c.snapshot)
		}
	}
	for _, c := range []struct{ keys, want string }{
		{`rules = "cutechess"` + "\n", `rules`},
		{"resign_moves = 3\n", "resign_score = 0 and resign_moves = 3"},
		{`rules = "fastchess"` + "\nresign_score = 600\n", "resign_score = 600 needs resign_moves > 0"},
	} {
		if _, _, err := load(t, conf(c.keys), nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.keys, err, c.want)
		}
	}
}
