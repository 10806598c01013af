package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"selfplay/config/snapshot"
)

// A match given as arguments is the config of the file one would write by
// hand for it: the same engines (in-process and external), the same
// tournament, and so the same snapshot.
func TestParseMatchEqualsConfigFile(t *testing.T) {
	m := MatchArgs{
		Engines: [][]string{
			{"nmr-r3-4:dr=2", "hash=8"},
			{"cmd=/usr/games/stockfish", "option.Hash=16", "option.Skill Level=3", "arg=-q", "args=--a --b", "name=sf", "init_timeout=20s"},
			{"plain", "name=base"},
		},
		Settings: []MatchSetting{
			{"-format", "format", "gauntlet"},
			{"-nodes", "limits.nodes", int64(20000)},
			{"-nodes-jitter", "limits.nodes_jitter", 0.1},
			{"-openings", "openings.set", "two-ply"},
			{"-order", "openings.order", "random"},
			{"-rounds", "rounds", int64(2)},
			{"-seed", "seed", int64(7)},
			{"-concurrency", "concurrency", int64(3)},
			{"-move", "adjudication.move", int64(60)},
			{"-policy", "adjudication.policy", "agree"},
			{"-margin", "adjudication.margin", int64(300)},
			{"-resign-score", "adjudication.resign_score", int64(500)},
			{"-resign-moves", "adjudication.resign_moves", int64(3)},
		},
		Database: "games.db",
		Name:     "g",
	}
	got, text, err := parseMatch(m)
	if err != nil {
		t.Fatal(err)
	}
	const file = `database = "games.db"

[engines."nmr-r3-4:dr=2"]
preset = "nmr-r3-4"
dr = 2
hash = 8

[engines.sf]
command = "/usr/games/stockfish"
args = ["-q", "--a", "--b"]
options = { Hash = 16, "Skill Level" = 3 }
init_timeout = "20s"

[engines.base]
preset = "plain"

[[tournament]]
name = "g"
engines = ["nmr-r3-4:dr=2", "sf", "base"]
format = "gauntlet"
rounds = 2
seed = 7
concurrency = 3

[tournament.openings]
set = "two-ply"
order = "random"

[tournament.limits]
nodes = 20000
nodes_jitter = 0.1

[tournament.adjudication]
move = 60
policy = "agree"
margin = 300
resign_score = 500
resign_moves = 3
`
	want, err := Parse([]byte(file), "by-hand.toml")
	if err != nil {
		t.Fatal(err)
	}
	got.Path, want.Path = "", ""
	if !reflect.DeepEqual(got.Engines, want.Engines) {
		t.Errorf("engines:\n got %+v\nwant %+v", got.Engines, want.Engines)
	}
	if !reflect.DeepEqual(got.Tournaments, want.Tournaments) {
		t.Errorf("tournaments:\n got %+v\nwant %+v", got.Tournaments, want.Tournaments)
	}
	if got.Database != want.Database {
		t.Errorf("database %q, want %q", got.Database, want.Database)
	}
	gs, err := got.Tournaments[0].Snapshot(got)
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := want.Tournaments[0].Snapshot(want)
	if a, b := mustEncode(t, gs), mustEncode(t, ws); a != b {
		t.Errorf("snapshots differ:\n%s\n%s", a, b)
	}
	// The printed config parses to the same.
	again, err := Parse([]byte(text), "printed.toml")
	if err != nil {
		t.Fatalf("the printed config does not parse: %v\n%s", err, text)
	}
	if !reflect.DeepEqual(again.Tournaments, want.Tournaments) || !reflect.DeepEqual(again.Engines, want.Engines) {
		t.Errorf("the printed config is another config:\n%s", text)
	}
}

