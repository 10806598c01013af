package runner

import (
	"context"
	"errors"
	"runtime"
	"selfplay/internal/sysmem"
	"strings"
	"testing"

	"selfplay/config"
	"selfplay/openings"
	"selfplay/store/record"
)

// eagerSchedule is the schedule as it was built before it became lazy: every
// game in a slice. The lazy one must give the same games in the same order
// (pair indices are stored, and shards select pairs by index).
func eagerSchedule(t *config.Tournament) ([]gameJob, error) {
	pairings := t.Pairings()
	var jobs []gameJob
	pair := 0
	for r := 0; r < t.Rounds; r++ {
		ordered, err := openings.Order(t.Openings.List, t.Openings.Order, t.Seed+uint64(r), 1)
		if err != nil {
			return nil, err
		}
		for _, o := range ordered {
			for _, p := range pairings {
				jobs = append(jobs,
					gameJob{pair: pair, index: 0, round: r, opening: o, white: p[0], black: p[1]},
					gameJob{pair: pair, index: 1, round: r, opening: o, white: p[1], black: p[0]})
				pair++
			}
		}
	}
	return jobs, nil
}

func TestScheduleOrder(t *testing.T) {
	fhr25, twoPly := openings.FHR25(), openings.TwoPly()
	tests := []struct {
		name   string
		format config.Format
		eng    []string
		list   []openings.Opening
		order  openings.Ordering
		rounds int
	}{
		{"match", config.FormatMatch, []string{"a", "b"}, fhr25, openings.OrderSequential, 1},
		{"match, random, 3 rounds", config.FormatMatch, []string{"a", "b"}, fhr25, openings.OrderRandom, 3},
		{"gauntlet", config.FormatGauntlet, []string{"a", "b", "c", "d"}, fhr25[:7], openings.OrderRandom, 2},
		{"round robin", config.FormatRoundRobin, []string{"a", "b", "c", "d", "e"}, twoPly[:13], openings.OrderRandom, 4},
		{"one opening", config.FormatRoundRobin, []string{"a", "b", "c"}, fhr25[:1], openings.OrderSequential, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &config.Tournament{Name: "t", Format: tt.format, Engines: tt.eng, Rounds: tt.rounds, Seed: 7,
				Openings: config.Openings{List: tt.list, Order: tt.order}}
			want, err := eagerSchedule(tr)
			if err != nil {
				t.Fatal(err)
			}
			s, err := newSchedule(tr)
			if err != nil {
				t.Fatal(err)
			}
			if s.total != len(want) {
				t.Fatalf("%d games, want %d", s.total, len(want))
			}
			check := func(i int) {
				t.Helper()
				got, err := s.job(i)
				if err != nil {
					t.Fatal(err)
				}
				w := want[i]
				if got.pair != w.pair || got.index != w.index || got.round != w.round || got.white != w.white ||
					got.black != w.black || got.opening.ID != w.opening.ID || got.opening.StartFEN != w.opening.StartFEN ||
					strings.Join(got.opening.Moves, " ") != strings.Join(w.opening.Moves, " ") {
					t.Fatalf("game %d: %+v, want %+v", i, got, w)
				}
			}
			for i := range want {
				check(i)
			}
			// In any order (a resumed run skips stored games).
			for i := len(want) - 1; i >= 0; i -= 3 {
				check(i)
			}
			if _, err := s.job(len(want)); err == nil {
				t.Error("a game past the end")
			}
		})
	}
}

// A tournament of a billion rounds (a match played until its SPRT
// decides) starts at once and in little memory: the schedule is not built
// up front.
func TestHugeScheduleIsLazy(t *testing.T) {
	c := quickConfig(1)
	c.Tournaments[0].Rounds = 1000000000
	cfg := loadConfig(t, c)
	st := openStore(t, cfg)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := Run(ctx, cfg, st, Options{NewEngine: newPlayer(""), OnGameStored: func(*record.Game) { cancel() }})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run = %v, want ErrInterrupted", err)
	}
	t.Logf("%d MiB allocated", (after.TotalAlloc-before.TotalAlloc)>>20)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 200<<20 {
		t.Fatalf("%d MiB allocated for one game of a billion-round tournament", alloc>>20)
	}
	tour, games := storedGames(t, st, "quick")
	if want := 50 * 1000000000; tour.TotalGames != want || len(games) == 0 {
		t.Fatalf("%d games scheduled, %d stored; want %d scheduled", tour.TotalGames, len(games), want)
	}
}

// Tables that do not fit in memory with the -concurrency override are a
// setup error before anything is written (the config's own concurrency
// is checked when it loads).
func TestTablesCheckedWithConcurrencyOverride(t *testing.T) {
	if sysmem.PhysicalMiB() == 0 {
		t.Skip("physical memory unknown here")
	}
	c := quickConfig(1)
	for i := range c.Engines {
		c.Engines[i].Hash = 4096
	}
	cfg := loadConfig(t, c)
	st := openStore(t, cfg)
	err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Concurrency: config.MaxConcurrency})
	if !errors.Is(err, ErrEngineSetup) || !strings.Contains(err.Error(), "transposition tables need") {
		t.Fatalf("Run = %v, want a setup error about the tables", err)
	}
	if _, err := st.TournamentByName(context.Background(), "quick"); err == nil {
		t.Fatal("the tournament was written")
	}
}

