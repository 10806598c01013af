package openings

import (
	"regexp"
	"strings"

	"github.com/notnil/chess"

	"selfplay/engines/board"
	"selfplay/outcome"
)

// A fastLine replays a book line with engines/board, for the common case
// only: it answers exactly what the notnil path (newOpening, and
// chess.PGN for a PGN game) answers, or gives up and leaves the line to
// that path. Profiled, loading a book spent its time in notnil's move
// generator, which every SAN decode (each legal move is written in SAN
// and compared), SAN encode (each disambiguation generates the moves
// again) and outcome test (Status, and the board written as text) calls
// anew; here each position's legal moves are generated once.
//
// It gives up wherever notnil's answer is not plainly the same:
//   - at any position where notnil's Game would see an outcome or come
//     near one: no legal move (mate, stalemate), a position seen for the
//     third time (fivefold is notnil's rule), a halfmove clock of 140 or
//     more (its 75-move rule is at 150) or no queen, rook or pawn on the
//     board (its insufficient-material rule);
//   - at a move that is not the text of a legal move as notnil writes it:
//     UCI other than notnil's Move.String, SAN other than its
//     AlgebraicNotation (long algebraic, "e.p.", a promotion without '=',
//     a check or mate sign that the move does not give), which notnil's
//     other decoders try or refuse with their own error;
//   - at a variation, or a token notnil's movetext regexp would read other
//     than as one move (digits before a move without a '.').
//
// Repetitions are counted with the board's hash and its en-passant square
// (set after every double step, as notnil sets it), which tell positions
// apart exactly where notnil's samePosition does; a hash collision could
// only add a repetition, and so a give-up. The board's halfmove clock is
// notnil's: both reset it on a capture or a pawn move.
type fastLine struct {
	b     *board.Board
	legal board.MoveList // in b's position
	seen  []repKey       // positions since the last pawn move or capture, b's last
}

type repKey struct {
	hash uint64
	ep   board.Square
}

// fastClockLimit is the halfmove clock at which a fastLine gives up, short
// of notnil's 75-move rule at 150.
const fastClockLimit = 140

// newFastLine sets up a line at a start position that has passed
// parseStartFEN, on b if it holds that position (the line then plays on
// it) or on a board of its own if b is nil; ok is false when the notnil
// path must take the line.
func newFastLine(b *board.Board, fen string) (l *fastLine, ok bool) {
	if b == nil {
		var err error
		if b, err = board.FromFEN(fen); err != nil {
			return nil, false
		}
	}
	l = &fastLine{b: b}
	l.seen = append(l.seen, repKey{b.Hash(), b.EnPassant()})
	b.Generate(&l.legal, board.All)
	return l, l.playable()
}

// playable reports whether the position is far from every outcome of
// notnil's Game (see fastLine).
func (l *fastLine) playable() bool {
	if l.legal.N == 0 || l.b.HalfmoveClock() >= fastClockLimit {
		return false
	}
	b := l.b
	if b.Pieces(board.White, board.Queen)|b.Pieces(board.Black, board.Queen)|
		b.Pieces(board.White, board.Rook)|b.Pieces(board.Black, board.Rook)|
		b.Pieces(board.White, board.Pawn)|b.Pieces(board.Black, board.Pawn) == 0 {
		return false
	}
	last, n := l.seen[len(l.seen)-1], 0
	for _, k := range l.seen {
		if k == last {
			n++
		}
	}
	return n < 3
}

// play plays a legal move and returns it in SAN as notnil writes it; ok is
// false when the position it reaches is not playable.
func (l *fastLine) play(m board.Move) (san string, ok bool) {
	b := l.b
	san = l.sanBody(m)
	b.MakeMove(m)
	b.Generate(&l.legal, board.All)
	if b.InCheck() {
		if l.legal.N == 0 {
			san += "#"
		} else {
			san += "+"
		}
	}
	if b.HalfmoveClock() == 0 {
		l.seen = l.seen[:0] // no earlier position comes back
	}
	l.seen = append(l.seen, repKey{b.Hash(), b.EnPassant()})
	return san, l.playable()
}

