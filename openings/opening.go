package openings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/notnil/chess"

	"selfplay/engines/board"
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

// FEN returns the position after the book moves, as notnil writes it (six
// fields, en-passant square set after every double pawn step).
func (o Opening) FEN() (string, error) {
	l, err := newLine(o.StartFEN)
	if err != nil {
		return "", fmt.Errorf("opening %s: start position %q: %w", o.ID, o.StartFEN, err)
	}
	for i, uci := range o.Moves {
		if _, err := l.play(uci); err != nil {
			return "", fmt.Errorf("opening %s: ply %d: %w", o.ID, i+1, err)
		}
	}
	return l.pos.String(), nil
}

// clone returns a copy that shares no slices with o.
func (o Opening) clone() Opening {
	o.Moves = slices.Clone(o.Moves)
	o.SAN = slices.Clone(o.SAN)
	return o
}

// legalMove decodes a UCI move in pos and returns it as notnil's move
// generator made it, with all its tags (check, capture, ...), which SAN
// encoding needs, or an error when it is not legal there.
func legalMove(pos *chess.Position, uci string) (*chess.Move, error) {
	// Matched as text first: notnil's UCI decoder costs more than the
	// move generation (it formats errors while it tries), and is left
	// for the error.
	for _, v := range pos.ValidMoves() {
		if v.String() == uci {
			return v, nil
		}
	}
	m, err := chess.UCINotation{}.Decode(pos, uci)
	if err != nil {
		return nil, fmt.Errorf("bad UCI move %q: %w", uci, err)
	}
	for _, v := range pos.ValidMoves() {
		if v.S1() == m.S1() && v.S2() == m.S2() && v.Promo() == m.Promo() {
			return v, nil
		}
	}
	return nil, fmt.Errorf("illegal move %q in %s", uci, pos)
}

// playUCI plays a legal UCI move in g (see legalMove).
func playUCI(g *chess.Game, uci string) (*chess.Move, error) {
	v, err := legalMove(g.Position(), uci)
	if err != nil {
		return nil, err
	}
	if err := g.Move(v); err != nil {
		return nil, fmt.Errorf("move %q: %w", uci, err)
	}
	return v, nil
}

// line replays moves from a position with the outcomes a notnil Game
// gives (chess.Game's updatePosition: checkmate or stalemate; else, each
// overriding the one before, fivefold repetition, the 75-move rule and
// insufficient material) without the Game's cost: Game.Move compares the
// new position with every earlier one by writing both boards as text,
// quadratic in the moves (78% of the time of loading a PGN book of 16-ply
// games), where a line writes each position's text once.
type line struct {
	pos     *chess.Position
	seen    map[positionKey]int // positions so far, as notnil's samePosition compares them
	outcome chess.Outcome
	method  chess.Method
}

// positionKey is what notnil's samePosition compares.
type positionKey struct {
	board, castling string
	turn            chess.Color
	enPassant       chess.Square
}

func newLine(fen string) (*line, error) {
	// As chess.FEN sets up a Game's position (in check or not), without
	// the Game: NewGame would build the initial position first.
	start := new(chess.Position)
	if err := start.UnmarshalText([]byte(fen)); err != nil {
		return nil, err
	}
	l := &line{pos: start, seen: map[positionKey]int{}, outcome: chess.NoOutcome, method: chess.NoMethod}
	l.update()
	return l, nil
}

// play plays a legal UCI move and returns it (see legalMove).
func (l *line) play(uci string) (*chess.Move, error) {
	m, err := legalMove(l.pos, uci)
	if err != nil {
		return nil, err
	}
	l.pos = l.pos.Update(m)
	l.update()
	return m, nil
}

// update sets the outcome of the position reached.
func (l *line) update() {
	board := l.pos.Board().String()
	key := positionKey{board, l.pos.CastleRights().String(), l.pos.Turn(), l.pos.EnPassantSquare()}
	l.seen[key]++
	switch l.pos.Status() {
	case chess.Stalemate:
		l.outcome, l.method = chess.Draw, chess.Stalemate
	case chess.Checkmate:
		l.outcome, l.method = chess.WhiteWon, chess.Checkmate
		if l.pos.Turn() == chess.White {
			l.outcome = chess.BlackWon
		}
	}
	if l.outcome != chess.NoOutcome {
		return // as in a Game, an outcome stays
	}
	if l.seen[key] >= 5 {
		l.outcome, l.method = chess.Draw, chess.FivefoldRepetition
	}
	if l.pos.HalfMoveClock() >= 150 {
		l.outcome, l.method = chess.Draw, chess.SeventyFiveMoveRule
	}
	// Without a queen, rook or pawn, notnil's own rule decides (a Game
	// set up at the position applies it; the rest of its outcomes it
	// shares with this one's).
	if !strings.ContainsAny(board, "QRPqrp") {
		if fen, err := chess.FEN(l.pos.String()); err == nil {
			if chess.NewGame(fen).Method() == chess.InsufficientMaterial {
				l.outcome, l.method = chess.Draw, chess.InsufficientMaterial
			}
		}
	}
}

// newOpening builds an opening from a start position that has already been
// through parseStartFEN, replaying the UCI moves to check them and to
// compute their SAN. The position after the moves must still be playable
// (no mate, stalemate or automatic draw). An empty name becomes the move
// text, or the FEN's first four fields when there are no moves.
func newOpening(id, name, startFEN string, uci []string) (Opening, error) {
	return newOpeningOn(nil, id, name, startFEN, uci)
}

// newOpeningOn is newOpening replaying the moves on b, the start position
// as parseStartFEN returned it (which saves reading the FEN again), or on a
// board of its own if b is nil. b is played on.
func newOpeningOn(b *board.Board, id, name, startFEN string, uci []string) (Opening, error) {
	if o, ok := fastOpening(b, id, name, startFEN, uci); ok {
		return o, nil
	}
	return notnilOpening(id, name, startFEN, uci)
}

// notnilOpening is newOpening with notnil's Position: the reference, and
// the path of every line a fastLine gives up on.
func notnilOpening(id, name, startFEN string, uci []string) (Opening, error) {
	l, err := newLine(startFEN)
	if err != nil {
		return Opening{}, fmt.Errorf("start position %q: %w", startFEN, err)
	}
	o := Opening{ID: id, Name: name, StartFEN: startFEN}
	if len(uci) > 0 {
		o.Moves, o.SAN = make([]string, 0, len(uci)), make([]string, 0, len(uci))
	}
	for i, u := range uci {
		if l.outcome != chess.NoOutcome {
			return Opening{}, fmt.Errorf("ply %d %q: the game is already over (%s)", i+1, u, l.method)
		}
		pos := l.pos
		m, err := l.play(u)
		if err != nil {
			return Opening{}, fmt.Errorf("ply %d: %w", i+1, err)
		}
		o.Moves = append(o.Moves, m.String())
		o.SAN = append(o.SAN, chess.AlgebraicNotation{}.Encode(pos, m))
	}
	if l.outcome != chess.NoOutcome {
		what := "the start position"
		if len(uci) > 0 {
			what = "the position after the opening moves"
		}
		return Opening{}, fmt.Errorf("%s is already decided (%s, %s)", what, l.method, l.outcome)
	}
	nameOpening(&o)
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
