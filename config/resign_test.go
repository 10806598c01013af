package config

import (
	"strings"
	"testing"
)

// resign_two_sided: true (the default) keeps the two-sided rule and the
// snapshot byte for byte; false is fastchess's one-sided rule and is
// recorded in the snapshot; anything else is an error.
func TestResignTwoSided(t *testing.T) {
	conf := func(extra string) string {
		return engAB + `
[[tournament]]
name = "m"
engines = ["a", "b"]

[tournament.limits]
nodes = 1000

[tournament.adjudication]
resign_score = 600
resign_moves = 3
` + extra
	}
	base := snapshots(t, conf(""), nil)[0]
	if strings.Contains(base, "resign_two_sided") {
		t.Errorf("the default is in the snapshot:\n%s", base)
	}
	cases := []struct {
		key      string
		oneSided bool
		snapshot string // in the snapshot; "": the default's snapshot
	}{
		{"", false, ""},
		{"resign_two_sided = true\n", false, ""},
		{"resign_two_sided = false\n", true, `"resign_score":600,"resign_two_sided":false}`},
	}
	for _, c := range cases {
		f := mustLoad(t, conf(c.key), nil)
		if got := f.Tournaments[0].Adjudication.ResignOneSided; got != c.oneSided {
			t.Errorf("%q: one-sided %v, want %v", c.key, got, c.oneSided)
		}
		s := snapshots(t, conf(c.key), nil)[0]
		if c.snapshot == "" && s != base || c.snapshot != "" && !strings.Contains(s, c.snapshot) {
			t.Errorf("%q: snapshot\n%s\nwant the default's, or with %s", c.key, s, c.snapshot)
		}
	}
	if _, _, err := load(t, conf(`resign_two_sided = "no"`+"\n"), nil); err == nil || !strings.Contains(err.Error(), "resign_two_sided") {
		t.Errorf("a string: %v, want an error naming resign_two_sided", err)
	}
}