func mustEncode(t *testing.T, s snapshot.Snapshot) string {
	t.Helper()
	text, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// The generated name depends on what defines the games, and on nothing
// else: not on the order of the flags, an explicit default, or the
// concurrency and database.
func TestMatchNameIsStable(t *testing.T) {
	nameIn := func(db string, settings ...MatchSetting) string {
		t.Helper()
		f, _, err := parseMatch(MatchArgs{Engines: [][]string{{"fhr"}, {"plain"}}, Settings: settings, Database: db})
		if err != nil {
			t.Fatal(err)
		}
		return f.Tournaments[0].Name
	}
	name := func(settings ...MatchSetting) string { t.Helper(); return nameIn("", settings...) }
	nodes := MatchSetting{"-nodes", "limits.nodes", int64(20000)}
	base := name(nodes)
	if !strings.HasPrefix(base, "fhr-vs-plain-") || len(base) != len("fhr-vs-plain-")+8 {
		t.Errorf("name %q, want fhr-vs-plain-XXXXXXXX", base)
	}
	same := [][]MatchSetting{
		{nodes, {"-concurrency", "concurrency", int64(7)}},
		{{"-move", "adjudication.move", int64(DefaultAdjudication)}, nodes},
		{nodes, {"-openings", "openings.set", "fhr25"}},
	}
	for _, s := range same {
		if n := name(s...); n != base {
			t.Errorf("%v: name %q, want %q", s, n, base)
		}
	}
	if n := nameIn("other.db", nodes); n != base {
		t.Errorf("another database: name %q, want %q", n, base)
	}
	seed, rounds := MatchSetting{"-seed", "seed", int64(3)}, MatchSetting{"-rounds", "rounds", int64(4)}
	if a, b := name(nodes, seed, rounds), name(rounds, nodes, seed); a != b || a == base {
		t.Errorf("two settings in two orders: names %q and %q (without them %q)", a, b, base)
	}
	other := [][]MatchSetting{
		{{"-nodes", "limits.nodes", int64(20001)}},
		{nodes, {"-seed", "seed", int64(2)}},
		{nodes, {"-rounds", "rounds", int64(2)}},
		{nodes, {"-openings", "openings.set", "two-ply"}},
		{nodes, {"-sprt", "sprt.elo0", 0.0}, {"-sprt", "sprt.elo1", 5.0}},
	}
	for _, s := range other {
		if n := name(s...); n == base {
			t.Errorf("%v: the same name %q as without", s, n)
		}
	}
}

// The same limit on every engine (fastchess's -each nodes=N) is the
// tournament's: the same tournament as -nodes N, engines named without it;
// different ones (node odds) stay the engines', in their names.
func TestMatchSharedLimits(t *testing.T) {
	parse := func(engines [][]string, settings ...MatchSetting) *Tournament {
		t.Helper()
		f, _, err := parseMatch(MatchArgs{Engines: engines, Settings: settings})
		if err != nil {
			t.Fatal(err)
		}
		return &f.Tournaments[0]
	}
	base := parse([][]string{{"fhr"}, {"plain"}}, MatchSetting{"-nodes", "limits.nodes", int64(1000)})
	for _, c := range []struct {
		name    string
		engines [][]string
		want    []string // the engines' names
		same    bool     // the same tournament as base
	}{
		{"-each nodes", [][]string{{"fhr", "nodes=1000"}, {"plain", "nodes=1000"}}, []string{"fhr", "plain"}, true},
		{"in the spec", [][]string{{"fhr:nodes=1000"}, {"plain", "nodes=1000"}}, []string{"fhr", "plain"}, true},
		{"a name given", [][]string{{"fhr", "nodes=1000", "name=a"}, {"plain", "nodes=1000"}}, []string{"a", "plain"}, false},
		{"node odds", [][]string{{"fhr", "nodes=1000"}, {"plain", "nodes=2000"}}, []string{"fhr:nodes=1000", "plain:nodes=2000"}, false},
		{"one engine's", [][]string{{"fhr", "nodes=1000", "dr=2"}, {"plain"}}, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			settings := []MatchSetting(nil)
			if c.want == nil {
				settings = append(settings, MatchSetting{"-nodes", "limits.nodes", int64(1000)})
			}
			tr := parse(c.engines, settings...)
			if c.want != nil && !reflect.DeepEqual(tr.Engines, c.want) {
				t.Errorf("engines %q, want %q", tr.Engines, c.want)
			}
			if same := tr.Name == base.Name; same != c.same {
				t.Errorf("tournament %s, -nodes 1000's %s: same %v, want %v", tr.Name, base.Name, same, c.same)
			}
		})
	}
	// Two engines that only their limits told apart are then one name.
	if _, _, err := parseMatch(MatchArgs{Engines: [][]string{{"fhr", "nodes=1000"}, {"fhr", "nodes=1000"}}}); err == nil ||
		!strings.Contains(err.Error(), `the name "fhr" is also engine 1's`) {
		t.Errorf("the same engine twice: %v", err)
	}
}

