package uci

import (
	"fmt"
	"strings"

	"github.com/notnil/chess"

	"selfplay/engines"
)

// gameAt is the game of notnil/chess at a position: startFEN ("" or the
// start position: the initial one) and the moves after it.
func gameAt(startFEN string, moves []string) (*chess.Game, error) {
	var g *chess.Game
	if isStartFEN(startFEN) {
		g = chess.NewGame()
	} else {
		fen, err := chess.FEN(strings.Join(strings.Fields(startFEN), " "))
		if err != nil {
			return nil, err
		}
		g = chess.NewGame(fen)
	}
	for _, m := range moves {
		if err := playUCI(g, m); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// playUCI plays a move given in UCI notation, if it is legal.
func playUCI(g *chess.Game, m string) error {
	pos := g.Position()
	for _, v := range g.ValidMoves() {
		if (chess.UCINotation{}).Encode(pos, v) == m {
			return g.Move(v)
		}
	}
	return fmt.Errorf("%s is not a legal move", m)
}

// pvProblem checks a PV from a position as fastchess's -check-mate-pvs
// does (fastchess app/src/matchmaking/match/match.cpp:150-212 at commit
// 74deac23): every move legal and none after the game is over; with
// mates, an exact mate score's PV has exactly the plies of the mate and
// ends in checkmate. It returns "" when the PV is sound.
func pvProblem(g *chess.Game, pv []string, score engines.Score, bound engines.Bound, mates bool) string {
	g = g.Clone()
	for i, m := range pv {
		if g.Outcome() != chess.NoOutcome {
			return fmt.Sprintf("the pv goes on after the game ended (%s) with %s (move %d)", g.Method(), m, i+1)
		}
		if err := playUCI(g, m); err != nil {
			return fmt.Sprintf("pv move %d, %s, is not legal", i+1, m)
		}
	}
	if !mates || !score.IsMate() || bound != engines.BoundExact {
		return ""
	}
	n := score.MateMoves()
	plies := 2*n - 1
	if n < 0 {
		plies = -2 * n
	}
	switch {
	case len(pv) < plies:
		return fmt.Sprintf("score mate %d with a pv of %d plies, fewer than the %d of the mate", n, len(pv), plies)
	case len(pv) > plies:
		return fmt.Sprintf("score mate %d with a pv of %d plies, more than the %d of the mate", n, len(pv), plies)
	case g.Method() != chess.Checkmate:
		return fmt.Sprintf("score mate %d with a pv that does not end in checkmate", n)
	}
	return ""
}
