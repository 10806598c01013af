package config

import (
	"reflect"
	"strings"
	"testing"
)

// gauntlet_seeds: the first N engines each play every engine after them,
// as fastchess's -seeds (schedule/base_scheduler.hpp:64-74); the snapshot
// has the key only over 1, so an existing gauntlet keeps its snapshot.
func TestGauntletSeeds(t *testing.T) {
	encode := func(body string) (Tournament, string) {
		t.Helper()
		f := mustLoad(t, engABC+koTourn(body), nil)
		tr := f.Tournaments[0]
		s, err := tr.Snapshot(f)
		if err != nil {
			t.Fatal(err)
		}
		text, err := s.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return tr, string(text)
	}
	_, plain := encode(`format = "gauntlet"`)
	one, explicit := encode("format = \"gauntlet\"\ngauntlet_seeds = 1")
	two, seeded := encode("format = \"gauntlet\"\ngauntlet_seeds = 2")
	if plain != explicit || strings.Contains(plain, "gauntlet_seeds") {
		t.Errorf("gauntlet_seeds = 1 changed the snapshot:\n%s\n%s", plain, explicit)
	}
	if !strings.Contains(seeded, `"gauntlet_seeds":2`) {
		t.Errorf("snapshot of gauntlet_seeds = 2 without it:\n%s", seeded)
	}
	if want := [][2]string{{"a", "b"}, {"a", "c"}}; !reflect.DeepEqual(one.Pairings(), want) {
		t.Errorf("one seed: pairings %v, want %v", one.Pairings(), want)
	}
	if want := [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}}; !reflect.DeepEqual(two.Pairings(), want) || two.Games(3) != 3*3*2 {
		t.Errorf("two seeds: pairings %v, %d games of 3 openings; want %v, 18", two.Pairings(), two.Games(3), want)
	}
}

func TestGauntletSeedsErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"format = \"gauntlet\"\ngauntlet_seeds = 3", "gauntlet_seeds: 3 is out of range: want 1..2"},
		{"format = \"gauntlet\"\ngauntlet_seeds = 0", "gauntlet_seeds: 0 is out of range: want 1..2"},
		{"format = \"round-robin\"\ngauntlet_seeds = 2", `gauntlet_seeds: applies only to format = "gauntlet" (this tournament is "round-robin")`},
		{"gauntlet_seeds = 1", `gauntlet_seeds: applies only to format = "gauntlet"`},
	} {
		_, _, err := load(t, engABC+koTourn(c.body), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.body, err, c.want)
		}
	}
}