// Bad arguments are errors naming the argument, with the config's reason.
func TestParseMatchErrors(t *testing.T) {
	nodes := MatchSetting{"-nodes", "limits.nodes", int64(1000)}
	tests := []struct {
		name     string
		engines  [][]string
		settings []MatchSetting
		want     []string
	}{
		{"one engine", [][]string{{"fhr"}}, []MatchSetting{nodes}, []string{"engines: want at least 2 engines, got 1"}},
		{"no limit", [][]string{{"fhr"}, {"plain"}}, nil, []string{"no limit: give one of -nodes, -depth, -movetime, -tc"}},
		{"two limits", [][]string{{"fhr"}, {"plain"}}, []MatchSetting{nodes, {"-depth", "limits.depth", int64(3)}},
			[]string{"-nodes and -depth: give exactly one limit"}},
		{"unknown preset", [][]string{{"fhx"}, {"plain"}}, []MatchSetting{nodes},
			[]string{`engine 1 "fhx": preset: unknown preset "fhx" (did you mean "fhr"?`}},
		{"bad switch value", [][]string{{"fhr", "dr=abc"}, {"plain"}}, []MatchSetting{nodes},
			[]string{`engine 1 "fhr dr=abc": dr: switch dr`}},
		{"unknown switch in spec", [][]string{{"plain"}, {"nmr-r3-4:null-r=2"}}, []MatchSetting{nodes},
			[]string{`engine 2 "nmr-r3-4:null-r=2": null-r: unknown key (did you mean "null"?`}},
		{"bad hash", [][]string{{"fhr", "hash=0"}, {"plain"}}, []MatchSetting{nodes},
			[]string{`engine 1 "fhr hash=0": hash: 0 is out of range`}},
		{"same name", [][]string{{"fhr"}, {"fhr"}}, []MatchSetting{nodes},
			[]string{`engine 2 "fhr": the name "fhr" is also engine 1's: give one of them another with name=NAME`}},
		{"uci key typo", [][]string{{"cmd=sf", "opton.Hash=1"}, {"plain"}}, []MatchSetting{nodes},
			[]string{`engine 1 "cmd=sf opton.Hash=1": opton.Hash: unknown key (did you mean "option.NAME"?`}},
		{"uci hash", [][]string{{"cmd=sf", "hash=16"}, {"plain"}}, []MatchSetting{nodes},
			[]string{`hash= applies only to in-process engines; set a UCI engine's hash table size with option.Hash=MiB`}},
		{"uci bad option name", [][]string{{"cmd=sf", "option.name=1"}, {"plain"}}, []MatchSetting{nodes},
			[]string{`engine 1 "cmd=sf option.name=1": option.name: UCI option name "name" contains the word "name"`}},
		{"uci bad timeout", [][]string{{"cmd=sf", "init_timeout=soon"}, {"plain"}}, []MatchSetting{nodes},
			[]string{`engine 1 "cmd=sf init_timeout=soon": init_timeout: "soon" is not a duration`}},
		{"nodes out of range", [][]string{{"fhr"}, {"plain"}}, []MatchSetting{{"-nodes", "limits.nodes", int64(0)}},
			[]string{"-nodes: 0 is out of range: want >= 1"}},
		{"unknown set", [][]string{{"fhr"}, {"plain"}}, []MatchSetting{nodes, {"-openings", "openings.set", "fhr26"}},
			[]string{`-openings: unknown value "fhr26" (did you mean "fhr25"?`}},
		{"missing file", [][]string{{"fhr"}, {"plain"}}, []MatchSetting{nodes, {"-openings", "openings.file", "missing.epd"}},
			[]string{"-openings: ", "missing.epd"}},
		{"sprt bounds", [][]string{{"fhr"}, {"plain"}}, []MatchSetting{nodes, {"-sprt", "sprt.elo0", 5.0}, {"-sprt", "sprt.elo1", 0.0}},
			[]string{"-sprt: elo0 (5) must be less than elo1 (0)"}},
		{"sprt in a gauntlet", [][]string{{"fhr"}, {"plain"}, {"null-r2"}},
			[]MatchSetting{nodes, {"-sprt", "sprt.elo0", 0.0}, {"-sprt", "sprt.elo1", 5.0}, {"-format", "format", "gauntlet"}},
			[]string{`-sprt: SPRT applies only to format = "match"`}},
		{"policy typo", [][]string{{"fhr"}, {"plain"}}, []MatchSetting{nodes, {"-policy", "adjudication.policy", "refere"}},
			[]string{`-policy: unknown value "refere" (did you mean "referee"?`}},
		{"spec word first", [][]string{{"name=x"}, {"plain"}}, []MatchSetting{nodes},
			[]string{`an engine starts with a variant spec`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseMatch(MatchArgs{Engines: tt.engines, Settings: tt.settings})
			if err == nil {
				t.Fatal("no error")
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Errorf("error %T, want config.Errors", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "tournament[0]") || strings.Contains(err.Error(), matchFile) {
				t.Errorf("error %q names the generated file, not the argument", err)
			}
		})
	}
}

// An external engine's default name is its command's file name, versions
// included, without a Windows executable's extension.
func TestBaseName(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"/usr/games/stockfish", "stockfish"},
		{"/opt/sf-16.1", "sf-16.1"},
		{"/opt/sf-16.2", "sf-16.2"},
		{`C:\engines\Ethereal-14.25.exe`, "Ethereal-14.25"},
		{"./engine.EXE", "engine"},
		{".exe", ".exe"},
		{"/", "/"},
	} {
		if got := baseName(tc.cmd); got != tc.want {
			t.Errorf("baseName(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
