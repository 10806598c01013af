package standings

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"selfplay/outcome"
	"selfplay/report"
	"selfplay/store/record"
)

// liveGames is a tournament's games with some missing (a stopped run, a
// shard not merged yet): results, terminations, openings, times and moves
// at random.
func liveGames(rng *rand.Rand, pairs int, pairings [][2]string) []record.Game {
	results := []string{"1-0", "0-1", "1/2-1/2"}
	terms := []record.Termination{record.Checkmate, record.Adjudication, record.Repetition, record.TimeForfeit, "odd"}
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var games []record.Game
	for p := range pairs {
		pr := pairings[p%len(pairings)]
		for idx := range 2 {
			if rng.IntN(10) == 0 {
				continue // missing
			}
			white, black := pr[0], pr[1]
			if idx == 1 {
				white, black = black, white
			}
			res := results[rng.IntN(3)]
			g := record.Game{Pair: p, Index: idx, Round: p/25 + 1, White: white, Black: black, Result: outcome.Result(res),
				Termination: terms[rng.IntN(len(terms))], OpeningID: fmt.Sprintf("o%d", p%25),
				OpeningName: fmt.Sprintf("opening %d", p%25),
				Started:     start.Add(time.Duration(rng.IntN(1000)) * time.Second)}
			g.Finished = g.Started.Add(time.Duration(1+rng.IntN(100)) * time.Second)
			if res == "1/2-1/2" && rng.IntN(4) == 0 {
				g.Culprit = white
			}
			for ply := 1; ply <= 4; ply++ {
				g.Moves = append(g.Moves, record.Move{Ply: ply, Book: ply == 1, Depth: rng.IntN(20), SelDepth: rng.IntN(30),
					Nodes: int64(rng.IntN(100000)), Time: time.Duration(rng.IntN(1e6))})
			}
			games = append(games, g)
		}
	}
	return games
}

func reportJSON(t *testing.T, rt report.Tournament) string {
	t.Helper()
	b, err := json.Marshal(rt)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Live's report after games come in batches, in any order (a run's
// concurrent games finish out of schedule order; a merge adds a shard's
// games between the others), is the report Tournament builds from all of
// them at once, after every batch, also when the confidence level or the
// SPRT changes between reports.
func TestLiveEqualsTournament(t *testing.T) {
	rr := record.Tournament{Name: "rr", Status: record.StatusRunning, TotalGames: 400,
		Engines: []record.Engine{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Config:  `{"format":"round-robin","players":["a","b","c"]}`}
	match := record.Tournament{Name: "m", Status: record.StatusRunning, TotalGames: 400,
		Engines: []record.Engine{{Name: "a"}, {Name: "b"}},
		Config:  `{"format":"match","players":["a","b"],"sprt":{"elo0":0,"elo1":10,"alpha":0.05,"beta":0.05,"model":"normalized"}}`}
	otherTest := match
	otherTest.Config = `{"format":"match","players":["a","b"],"sprt":{"elo0":-5,"elo1":5,"alpha":0.05,"beta":0.05,"model":"logistic"}}`
	for _, tc := range []struct {
		name     string
		t        record.Tournament
		pairings [][2]string
	}{
		{"round robin", rr, [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}}},
		{"SPRT match", match, [][2]string{{"a", "b"}}},
	} {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("%s/%d", tc.name, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, 99))
				all := liveGames(rng, 200, tc.pairings)
				// The arrival order: shuffled within windows of a few pairs
				// (a run's concurrency), or, for odd seeds, every other pair
				// first (a shard, then the other one merged in).
				arrival := slices.Clone(all)
				if seed%2 == 0 {
					for i := 0; i < len(arrival); i += 8 {
						w := arrival[i:min(i+8, len(arrival))]
						rng.Shuffle(len(w), func(a, b int) { w[a], w[b] = w[b], w[a] })
					}
				} else {
					slices.SortStableFunc(arrival, func(x, y record.Game) int { return x.Pair%2 - y.Pair%2 })
				}
				l := NewLive()
				var added []record.Game
				for reports := 0; len(arrival) > 0; reports++ {
					n := min(len(arrival), 1+rng.IntN(30))
					batch := slices.Clone(arrival[:n])
					arrival = arrival[n:]
					if err := l.Add(batch); err != nil {
						t.Fatal(err)
					}
					l.AddSearch(record.SumSearch(batch))
					added = append(added, batch...)
					sorted := slices.Clone(added)
					slices.SortFunc(sorted, func(x, y record.Game) int { return 2*(x.Pair-y.Pair) + x.Index - y.Index })
					level, tour := 0.95, tc.t
					if reports%5 == 3 {
						level = 0.9
					}
					if reports%7 == 4 && tc.name == "SPRT match" {
						tour = otherTest
					}
					got, err := l.Report(tour, level, "")
					if err != nil {
						t.Fatal(err)
					}
					want, err := tournamentReport(tour, sorted, record.SumSearch(sorted), level, "")
					if err != nil {
						t.Fatal(err)
					}
					if g, w := reportJSON(t, got), reportJSON(t, want); g != w {
						t.Fatalf("after %d games (report %d): incremental report differs from the full one:\n%s\n%s",
							len(added), reports, g, w)
					}
					// tournamentReport is a Live too: the counts also agree with
					// a Tally, which counts by Add alone.
					tally := NewTally()
					for i := range sorted {
						if err := tally.Add(&sorted[i]); err != nil {
							t.Fatal(err)
						}
					}
					if len(got.Pairings) != len(tally.Pairings()) {
						t.Fatalf("%d pairings reported, the tally has %d", len(got.Pairings), len(tally.Pairings()))
					}
					for _, p := range got.Pairings {
						pt := tally.Pairing(p.First, p.Second)
						if pt == nil {
							t.Fatalf("pairing %s-%s is not in the tally", p.First, p.Second)
						}
						ptnml := [5]int{pt.Pairs.LL, pt.Pairs.LD, pt.Pairs.DD, pt.Pairs.WD, pt.Pairs.WW}
						if p.Wins != pt.Games.Wins || p.Losses != pt.Games.Losses || p.Draws != pt.Games.Draws || p.Ptnml != ptnml {
							t.Fatalf("pairing %s-%s: reported %d/%d/%d %v, tallied %+v %v",
								p.First, p.Second, p.Wins, p.Losses, p.Draws, p.Ptnml, pt.Games, ptnml)
						}
					}
				}
				if l.Games() != len(all) {
					t.Errorf("%d games counted, want %d", l.Games(), len(all))
				}
			})
		}
	}
}