// sanLetters are the SAN letters of the board's piece types.
const sanLetters = " PNBRQK"

// sanBody writes a legal move of the position in SAN without its check or
// mate sign, as notnil's AlgebraicNotation.Encode does: castling as O-O,
// a pawn capture with its file, and a piece's origin file and/or rank
// where another piece of its kind can go to the same square (formS1: the
// rank when one shares its file, the file when one shares its rank or
// when neither is shared, both when both are).
func (l *fastLine) sanBody(m board.Move) string {
	if m.IsCastle() {
		if m.To().File() == 6 {
			return "O-O"
		}
		return "O-O-O"
	}
	b := l.b
	from, to := m.From(), m.To()
	p := b.PieceAt(from)
	capture := m.IsEnPassant() || b.PieceAt(to) != board.NoPiece
	var s []byte
	if p.Type() == board.Pawn {
		if capture {
			s = append(s, byte('a'+from.File()), 'x')
		}
	} else {
		s = append(s, sanLetters[p.Type()])
		var req, fileReq, rankReq bool
		for _, o := range l.legal.Slice() {
			if o.From() != from && o.To() == to && b.PieceAt(o.From()) == p {
				req = true
				rankReq = rankReq || o.From().File() == from.File()
				fileReq = fileReq || o.From().Rank() == from.Rank()
			}
		}
		if fileReq || !rankReq && req {
			s = append(s, byte('a'+from.File()))
		}
		if rankReq {
			s = append(s, byte('1'+from.Rank()))
		}
		if capture {
			s = append(s, 'x')
		}
	}
	s = append(s, byte('a'+to.File()), byte('1'+to.Rank()))
	if promo := m.Promotion(); promo != board.NoPieceType {
		s = append(s, '=', sanLetters[promo])
	}
	return string(s)
}

// findUCI returns the legal move whose UCI text is uci, as legalMove
// first matches it.
func (l *fastLine) findUCI(uci string) (board.Move, bool) {
	for _, m := range l.legal.Slice() {
		if m.UCI() == uci {
			return m, true
		}
	}
	return board.NoMove, false
}

// findSAN returns the legal move whose SAN, as notnil writes it, is the
// token as notnil's movetext regexp cuts it out, but for the check or
// mate sign, which it returns (0 for none): notnil's
// AlgebraicNotation.Decode takes the token for the move whose SAN is the
// token, or the token with that sign added, so a sign given must be the
// one the move's SAN ends with (see playSAN). SAN is unique among a
// position's legal moves, so notnil's first match in its own move order
// is this one.
func (l *fastLine) findSAN(tok string) (m board.Move, sign byte, ok bool) {
	body := tok
	if n := len(tok); n > 0 && (tok[n-1] == '+' || tok[n-1] == '#') {
		body, sign = tok[:n-1], tok[n-1]
	}
	for _, m := range l.legal.Slice() {
		if l.sanBody(m) == body {
			return m, sign, true
		}
	}
	return board.NoMove, 0, false
}

// playSAN plays the move that notnil decodes from a move token (findSAN)
// and returns it in UCI and in SAN as notnil writes it; ok is false when
// the token is no move here, its sign is not the move's, or the position
// reached is not playable.
func (l *fastLine) playSAN(tok string) (uci, san string, ok bool) {
	m, sign, found := l.findSAN(tok)
	if !found {
		return "", "", false
	}
	san, ok = l.play(m)
	if sign != 0 && san[len(san)-1] != sign {
		return "", "", false
	}
	return m.UCI(), san, ok
}

// fastOpening is newOpeningOn on a fastLine; ok is false when notnil's
// path must build the opening (and give its error, if any).
func fastOpening(b *board.Board, id, name, startFEN string, uci []string) (o Opening, ok bool) {
	l, ok := newFastLine(b, startFEN)
	if !ok {
		return Opening{}, false
	}
	o = Opening{ID: id, Name: name, StartFEN: startFEN}
	if len(uci) > 0 {
		o.Moves, o.SAN = make([]string, len(uci)), make([]string, len(uci))
	}
	for i, u := range uci {
		m, found := l.findUCI(u)
		if !found {
			return Opening{}, false
		}
		o.Moves[i] = u
		if o.SAN[i], ok = l.play(m); !ok {
			return Opening{}, false
		}
	}
	nameOpening(&o)
	return o, true
}

