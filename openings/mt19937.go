package openings

// mt19937_64 is the 64-bit Mersenne Twister of C++'s std::mt19937_64
// (the C++ standard's parameters, rand.predef), which fastchess seeds
// from -srand and draws its opening shuffle from: its output for a seed is
// fixed by the standard, so the shuffle is the same as fastchess's on
// every platform.
type mt19937_64 struct {
	state [mtN]uint64
	i     int
}

const (
	mtN         = 312
	mtM         = 156
	mtMatrix    = 0xb5026f5aa96619e9
	mtUpperMask = 0xffffffff80000000
	mtLowerMask = 0x7fffffff
)

// newMT19937_64 is std::mt19937_64(seed).
func newMT19937_64(seed uint64) *mt19937_64 {
	m := &mt19937_64{i: mtN}
	m.state[0] = seed
	for i := 1; i < mtN; i++ {
		prev := m.state[i-1]
		m.state[i] = 6364136223846793005*(prev^(prev>>62)) + uint64(i)
	}
	return m
}

// next is the generator's operator().
func (m *mt19937_64) next() uint64 {
	if m.i >= mtN {
		m.twist()
	}
	x := m.state[m.i]
	m.i++
	x ^= (x >> 29) & 0x5555555555555555
	x ^= (x << 17) & 0x71d67fffeda60000
	x ^= (x << 37) & 0xfff7eee000000000
	x ^= x >> 43
	return x
}

func (m *mt19937_64) twist() {
	for i := range mtN {
		x := (m.state[i] & mtUpperMask) | (m.state[(i+1)%mtN] & mtLowerMask)
		y := x >> 1
		if x&1 != 0 {
			y ^= mtMatrix
		}
		m.state[i] = m.state[(i+mtM)%mtN] ^ y
	}
	m.i = 0
}
