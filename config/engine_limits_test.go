package config

import (
	"strings"
	"testing"
	"time"

	"selfplay/config/snapshot"
)

// An engine's own limits: each error names the file, the key and the
// reason.
func TestEngineLimitErrors(t *testing.T) {
	withB := func(body string) string {
		return "[engines.a]\npreset = \"plain\"\n[engines.b]\n" + body + "[engines.c]\npreset = \"fhr\"\n"
	}
	cases := []struct {
		name   string
		config string
		want   []string
	}{
		{"two limits", withB("preset = \"plain\"\nnodes = 5\ntc = \"10+0.1\"\n") + tourn("t", limits),
			[]string{"engines.b: nodes and tc: an engine takes at most one limit of its own"}},
		{"nodes zero", withB("preset = \"plain\"\nnodes = 0\n") + tourn("t", limits), []string{"engines.b.nodes: 0 is out of range: want >= 1"}},
		{"depth range", withB("command = \"sf\"\ndepth = 101\n") + tourn("t", limits), []string{"engines.b.depth: 101 is out of range: want 1..100"}},
		{"movetime zero", withB("preset = \"plain\"\nmovetime = \"0s\"\n") + tourn("t", limits), []string{"engines.b.movetime: must be > 0"}},
		{"bad tc", withB("preset = \"plain\"\ntc = \"40/0+1\"\n") + tourn("t", limits), []string{"engines.b.tc: time control \"40/0+1\"", "time must be > 0"}},
		{"tc wrong type", withB("command = \"sf\"\ntc = 300\n") + tourn("t", limits), []string{"engines.b.tc: want a time control string", "got integer 300"}},
		{"margin with nodes", withB("preset = \"plain\"\nnodes = 5\ntime_margin = \"1s\"\n") + tourn("t", limits),
			[]string{"engines.b.time_margin: applies only to a time limit (tc or movetime), not to the engine's nodes"}},
		{"negative margin", withB("preset = \"plain\"\ntime_margin = \"-1s\"\n") + tourn("t", limits), []string{"engines.b.time_margin:", "negative"}},
		{"misspelt limit", withB("preset = \"plain\"\nnode = 5\n") + tourn("t", limits), []string{"engines.b.node: unknown key", `did you mean "nodes"`}},
		{"jitter key on an engine", withB("command = \"sf\"\nnodes_jitter = 0.1\n") + tourn("t", limits), []string{"engines.b.nodes_jitter: unknown key"}},
		{"no tournament limit, one engine without", withB("preset = \"plain\"\nnodes = 5\n") + "[[tournament]]\nname = \"t\"\nengines = [\"a\", \"b\"]\n",
			[]string{"tournament[0].limits: missing: engine a has no limit of its own", "exactly one of nodes, depth, movetime, tc"}},
		{"empty tournament limits, one engine without", withB("preset = \"plain\"\nnodes = 5\n") + tourn("t", "[tournament.limits]\ntime_margin = \"1s\"\n"),
			[]string{"tournament[0].limits: no limit: set exactly one of nodes, depth, movetime, tc"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, path, err := load(t, c.config, nil)
			if err == nil {
				t.Fatalf("no error; want one mentioning %q", c.want)
			}
			msg := err.Error()
			for _, w := range append([]string{path}, c.want...) {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not mention %q:\n%s", w, msg)
				}
			}
		})
	}
}

