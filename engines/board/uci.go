package board

import "fmt"

const promoLetters = "  nbrq"

// UCI returns the move in UCI long algebraic notation, e.g. "e2e4", "e7e8q";
// "0000" for NoMove.
func (m Move) UCI() string {
	if m == NoMove {
		return "0000"
	}
	buf := make([]byte, 4, 5)
	from, to := m.From(), m.To()
	buf[0], buf[1] = byte('a'+from.File()), byte('1'+from.Rank())
	buf[2], buf[3] = byte('a'+to.File()), byte('1'+to.Rank())
	if p := m.Promotion(); p != NoPieceType {
		buf = append(buf, promoLetters[p])
	}
	return string(buf)
}

// String returns the UCI text.
func (m Move) String() string { return m.UCI() }

// ParseUCI finds the legal move written in UCI notation in this position.
// It accepts castling as the king's two-square move (e1g1) and also as king
// takes own rook (e1h1), which some GUIs send.
func (b *Board) ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NoMove, fmt.Errorf("move %q: want 4 or 5 characters like e2e4 or e7e8q", s)
	}
	from, err := parseSquare(s[0:2])
	if err != nil {
		return NoMove, fmt.Errorf("move %q: %w", s, err)
	}
	to, err := parseSquare(s[2:4])
	if err != nil {
		return NoMove, fmt.Errorf("move %q: %w", s, err)
	}
	promo := NoPieceType
	if len(s) == 5 {
		switch s[4] {
		case 'n':
			promo = Knight
		case 'b':
			promo = Bishop
		case 'r':
			promo = Rook
		case 'q':
			promo = Queen
		default:
			return NoMove, fmt.Errorf("move %q: bad promotion letter %q", s, s[4])
		}
	}
	var l MoveList
	b.Generate(&l, All)
	for _, m := range l.Slice() {
		if m.From() != from || m.Promotion() != promo {
			continue
		}
		if m.To() == to {
			return m, nil
		}
		if m.IsCastle() && b.squares[to] == makePiece(b.side, Rook) &&
			((to > from) == (m.To() > from)) {
			return m, nil
		}
	}
	return NoMove, fmt.Errorf("move %q is not legal in %s", s, b.FEN())
}

// ApplyUCI parses and plays a sequence of UCI moves.
func (b *Board) ApplyUCI(moves []string) error {
	for i, s := range moves {
		m, err := b.ParseUCI(s)
		if err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
		b.MakeMove(m)
	}
	return nil
}
