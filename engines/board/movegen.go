package board

// GenKind selects which legal moves Generate produces. Noisy and Quiet are
// disjoint and together make All, so a search can generate in stages.
type GenKind uint8

const (
	// All legal moves.
	All GenKind = iota
	// Noisy: captures (en passant included) and queen promotions, capturing or not.
	Noisy
	// Quiet: every other legal move: non-captures, castling, underpromotions.
	Quiet
)

// attackersTo returns the pieces of both colors attacking s, given occupancy occ.
func (b *Board) attackersTo(s Square, occ Bitboard) Bitboard {
	return (PawnAttacks(White, s) & b.pieces[Pawn] & b.colors[Black]) |
		(PawnAttacks(Black, s) & b.pieces[Pawn] & b.colors[White]) |
		(KnightAttacks(s) & b.pieces[Knight]) |
		(KingAttacks(s) & b.pieces[King]) |
		(BishopAttacks(s, occ) & (b.pieces[Bishop] | b.pieces[Queen])) |
		(RookAttacks(s, occ) & (b.pieces[Rook] | b.pieces[Queen]))
}

// AttackersTo returns the pieces of both colors attacking s in this position.
func (b *Board) AttackersTo(s Square) Bitboard { return b.attackersTo(s, b.Occupied()) }

// attacked reports whether any piece of color by attacks s, given occupancy occ.
func (b *Board) attacked(s Square, by Color, occ Bitboard) bool {
	them := b.colors[by]
	return KnightAttacks(s)&b.pieces[Knight]&them != 0 ||
		PawnAttacks(by.Other(), s)&b.pieces[Pawn]&them != 0 ||
		KingAttacks(s)&b.pieces[King]&them != 0 ||
		BishopAttacks(s, occ)&(b.pieces[Bishop]|b.pieces[Queen])&them != 0 ||
		RookAttacks(s, occ)&(b.pieces[Rook]|b.pieces[Queen])&them != 0
}

// IsAttacked reports whether color by attacks square s.
func (b *Board) IsAttacked(s Square, by Color) bool { return b.attacked(s, by, b.Occupied()) }

// InCheck reports whether the side to move is in check.
func (b *Board) InCheck() bool {
	return b.attacked(b.kings[b.side], b.side.Other(), b.Occupied())
}

// Pinned returns the pieces of color us that are pinned to their king.
func (b *Board) Pinned(us Color) Bitboard {
	k := b.kings[us]
	them := b.colors[us.Other()]
	snipers := (RookAttacks(k, 0)&(b.pieces[Rook]|b.pieces[Queen]) |
		BishopAttacks(k, 0)&(b.pieces[Bishop]|b.pieces[Queen])) & them
	occ := b.Occupied()
	var pinned Bitboard
	for ; snipers != 0; snipers &= snipers - 1 {
		btw := Between(k, snipers.First()) & occ
		if btw != 0 && !btw.More() && btw&b.colors[us] != 0 {
			pinned |= btw
		}
	}
	return pinned
}

// Generate appends the legal moves of the given kind to l (which it resets).
func (b *Board) Generate(l *MoveList, kind GenKind) {
	l.N = 0
	us, them := b.side, b.side.Other()
	occ := b.Occupied()
	own, enemy := b.colors[us], b.colors[them]
	k := b.kings[us]

	var kindMask Bitboard
	switch kind {
	case All:
		kindMask = ^own
	case Noisy:
		kindMask = enemy
	default:
		kindMask = ^occ
	}

	occNoKing := occ &^ SquareBB(k)
	for t := KingAttacks(k) & kindMask; t != 0; t &= t - 1 {
		to := t.First()
		if !b.attacked(to, them, occNoKing) {
			l.add(newMove(k, to, NoPieceType, flagNormal))
		}
	}
	checkers := b.attackersTo(k, occ) & enemy
	if checkers.More() {
		return // double check: only king moves
	}
	checkMask := ^Bitboard(0)
	if checkers != 0 {
		checkMask = Between(k, checkers.First()) | checkers
	} else if kind != Noisy {
		b.genCastling(l, occ)
	}
	pinned := b.Pinned(us)
	targets := kindMask & checkMask

	for p := b.pieces[Knight] & own &^ pinned; p != 0; p &= p - 1 {
		from := p.First()
		b.addAll(l, from, KnightAttacks(from)&targets)
	}
	diag := (b.pieces[Bishop] | b.pieces[Queen]) & own
	for p := diag; p != 0; p &= p - 1 {
		from := p.First()
		t := BishopAttacks(from, occ) & targets
		if pinned.Has(from) {
			t &= Line(k, from)
		}
		b.addAll(l, from, t)
	}
	straight := (b.pieces[Rook] | b.pieces[Queen]) & own
	for p := straight; p != 0; p &= p - 1 {
		from := p.First()
		t := RookAttacks(from, occ) & targets
		if pinned.Has(from) {
			t &= Line(k, from)
		}
		b.addAll(l, from, t)
	}
	b.genPawns(l, kind, occ, enemy, checkMask, pinned)
}

