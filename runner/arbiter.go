package runner

import (
	"fmt"
	"strings"

	"github.com/notnil/chess"

	"selfplay/engines/board"
	"selfplay/outcome"
	"selfplay/store/record"
)

// arbiter holds the game state and judges every move with notnil/chess, a
// move generator independent of the engines' own. A second, fast board
// (engines/board) tracks the position's Zobrist hash for the repetition rule
// (notnil's Game.Move compares whole boards as strings at every move, which
// grows with the game) and the insufficient-material rule; both boards must
// agree on every move, which is itself a check of the engines' core.
type arbiter struct {
	pos   *chess.Position
	valid []*chess.Move // legal moves of pos
	b     *board.Board
	seen  map[uint64]int // times each position occurred (threefold repetition)
}

// usableEnPassant is fen with its en-passant square "-" unless a legal
// en-passant capture is there to be made, as fastchess writes the start
// position for the FEN tag and "position fen" (match.cpp:241-256 sets the
// opening on its board and takes getFen; chess.hpp:3443-3459 keeps the
// square only when isEpSquareValid finds a legal capture): "... w KQkq e6
// 0 2" after 1. e4 e5 is "... w KQkq - 0 2". Its other fields are left as
// they are.
func usableEnPassant(fen string) (string, error) {
	f := strings.Fields(fen)
	if len(f) < 4 || f[3] == "-" {
		return fen, nil
	}
	opt, err := chess.FEN(fen)
	if err != nil {
		return "", fmt.Errorf("start position %q: %w", fen, err)
	}
	for _, m := range chess.NewGame(opt).Position().ValidMoves() {
		if m.HasTag(chess.EnPassant) {
			return fen, nil
		}
	}
	f[3] = "-"
	return strings.Join(f, " "), nil
}

func newArbiter(fen string) (*arbiter, error) {
	opt, err := chess.FEN(fen)
	if err != nil {
		return nil, fmt.Errorf("start position %q: %w", fen, err)
	}
	b, err := board.FromFEN(fen)
	if err != nil {
		return nil, fmt.Errorf("start position: %w", err)
	}
	a := &arbiter{pos: chess.NewGame(opt).Position(), b: b, seen: map[uint64]int{}}
	a.valid = a.pos.ValidMoves()
	a.seen[b.Hash()]++
	return a, nil
}

// find returns the legal move written in UCI, or nil.
func (a *arbiter) find(uci string) *chess.Move {
	for _, m := range a.valid {
		if m.String() == uci {
			return m
		}
	}
	return nil
}

// play makes a legal move (from find) and returns its SAN.
func (a *arbiter) play(m *chess.Move) (string, error) {
	san := chess.AlgebraicNotation{}.Encode(a.pos, m)
	bm, err := a.b.ParseUCI(m.String())
	if err != nil {
		return "", fmt.Errorf("arbiter boards disagree on %s in %s: %w", m, a.pos, err)
	}
	a.b.MakeMove(bm)
	a.pos = a.pos.Update(m)
	a.valid = a.pos.ValidMoves()
	a.seen[a.b.Hash()]++
	return san, nil
}

// outcome of a position by the rules alone.
type ruling struct {
	over        bool
	result      outcome.Result
	termination record.Termination
	reason      string
}

// rule applies the rules that end a game in the current position.
func (a *arbiter) rule() ruling {
	white := a.pos.Turn() == chess.White
	if len(a.valid) == 0 {
		if a.pos.Status() == chess.Checkmate {
			if white {
				return ruling{true, outcome.BlackWins, record.Checkmate, "Black mates"}
			}
			return ruling{true, outcome.WhiteWins, record.Checkmate, "White mates"}
		}
		return ruling{true, outcome.Draw, record.Stalemate, "Draw by stalemate"}
	}
	if a.seen[a.b.Hash()] >= 3 {
		return ruling{true, outcome.Draw, record.Repetition, "Draw by 3-fold repetition"}
	}
	if a.pos.HalfMoveClock() >= 100 {
		return ruling{true, outcome.Draw, record.FiftyMoves, "Draw by fifty moves rule"}
	}
	if a.b.IsInsufficientMaterial() {
		return ruling{true, outcome.Draw, record.InsufficientMaterial, "Draw by insufficient mating material"}
	}
	return ruling{}
}

// pliesFromInitial counts plies as if the game had started from the initial
// position: the FEN move number says how far the position is.
func (a *arbiter) pliesFromInitial() int {
	n := 2 * (a.b.FullmoveNumber() - 1)
	if a.b.Side() == board.Black {
		n++
	}
	return n
}

// canMate reports whether color c has mating material at all (a player out
// of time only loses if the opponent could still mate).
func (a *arbiter) canMate(c board.Color) bool {
	b := a.b
	if b.Pieces(c, board.Pawn)|b.Pieces(c, board.Rook)|b.Pieces(c, board.Queen) != 0 {
		return true
	}
	return (b.Pieces(c, board.Knight) | b.Pieces(c, board.Bishop)).More()
}
