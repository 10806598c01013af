package search

import (
	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/eval"
)

// nodeFlags carry path information down the tree.
type nodeFlags uint8

const (
	flagNullAllowed nodeFlags = 1 << iota // the move into this node was not a null move
	flagVerify                            // verified null move: verification still on in this path
	flagCheckKnown                        // the parent knows whether the side to move is in check...
	flagInCheck                           // ...and it is (the parent computed it for its own rules)
	flagCutNode                           // an expected cut node (multi-cut's node type)
)

// checkFlags records for a child whether its side to move is in check.
func checkFlags(inCheck bool) nodeFlags {
	if inCheck {
		return flagCheckKnown | flagInCheck
	}
	return flagCheckKnown
}

// inCheck is whether the side to move is in check, from the parent's flags
// when it knows, else computed.
func (s *Searcher) inCheck(flags nodeFlags) bool {
	if flags&flagCheckKnown != 0 {
		return flags&flagInCheck != 0
	}
	return s.b.InCheck()
}

// noEval marks a stand-pat value that qsearch must compute itself.
const noEval = -1 << 30

// negascout searches the node at ply with window [alpha, beta] to depth.
// The shape is Feldmann's Figure 1 (first move with the full window, later
// moves with a null window and a re-search when the result falls inside the
// window), with the variants' rules at the places their papers put them.
// It returns a fail-soft value; after s.stopped the value is meaningless.
func (s *Searcher) negascout(alpha, beta engines.Score, depth, ply int, flags nodeFlags) engines.Score {
	if depth <= 0 {
		return s.quiesce(alpha, beta, ply, flags, true)
	}
	if !s.enter(ply) {
		return 0
	}
	s.counters.MainNodes++
	b := s.b
	ps := &s.plies[ply]
	ps.pvLen = 0
	inCheck := s.inCheck(flags)
	if ply > 0 {
		if b.IsRepetition(s.rootPly) || b.IsInsufficientMaterial() {
			return drawScore
		}
		// The fifty-move rule, unless the last move mated.
		if b.IsFiftyMoveDraw() {
			if b.Generate(&ps.moves, board.All); !inCheck || ps.moves.N > 0 {
				return drawScore
			}
			return -engines.Mate + engines.Score(ply)
		}
		if ply >= engines.MaxPly-1 {
			return engines.Score(s.ev.Score(b))
		}
	}
	origAlpha := alpha
	nodeDepth := depth // the depth this node was asked for; stored in the TT (FHR item 7)
	pvNode := beta-alpha > 1

	ttMove := board.NoMove
	if e, ok := s.tt.probe(b.Hash()); ok {
		ttMove = e.move()
		if ply > 0 && beta-alpha == 1 && int(e.depth) >= depth {
			v := scoreFromTT(engines.Score(e.score), ply)
			if e.bound() == engines.BoundExact || (e.bound() == engines.BoundLower && v >= beta) || (e.bound() == engines.BoundUpper && v <= alpha) {
				s.counters.TTCutoffs++
				return v
			}
		}
	}

	// Fail-high reductions (Feldmann, Fig. 2): only at null-window nodes
	// (item 5); e and t come from one evaluation call. In check t is
	// infinite, so the test cannot succeed and is skipped.
	if s.opts.FHR && ply > 0 && alpha == beta-1 && !inCheck {
		e, t := s.ev.Evaluate(b)
		if e-t >= int(beta)-s.opts.FHRMargin {
			depth--
			s.counters.FHRReductions++
			if depth <= 0 {
				// A leaf now (this node is already counted); e is its stand pat.
				return s.qsearch(alpha, beta, ply, false, e)
			}
		}
	}

	// Null move (NMR paper, Figs. 1-2; verified null move, 2002).
	verifyFailHigh := false
	if s.opts.Null != NullOff && ply > 0 && !inCheck && flags&flagNullAllowed != 0 &&
		depth >= s.opts.NullMinDepth &&
		(flags&flagVerify == 0 || s.opts.Null != NullVerified || depth > 1) &&
		(s.opts.NullPawnEndings || hasPieces(b, b.Side())) {
		r := s.opts.nullR(depth)
		s.counters.NullTried++
		b.MakeNullMove()
		// After passing, the opponent is not in check (we were not giving check).
		v := -s.negascout(-beta, -beta+1, depth-r-1, ply+1, flags&flagVerify|checkFlags(false)|childCut(flags, pvNode))
		b.UnmakeNullMove()
		if s.stopped {
			return 0
		}
		if v <= -engines.MateBound && s.opts.ExtMateThreat && ply < 2*s.iterDepth {
			// Passing loses to a mate: the threat is real, look deeper.
			depth++
			s.counters.ExtMateThreat++
		}
		if v >= beta {
			s.counters.NullFailHigh++
			switch {
			case s.opts.Null == NullNMR:
				depth -= s.opts.NullDR
				s.counters.NMRReductions++
				if depth <= 0 {
					return s.qsearch(alpha, beta, ply, false, noEval)
				}
			case s.opts.Null == NullVerified && flags&flagVerify != 0:
				depth--
				flags &^= flagVerify
				verifyFailHigh = true
				s.counters.VerifiedReductions++
			default: // standard null move, or verified inside a verified subtree: cut off
				if v >= engines.MateBound {
					v = beta // a mate found after passing is not a proven mate
				}
				s.tt.store(b.Hash(), ttMove, scoreToTT(v, ply), nodeDepth, engines.BoundLower)
				return v
			}
		}
	}

	// Internal iterative deepening: without a move from the table, search
	// this node shallower to find one. Its own null move has just been
	// tried, so the shallower search goes without.
	if s.opts.IID && ttMove == board.NoMove && pvNode && depth >= s.opts.IIDDepth {
		s.counters.IIDSearches++
		s.negascout(alpha, beta, depth-s.opts.IIDReduction, ply, flags&^flagNullAllowed)
		if s.stopped {
			return 0
		}
		if e, ok := s.tt.probe(b.Hash()); ok {
			ttMove = e.move()
		}
	}

	s.scoreMoves(ply, ttMove)
	n := ps.moves.N
	if n == 0 {
		if inCheck {
			return -engines.Mate + engines.Score(ply)
		}
		return drawScore
	}
	prevMove, prevCaptured := b.LastMove(), b.LastCaptured()
	pre := s.beforeMoves(prevMove)
	us := b.Side()

	if s.opts.MultiCut && flags&flagCutNode != 0 && !pvNode && ply > 0 && !inCheck && depth > s.opts.MultiCutR {
		if v, cut := s.multiCut(beta, depth, ply, flags); s.stopped {
			return 0
		} else if cut {
			return v
		}
	}

research:
	// Futility cutoff (Ye & Marsland, Fig. 2) at frontier nodes; decided
	// here because a verified re-search changes the depth.
	fcut := false
	material, margin := 0, -1
	if ply > 0 && !inCheck {
		switch {
		case s.opts.Futility && depth == 1:
			margin = s.opts.FutilityMargin
		case s.opts.ExtFutility && depth == 2:
			margin = s.opts.ExtFutilityMargin
		}
	}
	if margin >= 0 {
		material = eval.Material(b)
		fcut = material+margin <= int(alpha)
	}
	best := -infinity
	bestMove := board.NoMove
	searched := 0
	for i := 0; i < n; i++ {
		m := s.pickMove(ply, i)
		moved := b.PieceAt(m.From())
		b.MakeMove(m)
		captured := b.LastCaptured()
		givesCheck := b.InCheck()
		childFlags := flags&flagVerify | flagNullAllowed | checkFlags(givesCheck) | childCut(flags, pvNode)
		if fcut && !givesCheck {
			gain := eval.PieceValue(captured.Type())
			if p := m.Promotion(); p != board.NoPieceType {
				gain += eval.PieceValue(p) - eval.PieceValue(board.Pawn)
			}
			if v := material + gain + margin; v <= int(alpha) {
				b.UnmakeMove()
				s.counters.FutilityPrunes++
				best = max(best, engines.Score(v))
				continue
			}
		}
		ext := 0
		if ply < 2*s.iterDepth {
			ext = s.extension(m, moved, captured, givesCheck, n, prevMove, prevCaptured, &pre)
		}
		var x engines.Score
		if searched == 0 {
			x = -s.negascout(-beta, -alpha, depth-1+ext, ply+1, childFlags)
		} else {
			x = -s.negascout(-alpha-1, -alpha, depth-1+ext, ply+1, childFlags)
			if x > alpha && x < beta {
				// Re-search with the full window. Fig. 2 re-searches at the
				// unreduced depth d-1, but a re-search only happens at a node
				// with a window wider than null, where FHR never reduces, so
				// d equals depth here. Feldmann re-searches [x, beta]; with a
				// transposition table and reductions the null-window value is
				// not always reliable, so the re-search uses [alpha, beta] as
				// PVS does.
				x = -s.negascout(-beta, -alpha, depth-1+ext, ply+1, childFlags&^flagCutNode)
			}
		}
		b.UnmakeMove()
		if s.stopped {
			return 0
		}
		searched++
		if x > best {
			best = x
			if x > alpha {
				alpha = x
				bestMove = m
				s.updatePV(ply, m)
				if ply == 0 {
					s.rootScore = x
				}
				if x >= beta {
					if captured == board.NoPiece && m.Promotion() == board.NoPieceType {
						s.rewardQuiet(ply, m, us, depth)
					}
					break
				}
			}
		}
	}

	// Verified null move: the reduced search failed low after a null-move
	// fail-high, so the position may be zugzwang: restore the depth and
	// search again with verification on.
	if verifyFailHigh && best < beta {
		verifyFailHigh = false
		depth++
		flags |= flagVerify
		alpha = origAlpha
		s.counters.VerifiedResearches++
		goto research
	}

	bound := engines.BoundExact
	switch {
	case best >= beta:
		bound = engines.BoundLower
	case best <= origAlpha:
		bound = engines.BoundUpper
		bestMove = ttMove
	}
	s.tt.store(b.Hash(), bestMove, scoreToTT(best, ply), nodeDepth, bound)
	return best
}

