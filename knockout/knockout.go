// Package knockout is the bracket of a knockout tournament, as
// cutechess-cli plays one (projects/lib/src/knockouttournament.cpp):
// seeded players placed apart, byes for the top seeds when the players
// are not a power of two, each encounter a number of games with tie-break
// games after a tie, the winners of a round paired in the next. Plan
// computes the bracket from the results stored so far, so the runner (what
// to play next, and an exact resume) and the report (the bracket) read it
// the same way.
//
// selfplay plays every opening as a game pair, both colours, so an
// encounter is games/2 pairs (cutechess-cli's -games with -repeat) and a
// tie after them is broken pair by pair, as cutechess-cli breaks it for an
// even -games (needMoreGames). Unlike cutechess-cli, an encounter plays all
// its pairs even when decided early, so that the pairs of a round do not
// wait on one another and the games played do not depend on timing.
package knockout

import "math/rand/v2"

// MaxTieBreakPairs bounds the tie-break pairs of an encounter: engines that
// play the same games (node limits, one opening) would tie for ever, where
// cutechess-cli plays on. After them the higher-placed player advances.
const MaxTieBreakPairs = 10

// Settings are a knockout's players and rules.
type Settings struct {
	Players []string // in the config's order: the first Seeds are seeds 1, 2, ...
	Seeds   int      // players placed by their order; the others are drawn from Seed
	Games   int      // games of an encounter before tie-breaks (even, >= 2)
	Seed    uint64
}

// Slot is a game pair to play: the Pair-th of the tournament (its games
// are 2*Pair and 2*Pair+1), the K-th pair of its encounter in knockout
// round Round (from 0). First has White in the pair's first game.
type Slot struct {
	Pair, Round, K int
	First, Second  string
}

// Encounter is two players of a round (Second "" for a bye) and what
// their games add up to.
type Encounter struct {
	First, Second string
	Points        [2]float64 // First's and Second's points
	Games         int        // games counted
	Pairs         []int      // the pair numbers played or to play
	Winner        string     // "" while undecided
	TieBreak      bool       // tie-break pairs were needed
}

// Bye reports an encounter without an opponent: First advances unplayed.
func (e Encounter) Bye() bool { return e.Second == "" }

// Round is the encounters of one round of the bracket.
type Round struct{ Encounters []Encounter }

// Bracket is the knockout as far as the results go.
type Bracket struct {
	Rounds []Round
	// Pending is the pairs that must be played before the bracket can go
	// on (a round's pairs, or a wave of tie-breaks); some of their games
	// may be stored already. Empty when Winner is set.
	Pending []Slot
	Winner  string
}

// Result gives the White player's points of a stored game (1, 0.5 or 0),
// false when the game is not stored.
type Result func(pair, index int) (white float64, ok bool)

// BaseGames is the games of a knockout of n players without tie-breaks:
// n-1 encounters (the byes play none) of games each, as cutechess-cli's
// gamesPerCycle times its -games.
func BaseGames(n, games int) int { return max(n-1, 0) * games }

// Games is the knockout's games as far as the bracket goes: those without
// tie-breaks (BaseGames) and the tie-break pairs planned so far; every
// game of the knockout once it has a winner.
func (b Bracket) Games(s Settings) int {
	n := BaseGames(len(s.Players), s.Games)
	for _, r := range b.Rounds {
		for _, e := range r.Encounters {
			if !e.Bye() {
				n += 2*len(e.Pairs) - s.Games
			}
		}
	}
	return n
}

// Rounds is the rounds of a knockout of n players: a bracket of the
// next power of two, halved each round.
func Rounds(n int) int {
	r := 0
	for size := 1; size < n; size *= 2 {
		r++
	}
	return r
}

// Plan computes the bracket from the results stored so far.
func Plan(s Settings, result Result) Bracket {
	var b Bracket
	entrants := firstRound(s)
	next := 0 // the next free pair number
	for r := 0; ; r++ {
		round := Round{}
		for i := 0; i+1 < len(entrants); i += 2 {
			round.Encounters = append(round.Encounters, Encounter{First: entrants[i], Second: entrants[i+1]})
		}
		var wave []Slot
		for i := range round.Encounters {
			e := &round.Encounters[i]
			if e.Bye() {
				e.Winner = e.First
				continue
			}
			for k := 0; k < s.Games/2; k++ {
				wave = append(wave, addPair(e, &next, r))
			}
		}
		for len(wave) > 0 {
			if !count(round.Encounters, wave, result) {
				b.Rounds = append(b.Rounds, round)
				b.Pending = wave
				return b
			}
			wave = tieBreaks(round.Encounters, &next, r, s.Games/2+MaxTieBreakPairs)
		}
		b.Rounds = append(b.Rounds, round)
		entrants = entrants[:0:0]
		for _, e := range round.Encounters {
			entrants = append(entrants, e.Winner)
		}
		if len(entrants) <= 1 {
			if len(entrants) == 1 {
				b.Winner = entrants[0]
			}
			return b
		}
	}
}

