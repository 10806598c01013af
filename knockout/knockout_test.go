package knockout

import (
	"slices"
	"testing"
)

// The bracket positions are cutechess-cli's playerSeed
// (projects/lib/src/knockouttournament.cpp:41-56): seeds 1 and 2 in
// opposite halves, and so on.
func TestPositionIsCutechessPlayerSeed(t *testing.T) {
	for _, c := range []struct {
		size int
		want []int // the position of ranks 1..size
	}{
		{2, []int{0, 1}},
		{4, []int{0, 2, 1, 3}},
		{8, []int{0, 4, 2, 6, 1, 5, 3, 7}},
	} {
		var got []int
		for rank := 1; rank <= c.size; rank++ {
			got = append(got, position(rank, c.size))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("size %d: positions %v, want %v", c.size, got, c.want)
		}
	}
}

func TestFirstRound(t *testing.T) {
	for _, c := range []struct {
		name    string
		players []string
		seeds   int
		want    []string
	}{
		// All seeded: playerSeed puts ranks 1..4 at 0, 2, 1, 3, so
		// initializePairing pairs 1 with 3 and 2 with 4.
		{"four seeded", []string{"a", "b", "c", "d"}, 4, []string{"a", "c", "b", "d"}},
		// Five players in a bracket of 8: three byes, for seeds 1, 2 and 3
		// (the byes go to playerSeed(byes)+1, the top seeds' opponents).
		{"five seeded", []string{"a", "b", "c", "d", "e"}, 5, []string{"a", "", "c", "", "b", "", "d", "e"}},
		{"three seeded", []string{"a", "b", "c"}, 3, []string{"a", "", "b", "c"}},
	} {
		got := firstRound(Settings{Players: c.players, Seeds: c.seeds, Games: 2, Seed: 1})
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: first round %q, want %q", c.name, got, c.want)
		}
	}
}

// Unseeded players are drawn from the seed: the same seed, the same draw;
// the seeds keep their places.
func TestUnseededDraw(t *testing.T) {
	players := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	draw := func(seed uint64) []string {
		return firstRound(Settings{Players: players, Seeds: 2, Games: 2, Seed: seed})
	}
	if !slices.Equal(draw(7), draw(7)) {
		t.Fatal("the same seed drew different brackets")
	}
	differs := false
	for seed := uint64(1); seed < 10; seed++ {
		b := draw(seed)
		if b[0] != "a" || b[4] != "b" {
			t.Fatalf("seed %d: seeds moved: %q", seed, b)
		}
		differs = differs || !slices.Equal(b, draw(1))
	}
	if !differs {
		t.Fatal("nine seeds drew the same bracket")
	}
}

// results plays every game of a bracket by a rule: White's points of
// game (pair, index) between its two players.
func results(s Settings, rule func(pair, index int, white, black string) float64) Bracket {
	played := map[[2]int]float64{}
	for {
		b := Plan(s, func(pair, index int) (float64, bool) {
			w, ok := played[[2]int{pair, index}]
			return w, ok
		})
		if b.Winner != "" || len(b.Pending) == 0 {
			return b
		}
		for _, sl := range b.Pending {
			played[[2]int{sl.Pair, 0}] = rule(sl.Pair, 0, sl.First, sl.Second)
			played[[2]int{sl.Pair, 1}] = rule(sl.Pair, 1, sl.Second, sl.First)
		}
	}
}

// stronger: the player earlier in the alphabet wins.
func stronger(_, _ int, white, black string) float64 {
	if white < black {
		return 1
	}
	return 0
}