// childCut is the cut-node flag of a child searched with a null window: the
// children of a non-PV node alternate (a cut node's children are all nodes,
// an all node's are cut nodes), and at a PV node they are cut nodes. The
// flag means nothing at a PV node (the window says what it is), so the
// first child of a PV node may carry it.
func childCut(flags nodeFlags, pvNode bool) nodeFlags {
	if pvNode || flags&flagCutNode == 0 {
		return flagCutNode
	}
	return 0
}

// multiCut is Björnsson & Marsland's multi-cut at an expected cut node
// whose moves are generated and scored: the first MultiCutMoves moves are
// searched MultiCutR plies shallower with the null window at beta, and
// MultiCutCuts fail-highs among them prune the node (value beta, cut true).
// The searched moves stay sorted at the front of the list, so the full
// search that follows a failed attempt picks them in the same order.
func (s *Searcher) multiCut(beta engines.Score, depth, ply int, flags nodeFlags) (engines.Score, bool) {
	s.counters.MultiCutTried++
	b := s.b
	cuts := 0
	for i := 0; i < min(s.plies[ply].moves.N, s.opts.MultiCutMoves); i++ {
		m := s.pickMove(ply, i)
		b.MakeMove(m)
		// The children of a cut node are all nodes.
		x := -s.negascout(-beta, -beta+1, depth-1-s.opts.MultiCutR, ply+1, flags&flagVerify|flagNullAllowed|checkFlags(b.InCheck()))
		b.UnmakeMove()
		if s.stopped {
			return 0, false
		}
		if x >= beta {
			if cuts++; cuts >= s.opts.MultiCutCuts {
				s.counters.MultiCutPrunes++
				return beta, true
			}
		}
	}
	return 0, false
}