// A game counted twice or with an unknown result is an error, and nothing
// of its batch is counted.
func TestLiveAddRejects(t *testing.T) {
	games := pairGames(0, "WD")
	l := NewLive()
	if err := l.Add(games[:1]); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		games []record.Game
		err   string // games are named by the PGN's Round, counted from 1
	}{
		{[]record.Game{games[1], games[0]}, "game 1.1 (a vs b) counted twice"}, // games[0] again
		{[]record.Game{games[1], games[1]}, "game 1.2 (b vs a) counted twice"}, // twice in the batch
		{[]record.Game{games[1], {Pair: 5, White: "a", Black: "b", Result: "1-1"}}, `game 6.1: unknown result "1-1"`},
	} {
		if err := l.Add(bad.games); err == nil || !strings.Contains(err.Error(), bad.err) {
			t.Errorf("Add(%+v) = %v, want %q", bad.games, err, bad.err)
		}
		if l.Games() != 1 {
			t.Fatalf("%d games counted after a refused batch", l.Games())
		}
	}
	if err := l.Add(games[1:]); err != nil {
		t.Fatal(err)
	}
	if p := l.pairings[[2]string{"a", "b"}].tally(); p.Pairs.Pairs() != 1 || p.Games.Games() != 2 {
		t.Errorf("tally %+v", p)
	}
}

// The openings of consecutive windows of pairs, put together, are the
// report's: every game's result in the same row and order, and the counts
// of each window are those of its games alone.
func TestLiveOpeningsWindows(t *testing.T) {
	rr := record.Tournament{Name: "rr", Status: record.StatusRunning, TotalGames: 400,
		Engines: []record.Engine{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Config:  `{"format":"round-robin","players":["a","b","c"]}`}
	games := liveGames(rand.New(rand.NewPCG(7, 7)), 200, [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}})
	l := NewLive()
	if err := l.Add(slices.Clone(games)); err != nil {
		t.Fatal(err)
	}
	rt, err := l.Report(rr, 0.95, "")
	if err != nil {
		t.Fatal(err)
	}
	span := l.PairSpan()
	if want := games[len(games)-1].Pair + 1; span != want {
		t.Fatalf("PairSpan %d, want %d", span, want)
	}
	if got := l.Openings(span, span+10); len(got) != 0 {
		t.Errorf("openings past the last pair: %v", got)
	}
	for _, size := range []int{1, 7, 50, 1000} {
		type joined struct{ white, black []outcome.Result }
		got := map[[2]string]map[string]*joined{}
		games := 0
		for from := 0; from < span; from += size {
			for key, o := range l.Openings(from, from+size) {
				if got[key] == nil {
					got[key] = map[string]*joined{}
				}
				for _, r := range o.Rows {
					j := got[key][r.ID]
					if j == nil {
						j = &joined{}
						got[key][r.ID] = j
					}
					j.white, j.black = append(j.white, r.FirstWhite...), append(j.black, r.FirstBlack...)
					games += r.Games
				}
			}
		}
		if games != l.Games() {
			t.Errorf("size %d: %d games in the windows, want %d", size, games, l.Games())
		}
		for _, p := range rt.Pairings {
			for _, r := range p.Openings.Rows {
				j := got[[2]string{p.First, p.Second}][r.ID]
				if j == nil || !slices.Equal(j.white, r.FirstWhite) || !slices.Equal(j.black, r.FirstBlack) {
					t.Fatalf("size %d: %s vs %s opening %s: windows give %v, the report %v %v", size, p.First, p.Second, r.ID,
						j, r.FirstWhite, r.FirstBlack)
				}
			}
		}
	}
}
