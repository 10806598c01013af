package search

import "selfplay/engines/board"

// ttEntry is 16 bytes: the full key (no false matches in practice), best
// move, score, draft, and the bound packed with the search generation.
type ttEntry struct {
	key      uint64
	move     board.Move
	score    int16
	depth    int8
	boundGen uint8 // bound in the low 2 bits, generation in the high 6
}

func (e *ttEntry) bound() Bound { return Bound(e.boundGen & 3) }
func (e *ttEntry) gen() uint8   { return e.boundGen >> 2 }

// TT is a transposition table of two-entry buckets: the first slot keeps the
// deepest result of the current search generation, the second is always
// replaced. It belongs to one engine instance (no sharing, no locks).
type TT struct {
	entries []ttEntry
	mask    uint64 // bucket index mask (index of the bucket's first slot)
	gen     uint8
}

const ttEntrySize = 16

// NewTT allocates a table of at most mib MiB (at least 1 MiB), rounded down
// to a power of two entries.
func NewTT(mib int) *TT {
	mib = max(mib, 1)
	n := uint64(mib) << 20 / ttEntrySize
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	return &TT{entries: make([]ttEntry, size), mask: (size - 1) &^ 1}
}

// SizeMiB returns the table size in MiB.
func (t *TT) SizeMiB() int { return len(t.entries) * ttEntrySize >> 20 }

// Clear empties the table (new game).
func (t *TT) Clear() {
	clear(t.entries)
	t.gen = 0
}

// newSearch starts a new generation so entries of older searches are
// replaced first.
func (t *TT) newSearch() { t.gen = (t.gen + 1) & 63 }

func (t *TT) probe(key uint64) (ttEntry, bool) {
	i := key & t.mask
	if e := t.entries[i]; e.key == key && e.boundGen&3 != 0 {
		return e, true
	}
	if e := t.entries[i+1]; e.key == key && e.boundGen&3 != 0 {
		return e, true
	}
	return ttEntry{}, false
}

func (t *TT) store(key uint64, move board.Move, score Score, depth int, bound Bound) {
	i := key & t.mask
	slot := &t.entries[i]
	if slot.key != key && slot.gen() == t.gen && int(slot.depth) > depth {
		slot = &t.entries[i+1]
	}
	if move == board.NoMove && slot.key == key {
		move = slot.move // keep the known best move of this position
	}
	*slot = ttEntry{key: key, move: move, score: int16(score), depth: int8(min(depth, 127)), boundGen: uint8(bound) | t.gen<<2}
}