// addPair gives encounter e of round r its next pair.
func addPair(e *Encounter, next *int, r int) Slot {
	sl := Slot{Pair: *next, Round: r, K: len(e.Pairs), First: e.First, Second: e.Second}
	e.Pairs = append(e.Pairs, *next)
	*next++
	return sl
}

// count adds the wave's results to its encounters; false when a game of
// it is not stored yet (then nothing is decided).
func count(es []Encounter, wave []Slot, result Result) bool {
	type pts struct {
		p [2]float64
		n int
	}
	add := map[string]pts{}
	for _, sl := range wave {
		for index := 0; index < 2; index++ {
			w, ok := result(sl.Pair, index)
			if !ok {
				return false
			}
			first := w
			if index == 1 {
				first = 1 - w
			}
			a := add[sl.First]
			a.p[0] += first
			a.p[1] += 1 - first
			a.n++
			add[sl.First] = a
		}
	}
	for i := range es {
		if a, ok := add[es[i].First]; ok {
			es[i].Points[0] += a.p[0]
			es[i].Points[1] += a.p[1]
			es[i].Games += a.n
		}
	}
	return true
}

// tieBreaks decides the encounters whose pairs are all counted: the one
// ahead wins; a tie plays another pair (the next wave), up to
// MaxTieBreakPairs, after which First advances.
func tieBreaks(es []Encounter, next *int, r, maxPairs int) []Slot {
	var wave []Slot
	for i := range es {
		e := &es[i]
		if e.Winner != "" {
			continue
		}
		switch {
		case e.Points[0] > e.Points[1]:
			e.Winner = e.First
		case e.Points[0] < e.Points[1]:
			e.Winner = e.Second
		case len(e.Pairs) >= maxPairs:
			e.Winner = e.First
		default:
			e.TieBreak = true
			wave = append(wave, addPair(e, next, r))
		}
	}
	return wave
}

// firstRound is the first round's entrants in bracket order, "" for a bye:
// cutechess-cli's initializePairing. The seeds keep their order and the
// other players are drawn at random (from s.Seed); each takes the
// bracket position of its rank (playerSeed), and the byes go to the top
// seeds' opponents.
func firstRound(s Settings) []string {
	n := len(s.Players)
	size := 1
	for size < n {
		size *= 2
	}
	seeds := min(max(s.Seeds, 0), n)
	players := make([]int, 0, size)
	for i := 0; i < seeds; i++ {
		players = append(players, i)
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x6b6e6f636b6f7574)) // "knockout"
	unseeded := make([]int, 0, n-seeds)
	for i := seeds; i < n; i++ {
		unseeded = append(unseeded, i)
	}
	for len(unseeded) > 0 {
		i := rng.IntN(len(unseeded))
		players = append(players, unseeded[i])
		unseeded = append(unseeded[:i], unseeded[i+1:]...)
	}
	for len(players) < size {
		players = append(players, -1)
	}
	all := make([]int, size)
	for i := range all {
		all[i] = -1
	}
	byes := 0
	for i, p := range players {
		index := position(i+1, size)
		if p == -1 {
			byes++
			byeIndex := position(byes, size) + 1
			all[index] = all[byeIndex]
			all[byeIndex] = -1
			continue
		}
		all[index] = p
	}
	out := make([]string, size)
	for i, p := range all {
		if p >= 0 {
			out[i] = s.Players[p]
		}
	}
	return out
}

// position is the bracket position of the player of that rank (from 1) in
// a bracket of size places: cutechess-cli's playerSeed, which puts seeds 1
// and 2 in opposite halves, 1 and 4 (2 and 3) in opposite quarters of
// theirs, and so on.
func position(rank, size int) int {
	if rank <= 1 {
		return 0
	}
	if rank%2 == 0 {
		return size/2 + position(rank/2, size/2)
	}
	return position(rank/2+1, size/2)
}
