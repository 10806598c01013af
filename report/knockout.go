package report

import (
	"fmt"
	"strconv"
	"strings"
)

// Knockout is a knockout tournament's bracket as far as its stored games
// go: the rounds planned so far (a round is planned once the one before
// it is decided), each encounter with its score and winner.
type Knockout struct {
	// Games is an encounter's games before tie-breaks (knockout.games);
	// a tie after them plays one more game pair at a time, at most
	// MaxTieBreakPairs, after which the higher-placed player advances.
	Games            int `json:"games"`
	MaxTieBreakPairs int `json:"max_tie_break_pairs"`
	// Seeds are the seeded players, seed 1 first (knockout.seeds); the
	// others were drawn from the tournament's seed.
	Seeds []string `json:"seeds"`
	// RoundCount is the rounds of the whole bracket; Rounds those planned.
	RoundCount int             `json:"round_count"`
	Rounds     []KnockoutRound `json:"rounds"`
	Winner     string          `json:"winner"` // "" while undecided
}

// KnockoutRound is one round's encounters in bracket order.
type KnockoutRound struct {
	Encounters []KnockoutEncounter `json:"encounters"`
}

// KnockoutEncounter is two players of a round, or a player with a bye
// (Bye, Second ""), who advances without playing.
type KnockoutEncounter struct {
	First      string `json:"first"` // White in the first game of each pair
	FirstSeed  int    `json:"first_seed"`
	Second     string `json:"second"`
	SecondSeed int    `json:"second_seed"` // seeds count from 1; 0: unseeded
	Bye        bool   `json:"bye"`
	// Points are each player's points in the encounter's stored games.
	FirstPoints  Float `json:"first_points"`
	SecondPoints Float `json:"second_points"`
	Games        int   `json:"games"` // stored
	// Pairs are the encounter's game pairs, played or to play, numbered
	// from 1 as the games' PGN Round tags ("P.1" and "P.2").
	Pairs         []int  `json:"pairs"`
	TieBreakPairs int    `json:"tie_break_pairs"`
	Winner        string `json:"winner"` // "" while undecided
}

// knockoutParts are a knockout's rules and winner, then its rounds one by
// one.
func knockoutParts(k Knockout) []part {
	seeds := "none (the bracket was drawn from the tournament's seed)"
	if len(k.Seeds) > 0 {
		named := make([]string, len(k.Seeds))
		for i, s := range k.Seeds {
			named[i] = fmt.Sprintf("%d %s", i+1, s)
		}
		seeds = strings.Join(named, ", ")
	}
	winner := k.Winner
	if winner == "" {
		winner = fmt.Sprintf("undecided (round %d of %d)", len(k.Rounds), k.RoundCount)
	}
	parts := []part{{
		heading: "Knockout",
		facts: []fact{
			{"encounter", fmt.Sprintf("%d games; after a tie, one more game pair at a time, at most %d, "+
				"then the higher-placed player advances", k.Games, k.MaxTieBreakPairs)},
			{"seeds", seeds},
			{"winner", winner},
		},
	}}
	for i, r := range k.Rounds {
		tb := &table{
			head:    []string{"first", "second", "score", "games", "pairs (PGN Round)", "tie-break pairs", "winner"},
			numeric: []bool{false, false, true, true, false, true, false},
		}
		for _, e := range r.Encounters {
			tb.rows = append(tb.rows, encounterRow(e))
		}
		parts = append(parts, part{heading: fmt.Sprintf("Knockout round %d of %d", i+1, k.RoundCount), table: tb})
	}
	return parts
}

// encounterRow is an encounter's row of its round's table.
func encounterRow(e KnockoutEncounter) []string {
	if e.Bye {
		return []string{seeded(e.First, e.FirstSeed), "bye", "", "", "", "", e.First}
	}
	winner := e.Winner
	if winner == "" {
		winner = "undecided"
	}
	score := points(e.FirstPoints) + "-" + points(e.SecondPoints)
	return []string{seeded(e.First, e.FirstSeed), seeded(e.Second, e.SecondSeed), score, itoa(e.Games),
		numberRanges(e.Pairs), itoa(e.TieBreakPairs), winner}
}

// seeded is a player's name with its seed, "plain [1]".
func seeded(name string, seed int) string {
	if seed == 0 {
		return name
	}
	return name + " [" + strconv.Itoa(seed) + "]"
}

// numberRanges writes ascending numbers as ranges: "1-3, 7, 9-10".
func numberRanges(ns []int) string {
	var out []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		s := itoa(ns[i])
		if j > i {
			s += "-" + itoa(ns[j])
		}
		out = append(out, s)
		i = j + 1
	}
	return strings.Join(out, ", ")
}
