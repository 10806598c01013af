package board

// GenKind selects which legal moves Generate produces. Noisy and quiet are
// disjoint and together make All, so a search can generate in stages.
type GenKind uint8

const (
	// All legal moves.
	All GenKind = iota
	// Noisy: captures (en passant included) and queen promotions, capturing or not.
	Noisy
	// quiet: every other legal move: non-captures, castling, underpromotions.
	quiet
)

// attackersTo returns the pieces of both colors attacking s, given occupancy occ.
func (b *Board) attackersTo(s Square, occ Bitboard) Bitboard {
	return (pawnAttacks(White, s) & b.pieces[Pawn] & b.colors[Black]) |
		(pawnAttacks(Black, s) & b.pieces[Pawn] & b.colors[White]) |
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
		pawnAttacks(by.Other(), s)&b.pieces[Pawn]&them != 0 ||
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

// pinned returns the pieces of color us that are pinned to their king.
func (b *Board) pinned(us Color) Bitboard {
	k := b.kings[us]
	them := b.colors[us.Other()]
	snipers := (RookAttacks(k, 0)&(b.pieces[Rook]|b.pieces[Queen]) |
		BishopAttacks(k, 0)&(b.pieces[Bishop]|b.pieces[Queen])) & them
	occ := b.Occupied()
	var pinned Bitboard
	for ; snipers != 0; snipers &= snipers - 1 {
		btw := between(k, snipers.First()) & occ
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
		checkMask = between(k, checkers.First()) | checkers
	} else if kind != Noisy {
		b.genCastling(l, occ)
	}
	pinned := b.pinned(us)
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
			t &= line(k, from)
		}
		b.addAll(l, from, t)
	}
	straight := (b.pieces[Rook] | b.pieces[Queen]) & own
	for p := straight; p != 0; p &= p - 1 {
		from := p.First()
		t := RookAttacks(from, occ) & targets
		if pinned.Has(from) {
			t &= line(k, from)
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
		if b.castle&castleWK != 0 && occ&(SquareBB(f1)|SquareBB(g1)) == 0 &&
			!b.attacked(f1, them, occ) && !b.attacked(g1, them, occ) {
			l.add(newMove(e1, g1, NoPieceType, flagCastle))
		}
		if b.castle&castleWQ != 0 && occ&(SquareBB(b1)|SquareBB(c1)|SquareBB(d1)) == 0 &&
			!b.attacked(d1, them, occ) && !b.attacked(c1, them, occ) {
			l.add(newMove(e1, c1, NoPieceType, flagCastle))
		}
		return
	}
	if b.castle&castleBK != 0 && occ&(SquareBB(f8)|SquareBB(g8)) == 0 &&
		!b.attacked(f8, them, occ) && !b.attacked(g8, them, occ) {
		l.add(newMove(e8, g8, NoPieceType, flagCastle))
	}
	if b.castle&castleBQ != 0 && occ&(SquareBB(b8)|SquareBB(c8)|SquareBB(d8)) == 0 &&
		!b.attacked(d8, them, occ) && !b.attacked(c8, them, occ) {
		l.add(newMove(e8, c8, NoPieceType, flagCastle))
	}
}

// pawnLegal filters a pawn move by the pin on its origin.
func pawnLegal(pinned Bitboard, k, from, to Square) bool {
	return !pinned.Has(from) || line(k, from).Has(to)
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
		up, promoRank, doubleRank = 8, rank8, rank3
	} else {
		up, promoRank, doubleRank = -8, rank1, rank6
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
	}{{up - 1, fileA}, {up + 1, fileH}} {
		caps := shiftBB(pawns&^side.edge, side.d) & enemy & checkMask
		for t := caps; t != 0; t &= t - 1 {
			to := t.First()
			from := Square(int(to) - side.d)
			if !pawnLegal(pinned, k, from, to) {
				continue
			}
			if promoRank.Has(to) {
				b.addPromotions(l, from, to, kind)
			} else if kind != quiet {
				l.add(newMove(from, to, NoPieceType, flagNormal))
			}
		}
	}
	// En passant: verified by a full attack test on the king, which covers the
	// rare horizontal pin of both pawns and checks by the pushed pawn.
	if b.ep != NoSquare && kind != quiet {
		capSq := Square(int(b.ep) - up)
		for f := pawnAttacks(us.Other(), b.ep) & pawns; f != 0; f &= f - 1 {
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
	if kind != quiet {
		l.add(newMove(from, to, Queen, flagNormal))
	}
	if kind != Noisy {
		l.add(newMove(from, to, Knight, flagNormal))
		l.add(newMove(from, to, Rook, flagNormal))
		l.add(newMove(from, to, Bishop, flagNormal))
	}
}
