// Package search is the engines' game-tree search: iterative deepening
// NegaScout in the shape of Feldmann's Figure 1 ("Fail-High Reductions"),
// with a transposition table, quiescence search, move ordering (TT move,
// MVV-LVA captures, two killers per ply, history heuristic), check extension
// and exact node, depth and time limits. The variants of the three papers are
// Options of this one search, not separate search functions.
//
// A Searcher owns all its state (transposition table, history, killers,
// move buffers), so any number of Searchers run concurrently; a search with a
// node or depth limit is a pure function of the position, the options and
// the state left by earlier searches since NewGame (table, history, killers).
package search

import (
	"context"
	"errors"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/eval"
)

// Result is the outcome of one search: the contract's Info, and beside it
// the counters of this search's variant.
type Result struct {
	Move     board.Move
	Info     engines.Info
	Counters Counters
}

// plyState is the per-ply scratch space, preallocated so the search
// allocates nothing per node.
type plyState struct {
	moves   board.MoveList
	scores  [256]int32
	killers [2]board.Move
	pv      [engines.MaxPly]board.Move
	pvLen   int
}

// Searcher searches positions with one set of options and keeps its
// transposition table between searches (within a game).
type Searcher struct {
	opts Options
	tt   *transTable
	ev   *eval.Evaluator

	seeValues board.PieceValues // the evaluation's piece values, for SEE

	b         *board.Board
	ctx       context.Context
	rootPly   int
	rootSide  board.Color
	rootMat   int // material at the root from the root side's view (recapture window)
	iterDepth int
	rootScore engines.Score // best root score of the current iteration so far

	nodes    int64
	maxNodes int64
	stopped  bool
	start    time.Time
	hardStop time.Time // zero: none
	selDepth int
	counters Counters

	plies   [engines.MaxPly + 1]plyState
	history [2][64][64]int32
}

// New returns a Searcher with a transposition table of hashMiB MiB.
func New(opts Options, hashMiB int) (*Searcher, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Searcher{opts: opts, tt: newTransTable(hashMiB), ev: eval.NewEvaluator(), seeValues: pieceValues()}, nil
}

// Options returns the searcher's options.
func (s *Searcher) Options() Options { return s.opts }

// NewGame forgets everything learned in earlier searches.
func (s *Searcher) NewGame() {
	s.tt.clear()
	s.history = [2][64][64]int32{}
	for i := range s.plies {
		s.plies[i].killers = [2]board.Move{}
	}
}

// ErrNoLegalMove is returned when the position is mate or stalemate.
var ErrNoLegalMove = errors.New("no legal move in this position")

// Search searches b (whose history serves repetition detection) under the
// limits and returns the best move found. The board is restored before it
// returns. Cancelling ctx stops the search; the best move of the last
// completed work is still returned.
func (s *Searcher) Search(ctx context.Context, b *board.Board, lim engines.Limits) (Result, error) {
	var root board.MoveList
	b.Generate(&root, board.All)
	if root.N == 0 {
		return Result{}, ErrNoLegalMove
	}
	s.b = b
	s.ctx = ctx
	s.rootPly = b.Ply()
	s.rootSide = b.Side()
	s.rootMat = eval.Material(b)
	s.nodes, s.maxNodes, s.stopped, s.selDepth = 0, lim.Nodes, false, 0
	s.counters = Counters{}
	s.start = time.Now()
	budget := allocateTime(lim, b.Side())
	s.hardStop = time.Time{}
	if budget.hard > 0 {
		s.hardStop = s.start.Add(budget.hard)
	}
	s.tt.newSearch()
	s.scaleHistory(8)

	maxDepth := MaxDepth
	if lim.Depth > 0 {
		maxDepth = min(lim.Depth, maxDepth)
	}
	// A fallback if not even the first root move completes: the first legal
	// move in generation order.
	res := Result{Move: root.Moves[0]}
	haveIteration := false
	for depth := 1; depth <= maxDepth; depth++ {
		s.iterDepth = depth
		score := s.searchRoot(depth, res.Info.Score, haveIteration)
		ps := &s.plies[0]
		if s.stopped {
			// Use the interrupted iteration only for a move it has fully
			// searched with the full window: the first root move, or an
			// improvement confirmed by its re-search (FHR paper, item 6).
			if ps.pvLen > 0 && (ps.pv[0] != res.Move || !haveIteration) {
				res = s.result(depth, s.rootScore)
				if lim.OnIteration != nil {
					lim.OnIteration(res.Info)
				}
			}
			break
		}
		res = s.result(depth, score)
		haveIteration = true
		if lim.OnIteration != nil {
			lim.OnIteration(res.Info)
		}
		if budget.soft > 0 && time.Since(s.start) >= budget.soft {
			break // not enough time left for another iteration
		}
		if s.pollStop() {
			break
		}
	}
	res.Info.Nodes = s.nodes
	res.Info.Elapsed = time.Since(s.start)
	res.Counters = s.counters
	res.Info.SelDepth = s.selDepth
	return res, nil
}

