package runner

import (
	"testing"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/openings"
	"selfplay/outcome"
)

// TestFastchessAdjudication feeds fastchess's rules (adjudication.rules =
// "fastchess") the scores of a game and checks before which ply they end
// it, against fastchess 1.8.2's trackers (app/src/matchmaking/match/
// match.hpp: DrawTracker :40-75, ResignTracker :77-131, MaxMovesTracker
// :133-146), updated after each engine move (match.cpp:556-570) and read
// by Match::adjudicate (match.cpp:774-806) before the next.
func TestFastchessAdjudication(t *testing.T) {
	// Legal moves from the initial position: knight moves (the half-move
	// clock runs on), then pawn moves at plies 9 and 10 (it restarts).
	line := []string{"g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8", "e2e3", "e7e6", "f1e2", "f8e7", "e2f1", "e7f8"}
	const none = engines.Score(-1 << 20) // no score line in the search
	mate := func(plies int) engines.Score { return engines.Mate - engines.Score(plies) }
	fc := func(a config.Adjudication) config.Adjudication { a.Rules = config.RulesFastchess; return a }
	cases := []struct {
		name    string
		cfg     config.Adjudication
		book    int             // opening plies of line before the engines' first move
		scores  []engines.Score // engine ply by ply, each the mover's own view
		ply     int             // the ply of line after which the game ends (1-based), 0: not ended
		result  outcome.Result  // "": the move limit is reached
		reason  string
		atLimit bool
	}{
		// match.hpp:48-61: one run of both sides' plies, 2*movecount long.
		{"draw: both sides' plies in one run", fc(config.Adjudication{DrawScore: 10, DrawMoves: 2}),
			0, []engines.Score{0, 10, -10, 5}, 4, outcome.Draw, "Draw by adjudication", false},
		{"draw: a score outside restarts the run", fc(config.Adjudication{DrawScore: 10, DrawMoves: 2}),
			0, []engines.Score{0, 0, 11, 0, 0, 0, 0}, 7, outcome.Draw, "Draw by adjudication", false},
		// match.hpp:49: a pawn move (half-move clock 0) restarts the run,
		// which reaches 6 only after ply 15 here, not at ply 10.
		{"draw: a pawn move restarts the run", fc(config.Adjudication{DrawScore: 10, DrawMoves: 3}),
			0, []engines.Score{50, 50, 50, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, "", "", false},
		// match.hpp:52: only a cp score counts (score.isCp()).
		{"draw: a mate score never counts", fc(config.Adjudication{DrawScore: 100000, DrawMoves: 2}),
			0, []engines.Score{0, 0, 0, mate(5), 0, 0, 0, 0}, 8, outcome.Draw, "Draw by adjudication", false},
		// match.cpp:565-566: a search without a score restarts the run.
		{"draw: no score restarts the run", fc(config.Adjudication{DrawScore: 10, DrawMoves: 2}),
			0, []engines.Score{0, 0, none, 0, 0, 0, 0}, 7, outcome.Draw, "Draw by adjudication", false},
		// match.cpp:788: adjudicatable(fullMoveNumber() - 1) >= movenumber,
		// the run counted from the start: before White's move 4 here.
		{"draw: once movenumber full moves are complete", fc(config.Adjudication{DrawScore: 10, DrawMoves: 1, DrawMoveFrom: 3}),
			0, []engines.Score{0, 0, 0, 0, 0, 0, 0, 0}, 6, outcome.Draw, "Draw by adjudication", false},
		// The position's move number counts book moves (match.cpp:554-557).
		{"draw: movenumber counts the opening's moves", fc(config.Adjudication{DrawScore: 10, DrawMoves: 1, DrawMoveFrom: 3}),
			4, []engines.Score{0, 0, 0, 0}, 6, outcome.Draw, "Draw by adjudication", false},
		// match.hpp:86-91, :103: two-sided, 2*movecount plies of |score| >=
		// score of either sign; match.cpp:775-782: the side that just moved
		// loses if its own score is negative, the side to move wins.
		{"two-sided: black resigns", fc(config.Adjudication{ResignScore: 500, ResignMoves: 2}),
			0, []engines.Score{600, -600, 600, -600}, 4, outcome.WhiteWins, "White wins by adjudication", false},
		{"two-sided: the loser must have just moved", fc(config.Adjudication{ResignScore: 500, ResignMoves: 2}),
			0, []engines.Score{-600, 600, -600, 600, -600}, 5, outcome.BlackWins, "Black wins by adjudication", false},
		{"two-sided: |score| of either side's view", fc(config.Adjudication{ResignScore: 500, ResignMoves: 2}),
			0, []engines.Score{600, 600, 600, -600}, 4, outcome.WhiteWins, "White wins by adjudication", false},
		{"two-sided: a mate score counts", fc(config.Adjudication{ResignScore: 100000, ResignMoves: 1}),
			0, []engines.Score{mate(3), -mate(2)}, 2, outcome.WhiteWins, "White wins by adjudication", false},
		{"two-sided: a score below restarts the run", fc(config.Adjudication{ResignScore: 500, ResignMoves: 2}),
			0, []engines.Score{600, -600, 499, -600, 600, -600}, 0, "", "", false},
		// match.hpp:93-97, :104: one-sided, each side's own moves.
		{"one-sided: white resigns alone", fc(config.Adjudication{ResignScore: 500, ResignMoves: 2, ResignOneSided: true}),
			0, []engines.Score{-600, 100, -500, 100}, 3, outcome.BlackWins, "Black wins by adjudication", false},
		{"one-sided: a negative mate score counts", fc(config.Adjudication{ResignScore: 100000, ResignMoves: 1, ResignOneSided: true}),
			0, []engines.Score{0, -mate(4)}, 2, outcome.WhiteWins, "White wins by adjudication", false},
		{"one-sided: a winning mate score resigns nobody", fc(config.Adjudication{ResignScore: 100000, ResignMoves: 1, ResignOneSided: true}),
			0, []engines.Score{mate(3), -5, mate(3), -5}, 0, "", "", false},
		// match.cpp:567: no score restarts the side's own run.
		{"one-sided: no score restarts the run", fc(config.Adjudication{ResignScore: 500, ResignMoves: 2, ResignOneSided: true}),
			0, []engines.Score{-600, 0, none, 0, -600, 0, -600}, 7, outcome.BlackWins, "Black wins by adjudication", false},
		// score=0: White's run of 0 cp makes the tracker resignable
		// (match.hpp:94 "<="), but a 0 does not resign (match.cpp:776
		// "< 0"); Black's next negative score does, with a run of one.
		{"one-sided: resignable by one side, resigned by the other", fc(config.Adjudication{ResignMoves: 2, ResignOneSided: true}),
			0, []engines.Score{0, -5, 0, 5, 0, -5}, 6, outcome.WhiteWins, "White wins by adjudication", false},
		// match.cpp:774-795: resign before draw.
		{"resign before draw", fc(config.Adjudication{ResignMoves: 1, ResignOneSided: true, DrawScore: 10, DrawMoves: 1}),
			0, []engines.Score{0, -5}, 2, outcome.WhiteWins, "White wins by adjudication", false},
		// match.hpp:139-141: the engines' plies only, not the opening's.
		{"max moves: the engines' moves", fc(config.Adjudication{Move: 2, Policy: config.PolicyDraw}),
			4, []engines.Score{0, 0, 0, 0, 0, 0}, 8, "", "", true},
		{"max moves from the initial position", fc(config.Adjudication{Move: 3, Policy: config.PolicyDraw}),
			0, []engines.Score{0, 0, 0, 0, 0, 0, 0, 0}, 6, "", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			adj := &adjudicator{cfg: c.cfg}
			for i, s := range c.scores {
				ply := c.book + i + 1
				side := arbiterAfter(t, openings.StandardStartFEN, line[:ply-1]...).b.Side()
				a := arbiterAfter(t, openings.StandardStartFEN, line[:ply]...)
				adj.fastchessAfterMove(side, s, s != none, a)
				result, reason, atLimit := adj.beforeMove(a)
				if result == "" && !atLimit {
					continue
				}
				if ply != c.ply || result != c.result || reason != c.reason || atLimit != c.atLimit {
					t.Fatalf("ended after ply %d: %q (%q), at the limit %v; want ply %d, %q (%q), %v",
						ply, result, reason, atLimit, c.ply, c.result, c.reason, c.atLimit)
				}
				return
			}
			if c.ply != 0 {
				t.Fatalf("not ended; want after ply %d, %q", c.ply, c.result)
			}
		})
	}
}

// fastchess's -maxmoves draws with its bare text (match.hpp:238,
// match.cpp:798-805); the other policies say how far the engines played.
func TestFastchessMoveLimitTexts(t *testing.T) {
	for _, c := range []struct {
		policy config.Policy
		want   string
	}{
		{config.PolicyDraw, "Draw by adjudication"},
		{config.PolicyAgree, "Draw by adjudication: after 60 moves of each engine, no scores to agree on"},
	} {
		j := &adjudicator{cfg: config.Adjudication{Rules: config.RulesFastchess, Move: 60, Policy: c.policy, Margin: 200}}
		_, reason := j.atMoveLimit(t.Context(), arbiterAfter(t, openings.StandardStartFEN), nil, openings.StandardStartFEN, nil)
		if reason != c.want {
			t.Errorf("%s: %q, want %q", c.policy, reason, c.want)
		}
	}
}
