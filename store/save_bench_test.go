package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"selfplay/store"
	"selfplay/store/record"
	"selfplay/store/storetest"
)

// BenchmarkSaveGame is what storing one finished game costs the runner: a
// 100-ply game with every move, its PGN and its search sums, in its own
// transaction, into a tournament that already holds 20,000 games (so that
// the games' indexes are deep enough to count).
func BenchmarkSaveGame(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "save.db")
	const stored = 20_000
	if err := storetest.Generate(ctx, path, storetest.Options{Games: stored, NoMoves: true}); err != nil {
		b.Fatal(err)
	}
	s, err := store.OpenWriter(ctx, path, "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	moves := make([]record.Move, 100)
	for i := range moves {
		moves[i] = record.Move{Ply: i + 1, UCI: "e2e4", SAN: "e4", Book: i < 2, Score: i - 50, Depth: 12, SelDepth: 20,
			Nodes: 40_000 + int64(i), Time: 30 * time.Millisecond}
	}
	n := 0
	for b.Loop() {
		pair, idx := stored/2+n/2, n%2
		white, black := "fhr", "plain"
		if idx == 1 {
			white, black = black, white
		}
		g := &record.Game{TournamentID: 1, Pair: pair, Index: idx, Round: pair + 1, OpeningID: fmt.Sprintf("fhr-%02d", pair%25+1),
			OpeningName: fmt.Sprintf("Opening %d", pair%25+1), White: white, Black: black, Result: "1/2-1/2",
			Termination: record.Repetition, Reason: "threefold repetition", Plies: len(moves) - 2, Moves: moves,
			Started: time.Now(), Finished: time.Now(), PGN: fmt.Sprintf("[White %q]\n[Black %q]\n\n1/2-1/2\n", white, black)}
		if err := s.SaveGame(ctx, g); err != nil {
			b.Fatal(err)
		}
		n++
	}
}
