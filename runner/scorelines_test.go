package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"selfplay/internal/testkit"
	"selfplay/store/record"
)

// cutechess-cli prints its "Score of A vs B" line after each game only
// when the tournament has two players (github.com/cutechess/cutechess at
// 5e84232b, projects/cli/src/enginematch.cpp:132, in onGameFinished:
// "if (m_tournament->playerCount() == 2)"); with more it prints the
// Finished game lines alone. selfplay does the same, whatever the format.
func TestScoreLinesOnlyForTwoEngines(t *testing.T) {
	for _, c := range []struct {
		name, format string
		presets      []string
		pairs        int // play only the first pairs (0: all; a knockout cannot be cut)
		scoreLines   bool
	}{
		{"match", "match", []string{"fhr", "plain"}, 2, true},
		{"knockout of two", "knockout", []string{"fhr", "plain"}, 0, true},
		{"gauntlet of three", "gauntlet", []string{"fhr", "plain", "null-r2"}, 2, false},
		{"round robin of three", "round-robin", []string{"fhr", "plain", "null-r2"}, 3, false},
		{"knockout of three", "knockout", []string{"fhr", "plain", "null-r2"}, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := loadConfig(t, testkit.Config{
				Database: "games.db",
				Engines:  testkit.InProcess(c.presets...),
				Tournaments: []testkit.Tournament{{
					Name: "lines", Engines: c.presets, Format: c.format, Concurrency: 1,
					Openings:     testkit.Table{"set": "fhr25"},
					Limits:       testkit.Table{"nodes": 200},
					Adjudication: testkit.Table{"move": 20, "referee_nodes": 1000},
				}},
			})
			var out bytes.Buffer
			opts := Options{NewEngine: newPlayer(""), Progress: &out, GameLines: true, Shard: record.Shard{Pairs: c.pairs}}
			if err := Run(context.Background(), cfg, openStore(t, cfg), opts); err != nil {
				t.Fatal(err)
			}
			finished := strings.Count(out.String(), "\nFinished game ")
			scores := strings.Count(out.String(), "\nScore of ")
			want := 0
			if c.scoreLines {
				want = finished
			}
			if finished == 0 || scores != want {
				t.Errorf("%d Finished game lines and %d Score of lines, want %d:\n%s", finished, scores, want, out.String())
			}
		})
	}
}
