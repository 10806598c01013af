package board

// castleMask[s] clears the castling rights lost when a piece moves from or to s.
var castleMask = func() [64]uint8 {
	var m [64]uint8
	for i := range m {
		m[i] = 0xf
	}
	m[e1] &^= castleWK | castleWQ
	m[h1] &^= castleWK
	m[a1] &^= castleWQ
	m[e8] &^= castleBK | castleBQ
	m[h8] &^= castleBK
	m[a8] &^= castleBQ
	return m
}()

// castleRook returns the rook's move for a castling king landing on kingTo.
func castleRook(kingTo Square) (from, to Square) {
	switch kingTo {
	case c1:
		return a1, d1
	case g8:
		return h8, f8
	case c8:
		return a8, d8
	}
	return h1, f1
}

func (b *Board) movePiece(p Piece, from, to Square) {
	bb := SquareBB(from) | SquareBB(to)
	b.pieces[p.Type()] ^= bb
	b.colors[p.Color()] ^= bb
	b.squares[from] = NoPiece
	b.squares[to] = p
}

// MakeMove plays a legal move (as produced by Generate or ParseUCI). Playing
// an illegal move corrupts the board; the search only plays generated moves.
func (b *Board) MakeMove(m Move) {
	from, to := m.From(), m.To()
	p := b.squares[from]
	us := b.side
	u := undo{move: m, castle: b.castle, ep: b.ep, halfmove: b.halfmove, hash: b.hash, pawnHash: b.pawnHash}
	h := b.hash
	if b.epHashed() {
		h ^= zobrist.epFile[b.ep.File()]
	}
	b.ep = NoSquare
	b.halfmove++

	switch m.flag() {
	case flagCastle:
		rookFrom, rookTo := castleRook(to)
		rook := makePiece(us, Rook)
		b.movePiece(rook, rookFrom, rookTo)
		h ^= zobrist.piece[rook][rookFrom] ^ zobrist.piece[rook][rookTo]
	case flagEnPassant:
		capSq := to - 8
		if us == Black {
			capSq = to + 8
		}
		u.captured = b.squares[capSq]
		b.remove(capSq)
		h ^= zobrist.piece[u.captured][capSq]
		b.pawnHash ^= zobrist.piece[u.captured][capSq]
	default:
		if c := b.squares[to]; c != NoPiece {
			u.captured = c
			b.remove(to)
			h ^= zobrist.piece[c][to]
			if c.Type() == Pawn {
				b.pawnHash ^= zobrist.piece[c][to]
			}
			b.halfmove = 0
		}
	}

	b.movePiece(p, from, to)
	h ^= zobrist.piece[p][from] ^ zobrist.piece[p][to]
	if p.Type() == Pawn {
		b.halfmove = 0
		b.pawnHash ^= zobrist.piece[p][from]
		if promo := m.Promotion(); promo != NoPieceType {
			np := makePiece(us, promo)
			b.remove(to)
			b.put(np, to)
			h ^= zobrist.piece[p][to] ^ zobrist.piece[np][to]
		} else {
			b.pawnHash ^= zobrist.piece[p][to]
		}
		if m.flag() == flagDouble {
			b.ep = Square((int(from) + int(to)) / 2)
		}
	} else if p.Type() == King {
		b.kings[us] = to
	}

	newCastle := b.castle & castleMask[from] & castleMask[to]
	h ^= zobrist.castle[b.castle] ^ zobrist.castle[newCastle]
	b.castle = newCastle

	if us == Black {
		b.fullmove++
	}
	b.side = us.Other()
	h ^= zobrist.side
	if b.epHashed() {
		h ^= zobrist.epFile[b.ep.File()]
	}
	b.hash = h
	b.hist = append(b.hist, u)
}

// UnmakeMove takes back the last move made with MakeMove.
func (b *Board) UnmakeMove() {
	n := len(b.hist) - 1
	u := b.hist[n]
	b.hist = b.hist[:n]
	m := u.move
	b.side = b.side.Other()
	us := b.side
	if us == Black {
		b.fullmove--
	}
	from, to := m.From(), m.To()
	p := b.squares[to]
	if m.Promotion() != NoPieceType {
		b.remove(to)
		p = makePiece(us, Pawn)
		b.put(p, to)
	}
	b.movePiece(p, to, from)
	if p.Type() == King {
		b.kings[us] = from
	}
	switch m.flag() {
	case flagCastle:
		rookFrom, rookTo := castleRook(to)
		b.movePiece(makePiece(us, Rook), rookTo, rookFrom)
	case flagEnPassant:
		capSq := to - 8
		if us == Black {
			capSq = to + 8
		}
		b.put(u.captured, capSq)
	default:
		if u.captured != NoPiece {
			b.put(u.captured, to)
		}
	}
	b.castle = u.castle
	b.ep = u.ep
	b.halfmove = u.halfmove
	b.hash = u.hash
	b.pawnHash = u.pawnHash
}

// MakeNullMove passes the turn: the side flips, the en-passant square is
// cleared and the hash updated. Never call it when the side to move is in check.
func (b *Board) MakeNullMove() {
	u := undo{move: NoMove, castle: b.castle, ep: b.ep, halfmove: b.halfmove, hash: b.hash}
	h := b.hash
	if b.epHashed() {
		h ^= zobrist.epFile[b.ep.File()]
	}
	b.ep = NoSquare
	b.halfmove++
	if b.side == Black {
		b.fullmove++
	}
	b.side = b.side.Other()
	b.hash = h ^ zobrist.side
	b.hist = append(b.hist, u)
}

// UnmakeNullMove takes back MakeNullMove.
func (b *Board) UnmakeNullMove() {
	n := len(b.hist) - 1
	u := b.hist[n]
	b.hist = b.hist[:n]
	b.side = b.side.Other()
	if b.side == Black {
		b.fullmove--
	}
	b.ep = u.ep
	b.halfmove = u.halfmove
	b.hash = u.hash
}