// One game per opening, -noswap and -reverse, as fastchess schedules them
// (roundrobin.cpp:85-91, base_scheduler.hpp:64-106): game g (from 0) has
// opening g mod n with -games 1 and pair g/2's otherwise; its first
// engine is White when g is even, unless -noswap (always) or -reverse
// (swapped); start rotates the openings.
func TestScheduleColoursAndGamesPerOpening(t *testing.T) {
	list := openings.FHR25()[:3]
	tests := []struct {
		name           string
		single         bool
		noswap, rev    bool
		offset         int
		rounds         int
		wantOpenings   string // per game
		wantFirstWhite string // per game: 1 when "a" is White
	}{
		{"pairs", false, false, false, 0, 2, "01 01 02 02 03 03 01 01 02 02 03 03", "101010101010"},
		{"noswap", false, true, false, 0, 1, "01 01 02 02 03 03", "111111"},
		{"reverse", false, false, true, 0, 1, "01 01 02 02 03 03", "010101"},
		{"both", false, true, true, 0, 1, "01 01 02 02 03 03", "000000"},
		{"start 3", false, false, false, 2, 1, "03 03 01 01 02 02", "101010"},
		{"single", true, false, false, 0, 2, "01 02 03 01 02 03", "101010"},
		{"single reverse start 2", true, false, true, 1, 2, "02 03 01 02 03 01", "010101"},
	}
	for _, tt := range tests {
		tr := &config.Tournament{Name: "t", Engines: []string{"a", "b"}, Format: config.FormatMatch, Rounds: tt.rounds, Seed: 1,
			OneGamePerOpening: tt.single, NoSwap: tt.noswap, Reverse: tt.rev,
			Openings: config.Openings{Set: "fhr25", List: list, Order: openings.OrderSequential, Offset: tt.offset}}
		s, err := newSchedule(tr)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var ops []string
		var white strings.Builder
		for i := range s.total {
			j, err := s.job(i)
			if err != nil {
				t.Fatal(err)
			}
			if j.pair != i/2 || j.index != i%2 {
				t.Errorf("%s: game %d is pair %d index %d", tt.name, i, j.pair, j.index)
			}
			ops = append(ops, strings.TrimPrefix(j.opening.ID, "fhr-"))
			white.WriteString(map[bool]string{true: "1", false: "0"}[j.white == "a"])
		}
		if got := strings.Join(ops, " "); got != tt.wantOpenings || white.String() != tt.wantFirstWhite {
			t.Errorf("%s: openings %s, first engine White %s; want %s, %s", tt.name, got, white.String(), tt.wantOpenings, tt.wantFirstWhite)
		}
	}
	// One game per opening: one pairing, whole pairs.
	odd := &config.Tournament{Name: "t", Engines: []string{"a", "b"}, Format: config.FormatMatch, Rounds: 1, OneGamePerOpening: true,
		Openings: config.Openings{Set: "fhr25", List: list, Order: openings.OrderSequential}}
	if _, err := newSchedule(odd); err == nil {
		t.Error("3 games of one game per opening: no error")
	}
}

// fastchess's schedule (base_scheduler.hpp:36-78, opening_book.cpp:50 and
// :70-76): each round one game pair of each pairing in order, pair p
// taking opening p of the list cut to its first rounds openings.
func TestScheduleFastchess(t *testing.T) {
	list := openings.FHR25()[:5]
	tests := []struct {
		name         string
		format       config.Format
		engines      []string
		rounds       int
		wantOpenings string // per pair
		wantPairings string // per pair: first and second engine
	}{
		// 3 rounds: the first 3 openings, in turn across the pairings.
		{"round robin", config.FormatRoundRobin, []string{"a", "b", "c"}, 3, "01 02 03 01 02 03 01 02 03", "ab ac bc ab ac bc ab ac bc"},
		// 7 rounds: the book of 5 is not cut, and wraps around.
		{"gauntlet", config.FormatGauntlet, []string{"a", "b", "c"}, 7, "01 02 03 04 05 01 02 03 04 05 01 02 03 04", "ab ac ab ac ab ac ab ac ab ac ab ac ab ac"},
		{"match", config.FormatMatch, []string{"a", "b"}, 2, "01 02", "ab ab"},
	}
	for _, tt := range tests {
		tr := &config.Tournament{Name: "t", Engines: tt.engines, Format: tt.format, Rounds: tt.rounds, Seed: 1, Schedule: config.ScheduleFastchess,
			Openings: config.Openings{Set: "fhr25", List: list, Order: openings.OrderSequential}}
		s, err := newSchedule(tr)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var ops, pairings []string
		for i := 0; i < s.total; i += 2 {
			a, err := s.job(i)
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.job(i + 1)
			if err != nil {
				t.Fatal(err)
			}
			if a.opening.ID != b.opening.ID || a.white != b.black || a.round != i/2/len(tr.Pairings()) {
				t.Errorf("%s: pair %d: games %+v and %+v", tt.name, i/2, a, b)
			}
			ops = append(ops, strings.TrimPrefix(a.opening.ID, "fhr-"))
			pairings = append(pairings, a.white+a.black)
		}
		if got, want := strings.Join(ops, " "), tt.wantOpenings; got != want {
			t.Errorf("%s: openings %s, want %s", tt.name, got, want)
		}
		if got, want := strings.Join(pairings, " "), tt.wantPairings; got != want {
			t.Errorf("%s: pairings %s, want %s", tt.name, got, want)
		}
	}
}