// Which limits each engine plays under: its own kind and margin over the
// tournament's, any mix of kinds (nodes against tc, as fastchess allows),
// and no tournament limit when every engine has its own.
func TestEngineLimitsOverride(t *testing.T) {
	f := mustLoad(t, `
[engines.a]
preset = "plain"
nodes = 10000
[engines.b]
preset = "plain"
[engines.c]
command = "sf"
tc = "10+0.1"
time_margin = "1s"
[engines.d]
preset = "plain"
time_margin = "2s"
[[tournament]]
name = "t"
engines = ["a", "b", "c", "d"]
[tournament.limits]
nodes = 5000
nodes_jitter = 0.1
[[tournament]]
name = "u"
engines = ["a", "c"]
`, nil)
	tr := &f.Tournaments[0]
	if l := tr.LimitsOf("a"); l.Nodes != 10000 || l.NodesJitter != 0.1 {
		t.Errorf("a: %+v, want its 10000 nodes with the tournament's jitter", l)
	}
	if l := tr.LimitsOf("b"); l.Nodes != 5000 || !l.SameAs(tr.Limits) {
		t.Errorf("b: %+v, want the tournament's", l)
	}
	if l := tr.LimitsOf("c"); l.Nodes != 0 || l.TC == nil || l.TC.Text != "10+0.1" || l.TimeMargin != time.Second {
		t.Errorf("c: %+v, want its tc and margin", l)
	}
	if l := tr.LimitsOf("d"); !l.SameAs(tr.Limits) || l.TimeMargin != 2*time.Second {
		t.Errorf("d: %+v, want the tournament's nodes with its own margin", l)
	}
	u := &f.Tournaments[1]
	if u.Limits.Nodes != 0 || u.Limits.TC != nil || u.LimitsOf("a").Nodes != 10000 || u.LimitsOf("c").TC == nil {
		t.Errorf("u without limits: %+v, a %+v, c %+v", u.Limits, u.LimitsOf("a"), u.LimitsOf("c"))
	}
	s, err := tr.Snapshot(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*snapshot.Limits{
		"a": {Nodes: 10000, NodesJitter: 0.1},
		"c": {TC: "10+0.1", TimeMargin: "1s"},
	}
	for _, name := range tr.Engines {
		got, w := s.Engines[name].Limits, want[name]
		if (got == nil) != (w == nil) || got != nil && *got != *w {
			t.Errorf("snapshot of %s: limits %+v, want %+v", name, got, w)
		}
	}
	text, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"a":{"hash":16,"limits":{"nodes":10000,"nodes_jitter":0.1},"options":`, `"c":{"command":"sf","limits":{"tc":"10+0.1","time_margin":"1s"}}`} {
		if !strings.Contains(text, w) {
			t.Errorf("no %s in the snapshot\n%s", w, text)
		}
	}
	back, err := snapshot.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if back.LimitsOf("a").Nodes != 10000 || back.LimitsOf("b").Nodes != 5000 || back.LimitsOf("c").String() != "time control 10+0.1" {
		t.Errorf("read back: a %+v, b %+v, c %+v", back.LimitsOf("a"), back.LimitsOf("b"), back.LimitsOf("c"))
	}
}

// Without engine limits, or with only a margin that the tournament's limit
// does not use, a tournament's snapshot stays byte for byte what it was:
// the snapshots stored by earlier versions keep their config hash.
func TestSnapshotWithoutEngineLimitsUnchanged(t *testing.T) {
	base := snapshots(t, snapConfig, nil)
	same := snapshots(t, strings.Replace(snapConfig, "preset = \"plain\"\n", "preset = \"plain\"\ntime_margin = \"5s\"\n", 1), nil)
	if base[0] != same[0] {
		t.Errorf("a margin under a nodes limit changed the snapshot:\n%s\n%s", base[0], same[0])
	}
	for _, b := range base {
		if n := strings.Count(b, `"limits"`); n != 1 {
			t.Errorf("%d limits keys (want the tournament's only) in\n%s", n, b)
		}
	}
	odds := snapshots(t, strings.Replace(snapConfig, "preset = \"plain\"\n", "preset = \"plain\"\nnodes = 500\n", 1), nil)
	if diff := snapshot.Diff(base[0], odds[0]); len(diff) != 1 || diff[0] != "engines.plain.limits.nodes: (none) -> 500" {
		t.Errorf("node odds diff: %q", diff)
	}
}

// selfplay match takes an engine's own limit as a word of the engine, for
// either kind, and needs no limit flag when every engine has one.
func TestMatchEngineLimits(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	f, text, err := parseMatch(MatchArgs{Engines: [][]string{{"fhr:nodes=10000"}, {"plain", "nodes=5000", "name=p"}, {"cmd=sf", "tc=10+0.1", "time_margin=1s"}},
		Settings: []MatchSetting{{Flag: "-format", Key: "format", Value: "round-robin"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"[engines.\"fhr:nodes=10000\"]\npreset = \"fhr\"\nnodes = 10000\n", "[engines.p]\npreset = \"plain\"\nnodes = 5000\n",
		"[engines.sf]\ncommand = \"sf\"\ntc = \"10+0.1\"\ntime_margin = \"1s\"\n"} {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in\n%s", w, text)
		}
	}
	tr := &f.Tournaments[0]
	if tr.LimitsOf("fhr:nodes=10000").Nodes != 10000 || tr.LimitsOf("p").Nodes != 5000 || tr.LimitsOf("sf").TimeMargin != time.Second {
		t.Errorf("limits: %+v %+v %+v", tr.LimitsOf("fhr:nodes=10000"), tr.LimitsOf("p"), tr.LimitsOf("sf"))
	}
	cases := []struct {
		engines [][]string
		want    string
	}{
		{[][]string{{"fhr", "nodes=10000"}, {"plain"}}, "limits: no limit: give one of -nodes, -depth, -movetime, -tc (or give every engine its own, such as nodes=N)"},
		{[][]string{{"fhr", "nodes=many"}, {"plain", "nodes=5"}}, `engine 1 "fhr nodes=many": nodes: want an integer, got string "many"`},
		{[][]string{{"cmd=sf", "depth=0"}, {"plain", "depth=3"}}, `engine 1 "cmd=sf depth=0": depth: 0 is out of range`},
		{[][]string{{"cmd=sf", "nodez=5"}, {"plain", "depth=3"}}, `nodez: unknown key (did you mean "nodes"?`},
	}
	for _, c := range cases {
		if _, _, err := parseMatch(MatchArgs{Engines: c.engines}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.engines, err, c.want)
		}
	}
}
