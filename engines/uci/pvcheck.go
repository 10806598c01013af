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

// pvProblem checks a PV from a position as fastchess's PV check does
// (fastchess app/src/matchmaking/match/match.cpp:150-212 at commit
// 74deac23): every move legal and none after checkmate or stalemate; with
// mates, an exact mate score's PV has exactly the plies of the mate and
// ends in checkmate. It returns "" when the PV is sound, else fastchess's
// words for the fault (match.cpp:55-79).
func pvProblem(g *chess.Game, pv []string, score engines.Score, bound engines.Bound, mates bool) string {
	g = g.Clone()
	for _, m := range pv {
		switch g.Method() {
		case chess.Checkmate:
			return "PV continues after checkmate - move " + m
		case chess.Stalemate:
			return "PV continues after stalemate - move " + m
		}
		if err := playUCI(g, m); err != nil {
			return "Illegal PV move - move " + m
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
		return fmt.Sprintf("Incomplete mating PV (mate %d, %d plies)", n, len(pv))
	case len(pv) > plies:
		return fmt.Sprintf("Too long mating PV (mate %d, %d plies)", n, len(pv))
	case g.Method() != chess.Checkmate:
		return fmt.Sprintf("Mating PV does not end with checkmate (mate %d)", n)
	}
	return ""
}

// checkPV writes a warning for an info line whose PV is not sound
// (Config.PVWarnings), in the words of fastchess's warnings
// (match.cpp:55-79) on one line, their parts joined by " :: " as
// fastchess does under -testEnv.
func (r *searchRun) checkPV(li infoLine, text string) {
	if r.pvGame == nil {
		g, err := gameAt(r.startFEN, r.moves)
		if err != nil {
			return // the arbiter judges the game's moves, not this check
		}
		r.pvGame = g
	}
	p := pvProblem(r.pvGame, li.pv, li.score, li.bound, true)
	if p == "" {
		return
	}
	pos := "startpos"
	if !isStartFEN(r.startFEN) {
		pos = "fen " + strings.Join(strings.Fields(r.startFEN), " ")
	}
	fmt.Fprintf(r.e.cfg.PVWarnings, "Warning; %s from %s :: Info; %s :: Position; %s :: Moves; %s\n",
		p, r.e.cfg.Name, text, pos, strings.Join(r.moves, " "))
}
