package openings

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Ordering is an order Order puts openings in, as the config's order key
// names it.
type Ordering string

// The orderings Order knows.
const (
	// OrderSequential keeps the set's or file's order.
	OrderSequential Ordering = "sequential"
	// OrderRandom shuffles deterministically from a seed.
	OrderRandom Ordering = "random"
	// OrderFastchessRandom is fastchess's order=random: one shuffle from
	// the seed (-srand) by fastchess's own generator and rule.
	OrderFastchessRandom Ordering = "fastchess-random"
)

// Orderings returns the orderings Order knows.
func Orderings() []Ordering {
	return []Ordering{OrderSequential, OrderRandom, OrderFastchessRandom}
}

// joinOrderings is Orderings for a message: "sequential, random, ...".
func joinOrderings() string {
	names := make([]string, 0, len(Orderings()))
	for _, o := range Orderings() {
		names = append(names, string(o))
	}
	return strings.Join(names, ", ")
}

// PerRound tells whether the order depends on the round: "random" is
// reshuffled each round (from the seed plus the round); the others are
// the same every round.
func (o Ordering) PerRound() bool { return o == OrderRandom }

// pcgStream is the second PCG seed word ("selfplay" in ASCII); with the
// user's seed as the first it fixes the random order.
const pcgStream = 0x73656c66706c6179

// Order returns a new slice with the openings in the named order, rotated
// to begin at the start-th (1-based; past the end it wraps around); list
// is not modified and the result shares no slices with it.
//
// "sequential" keeps the order. "random" is the Fisher-Yates shuffle of
// math/rand/v2's Rand.Shuffle driven by rand.NewPCG(seed, 0x73656c66706c6179):
// the same seed gives the same order on every platform, and math/rand/v2
// keeps the outputs of PCG and Shuffle stable across Go releases.
//
// "fastchess-random" is fastchess 1.8.2's shuffle of the whole book
// (app/src/game/book/opening_book.hpp:21-27, called once at
// opening_book.cpp:40-43): for i from 0 while i+2 <= n, swap i with
// i + r mod (n-i), r the next output of std::mt19937_64 seeded with seed
// (core/rand.hpp:20-23); then, as fastchess's start= (opening_book.cpp:45-48),
// the rotation by start-1.
func Order(list []Opening, order Ordering, seed uint64, start int) ([]Opening, error) {
	if start < 1 {
		return nil, fmt.Errorf("openings: start %d: want 1 or more", start)
	}
	out := make([]Opening, len(list))
	for i, o := range list {
		out[i] = o.clone()
	}
	switch order {
	case OrderSequential:
	case OrderRandom:
		r := rand.New(rand.NewPCG(seed, pcgStream))
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	case OrderFastchessRandom:
		fastchessShuffle(out, seed)
	default:
		return nil, fmt.Errorf("openings: unknown order %q (valid: %s)", order, joinOrderings())
	}
	if n := len(out); n > 0 {
		k := (start - 1) % n
		out = slices.Concat(out[k:], out[:k])
	}
	return out, nil
}

// fastchessShuffle shuffles list in place as fastchess's
// Openings::shuffle does after random::seed(seed).
func fastchessShuffle(list []Opening, seed uint64) {
	mt := newMT19937_64(seed)
	for i := 0; i+2 <= len(list); i++ {
		j := i + int(mt.next()%uint64(len(list)-i))
		list[i], list[j] = list[j], list[i]
	}
}
