package search

import (
	"selfplay/engines/board"

	"selfplay/engines"
)

// ttEntry is 16 bytes: the full key (no false matches in practice), the best
// move with the game epoch in its unused high bits, score, draft, and the
// bound packed with the search generation.
type ttEntry struct {
	key      uint64
	moveEp   uint32 // move in the low 17 bits, game epoch above
	score    int16
	depth    int8
	boundGen uint8 // bound in the low 2 bits, generation in the high 6
}

const (
	ttMoveBits = 17 // a board.Move fits in 17 bits
	ttMoveMask = 1<<ttMoveBits - 1
	ttEpochs   = 1 << (32 - ttMoveBits)
)

func (e *ttEntry) bound() engines.Bound                { return engines.Bound(e.boundGen & 3) }
func (e *ttEntry) gen() uint8                          { return e.boundGen >> 2 }
func (e *ttEntry) move() board.Move                    { return board.Move(e.moveEp & ttMoveMask) }
func (e *ttEntry) epoch() uint32                       { return e.moveEp >> ttMoveBits }
func (t *transTable) live(e *ttEntry) bool             { return e.boundGen&3 != 0 && e.epoch() == t.epoch }
func (t *transTable) owns(e *ttEntry, key uint64) bool { return e.key == key && t.live(e) }

// transTable is a transposition table of two-entry buckets: the first slot keeps the
// deepest result of the current search generation, the second is always
// replaced. It belongs to one engine instance (no sharing, no locks).
//
// A new game does not clear the memory: it starts a new epoch, and entries
// of other epochs count as empty everywhere (probe and replacement), so the
// table behaves exactly like a cleared one at the cost of nothing. The
// memory is really cleared when the epoch counter wraps.
type transTable struct {
	entries []ttEntry
	mask    uint64 // bucket index mask (index of the bucket's first slot)
	gen     uint8
	epoch   uint32
}

const ttEntrySize = 16

// newTransTable allocates a table of at most mib MiB (at least 1 MiB), rounded down
// to a power of two entries.
func newTransTable(mib int) *transTable {
	mib = max(mib, 1)
	n := uint64(mib) << 20 / ttEntrySize
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	return &transTable{entries: make([]ttEntry, size), mask: (size - 1) &^ 1}
}

// clear empties the table (new game).
func (t *transTable) clear() {
	t.gen = 0
	t.epoch++
	if t.epoch == ttEpochs {
		clear(t.entries)
		t.epoch = 0
	}
}

// newSearch starts a new generation so entries of older searches are
// replaced first.
func (t *transTable) newSearch() { t.gen = (t.gen + 1) & 63 }

func (t *transTable) probe(key uint64) (ttEntry, bool) {
	i := key & t.mask
	if e := &t.entries[i]; t.owns(e, key) {
		return *e, true
	}
	if e := &t.entries[i+1]; t.owns(e, key) {
		return *e, true
	}
	return ttEntry{}, false
}

func (t *transTable) store(key uint64, move board.Move, score engines.Score, depth int, bound engines.Bound) {
	i := key & t.mask
	slot := &t.entries[i]
	if slot.key != key && t.live(slot) && slot.gen() == t.gen && int(slot.depth) > depth {
		slot = &t.entries[i+1]
	}
	if move == board.NoMove && t.owns(slot, key) {
		move = slot.move() // keep the known best move of this position
	}
	*slot = ttEntry{key: key, moveEp: uint32(move) | t.epoch<<ttMoveBits, score: int16(score),
		depth: int8(min(depth, 127)), boundGen: uint8(bound) | t.gen<<2}
}
