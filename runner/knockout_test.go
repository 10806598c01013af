package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"selfplay/config"
	"selfplay/internal/testkit"
	"selfplay/knockout"
	"selfplay/store"
	"selfplay/store/record"
)

// knockoutConfig is a knockout of the presets at a few hundred nodes.
func knockoutConfig(seeds int, presets ...string) testkit.Config {
	return testkit.Config{
		Database: "games.db",
		Engines:  testkit.InProcess(presets...),
		Tournaments: []testkit.Tournament{{
			Name: "ko", Engines: presets, Format: "knockout", Concurrency: 2,
			Body:         "knockout = { games = 2, seeds = " + string(rune('0'+seeds)) + " }",
			Openings:     testkit.Table{"set": "fhr25"},
			Limits:       testkit.Table{"nodes": 300},
			Adjudication: testkit.Table{"move": 30, "referee_nodes": 2000},
		}},
	}
}

// runKnockout plays the config; cancelAfter > 0 interrupts it after that
// many stored games.
func runKnockout(t *testing.T, cfg *config.File, st *store.Store, cancelAfter int) ([]record.Game, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	err := Run(ctx, cfg, st, Options{NewEngine: newPlayer(""), OnGameStored: func(*record.Game) {
		if n++; n == cancelAfter {
			cancel()
		}
	}})
	_, games := storedGames(t, st, "ko")
	return games, err
}

func TestKnockout(t *testing.T) {
	for _, c := range []struct {
		name    string
		presets []string
		// encounters played in round 1 (the byes play none), and rounds
		rounds1, rounds int
	}{
		{"4 players", []string{"plain", "fhr", "null-r2", "null-r3"}, 2, 2},
		{"5 players, 3 byes", []string{"plain", "fhr", "null-r2", "null-r3", "nmr-r4"}, 1, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := loadConfig(t, knockoutConfig(1, c.presets...))
			games, err := runKnockout(t, cfg, openStore(t, cfg), 0)
			if err != nil {
				t.Fatal(err)
			}
			br := newBracket(&cfg.Tournaments[0], games)
			kb := br.plan()
			if kb.Winner == "" || len(kb.Rounds) != c.rounds {
				t.Fatalf("winner %q after %d rounds, want %d rounds", kb.Winner, len(kb.Rounds), c.rounds)
			}
			played := 0
			for _, e := range kb.Rounds[0].Encounters {
				if !e.Bye() {
					played++
				}
			}
			if played != c.rounds1 {
				t.Errorf("round 1 played %d encounters, want %d", played, c.rounds1)
			}
			if len(games) != knockoutTotal(&cfg.Tournaments[0], kb) {
				t.Errorf("%d games stored, bracket has %d", len(games), knockoutTotal(&cfg.Tournaments[0], kb))
			}
			// Each encounter's winner is ahead, or tied after the
			// tie-break limit; a tie-break pair follows only a tie.
			for _, r := range kb.Rounds {
				for _, e := range r.Encounters {
					if e.Bye() {
						continue
					}
					lead := e.Points[0] - e.Points[1]
					if e.Winner == e.Second {
						lead = -lead
					}
					if lead < 0 || (lead == 0 && len(e.Pairs) < 1+knockout.MaxTieBreakPairs) {
						t.Errorf("encounter %+v: winner not ahead", e)
					}
					if e.TieBreak != (len(e.Pairs) > 1) {
						t.Errorf("encounter %+v: tie-break flag and pairs disagree", e)
					}
				}
			}
			// The same config gives the same games, and an interrupted
			// run resumed gives them too.
			cfg1 := loadConfig(t, knockoutConfig(1, c.presets...))
			again, err := runKnockout(t, cfg1, openStore(t, cfg1), 0)
			if err != nil {
				t.Fatal(err)
			}
			if gameList(again) != gameList(games) {
				t.Fatalf("second run differs:\n%s\nwant\n%s", gameList(again), gameList(games))
			}
			cfg2 := loadConfig(t, knockoutConfig(1, c.presets...))
			st2 := openStore(t, cfg2)
			part, err := runKnockout(t, cfg2, st2, 3)
			if !errors.Is(err, ErrInterrupted) || len(part) >= len(games) {
				t.Fatalf("interrupted run: %v with %d games", err, len(part))
			}
			resumed, err := runKnockout(t, cfg2, st2, 0)
			if err != nil {
				t.Fatal(err)
			}
			if gameList(resumed) != gameList(games) {
				t.Fatalf("resumed run differs:\n%s\nwant\n%s", gameList(resumed), gameList(games))
			}
		})
	}
}

// gameList is the games' places, players, results and moves.
func gameList(games []record.Game) string {
	var b strings.Builder
	for _, g := range games {
		fmt.Fprintf(&b, "%d.%d %s-%s %s %s %s\n", g.Pair, g.Index, g.White, g.Black, g.Result, g.Reason, timeless(g.PGN))
	}
	return b.String()
}

func TestKnockoutRefusesShards(t *testing.T) {
	cfg := loadConfig(t, knockoutConfig(0, "plain", "fhr", "null-r2"))
	st := openStore(t, cfg)
	err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Shard: record.Shard{Index: 0, Count: 2}})
	if !errors.Is(err, errShardedKnockout) {
		t.Fatalf("sharded knockout: %v", err)
	}
}
