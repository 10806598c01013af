package search

import (
	"selfplay/engines/board"
	"selfplay/engines/eval"
)

// Move ordering scores: TT move, then winning and equal captures and queen
// promotions by MVV-LVA, then the two killers, then quiet moves by history,
// then underpromotions, then (with see-order) the captures that lose
// material by static exchange evaluation, the least losing first.
const (
	orderTT      = 1 << 30
	orderNoisy   = 1 << 26
	orderKiller1 = 1 << 25
	orderKiller2 = orderKiller1 - 1
	historyMax   = 1 << 24
	orderLosing  = -(1 << 28) // plus the (negative) SEE value
)

// pieceValues are the evaluation's plain piece values, the units of SEE.
func pieceValues() board.PieceValues {
	var v board.PieceValues
	for t := board.Pawn; t <= board.King; t++ {
		v[t] = eval.PieceValue(t)
	}
	return v
}

// seeLoss returns the SEE value of the noisy move m when it loses material,
// else 0. A capture of a piece at least as valuable as the capturing one
// cannot lose unless a recapture can promote (on the first or last rank),
// so SEE runs only for the others.
func (s *Searcher) seeLoss(m board.Move, attacker, victim board.PieceType) int {
	v := &s.seeValues
	if v[victim] >= v[attacker] && m.To().Rank()%7 != 0 {
		return 0
	}
	return min(s.b.SEE(m, v), 0)
}

// scoreMoves generates all legal moves at ply and scores them.
func (s *Searcher) scoreMoves(ply int, ttMove board.Move) {
	s.b.Generate(&s.plies[ply].moves, board.All)
	s.scoreGenerated(ply, ttMove, s.opts.SEEOrder)
}

// scoreGenerated scores the moves already in the ply's list; with useSEE,
// captures that lose material by SEE score below orderLosing.
func (s *Searcher) scoreGenerated(ply int, ttMove board.Move, useSEE bool) {
	ps := &s.plies[ply]
	b := s.b
	side := b.Side()
	for i := 0; i < ps.moves.N; i++ {
		m := ps.moves.Moves[i]
		var sc int32
		victim := b.PieceAt(m.To()).Type()
		if m.IsEnPassant() {
			victim = board.Pawn
		}
		promo := m.Promotion()
		switch {
		case m == ttMove:
			sc = orderTT
		case victim != board.NoPieceType || promo == board.Queen:
			attacker := b.PieceAt(m.From()).Type()
			if useSEE {
				if loss := s.seeLoss(m, attacker, victim); loss < 0 {
					sc = orderLosing + int32(loss)
					break
				}
			}
			// MVV-LVA: the most valuable victim first, then the least valuable attacker.
			sc = orderNoisy + int32(eval.PieceValue(victim)+eval.PieceValue(promo))*8 - int32(attacker)
		case promo != board.NoPieceType:
			sc = -1 // underpromotions last
		case m == ps.killers[0]:
			sc = orderKiller1
		case m == ps.killers[1]:
			sc = orderKiller2
		default:
			sc = s.history[side][m.From()][m.To()]
		}
		ps.scores[i] = sc
	}
}

// pickMove moves the best-scored remaining move to position i and returns it
// (selection sort: most nodes cut off after a few moves).
func (s *Searcher) pickMove(ply, i int) board.Move {
	ps := &s.plies[ply]
	// Slicing to the list's length once lets the compiler drop the bounds
	// checks from the scan (5-7% of a search's instructions); keeping the
	// best score in a register saves a load per move. The first of equal
	// scores still wins, so the order is the same.
	scores := ps.scores[:ps.moves.N]
	best, bestScore := i, scores[i]
	for j := i + 1; j < len(scores); j++ {
		if scores[j] > bestScore {
			best, bestScore = j, scores[j]
		}
	}
	moves := ps.moves.Moves[:len(scores)]
	moves[i], moves[best] = moves[best], moves[i]
	scores[i], scores[best] = bestScore, scores[i]
	return moves[i]
}

// rewardQuiet records a quiet move that caused a cutoff: killer at this ply
// and history weighted by depth squared.
func (s *Searcher) rewardQuiet(ply int, m board.Move, side board.Color, depth int) {
	ps := &s.plies[ply]
	if ps.killers[0] != m {
		ps.killers[1] = ps.killers[0]
		ps.killers[0] = m
	}
	h := &s.history[side][m.From()][m.To()]
	*h += int32(depth * depth)
	if *h >= historyMax {
		s.scaleHistory(2)
	}
}