func TestFivePlayersWithByes(t *testing.T) {
	s := Settings{Players: []string{"a", "b", "c", "d", "e"}, Seeds: 5, Games: 2, Seed: 1}
	b := results(s, stronger)
	if b.Winner != "a" || len(b.Rounds) != 3 {
		t.Fatalf("winner %q after %d rounds, want a after 3", b.Winner, len(b.Rounds))
	}
	want := [][]string{{"a-", "c-", "b-", "d-e d"}, {"a-c a", "b-d b"}, {"a-b a"}}
	for r, round := range b.Rounds {
		var got []string
		for _, e := range round.Encounters {
			s := e.First + "-" + e.Second
			if !e.Bye() {
				s += " " + e.Winner
			}
			got = append(got, s)
		}
		if !slices.Equal(got, want[r]) {
			t.Errorf("round %d: %q, want %q", r+1, got, want[r])
		}
	}
	// 4 encounters of 2 games, numbered round by round: pairs 0..3.
	var pairs []int
	for _, r := range b.Rounds {
		for _, e := range r.Encounters {
			pairs = append(pairs, e.Pairs...)
		}
	}
	if !slices.Equal(pairs, []int{0, 1, 2, 3}) || BaseGames(5, 2) != 8 {
		t.Errorf("pairs %v, base games %d", pairs, BaseGames(5, 2))
	}
}

// A tie after the encounter's games is broken by further pairs, one at a
// time, until one player leads after a pair (cutechess-cli's
// needMoreGames with an even -games); a pair won 1.5-0.5 decides.
func TestTieBreakPairs(t *testing.T) {
	s := Settings{Players: []string{"a", "b", "c", "d"}, Seeds: 4, Games: 4, Seed: 1}
	// a-c: every game White wins (2-2 after the two pairs), then a wins
	// both games of the tie-break pair 4. b-d: b wins.
	b := results(s, func(pair, index int, white, black string) float64 {
		if (white == "a" || black == "a") && pair < 4 {
			return 1
		}
		if pair == 4 {
			return map[bool]float64{true: 1, false: 0}[white == "a"]
		}
		return stronger(pair, index, white, black)
	})
	e := b.Rounds[0].Encounters[0]
	if e.First != "a" || e.Winner != "a" || !e.TieBreak || e.Games != 6 || e.Points != [2]float64{4, 2} {
		t.Fatalf("a-c: %+v", e)
	}
	// a-c's pairs 0,1; b-d's 2,3; then the tie-break wave: a-c's 4.
	if !slices.Equal(e.Pairs, []int{0, 1, 4}) {
		t.Errorf("a-c's pairs %v, want [0 1 4]", e.Pairs)
	}
	if e2 := b.Rounds[0].Encounters[1]; e2.TieBreak || e2.Winner != "b" {
		t.Errorf("b-d: %+v", e2)
	}
	if b.Winner != "a" || b.Rounds[1].Encounters[0].Pairs[0] != 5 {
		t.Errorf("winner %q, final %+v", b.Winner, b.Rounds[1].Encounters[0])
	}
}

// Engines that draw for ever: after MaxTieBreakPairs the higher-placed
// player advances, where cutechess-cli would play on.
func TestEndlessTieEnds(t *testing.T) {
	s := Settings{Players: []string{"a", "b"}, Seeds: 2, Games: 2, Seed: 1}
	b := results(s, func(int, int, string, string) float64 { return 0.5 })
	e := b.Rounds[0].Encounters[0]
	if b.Winner != "a" || len(e.Pairs) != 1+MaxTieBreakPairs {
		t.Fatalf("winner %q after %d pairs, want a after %d", b.Winner, len(e.Pairs), 1+MaxTieBreakPairs)
	}
}

// Pending holds the games a round needs before anything more is known.
func TestPendingWaitsForTheRound(t *testing.T) {
	s := Settings{Players: []string{"a", "b", "c", "d"}, Seeds: 4, Games: 2, Seed: 1}
	b := Plan(s, func(pair, index int) (float64, bool) { return 1, pair == 0 })
	if len(b.Rounds) != 1 || len(b.Pending) != 2 || b.Winner != "" {
		t.Fatalf("with one pair of round 1 stored: %d rounds, pending %+v", len(b.Rounds), b.Pending)
	}
}
