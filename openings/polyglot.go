package openings

import (
	"fmt"

	"github.com/notnil/chess"
)

// Offsets into polyglotRandom after the 768 piece numbers.
const (
	polyglotCastle    = 768 // + 0 white short, 1 white long, 2 black short, 3 black long
	polyglotEnPassant = 772 // + the file of the en-passant square
	polyglotTurn      = 780 // White to move
)

// polyglotKind is the Polyglot index of a black piece of each type (black
// pawn 0, black knight 2, ..., black king 10); the white piece is one more.
var polyglotKind = [...]int{chess.Pawn: 0, chess.Knight: 2, chess.Bishop: 4, chess.Rook: 6, chess.Queen: 8, chess.King: 10}

// polyglotKey is the Polyglot book key of pos: the XOR of the random
// numbers of every piece on its square, of every castling right, of the
// en-passant file and of White to move. Unlike the en-passant square of a
// FEN, which notnil sets after every double pawn step, the en-passant file
// counts only when a pawn of the side to move stands beside the pawn that
// just moved, i.e. could capture it (legal or not), as the format defines.
func polyglotKey(pos *chess.Position) uint64 {
	b := pos.Board()
	var key uint64
	for sq := chess.A1; sq <= chess.H8; sq++ {
		p := b.Piece(sq)
		if p == chess.NoPiece {
			continue
		}
		kind := polyglotKind[p.Type()]
		if p.Color() == chess.White {
			kind++
		}
		key ^= polyglotRandom[64*kind+int(sq)] // notnil's squares are 8*rank+file, as Polyglot's
	}
	cr := pos.CastleRights()
	for i, right := range [4]struct {
		c    chess.Color
		side chess.Side
	}{{chess.White, chess.KingSide}, {chess.White, chess.QueenSide}, {chess.Black, chess.KingSide}, {chess.Black, chess.QueenSide}} {
		if cr.CanCastle(right.c, right.side) {
			key ^= polyglotRandom[polyglotCastle+i]
		}
	}
	if ep := pos.EnPassantSquare(); ep != chess.NoSquare && canCaptureEnPassant(b, ep, pos.Turn()) {
		key ^= polyglotRandom[polyglotEnPassant+int(ep.File())]
	}
	if pos.Turn() == chess.White {
		key ^= polyglotRandom[polyglotTurn]
	}
	return key
}

// canCaptureEnPassant reports whether a pawn of side stands beside the pawn
// that passed over ep: on the rank next to ep, one file to either side.
func canCaptureEnPassant(b *chess.Board, ep chess.Square, side chess.Color) bool {
	// White to move: Black's pawn passed over the sixth rank to the fifth.
	rank, pawn := ep.Rank()-1, chess.WhitePawn
	if side == chess.Black {
		rank, pawn = ep.Rank()+1, chess.BlackPawn
	}
	for _, df := range [2]int{-1, 1} {
		f := int(ep.File()) + df
		if f >= 0 && f < 8 && b.Piece(chess.NewSquare(chess.File(f), rank)) == pawn {
			return true
		}
	}
	return false
}

// polyglotMove is the move field of a book entry: bits 0-5 the to square,
// 6-11 the from square (each 8*row+file), 12-14 the promotion piece (0
// none, 1 knight, 2 bishop, 3 rook, 4 queen).
type polyglotMove uint16

func (m polyglotMove) to() chess.Square   { return chess.Square(m & 63) }
func (m polyglotMove) from() chess.Square { return chess.Square(m >> 6 & 63) }
func (m polyglotMove) promotion() int     { return int(m >> 12 & 7) }

// check reports a field that is no move in any position: from and to the
// same square, or a promotion piece past 4.
func (m polyglotMove) check() error {
	switch {
	case m.from() == m.to():
		return fmt.Errorf("move field %#04x is not a move (from and to %s)", uint16(m), m.from())
	case m.promotion() > 4:
		return fmt.Errorf("move field %#04x is not a move (promotion piece %d, want 0-4)", uint16(m), m.promotion())
	}
	return nil
}

// uci is the move in UCI in pos. Polyglot writes castling as the king
// taking its own rook (e1h1, e1a1, e8h8, e8a8); UCI moves the king two
// squares (e1g1, ...).
func (m polyglotMove) uci(pos *chess.Position) string {
	from, to := m.from(), m.to()
	if p := pos.Board().Piece(from); p.Type() == chess.King && from.File() == chess.FileE && from.Rank() == to.Rank() {
		if q := pos.Board().Piece(to); q.Type() == chess.Rook && q.Color() == p.Color() {
			switch to.File() {
			case chess.FileH:
				to = chess.NewSquare(chess.FileG, to.Rank())
			case chess.FileA:
				to = chess.NewSquare(chess.FileC, to.Rank())
			}
		}
	}
	s := from.String() + to.String()
	if pr := m.promotion(); pr > 0 {
		s += string("nbrq"[pr-1])
	}
	return s
}
