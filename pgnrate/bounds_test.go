package pgnrate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// gamesText writes one short game per (white, black, termination).
func gamesText(games [][3]string) string {
	var b strings.Builder
	for _, g := range games {
		fmt.Fprintf(&b, "[White %q]\n[Black %q]\n[Result \"1-0\"]\n", g[0], g[1])
		if g[2] != "" {
			fmt.Fprintf(&b, "[Termination %q]\n", g[2])
		}
		b.WriteString("\n1. e4 e5 1-0\n\n")
	}
	return b.String()
}

// A game past maxEngines, maxPairings or maxTerminations ends the read with
// an error wrapping errTooMany at its line; up to them the games are rated.
func TestBounds(t *testing.T) {
	// Lines per game (with a Termination tag).
	const lines = 7
	// n new engines, a game per two.
	engines := func(n int) [][3]string {
		var g [][3]string
		for i := 0; i+1 < n; i += 2 {
			g = append(g, [3]string{fmt.Sprint("e", i), fmt.Sprint("e", i+1), "t"})
		}
		return g
	}
	pairings := func(n int) [][3]string { // n pairings among 200 engines
		var g [][3]string
		for i := 0; len(g) < n; i++ {
			for j := i + 1; j < 200 && len(g) < n; j++ {
				g = append(g, [3]string{fmt.Sprint("e", i), fmt.Sprint("e", j), "t"})
			}
		}
		return g
	}
	terms := func(n int) [][3]string { // n Termination tags
		var g [][3]string
		for i := range n {
			g = append(g, [3]string{"a", "b", fmt.Sprint("term", i)})
		}
		return g
	}
	cases := []struct {
		name  string
		games [][3]string
		want  string // "" for no error
	}{
		{"engines at the bound", engines(maxEngines), ""},
		{"engines past it", engines(maxEngines + 2), fmt.Sprintf("t.pgn:%d: more than 1000 engines: too many to rate at once", maxEngines/2*lines+1)},
		{"pairings at the bound", pairings(maxPairings), ""},
		{"pairings past it", pairings(maxPairings + 1), fmt.Sprintf("t.pgn:%d: more than 10000 pairings (pairs of engines that played each other): too many to rate at once", maxPairings*lines+1)},
		{"terminations at the bound", terms(maxTerminations), ""},
		{"terminations past it", terms(maxTerminations + 1), fmt.Sprintf("t.pgn:%d: more than 100 different Termination tags: too many to rate at once", maxTerminations*lines+1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := NewPool(0)
			err := p.Read(context.Background(), strings.NewReader(gamesText(c.games)), "t.pgn", nil)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if in := p.Input(); in.Rated != len(c.games) {
					t.Fatalf("rated %d of %d games", in.Rated, len(c.games))
				}
				return
			}
			if !errors.Is(err, errTooMany) || err.Error() != c.want {
				t.Fatalf("error %v\nwant %s", err, c.want)
			}
		})
	}
}

// The counts stay within the bounds when the games come in several files.
func TestBoundsAcrossFiles(t *testing.T) {
	p := NewPool(0)
	half := maxEngines / 2
	for f, first := range []int{0, half - 1} { // the second file brings the 1001st engine
		var g [][3]string
		for i := first; i+1 < first+half+2; i += 2 {
			g = append(g, [3]string{fmt.Sprint("e", i), fmt.Sprint("e", i+1), ""})
		}
		err := p.Read(context.Background(), strings.NewReader(gamesText(g)), fmt.Sprint(f, ".pgn"), nil)
		if f == 0 && err != nil || f == 1 && !errors.Is(err, errTooMany) {
			t.Fatalf("file %d: %v", f, err)
		}
	}
}
