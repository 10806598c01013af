package runner

import (
	"context"
	"fmt"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/outcome"
)

// adjudicator ends games early: at the move limit (FHR paper §3.3: "stopped
// after 100 moves and then adjudicated") by a policy, and, when configured,
// by cutechess-style resign and draw rules over the engines' scores.
type adjudicator struct {
	cfg config.Adjudication

	last       [2]engines.Score // each side's last reported score (own view)
	haveLast   [2]bool
	resignRun  [2]int // consecutive moves with score <= -ResignScore
	winningRun [2]int // consecutive moves with score >= ResignScore
	drawRun    [2]int // consecutive moves with |score| <= DrawScore

	fc fastchessTrackers // under config.RulesFastchess
}

// beforeMove applies the adjudication due before the side to move in a
// plays, once the rules of chess have not ended the game: fastchess's
// resign and draw rules under config.RulesFastchess; atLimit says the move
// limit is reached (atMoveLimit decides the game).
func (j *adjudicator) beforeMove(a *arbiter) (result outcome.Result, reason string, atLimit bool) {
	if j.cfg.Rules == config.RulesFastchess {
		return j.fastchessVerdict(a)
	}
	return "", "", j.cfg.Move > 0 && a.pliesFromInitial() >= 2*j.cfg.Move
}

// afterMove records side's score for the move it just played (a holds the
// position after it) and applies resign and draw adjudication.
func (j *adjudicator) afterMove(side board.Color, s engines.Score, a *arbiter) (result outcome.Result, reason string) {
	c := j.cfg
	j.last[side], j.haveLast[side] = s, true
	if c.ResignMoves > 0 {
		if result, reason := j.resign(side, s); result != "" {
			return result, reason
		}
	}
	if c.DrawMoves > 0 {
		d := engines.Score(c.DrawScore)
		// The number of the move just played (a holds the position after
		// it), counted from the initial position: Black's move n leaves
		// full-move number n+1 in the position.
		move := (a.pliesFromInitial() + 1) / 2
		inRange := move >= c.DrawMoveFrom && s <= d && s >= -d
		j.drawRun[side] = count(j.drawRun[side], inRange)
		if j.drawRun[board.White] >= c.DrawMoves && j.drawRun[board.Black] >= c.DrawMoves {
			return outcome.Draw, fmt.Sprintf("Draw by adjudication: both engines scored within %d cp for %d moves", c.DrawScore, c.DrawMoves)
		}
	}
	return "", ""
}

// resign records side's score for resign adjudication and applies it.
// Two-sided (cutechess's rule, our default): the loser's score and the
// winner's agree for ResignMoves moves of each. One-sided (fastchess's
// default, resign_two_sided = false): side loses after ResignMoves
// consecutive moves of its own scored at or below -ResignScore, whatever
// its opponent scores (fastchess app/src/matchmaking/match/match.hpp,
// ResignTracker::update and resignable; Match::adjudicate in match.cpp).
func (j *adjudicator) resign(side board.Color, s engines.Score) (result outcome.Result, reason string) {
	c := j.cfg
	r := engines.Score(c.ResignScore)
	j.resignRun[side] = count(j.resignRun[side], s <= -r)
	j.winningRun[side] = count(j.winningRun[side], s >= r)
	if c.ResignOneSided {
		if j.resignRun[side] >= c.ResignMoves {
			return lossFor(side), fmt.Sprintf("%s wins by adjudication: %s scored -%d cp or less for %d moves",
				sideName(side.Other()), sideName(side), c.ResignScore, c.ResignMoves)
		}
		return "", ""
	}
	for _, loser := range []board.Color{board.White, board.Black} {
		if j.resignRun[loser] >= c.ResignMoves && j.winningRun[loser.Other()] >= c.ResignMoves {
			return lossFor(loser), fmt.Sprintf("%s wins by adjudication: both engines scored %d cp or more against %s for %d moves",
				sideName(loser.Other()), c.ResignScore, sideName(loser), c.ResignMoves)
		}
	}
	return "", ""
}

func count(run int, ok bool) int {
	if ok {
		return run + 1
	}
	return 0
}

// atMoveLimit decides a game stopped at the move limit.
// The referee searches the game's position from startFEN after moves.
func (j *adjudicator) atMoveLimit(ctx context.Context, a *arbiter, referee engines.Engine, startFEN string, moves []string) (result outcome.Result, reason string) {
	c := j.cfg
	// cutechess-cli's and fastchess's texts ("Draw by adjudication",
	// "White wins by adjudication"), then ours after ": ".
	at := fmt.Sprintf("at move %d", c.Move)
	if c.Rules == config.RulesFastchess {
		if c.Policy == config.PolicyDraw {
			return outcome.Draw, "Draw by adjudication" // fastchess's -maxmoves (match.cpp:798-805)
		}
		at = fmt.Sprintf("after %d moves of each engine", c.Move)
	}
	switch c.Policy {
	case config.PolicyDraw:
		return outcome.Draw, adjudicated(outcome.Draw, at)
	case config.PolicyAgree:
		if !j.haveLast[0] || !j.haveLast[1] {
			return outcome.Draw, adjudicated(outcome.Draw, at+", no scores to agree on")
		}
		w, b := j.last[board.White], -j.last[board.Black] // both from White's view
		m := engines.Score(c.Margin)
		result, detail := outcome.Draw, "engines do not agree on a winner"
		switch {
		case w >= m && b >= m:
			result, detail = outcome.WhiteWins, "engines agree"
		case w <= -m && b <= -m:
			result, detail = outcome.BlackWins, "engines agree"
		}
		return result, adjudicated(result, fmt.Sprintf("%s, %s (%s, %s)", at, detail, w.Pawns(), b.Pawns()))
	default: // referee
		err := referee.NewGame(ctx)
		var res engines.Result
		if err == nil {
			res, err = referee.Search(ctx, startFEN, moves, engines.Limits{Nodes: c.RefereeNodes})
		}
		if err != nil {
			return outcome.Draw, adjudicated(outcome.Draw, fmt.Sprintf("%s, referee: %v", at, err))
		}
		s := res.Info.Score
		if a.b.Side() == board.Black {
			s = -s
		}
		m := engines.Score(c.Margin)
		result := outcome.Draw
		switch {
		case s >= m:
			result = outcome.WhiteWins
		case s <= -m:
			result = outcome.BlackWins
		}
		return result, adjudicated(result, fmt.Sprintf("%s, referee %s scores %s for White", at, c.Referee, s.Pawns()))
	}
}

// adjudicated is the reason of an adjudicated game: cutechess-cli's and
// fastchess's "Draw by adjudication" or "White wins by adjudication"
// (cutechess-cli projects/lib/src/board/result.cpp, fastchess
// app/src/matchmaking/match/match.hpp), then ": " and our detail, the way
// cutechess-cli appends a result's description.
func adjudicated(result outcome.Result, detail string) string {
	switch result {
	case outcome.WhiteWins:
		return "White wins by adjudication: " + detail
	case outcome.BlackWins:
		return "Black wins by adjudication: " + detail
	}
	return "Draw by adjudication: " + detail
}
