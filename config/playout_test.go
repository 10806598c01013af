package config

import (
	"strings"
	"testing"
)

// selfplay match with an external engine plays games out (fastchess's
// default) unless a move-limit flag asks for adjudication; a match of
// variants and a config file, external engines or not, keep the papers'
// referee at move 100.
func TestMatchAdjudicationDefaults(t *testing.T) {
	nodes := MatchSetting{"-nodes", "limits.nodes", int64(1000)}
	sf := []string{"cmd=/usr/games/stockfish"}
	for _, c := range []struct {
		name     string
		engines  [][]string
		settings []MatchSetting
		move     int
		policy   Policy
	}{
		{"variants", [][]string{{"fhr"}, {"plain"}}, []MatchSetting{nodes}, DefaultAdjudication, PolicyReferee},
		{"an external engine", [][]string{sf, {"plain"}}, []MatchSetting{nodes}, 0, PolicyReferee},
		{"external engines", [][]string{sf, {"cmd=/usr/games/stockfish", "name=sf2"}}, []MatchSetting{nodes}, 0, PolicyReferee},
		{"resign adjudication is not a move limit", [][]string{sf, {"plain"}},
			[]MatchSetting{nodes, {"-resign-score", "adjudication.resign_score", int64(600)}, {"-resign-moves", "adjudication.resign_moves", int64(3)}}, 0, PolicyReferee},
		{"-policy", [][]string{sf, {"plain"}}, []MatchSetting{nodes, {"-policy", "adjudication.policy", "agree"}}, DefaultAdjudication, PolicyAgree},
		{"-move", [][]string{sf, {"plain"}}, []MatchSetting{nodes, {"-move", "adjudication.move", int64(80)}}, 80, PolicyReferee},
		{"-referee", [][]string{sf, {"plain"}}, []MatchSetting{nodes, {"-referee", "adjudication.referee", "fhr"}}, DefaultAdjudication, PolicyReferee},
		{"-referee-nodes", [][]string{sf, {"plain"}}, []MatchSetting{nodes, {"-referee-nodes", "adjudication.referee_nodes", int64(5000)}}, DefaultAdjudication, PolicyReferee},
		{"-margin", [][]string{sf, {"plain"}}, []MatchSetting{nodes, {"-margin", "adjudication.margin", int64(300)}}, DefaultAdjudication, PolicyReferee},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, text, err := parseMatch(MatchArgs{Engines: c.engines, Settings: c.settings})
			if err != nil {
				t.Fatal(err)
			}
			a := f.Tournaments[0].Adjudication
			if a.Move != c.move || a.Policy != c.policy {
				t.Errorf("adjudication move %d policy %s, want move %d policy %s", a.Move, a.Policy, c.move, c.policy)
			}
			// The printed config is the same tournament: it says move = 0.
			if played := strings.Contains(text, "\nmove = 0\n"); played != (c.move == 0) {
				t.Errorf("move = 0 in the printed config: %v, want %v:\n%s", played, c.move == 0, text)
			}
			g, err := Parse([]byte(text), matchFile)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Tournaments[0].Adjudication; got != a {
				t.Errorf("the printed config's adjudication %+v, want %+v", got, a)
			}
		})
	}
	// A config file with an external engine keeps the papers' rule.
	f, err := Parse([]byte(`
[engines.sf]
command = "/usr/games/stockfish"

[engines.plain]
preset = "plain"

[[tournament]]
name = "t"
engines = ["sf", "plain"]
limits.nodes = 1000
`), "tournaments.toml")
	if err != nil {
		t.Fatal(err)
	}
	if a := f.Tournaments[0].Adjudication; a.Move != DefaultAdjudication || a.Policy != PolicyReferee {
		t.Errorf("config file: adjudication move %d policy %s, want %d referee", a.Move, a.Policy, DefaultAdjudication)
	}
}
