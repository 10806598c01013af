package board

// Zobrist keys, fixed by a seeded generator so hashes are the same on every run
// (the determinism of searches depends on it).
type zobristKeys struct {
	piece  [16][64]uint64
	side   uint64
	castle [16]uint64
	epFile [8]uint64
}

var zobrist = buildZobrist()

func buildZobrist() *zobristKeys {
	z := &zobristKeys{}
	g := splitmix{s: 0x2d358dccaa6c78a5}
	for p := range z.piece {
		for s := range z.piece[p] {
			z.piece[p][s] = g.next()
		}
	}
	z.side = g.next()
	for i := range z.castle {
		z.castle[i] = g.next()
	}
	for i := range z.epFile {
		z.epFile[i] = g.next()
	}
	return z
}

// epHashed reports whether the en-passant square counts for the hash: only
// when a pawn of the side to move stands ready to capture there, so that
// positions that differ only by an unusable en-passant square hash alike
// (they are the same position for the repetition rule).
func (b *Board) epHashed() bool {
	return b.ep != NoSquare &&
		pawnAttacks(b.side.Other(), b.ep)&b.pieces[Pawn]&b.colors[b.side] != 0
}

// computeHash recomputes the hash from scratch; the incremental hash must
// always equal it (checked by tests).
func (b *Board) computeHash() uint64 {
	var h uint64
	for s := Square(0); s < 64; s++ {
		if p := b.squares[s]; p != NoPiece {
			h ^= zobrist.piece[p][s]
		}
	}
	if b.side == Black {
		h ^= zobrist.side
	}
	h ^= zobrist.castle[b.castle]
	if b.epHashed() {
		h ^= zobrist.epFile[b.ep.File()]
	}
	return h
}

// hashFromScratch recomputes the Zobrist hash without the incremental state
// (for tests and debugging).
func (b *Board) hashFromScratch() uint64 { return b.computeHash() }

// computePawnHash hashes the pawns alone.
func (b *Board) computePawnHash() uint64 {
	var h uint64
	for p := b.pieces[Pawn]; p != 0; p &= p - 1 {
		s := p.First()
		h ^= zobrist.piece[b.squares[s]][s]
	}
	return h
}

// pawnHashFromScratch recomputes the pawn hash (for tests).
func (b *Board) pawnHashFromScratch() uint64 { return b.computePawnHash() }
