package search

import (
	"selfplay/engines/board"
	"selfplay/engines/eval"
)

// preMoves is what the extension rules need to know about the node's
// position before any move is made; gathered once per node, and only for
// the extensions that are switched on.
type preMoves struct {
	kingSquaresAttacked int            // squares next to the enemy king we attack (king threat)
	lastMoverAttacks    board.Bitboard // squares the opponent's last-moved piece attacks (attack evading)
}

func (s *Searcher) beforeMoves(prevMove board.Move) preMoves {
	var pre preMoves
	b := s.b
	if s.opts.ExtKingThreat {
		pre.kingSquaresAttacked = kingSquaresAttacked(b, b.Side())
	}
	if s.opts.ExtAttackEvading && prevMove != board.NoMove {
		sq := prevMove.To()
		pre.lastMoverAttacks = board.Attacks(b.PieceAt(sq), sq, b.Occupied())
	}
	return pre
}

// extension returns 1 if the move just made (b is after it) is forcing in
// the sense of Ye & Marsland's forcing(), else 0, and counts which rules fired.
func (s *Searcher) extension(m board.Move, moved, captured board.Piece, givesCheck bool, legalMoves int,
	prevMove board.Move, prevCaptured board.Piece, pre *preMoves) int {
	o := &s.opts
	b := s.b
	ext := 0
	if o.ExtCheck && givesCheck {
		s.counters.ExtCheck++
		ext = 1
	}
	if o.ExtSingleReply && legalMoves == 1 {
		s.counters.ExtSingleReply++
		ext = 1
	}
	// Passed pawn (FALCON, NMR paper §4): a push to the 7th rank, one step
	// from promotion (the promotion itself is a capture-like noisy move).
	if o.ExtPassedPawn && moved.Type() == board.Pawn && m.To().Rank() == seventhRank(moved.Color()) {
		s.counters.ExtPassedPawn++
		ext = 1
	}
	// Recapture (Ebeling; Hitech's rule in Ye & Marsland §3): a capture on
	// the square where the opponent just captured, which brings the material
	// balance back within the window around the root's.
	if o.ExtRecapture && captured != board.NoPiece && prevCaptured != board.NoPiece &&
		prevMove != board.NoMove && m.To() == prevMove.To() {
		mat := eval.Material(b) // side to move is now the opponent
		if b.Side() != s.rootSide {
			mat = -mat
		}
		if d := mat - s.rootMat; d <= o.RecaptureWindow && d >= -o.RecaptureWindow {
			s.counters.ExtRecapture++
			ext = 1
		}
	}
	// King threat (Anantharaman; Ye & Marsland §3): the move makes more than
	// KingThreatSquares squares next to the enemy king attacked.
	if o.ExtKingThreat {
		mover := b.Side().Other()
		if after := kingSquaresAttacked(b, mover); after > o.KingThreatSquares && pre.kingSquaresAttacked <= o.KingThreatSquares {
			s.counters.ExtKingThreat++
			ext = 1
		}
	}
	// Attack evading (Ye & Marsland §3.1): a major piece attacked by the
	// last-moved enemy piece moves to a square that is not attacked or is
	// defended.
	if o.ExtAttackEvading && (moved.Type() == board.Rook || moved.Type() == board.Queen) &&
		pre.lastMoverAttacks.Has(m.From()) {
		to := m.To()
		mover := b.Side().Other()
		if !b.IsAttacked(to, b.Side()) || b.AttackersTo(to)&b.Occupancy(mover) != 0 {
			s.counters.ExtAttackEvading++
			ext = 1
		}
	}
	return ext
}

// seventhRank is c's 7th rank, as a board rank index.
func seventhRank(c board.Color) int {
	if c == board.White {
		return 6
	}
	return 1
}

// kingSquaresAttacked counts the squares next to the king of by's opponent
// that by attacks.
func kingSquaresAttacked(b *board.Board, by board.Color) int {
	n := 0
	for sq := board.KingAttacks(b.King(by.Other())); sq != 0; sq &= sq - 1 {
		if b.IsAttacked(sq.First(), by) {
			n++
		}
	}
	return n
}
