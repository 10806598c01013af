package openings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/notnil/chess"
)

// StandardStartFEN is the initial position, written as notnil/chess writes it.
const StandardStartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Opening is one start position for a game pair: a position and the book
// moves played from it before the engines take over.
type Opening struct {
	// ID is stable across runs and unique within a set: "fhr-01",
	// "2ply-001", an EPD line's id opcode, "book.epd:12" (file base name and
	// line) or "book.pgn#3" (file base name and game number).
	ID string
	// Name is for people, e.g. "1. e4 e5"; for an EPD position without an
	// id it is the position's first four FEN fields.
	Name string
	// StartFEN is the position the moves start from, a full six-field FEN as
	// notnil writes it: StandardStartFEN or a position from an EPD line or a
	// PGN FEN tag.
	StartFEN string
	// Moves are the book moves in UCI ("e2e4", "e1g1", "e7e8q"), played from
	// StartFEN. Empty for EPD openings.
	Moves []string
	// SAN holds the same moves in SAN, as notnil writes them ("Nf3", "O-O",
	// "Qxf7#").
	SAN []string
}

// IsStandardStart reports whether the moves start from the standard initial
// position with clocks "0 1", i.e. whether a PGN of the game can do without
// SetUp and FEN tags.
func (o Opening) IsStandardStart() bool {
	return strings.Join(strings.Fields(o.StartFEN), " ") == StandardStartFEN
}

// game returns a notnil game at StartFEN with the book moves played.
func (o Opening) game() (*chess.Game, error) {
	start, err := chess.FEN(o.StartFEN)
	if err != nil {
		return nil, fmt.Errorf("opening %s: start position %q: %w", o.ID, o.StartFEN, err)
	}
	g := chess.NewGame(start)
	for i, uci := range o.Moves {
		if _, err := playUCI(g, uci); err != nil {
			return nil, fmt.Errorf("opening %s: ply %d: %w", o.ID, i+1, err)
		}
	}
	return g, nil
}

// FEN returns the position after the book moves, as notnil writes it (six
// fields, en-passant square set after every double pawn step).
func (o Opening) FEN() (string, error) {
	g, err := o.game()
	if err != nil {
		return "", err
	}
	return g.Position().String(), nil
}

// clone returns a copy that shares no slices with o.
func (o Opening) clone() Opening {
	o.Moves = slices.Clone(o.Moves)
	o.SAN = slices.Clone(o.SAN)
	return o
}

// playUCI decodes a UCI move in g's current position, checks that it is
// legal and plays it. It returns the move as notnil's move generator made it,
// with all its tags (check, capture, ...), which SAN encoding needs.
func playUCI(g *chess.Game, uci string) (*chess.Move, error) {
	pos := g.Position()
	m, err := chess.UCINotation{}.Decode(pos, uci)
	if err != nil {
		return nil, fmt.Errorf("bad UCI move %q: %w", uci, err)
	}
	for _, v := range pos.ValidMoves() {
		if v.String() == m.String() {
			if err := g.Move(v); err != nil {
				return nil, fmt.Errorf("move %q: %w", uci, err)
			}
			return v, nil
		}
	}
	return nil, fmt.Errorf("illegal move %q in %s", uci, pos)
}

// newOpening builds an opening from a start position that has already been
// through parseStartFEN, replaying the UCI moves with notnil to check them
// and to compute their SAN. The position after the moves must still be
// playable (no mate, stalemate or automatic draw). An empty name becomes the
// move text, or the FEN's first four fields when there are no moves.
func newOpening(id, name, startFEN string, uci []string) (Opening, error) {
	start, err := chess.FEN(startFEN)
	if err != nil {
		return Opening{}, fmt.Errorf("start position %q: %w", startFEN, err)
	}
	g := chess.NewGame(start)
	o := Opening{ID: id, Name: name, StartFEN: startFEN}
	for i, u := range uci {
		pos := g.Position()
		if g.Outcome() != chess.NoOutcome {
			return Opening{}, fmt.Errorf("ply %d %q: the game is already over (%s)", i+1, u, g.Method())
		}
		m, err := playUCI(g, u)
		if err != nil {
			return Opening{}, fmt.Errorf("ply %d: %w", i+1, err)
		}
		o.Moves = append(o.Moves, m.String())
		o.SAN = append(o.SAN, chess.AlgebraicNotation{}.Encode(pos, m))
	}
	if g.Outcome() != chess.NoOutcome {
		what := "the start position"
		if len(uci) > 0 {
			what = "the position after the opening moves"
		}
		return Opening{}, fmt.Errorf("%s is already decided (%s, %s)", what, g.Method(), g.Outcome())
	}
	if o.Name == "" {
		if len(o.SAN) > 0 {
			o.Name = moveText(startFEN, o.SAN)
		} else {
			o.Name = epdPart(startFEN)
		}
	}
	return o, nil
}

// moveText writes SAN moves with move numbers, starting at the side to move
// and full-move number of startFEN: "1. e4 e5", "12... Nf6 13. c4".
func moveText(startFEN string, san []string) string {
	f := strings.Fields(startFEN)
	black := len(f) > 1 && f[1] == "b"
	n := 1
	if len(f) > 5 {
		if _, err := fmt.Sscanf(f[5], "%d", &n); err != nil || n < 1 {
			n = 1
		}
	}
	var b strings.Builder
	for i, s := range san {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case !black:
			fmt.Fprintf(&b, "%d. ", n)
		case i == 0:
			fmt.Fprintf(&b, "%d... ", n)
		}
		b.WriteString(s)
		if black {
			n++
		}
		black = !black
	}
	return b.String()
}

// epdPart returns the first four fields of a FEN (placement, side, castling,
// en passant).
func epdPart(fen string) string {
	f := strings.Fields(fen)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}