func (b *Board) addAll(l *MoveList, from Square, targets Bitboard) {
	for ; targets != 0; targets &= targets - 1 {
		l.add(newMove(from, targets.First(), NoPieceType, flagNormal))
	}
}

func (b *Board) genCastling(l *MoveList, occ Bitboard) {
	them := b.side.Other()
	if b.side == White {
		if b.castle&CastleWK != 0 && occ&(SquareBB(F1)|SquareBB(G1)) == 0 &&
			!b.attacked(F1, them, occ) && !b.attacked(G1, them, occ) {
			l.add(newMove(E1, G1, NoPieceType, flagCastle))
		}
		if b.castle&CastleWQ != 0 && occ&(SquareBB(B1)|SquareBB(C1)|SquareBB(D1)) == 0 &&
			!b.attacked(D1, them, occ) && !b.attacked(C1, them, occ) {
			l.add(newMove(E1, C1, NoPieceType, flagCastle))
		}
		return
	}
	if b.castle&CastleBK != 0 && occ&(SquareBB(F8)|SquareBB(G8)) == 0 &&
		!b.attacked(F8, them, occ) && !b.attacked(G8, them, occ) {
		l.add(newMove(E8, G8, NoPieceType, flagCastle))
	}
	if b.castle&CastleBQ != 0 && occ&(SquareBB(B8)|SquareBB(C8)|SquareBB(D8)) == 0 &&
		!b.attacked(D8, them, occ) && !b.attacked(C8, them, occ) {
		l.add(newMove(E8, C8, NoPieceType, flagCastle))
	}
}

// pawnLegal filters a pawn move by the pin on its origin.
func pawnLegal(pinned Bitboard, k, from, to Square) bool {
	return !pinned.Has(from) || Line(k, from).Has(to)
}

func shiftBB(bb Bitboard, d int) Bitboard {
	if d > 0 {
		return bb << uint(d)
	}
	return bb >> uint(-d)
}

func (b *Board) genPawns(l *MoveList, kind GenKind, occ, enemy, checkMask, pinned Bitboard) {
	us := b.side
	k := b.kings[us]
	pawns := b.pieces[Pawn] & b.colors[us]
	var up int
	var promoRank, doubleRank Bitboard
	if us == White {
		up, promoRank, doubleRank = 8, Rank8, Rank3
	} else {
		up, promoRank, doubleRank = -8, Rank1, Rank6
	}
	empty := ^occ
	push1 := shiftBB(pawns, up) & empty
	push2 := shiftBB(push1&doubleRank, up) & empty & checkMask
	push1 &= checkMask

	// Quiet pushes (no promotion), double pushes.
	if kind != Noisy {
		for t := push1 &^ promoRank; t != 0; t &= t - 1 {
			to := t.First()
			from := Square(int(to) - up)
			if pawnLegal(pinned, k, from, to) {
				l.add(newMove(from, to, NoPieceType, flagNormal))
			}
		}
		for t := push2; t != 0; t &= t - 1 {
			to := t.First()
			from := Square(int(to) - 2*up)
			if pawnLegal(pinned, k, from, to) {
				l.add(newMove(from, to, NoPieceType, flagDouble))
			}
		}
	}
	// Push promotions.
	for t := push1 & promoRank; t != 0; t &= t - 1 {
		to := t.First()
		from := Square(int(to) - up)
		if pawnLegal(pinned, k, from, to) {
			b.addPromotions(l, from, to, kind)
		}
	}
	// Captures, to the left (towards file a) and right.
	for _, side := range [2]struct {
		d    int
		edge Bitboard
	}{{up - 1, FileA}, {up + 1, FileH}} {
		caps := shiftBB(pawns&^side.edge, side.d) & enemy & checkMask
		for t := caps; t != 0; t &= t - 1 {
			to := t.First()
			from := Square(int(to) - side.d)
			if !pawnLegal(pinned, k, from, to) {
				continue
			}
			if promoRank.Has(to) {
				b.addPromotions(l, from, to, kind)
			} else if kind != Quiet {
				l.add(newMove(from, to, NoPieceType, flagNormal))
			}
		}
	}
	// En passant: verified by a full attack test on the king, which covers the
	// rare horizontal pin of both pawns and checks by the pushed pawn.
	if b.ep != NoSquare && kind != Quiet {
		capSq := Square(int(b.ep) - up)
		for f := PawnAttacks(us.Other(), b.ep) & pawns; f != 0; f &= f - 1 {
			from := f.First()
			after := occ&^SquareBB(from)&^SquareBB(capSq) | SquareBB(b.ep)
			attackers := b.attackersTo(k, after) & enemy &^ SquareBB(capSq)
			if attackers == 0 {
				l.add(newMove(from, b.ep, NoPieceType, flagEnPassant))
			}
		}
	}
}

func (b *Board) addPromotions(l *MoveList, from, to Square, kind GenKind) {
	if kind != Quiet {
		l.add(newMove(from, to, Queen, flagNormal))
	}
	if kind != Noisy {
		l.add(newMove(from, to, Knight, flagNormal))
		l.add(newMove(from, to, Rook, flagNormal))
		l.add(newMove(from, to, Bishop, flagNormal))
	}
}
