package board

// IsRepetition reports whether the current position has occurred before in a
// way that makes it a draw for the search: once since ply rootPly (inside the
// search tree, where a repetition can be forced again), or twice before it
// (a threefold repetition in the game). Positions before a null move or an
// irreversible move are not compared.
func (b *Board) IsRepetition(rootPly int) bool {
	n := len(b.hist)
	limit := min(b.halfmove, n)
	count := 0
	for i := 1; i <= limit; i++ {
		u := &b.hist[n-i]
		if u.move == NoMove {
			return false
		}
		if i >= 4 && i&1 == 0 && u.hash == b.hash {
			if n-i >= rootPly {
				return true
			}
			count++
			if count >= 2 {
				return true
			}
		}
	}
	return false
}

// IsThreefoldRepetition reports whether the current position has occurred
// at least twice before (with the same side to move, castling rights and
// usable en-passant square): a draw by the game's rule. Positions before a
// null move or an irreversible move are not compared.
func (b *Board) IsThreefoldRepetition() bool {
	// With rootPly beyond the history no earlier position is "inside the
	// search", so IsRepetition counts game repetitions only.
	return b.IsRepetition(len(b.hist) + 1)
}

// IsFiftyMoveDraw reports whether the fifty-move rule applies (100 plies
// without capture or pawn move). Checkmate on the 100th ply takes precedence;
// callers that care check for mate first.
func (b *Board) IsFiftyMoveDraw() bool { return b.halfmove >= 100 }

// IsInsufficientMaterial reports dead positions by material: K v K, K and one
// minor piece v K, and kings with bishops all on squares of one color.
func (b *Board) IsInsufficientMaterial() bool {
	if b.pieces[Pawn]|b.pieces[Rook]|b.pieces[Queen] != 0 {
		return false
	}
	minors := b.pieces[Knight] | b.pieces[Bishop]
	if !minors.More() {
		return true
	}
	if b.pieces[Knight] != 0 {
		return false
	}
	const light Bitboard = 0x55aa55aa55aa55aa
	bishops := b.pieces[Bishop]
	return bishops&light == 0 || bishops&^light == 0
}
