package board

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/notnil/chess"
)

// TestDifferentialNotnil plays seeded random games from the initial position
// and Kiwipete and checks, at every position, that the legal moves equal
// notnil/chess's, that FEN round-trips, and that the incremental Zobrist hash
// equals a from-scratch hash after every make, unmake and null move.
func TestDifferentialNotnil(t *testing.T) {
	const wantPositions = 10000
	starts := []string{StartFEN, perftPositions[1].fen, perftPositions[3].fen}
	rng := rand.New(rand.NewPCG(7, 11))
	positions := 0
	var l MoveList
	for game := 0; positions < wantPositions; game++ {
		fen := starts[game%len(starts)]
		b, err := FromFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 300; ply++ {
			positions++
			checkAgainstNotnil(t, b, &l)
			if t.Failed() {
				return
			}
			if l.N == 0 || b.IsFiftyMoveDraw() || b.IsInsufficientMaterial() {
				break
			}
			if !b.InCheck() {
				before := b.FEN()
				b.MakeNullMove()
				if b.Hash() != b.hashFromScratch() {
					t.Fatalf("null move from %s: incremental hash differs from scratch", before)
				}
				b.UnmakeNullMove()
				if b.FEN() != before || b.Hash() != b.hashFromScratch() {
					t.Fatalf("null move not undone exactly: %s -> %s", before, b.FEN())
				}
			}
			// Make and unmake every move once, then go on with a random one.
			before, h := b.FEN(), b.Hash()
			moves := slices.Clone(l.Slice())
			for _, m := range moves {
				b.MakeMove(m)
				if b.Hash() != b.hashFromScratch() || b.PawnHash() != b.pawnHashFromScratch() {
					t.Fatalf("%s after %s: incremental hash differs from scratch", before, m)
				}
				b.UnmakeMove()
				if b.FEN() != before || b.Hash() != h || b.PawnHash() != b.pawnHashFromScratch() {
					t.Fatalf("%s: make/unmake %s left %s", before, m, b.FEN())
				}
			}
			b.MakeMove(moves[rng.IntN(len(moves))])
		}
	}
	t.Logf("%d positions compared", positions)
}

func checkAgainstNotnil(t *testing.T, b *Board, l *MoveList) {
	t.Helper()
	fen := b.FEN()
	b.Generate(l, All)
	ours := make([]string, 0, l.N)
	for _, m := range l.Slice() {
		ours = append(ours, m.UCI())
	}
	slices.Sort(ours)

	opt, err := chess.FEN(fen)
	if err != nil {
		t.Fatalf("notnil rejects our FEN %q: %v", fen, err)
	}
	pos := chess.NewGame(opt).Position()
	var theirs []string
	for _, m := range pos.ValidMoves() {
		theirs = append(theirs, m.String())
	}
	slices.Sort(theirs)
	if !slices.Equal(ours, theirs) {
		t.Fatalf("%s: moves differ\n ours   %v\n notnil %v", fen, ours, theirs)
	}
	if got := pos.String(); got != fen {
		t.Fatalf("FEN differs: ours %q notnil %q", fen, got)
	}
	again, err := FromFEN(fen)
	if err != nil {
		t.Fatalf("our FEN does not parse back: %v", err)
	}
	if again.FEN() != fen || again.Hash() != b.Hash() {
		t.Fatalf("FEN round trip: %q -> %q (hash %x vs %x)", fen, again.FEN(), again.Hash(), b.Hash())
	}
	// Every generated move must parse back from its UCI text.
	for _, m := range l.Slice() {
		if p, err := b.ParseUCI(m.UCI()); err != nil || p != m {
			t.Fatalf("%s: ParseUCI(%s) = %v, %v", fen, m, p, err)
		}
	}
	// Noisy and quiet partition All.
	var noisyList, quietList MoveList
	b.Generate(&noisyList, Noisy)
	b.Generate(&quietList, quiet)
	if noisyList.N+quietList.N != l.N {
		t.Fatalf("%s: noisy %d + quiet %d != all %d", fen, noisyList.N, quietList.N, l.N)
	}
	for _, m := range noisyList.Slice() {
		if !slices.Contains(l.Slice(), m) || slices.Contains(quietList.Slice(), m) {
			t.Fatalf("%s: noisy move %s not in all or also quiet", fen, m)
		}
	}
}
