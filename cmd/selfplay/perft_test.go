package main

import (
	"context"
	"testing"

	"selfplay/engines/board"
)

// The cancellable count is the board's count.
func TestPerftMatchesBoard(t *testing.T) {
	for _, fen := range []string{board.StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"} {
		b, err := board.FromFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		lists := make([]board.MoveList, 6)
		want := b.Perft(6-1, lists)
		got, err := perft(context.Background(), b, 6-1, lists)
		if err != nil || got != want {
			t.Errorf("%s: perft %d (%v), board %d", fen, got, err, want)
		}
	}
}

// The look at the context costs nothing measurable: compare the two
// sub-benchmarks (benchstat).
func BenchmarkPerft(b *testing.B) {
	const depth = 6
	pos, _ := board.FromFEN(board.StartFEN)
	lists := make([]board.MoveList, depth)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.Run("board", func(b *testing.B) {
		for b.Loop() {
			pos.Perft(depth, lists)
		}
	})
	b.Run("cancellable", func(b *testing.B) {
		for b.Loop() {
			perft(ctx, pos, depth, lists)
		}
	})
}