// searchRoot searches the root to depth: with the full window, or with
// aspiration windows around prev, the previous iteration's value, opening
// the side that fails until the value falls inside the window.
func (s *Searcher) searchRoot(depth int, prev engines.Score, havePrev bool) engines.Score {
	const rootFlags = flagNullAllowed | flagVerify
	if !s.opts.Aspiration || !havePrev || prev <= -engines.MateBound || prev >= engines.MateBound {
		return s.negascout(-infinity, infinity, depth, 0, rootFlags)
	}
	w := engines.Score(s.opts.AspirationWindow)
	alpha, beta := max(prev-w, -infinity), min(prev+w, infinity)
	for {
		v := s.negascout(alpha, beta, depth, 0, rootFlags)
		switch {
		case s.stopped:
			return v
		case v <= alpha && alpha > -infinity:
			alpha = -infinity
		case v >= beta && beta < infinity:
			beta = infinity
		default:
			return v
		}
		s.counters.AspirationFails++
		// The failed pass's PV holds a bound, not a confirmed move: forget
		// it, or a re-search stopped at its first node would leave it to be
		// played (Search uses a stopped iteration's PV).
		s.plies[0].pvLen = 0
	}
}

func (s *Searcher) result(depth int, score engines.Score) Result {
	ps := &s.plies[0]
	n := s.pvUntilDraw(ps.pv[:ps.pvLen])
	pv := make([]string, n)
	for i := range pv {
		pv[i] = ps.pv[i].UCI()
	}
	return Result{Move: ps.pv[0], Info: engines.Info{
		Depth: depth, SelDepth: s.selDepth, Score: score, Bound: engines.BoundExact,
		Nodes: s.nodes, Elapsed: time.Since(s.start), PV: pv,
	}, Counters: s.counters}
}

// pvUntilDraw returns how much of pv (from the root) to report: the line
// ends with the first move after which the game is drawn by rule (threefold
// repetition counting the game before the root, the fifty-move rule,
// insufficient material), as an arbiter would end the game there. The
// search already scores such positions as draws and stops its PV at them
// (a repetition inside the tree counts from the second occurrence); this
// makes the guarantee independent of how a PV was assembled.
func (s *Searcher) pvUntilDraw(pv []board.Move) int {
	b := s.b
	n := 0
	for n < len(pv) {
		b.MakeMove(pv[n])
		n++
		if b.IsThreefoldRepetition() || b.IsFiftyMoveDraw() || b.IsInsufficientMaterial() {
			break
		}
	}
	for i := 0; i < n; i++ {
		b.UnmakeMove()
	}
	return n
}

// enter counts a node, or refuses it when the search must stop. The node
// budget is exact: the count never exceeds Limits.Nodes.
func (s *Searcher) enter(ply int) bool {
	if s.stopped {
		return false
	}
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		s.stopped = true
		return false
	}
	if (s.nodes+1)&1023 == 0 && s.pollStop() {
		s.stopped = true
		return false
	}
	s.nodes++
	if ply > s.selDepth {
		s.selDepth = ply
	}
	return true
}

// pollStop checks the context and the hard time limit.
func (s *Searcher) pollStop() bool {
	if s.ctx.Err() != nil {
		return true
	}
	return !s.hardStop.IsZero() && !time.Now().Before(s.hardStop)
}

// scaleHistory divides every history score: between searches (aging) and
// when a score reaches historyMax.
func (s *Searcher) scaleHistory(div int32) {
	for c := range s.history {
		for f := range s.history[c] {
			for t := range s.history[c][f] {
				s.history[c][f][t] /= div
			}
		}
	}
}
