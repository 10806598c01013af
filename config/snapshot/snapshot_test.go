package snapshot

import (
	"reflect"
	"strings"
	"testing"

	"selfplay/stats"
)

// A stored snapshot's SPRT is the runner's test for a match only, and
// bounds no runner would take are an error.
func TestMatchSPRT(t *testing.T) {
	sprt := `"sprt":{"alpha":0.05,"beta":0.1,"elo0":0,"elo1":5,"model":"logistic"}`
	tests := []struct {
		name, text string
		want       *stats.SPRT
		err        string
	}{
		{"match", `{"format":"match",` + sprt + `}`,
			&stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1, Model: stats.LogisticElo}, ""},
		{"no SPRT", `{"format":"match"}`, nil, ""},
		{"not a match", `{"format":"gauntlet",` + sprt + `}`, nil, ""},
		{"bad bounds", `{"format":"match","sprt":{"alpha":0.05,"beta":0.1,"elo0":5,"elo1":0,"model":"logistic"}}`,
			nil, "stored SPRT: SPRT elo0 (5) must be less than elo1 (0)"},
	}
	for _, tc := range tests {
		s, err := Parse(tc.text)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := s.MatchSPRT()
		if !reflect.DeepEqual(got, tc.want) || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("%s: MatchSPRT = %+v, %v; want %+v, %q", tc.name, got, err, tc.want, tc.err)
		}
	}
	if _, err := Parse(`{"format":"match","sprt":{"elo0":0,"elo1":5,"model":"elo"}}`); err == nil ||
		!strings.Contains(err.Error(), `unknown Elo model "elo"`) {
		t.Errorf("an unknown model: %v", err)
	}
}

func TestPairings(t *testing.T) {
	abc := []string{"a", "b", "c"}
	tests := []struct {
		format  string
		players []string
		seeds   int
		want    [][2]string
	}{
		{FormatMatch, []string{"a", "b"}, 0, [][2]string{{"a", "b"}}},
		{FormatGauntlet, abc, 0, [][2]string{{"a", "b"}, {"a", "c"}}},
		{FormatGauntlet, abc, 2, [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}}},
		{FormatGauntlet, abc, 5, [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}}}, // at most n-1 seeds, as fastchess's
		{FormatRoundRobin, abc, 0, [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}}},
	}
	for _, tc := range tests {
		if got := Pairings(tc.format, tc.players, tc.seeds); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Pairings(%s, %v) = %v, want %v", tc.format, tc.players, got, tc.want)
		}
	}
}
