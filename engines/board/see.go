package board

// PieceValues are the piece values, indexed by PieceType, that SEE counts in
// (the caller's evaluation owns them; the board knows no values). The King
// entry is never read: a king is never captured in an exchange.
type PieceValues [7]int

// seeMaxSwaps bounds the swap list: 32 pieces can take part at most.
const seeMaxSwaps = 32

// SEE returns the static exchange evaluation of move m for the side that
// plays it: the material it wins (negative: loses) when both sides then
// capture on m's destination square, each with its least valuable attacker
// (the lower square first among equal pieces), and either side may stop
// capturing whenever going on would lose more. Attackers uncovered behind a
// piece that captures (x-rays, batteries) join the exchange; pins are
// ignored. A pawn that captures on its last rank becomes a queen; m's own
// promotion counts as played. En passant captures the pawn beside. A king
// captures only when the opponent has no attacker left on the square, so a
// king is never captured. Castling is worth 0. m must be a legal move in b
// (quiet moves are valued too: what the opponent can win by capturing the
// moved piece). It allocates nothing.
func (b *Board) SEE(m Move, v *PieceValues) int {
	if m.IsCastle() {
		return 0
	}
	from, to := m.From(), m.To()
	mover := b.squares[from]
	side := mover.Color()
	occ := b.Occupied() &^ SquareBB(from)

	// int32: every gain is a few piece values, and Go zeroes the array on
	// each call, which for 32 ints was 1% of a search's instructions.
	var gain [seeMaxSwaps]int32
	onSquare := mover.Type() // the piece that stands on to and can be taken next
	if m.IsEnPassant() {
		gain[0] = int32(v[Pawn])
		occ &^= SquareBB(enPassantVictim(to, side))
	} else {
		gain[0] = int32(v[b.squares[to].Type()])
	}
	if p := m.Promotion(); p != NoPieceType {
		gain[0] += int32(v[p] - v[Pawn])
		onSquare = p
	}
	occ |= SquareBB(to)

	diag := b.pieces[Bishop] | b.pieces[Queen]
	straight := b.pieces[Rook] | b.pieces[Queen]
	attackers := b.attackersTo(to, occ) & occ
	promoRank := rank8 | rank1 // a pawn capturing on to promotes: only its own side's pawns attack there
	stm := side.Other()
	d := 0
	for d < seeMaxSwaps-1 {
		ours := attackers & b.colors[stm]
		if ours == 0 {
			break
		}
		t := Pawn
		for ; t < King; t++ {
			if ours&b.pieces[t] != 0 {
				break
			}
		}
		sq := (ours & b.pieces[t]).First()
		occ &^= SquareBB(sq)
		switch t {
		case Pawn, Bishop:
			attackers |= BishopAttacks(to, occ) & diag
		case Rook:
			attackers |= RookAttacks(to, occ) & straight
		case Queen, King:
			attackers |= BishopAttacks(to, occ)&diag | RookAttacks(to, occ)&straight
		}
		attackers &= occ
		if t == King && attackers&b.colors[stm.Other()] != 0 {
			break // the king may not capture a defended piece
		}
		d++
		gain[d] = int32(v[onSquare]) - gain[d-1]
		onSquare = t
		if t == Pawn && promoRank.Has(to) {
			gain[d] += int32(v[Queen] - v[Pawn])
			onSquare = Queen
		}
		stm = stm.Other()
	}
	// Back up the swap list: each side takes the better of stopping before
	// its capture and making it.
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return int(gain[0])
}

// enPassantVictim is the square of the pawn that side's en-passant capture
// to square to removes.
func enPassantVictim(to Square, side Color) Square {
	if side == White {
		return to - 8
	}
	return to + 8
}
