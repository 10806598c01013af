package openings

import (
	"slices"
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
		got, err := Order(list, OrderSequential, 7)
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
		a, err := Order(list, OrderRandom, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Order(list, OrderRandom, c.seed)
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
		other, _ := Order(list, OrderRandom, c.seed+1000)
		if slices.Equal(ids(a), ids(other)) {
			t.Errorf("seeds %d and %d give the same order", c.seed, c.seed+1000)
		}
	}
	if !slices.Equal(ids(list), before) {
		t.Error("Order modified its input")
	}
	// Moves stay with their openings.
	shuffled, _ := Order(list, OrderRandom, 3)
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
		_, err := Order(FHR25(), order, 1)
		wantErr(t, err, "unknown order", "sequential, random")
	}
	if !slices.Equal(Orderings(), []Ordering{"sequential", "random"}) {
		t.Errorf("Orderings() = %v", Orderings())
	}
}
