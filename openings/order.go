package openings

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Names of the orders Order knows.
const (
	// OrderSequential keeps the set's or file's order.
	OrderSequential = "sequential"
	// OrderRandom shuffles deterministically from a seed.
	OrderRandom = "random"
)

// OrderNames returns the names of the orders Order knows.
func OrderNames() []string { return []string{OrderSequential, OrderRandom} }

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
func Order(list []Opening, order string, seed uint64) ([]Opening, error) {
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
		return nil, fmt.Errorf("openings: unknown order %q (valid: %s)", order, strings.Join(OrderNames(), ", "))
	}
	return out, nil
}
