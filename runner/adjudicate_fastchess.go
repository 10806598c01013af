package runner

import (
	"fmt"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/outcome"
)

// fastchessTrackers are fastchess 1.x's adjudication counters
// (app/src/matchmaking/match/match.hpp: DrawTracker, ResignTracker,
// MaxMovesTracker), updated after each move of an engine (Match::playMove,
// match.cpp:556-570) and read before the next one, once the rules of chess
// have not ended the game (Match::adjudicate, match.cpp:734-809).
type fastchessTrackers struct {
	drawPlies   int    // DrawTracker::draw_moves_: one run of both sides' plies
	resignPlies int    // ResignTracker::resign_moves (two-sided): one run of both sides' plies
	resignRun   [2]int // resign_moves_white, resign_moves_black (one-sided): each side's own moves
	plies       int    // MaxMovesTracker::max_moves: the engines' plies, openings not counted
	score       [2]engines.Score
	scored      [2]bool // the side's last search reported a score (UciEngine::lastScore has a value)
}

// fastchessAfterMove updates fastchess's trackers with the move side just
// played; a holds the position after it. scored is false when the engine's
// search reported no score: fastchess then restarts the draw run and side's
// resign run (match.cpp:565-568).
func (j *adjudicator) fastchessAfterMove(side board.Color, s engines.Score, scored bool, a *arbiter) {
	c, t := j.cfg, &j.fc
	if scored {
		j.last[side], j.haveLast[side] = s, true
	}
	t.score[side], t.scored[side] = s, scored
	t.plies++
	if !scored {
		t.drawPlies = 0
		if c.ResignOneSided {
			t.resignRun[side] = 0
		} else {
			t.resignPlies = 0
		}
		return
	}
	// DrawTracker::update: a capture or pawn move (the half-move clock
	// after it is 0) restarts the run, then the move's own score counts;
	// a mate score never does.
	if a.pos.HalfMoveClock() == 0 {
		t.drawPlies = 0
	}
	d := engines.Score(c.DrawScore)
	t.drawPlies = count(t.drawPlies, !s.IsMate() && s <= d && s >= -d)
	// ResignTracker::update.
	r := engines.Score(c.ResignScore)
	if c.ResignOneSided {
		t.resignRun[side] = count(t.resignRun[side], (!s.IsMate() && s <= -r) || (s.IsMate() && s < 0))
	} else {
		t.resignPlies = count(t.resignPlies, (!s.IsMate() && (s >= r || s <= -r)) || s.IsMate())
	}
}

// fastchessVerdict applies fastchess's resign, draw and move-limit rules,
// in its order, before the side to move in a plays; atLimit says the move
// limit is reached (the policy decides the game).
func (j *adjudicator) fastchessVerdict(a *arbiter) (result outcome.Result, reason string, atLimit bool) {
	c, t := j.cfg, &j.fc
	// Resign (match.cpp:774-785): with ResignTracker::resignable, the side
	// that just moved loses if its own last score is negative; the side
	// to move "wins by adjudication".
	mover := a.b.Side().Other()
	if c.ResignMoves > 0 && j.fastchessResignable() && t.scored[mover] && t.score[mover] < 0 {
		return lossFor(mover), fmt.Sprintf("%s wins by adjudication", sideName(a.b.Side())), false
	}
	// Draw (match.cpp:788, DrawTracker::adjudicatable): once movenumber
	// full moves are complete by the position's own move number (an EPD's
	// fmvn counts), after 2*movecount plies in the run.
	if c.DrawMoves > 0 && a.b.FullmoveNumber()-1 >= c.DrawMoveFrom && t.drawPlies >= 2*c.DrawMoves {
		return outcome.Draw, "Draw by adjudication", false
	}
	// Max moves (match.cpp:798, MaxMovesTracker::maxmovesreached).
	return "", "", c.Move > 0 && t.plies >= 2*c.Move
}

// fastchessResignable is ResignTracker::resignable: 2*movecount plies in
// the two-sided run, or movecount moves in either side's one-sided run.
func (j *adjudicator) fastchessResignable() bool {
	c, t := j.cfg, &j.fc
	if c.ResignOneSided {
		return t.resignRun[board.White] >= c.ResignMoves || t.resignRun[board.Black] >= c.ResignMoves
	}
	return t.resignPlies >= 2*c.ResignMoves
}
