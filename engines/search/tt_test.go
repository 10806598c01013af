package search

import (
	"testing"

	"selfplay/engines"
	"selfplay/engines/board"
)

func TestTTNewGameForgets(t *testing.T) {
	tt := newTransTable(1)
	tt.newSearch()
	tt.store(42, board.Move(77), 123, 9, engines.BoundExact)
	if e, ok := tt.probe(42); !ok || e.move() != 77 || e.score != 123 || e.depth != 9 {
		t.Fatalf("probe after store = %+v, %v", e, ok)
	}
	tt.clear()
	if _, ok := tt.probe(42); ok {
		t.Fatal("an entry of the previous game is still found")
	}
	// A stale deep entry must not push a new one into the second slot, as
	// an empty slot would not.
	tt.newSearch()
	tt.store(42+uint64(len(tt.entries)), board.Move(5), 1, 1, engines.BoundLower) // same bucket
	if e := tt.entries[42&tt.mask]; e.move() != 5 {
		t.Fatalf("a stale entry kept the first slot: %+v", e)
	}
	// When the epoch counter wraps, the memory is really cleared.
	tt.epoch = ttEpochs - 1
	tt.store(7, board.Move(3), 1, 1, engines.BoundExact)
	tt.clear()
	if tt.epoch != 0 || tt.entries[7&tt.mask] != (ttEntry{}) {
		t.Fatalf("after the wrap: epoch %d, entry %+v", tt.epoch, tt.entries[7&tt.mask])
	}
}
