// Package board is the engines' chess position: bitboards, legal move
// generation, make/unmake with an incremental Zobrist hash, null moves, draw
// rules, FEN and UCI move text. It knows nothing of search or evaluation.
//
// It is built for the search's hot path: move generation and make/unmake
// allocate nothing (the caller owns the MoveList buffers), and all lookup
// tables are read-only after package initialisation, so any number of Boards
// can be used concurrently from different goroutines.
package board

import "math/bits"

// Square is a board square, a1 = 0, b1 = 1, ..., h8 = 63.
type Square uint8

// NoSquare marks an absent square (no en-passant target).
const NoSquare Square = 64

// Squares used by castling and tests.
const (
	a1 Square = iota
	b1
	c1
	d1
	e1
	f1
	g1
	h1
)

// Named squares of the 8th rank (castling).
const (
	a8 Square = 56 + iota
	b8
	c8
	d8
	e8
	f8
	g8
	h8
)

// File returns 0..7 for files a..h.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0..7 for ranks 1..8.
func (s Square) Rank() int { return int(s) >> 3 }

// MakeSquare builds a square from file and rank (0-based).
func MakeSquare(file, rank int) Square { return Square(rank*8 + file) }

// String returns the algebraic name, e.g. "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// Color is the side: White or Black.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opponent.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType is a kind of piece without color.
type PieceType uint8

// Piece types; NoPieceType = 0 so that the zero Piece is an empty square.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Piece is a colored piece: type in the low 3 bits, color in bit 3.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// makePiece combines a color and a type.
func makePiece(c Color, t PieceType) Piece { return Piece(uint8(c)<<3 | uint8(t)) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's color (meaningless for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

const pieceLetters = " PNBRQK  pnbrqk"

// letter returns the FEN letter of the piece ('P', 'n', ...), or ' ' for none.
func (p Piece) letter() byte { return pieceLetters[p] }

// Bitboard is a set of squares, bit i = square i.
type Bitboard uint64

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square of a non-empty set.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// Has reports whether square s is in the set.
func (b Bitboard) Has(s Square) bool { return b&(1<<s) != 0 }

// More reports whether the set has more than one square.
func (b Bitboard) More() bool { return b&(b-1) != 0 }

// SquareBB is the set holding only s.
func SquareBB(s Square) Bitboard { return 1 << s }

// Masks of files and ranks.
const (
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7
	rank1 Bitboard = 0xff
	rank2 Bitboard = rank1 << 8
	rank3 Bitboard = rank1 << 16
	rank4 Bitboard = rank1 << 24
	rank5 Bitboard = rank1 << 32
	rank6 Bitboard = rank1 << 40
	rank7 Bitboard = rank1 << 48
	rank8 Bitboard = rank1 << 56
)

// FileMask returns the squares of file f (0..7).
func FileMask(f int) Bitboard { return fileA << f }

// RankMask returns the squares of rank r (0..7).
func RankMask(r int) Bitboard { return rank1 << (8 * r) }

// Move is a move packed in 32 bits: from (6), to (6), promotion piece type (3)
// and a flag (2). The zero Move is "no move" (a1a1 can never be a move).
type Move uint32

// Move flags.
const (
	flagNormal    = 0
	flagCastle    = 1
	flagEnPassant = 2
	flagDouble    = 3 // pawn double push (sets the en-passant square)
)

// NoMove is the absence of a move.
const NoMove Move = 0

func newMove(from, to Square, promo PieceType, flag uint32) Move {
	return Move(uint32(from) | uint32(to)<<6 | uint32(promo)<<12 | flag<<15)
}

// From is the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To is the destination square (for castling: the king's destination).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion is the piece type promoted to, or NoPieceType.
func (m Move) Promotion() PieceType { return PieceType(m >> 12 & 7) }

func (m Move) flag() uint32 { return uint32(m>>15) & 3 }

// IsCastle reports whether the move is castling.
func (m Move) IsCastle() bool { return m.flag() == flagCastle }

// IsEnPassant reports whether the move is an en-passant capture.
func (m Move) IsEnPassant() bool { return m.flag() == flagEnPassant }

// MoveList is a caller-owned buffer for generated moves; 256 exceeds the
// maximum number of legal moves in any chess position (218).
type MoveList struct {
	Moves [256]Move
	N     int
}

func (l *MoveList) add(m Move) {
	l.Moves[l.N] = m
	l.N++
}

// Slice returns the generated moves (a view into the buffer, no copy).
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }
