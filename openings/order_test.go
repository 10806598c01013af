package openings

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func ids(list []Opening) []string {
	out := make([]string, len(list))
	for i, o := range list {
		out[i] = o.ID
	}
	return out
}

func TestOrderSequential(t *testing.T) {
	for _, list := range [][]Opening{nil, {}, FHR25(), TwoPly()} {
		got, err := Order(list, OrderSequential, 7, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got, list, func(a, b Opening) bool {
			return a.ID == b.ID && a.Name == b.Name && a.StartFEN == b.StartFEN &&
				slices.Equal(a.Moves, b.Moves) && slices.Equal(a.SAN, b.SAN)
		}) {
			t.Errorf("sequential changed the list: %v", ids(got))
		}
		if len(got) > 0 {
			got[0].Moves[0] = "x"
			if list[0].Moves[0] == "x" {
				t.Error("the result shares its move slices with the input")
			}
		}
	}
}

func TestOrderRandom(t *testing.T) {
	list := FHR25()
	before := ids(list)
	for _, c := range []struct {
		seed uint64
		want string // the first five IDs, pinned: the order must never change
	}{
		{0, "fhr-04 fhr-03 fhr-07 fhr-09 fhr-05"},
		{1, "fhr-04 fhr-23 fhr-15 fhr-17 fhr-14"},
		{42, "fhr-10 fhr-08 fhr-15 fhr-02 fhr-23"},
	} {
		a, err := Order(list, OrderRandom, c.seed, 1)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Order(list, OrderRandom, c.seed, 1)
		if !slices.Equal(ids(a), ids(b)) {
			t.Errorf("seed %d: two different orders", c.seed)
		}
		if got := strings.Join(ids(a)[:5], " "); got != c.want {
			t.Errorf("seed %d: order starts %q, want %q", c.seed, got, c.want)
		}
		if slices.Equal(ids(a), before) {
			t.Errorf("seed %d: not shuffled", c.seed)
		}
		sorted := slices.Sorted(slices.Values(ids(a)))
		if !slices.Equal(sorted, before) {
			t.Errorf("seed %d: not a permutation: %v", c.seed, ids(a))
		}
		other, _ := Order(list, OrderRandom, c.seed+1000, 1)
		if slices.Equal(ids(a), ids(other)) {
			t.Errorf("seeds %d and %d give the same order", c.seed, c.seed+1000)
		}
	}
	if !slices.Equal(ids(list), before) {
		t.Error("Order modified its input")
	}
	// Moves stay with their openings.
	shuffled, _ := Order(list, OrderRandom, 3, 1)
	byID := map[string]Opening{}
	for _, o := range list {
		byID[o.ID] = o
	}
	for _, o := range shuffled {
		if !slices.Equal(o.Moves, byID[o.ID].Moves) {
			t.Errorf("%s: moves %v, want %v", o.ID, o.Moves, byID[o.ID].Moves)
		}
	}
}

func TestOrderUnknown(t *testing.T) {
	for _, order := range []Ordering{"", "Random", "shuffle"} {
		_, err := Order(FHR25(), order, 1, 1)
		wantErr(t, err, "unknown order", "sequential, random")
	}
	if !slices.Equal(Orderings(), []Ordering{"sequential", "random", "fastchess-random"}) {
		t.Errorf("Orderings() = %v", Orderings())
	}
}

// The C++ standard fixes std::mt19937_64 by its 10000th output after
// default construction (seed 5489): 9981545732273789042 (rand.predef).
func TestMT19937_64(t *testing.T) {
	mt := newMT19937_64(5489)
	var x uint64
	for range 10000 {
		x = mt.next()
	}
	if x != 9981545732273789042 {
		t.Errorf("10000th output of mt19937_64(5489) = %d, want 9981545732273789042", x)
	}
}

func TestOrderStart(t *testing.T) {
	list := FHR25()[:5]
	for _, tt := range []struct {
		start int
		want  []string
	}{
		{1, []string{"fhr-01", "fhr-02", "fhr-03", "fhr-04", "fhr-05"}},
		{2, []string{"fhr-02", "fhr-03", "fhr-04", "fhr-05", "fhr-01"}},
		{5, []string{"fhr-05", "fhr-01", "fhr-02", "fhr-03", "fhr-04"}},
		{13, []string{"fhr-03", "fhr-04", "fhr-05", "fhr-01", "fhr-02"}}, // wraps: 12 mod 5
	} {
		got, err := Order(list, OrderSequential, 1, tt.start)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, o := range got {
			ids = append(ids, o.ID)
		}
		if !slices.Equal(ids, tt.want) {
			t.Errorf("start %d: %v, want %v", tt.start, ids, tt.want)
		}
	}
	if _, err := Order(list, OrderSequential, 1, 0); err == nil {
		t.Error("start 0: no error")
	}
}

// fastchess 1.8.2 (v1.8.2-alpha, f618e345) with "-openings file=book50.epd
// format=epd order=random start=S -srand 42" played the book's lines in
// this order (cmd/selfplay/testdata/fastchess-schedule: random1.txt, the
// first 50 rounds), and with start=123457 -srand 18446744073709551557 (a
// seed over selfplay's int64 seed key) these 12 (bigseed, -rounds 12).
func TestOrderFastchessRandom(t *testing.T) {
	list := make([]Opening, 50)
	for i := range list {
		list[i] = Opening{ID: strconv.Itoa(i + 1)}
	}
	for _, tt := range []struct {
		seed  uint64
		start int
		want  string
	}{
		{42, 1, "7 40 13 3 50 29 47 39 4 33 46 42 37 24 48 10 6 5 20 34 2 49 28 31 38 36 26 9 17 19 18 32 43 44 1 25 23 22 16 21 12 27 15 35 30 11 41 45 14 8"},
		{18446744073709551557, 123457, "39 37 34 13 21 16 25 47 4 5 49 9"},
	} {
		got, err := Order(list, OrderFastchessRandom, tt.seed, tt.start)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Fields(tt.want)
		if g := ids(got)[:len(want)]; !slices.Equal(g, want) {
			t.Errorf("seed %d start %d: %v, want %v", tt.seed, tt.start, g, want)
		}
	}
}