// quiesce is a quiescence node: counted, checked for a draw by repetition
// or the fifty-move rule (a quiet move or a check can reach the horizon in
// a position seen before), then searched by qsearch. horizon says that the
// full-width search called it (depth ran out), not qsearch.
func (s *Searcher) quiesce(alpha, beta engines.Score, ply int, flags nodeFlags, horizon bool) engines.Score {
	if !s.enter(ply) {
		return 0
	}
	s.counters.QNodes++
	if horizon {
		s.counters.HorizonNodes++
	}
	b := s.b
	inCheck := s.inCheck(flags)
	if b.IsRepetition(s.rootPly) {
		s.plies[ply].pvLen = 0
		return drawScore
	}
	if b.IsFiftyMoveDraw() && !(inCheck && s.mated(ply)) {
		s.plies[ply].pvLen = 0
		return drawScore
	}
	return s.qsearch(alpha, beta, ply, inCheck, noEval)
}

// mated reports whether the side to move, in check, has no legal move (the
// ply's move list is used as scratch space).
func (s *Searcher) mated(ply int) bool {
	s.b.Generate(&s.plies[ply].moves, board.All)
	return s.plies[ply].moves.N == 0
}

// qsearch searches captures and queen promotions (MVV-LVA order) above the
// stand-pat evaluation; in check it searches every evasion instead. Out of
// check, qsee skips the moves that lose material by SEE (ordered last, so
// the loop ends at the first), and delta pruning skips captures that cannot
// lift the stand pat to alpha even with delta-margin to spare.
// standPat is the static evaluation when the caller has it, else noEval.
func (s *Searcher) qsearch(alpha, beta engines.Score, ply int, inCheck bool, standPat int) engines.Score {
	b := s.b
	ps := &s.plies[ply]
	ps.pvLen = 0
	if b.IsInsufficientMaterial() {
		return drawScore
	}
	if ply >= engines.MaxPly-1 {
		return engines.Score(s.ev.Score(b))
	}
	best := -infinity
	if inCheck {
		b.Generate(&ps.moves, board.All)
		if ps.moves.N == 0 {
			return -engines.Mate + engines.Score(ply)
		}
	} else {
		if standPat == noEval {
			standPat = s.ev.Score(b)
		}
		best = engines.Score(standPat)
		if best >= beta {
			return best
		}
		alpha = max(alpha, best)
		b.Generate(&ps.moves, board.Noisy)
	}
	seePrune := s.opts.QSEE && !inCheck
	delta := s.opts.Delta && !inCheck
	s.scoreGenerated(ply, board.NoMove, s.opts.SEEOrder || seePrune)
	for i := 0; i < ps.moves.N; i++ {
		m := s.pickMove(ply, i)
		if seePrune && ps.scores[i] < orderLosing {
			s.counters.SEEPrunes += int64(ps.moves.N - i)
			break
		}
		if delta && m.Promotion() == board.NoPieceType {
			gain := s.seeValues[b.PieceAt(m.To()).Type()]
			if m.IsEnPassant() {
				gain = s.seeValues[board.Pawn]
			}
			if v := engines.Score(standPat + gain + s.opts.DeltaMargin); v <= alpha {
				s.counters.DeltaPrunes++
				best = max(best, v)
				continue
			}
		}
		b.MakeMove(m)
		x := -s.quiesce(-beta, -alpha, ply+1, 0, false)
		b.UnmakeMove()
		if s.stopped {
			return 0
		}
		if x > best {
			best = x
			if x > alpha {
				alpha = x
				s.updatePV(ply, m)
				if x >= beta {
					break
				}
			}
		}
	}
	return best
}

func (s *Searcher) updatePV(ply int, m board.Move) {
	ps, child := &s.plies[ply], &s.plies[ply+1]
	ps.pv[0] = m
	n := copy(ps.pv[1:], child.pv[:child.pvLen])
	ps.pvLen = n + 1
}

// hasPieces reports whether c has a piece other than king and pawns (the
// null-move guard against pawn-ending zugzwang).
func hasPieces(b *board.Board, c board.Color) bool {
	return b.Occupancy(c)&^b.Pieces(c, board.Pawn)&^b.Pieces(c, board.King) != 0
}