// nameOpening gives an opening without a name its move text, or its start
// position's first four FEN fields when it has no moves.
func nameOpening(o *Opening) {
	if o.Name != "" {
		return
	}
	if len(o.SAN) > 0 {
		o.Name = moveText(o.StartFEN, o.SAN)
	} else {
		o.Name = epdPart(o.StartFEN)
	}
}

// tagPair matches a tag line as notnil's getTagPairs does.
var tagPair = regexp.MustCompile(`\[(.*)\s\"(.*)\"\]`)

// fastPGNOpening is pgnGame.opening on a fastLine: the game's text (tags,
// then movetext cleaned by cleanMovetext and cut by keepMovetext) decoded
// as chess.PGN decodes it, every move, and its first plies made an
// opening. ok is false when the notnil path must take the game.
func fastPGNOpening(text, id string, plies int) (Opening, bool) {
	start, haveFEN := StandardStartFEN, false
	var b *board.Board // the FEN tag's, or nil
	var tokens []string
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "[") {
			if strings.ContainsAny(line, "(){}[]") {
				return Opening{}, false // variations: notnil strips them
			}
			tokens = append(tokens, strings.Fields(line)...)
			continue
		}
		m := tagPair.FindStringSubmatch(line)
		if haveFEN || m == nil || strings.ToLower(m[1]) != "fen" {
			continue // notnil takes the first FEN tag
		}
		haveFEN = true
		var err error
		if _, err = chess.FEN(m[2]); err != nil {
			return Opening{}, false
		}
		if start, b, err = parseStartFEN(m[2]); err != nil {
			return Opening{}, false
		}
	}
	l, ok := newFastLine(b, start)
	if !ok {
		return Opening{}, false
	}
	o := Opening{ID: id, StartFEN: start}
	for _, tok := range tokens {
		if outcome.Result(tok).Valid() {
			break // notnil stops at the result
		}
		move, ok := moveOfToken(tok)
		if !ok {
			return Opening{}, false
		}
		if move == "" {
			continue
		}
		uci, san, ok := l.playSAN(move)
		if !ok {
			return Opening{}, false
		}
		o.Moves, o.SAN = append(o.Moves, uci), append(o.SAN, san)
	}
	if plies != AllPlies && plies < len(o.Moves) {
		o.Moves, o.SAN = o.Moves[:plies], o.SAN[:plies]
	}
	if len(o.Moves) == 0 {
		o.Moves, o.SAN = nil, nil
	}
	nameOpening(&o)
	return o, true
}

// moveOfToken returns the move that notnil's movetext regexp cuts out of
// a token that cleanMovetext let through (no parentheses, no result):
// "" for a move number, a NAG or an annotation glyph; the SAN without
// its move number and trailing '!' and '?' marks; castling without its
// check or mate sign, which the regexp leaves out. ok is false where
// notnil would cut out something else: digits before a move without a
// '.' ("12e4" is one token to notnil), or "e.p." after a move.
func moveOfToken(tok string) (move string, ok bool) {
	if tok[0] == '$' {
		return "", true
	}
	if digits := leadingDigits(tok); digits > 0 {
		switch {
		case digits == len(tok):
			return "", true
		case tok[digits] != '.':
			return "", false
		}
		tok = strings.TrimLeft(tok[digits:], ".")
	}
	tok = strings.TrimRight(tok, "!?")
	switch {
	case strings.Contains(tok, "e.p."):
		return "", false
	case strings.HasPrefix(tok, "O-O"):
		return strings.TrimRight(tok, "+#"), true
	case !hasSquare(tok):
		return "", true // "", or a glyph such as "+=" or "-/+"
	}
	return tok, true
}

// hasSquare reports whether s holds a square's name, as every SAN move
// but castling does.
func hasSquare(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if isFile(s[i]) && isRank(s[i+1]) {
			return true
		}
	}
	return false
}
