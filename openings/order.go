package openings

import (
	"fmt"
	"math/rand/v2"
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
)

// Orderings returns the orderings Order knows.
func Orderings() []Ordering { return []Ordering{OrderSequential, OrderRandom} }

// pcgStream is the second PCG seed word ("selfplay" in ASCII); with the
// user's seed as the first it fixes the random order.
const pcgStream = 0x73656c66706c6179

// Order returns a new slice with the openings in the named order; list is not
// modified and the result shares no slices with it.
//
// "sequential" keeps the order. "random" is the Fisher-Yates shuffle of
// math/rand/v2's Rand.Shuffle driven by rand.NewPCG(seed, 0x73656c66706c6179):
// the same seed gives the same order on every platform, and math/rand/v2
// keeps the outputs of PCG and Shuffle stable across Go releases.
func Order(list []Opening, order Ordering, seed uint64) ([]Opening, error) {
	out := make([]Opening, len(list))
	for i, o := range list {
		out[i] = o.clone()
	}
	switch order {
	case OrderSequential:
	case OrderRandom:
		r := rand.New(rand.NewPCG(seed, pcgStream))
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	default:
		return nil, fmt.Errorf("openings: unknown order %q (valid: %s, %s)", order, OrderSequential, OrderRandom)
	}
	return out, nil
}
