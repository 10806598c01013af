package board

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// StartFEN is the initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Castling rights bits.
const (
	castleWK = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// undo is what make needs to restore on unmake.
type undo struct {
	move     Move
	captured Piece
	castle   uint8
	ep       Square
	halfmove int
	hash     uint64 // hash of the position before the move
	pawnHash uint64
}

// Board is a chess position with its history (for unmake and repetitions).
// The zero value is not usable; create boards with FromFEN or New.
type Board struct {
	pieces   [7]Bitboard // by piece type; index 0 unused
	colors   [2]Bitboard
	squares  [64]Piece
	side     Color
	castle   uint8
	ep       Square // en-passant target as in FEN: set after every double push
	halfmove int
	fullmove int
	hash     uint64
	pawnHash uint64 // Zobrist hash of the pawns alone (pawn-structure caches)
	kings    [2]Square
	hist     []undo // one entry per move made since the FEN, nulls included
}

// New returns the initial position.
func New() *Board {
	b, err := FromFEN(StartFEN)
	if err != nil {
		panic("board: start position does not parse: " + err.Error())
	}
	return b
}

// Side returns the side to move.
func (b *Board) Side() Color { return b.side }

// Hash returns the Zobrist hash of the position.
func (b *Board) Hash() uint64 { return b.hash }

// PawnHash returns the Zobrist hash of the pawn placement alone.
func (b *Board) PawnHash() uint64 { return b.pawnHash }

// PieceAt returns the piece on s, or NoPiece.
func (b *Board) PieceAt(s Square) Piece { return b.squares[s] }

// Pieces returns the squares of the pieces of color c and type t.
func (b *Board) Pieces(c Color, t PieceType) Bitboard { return b.pieces[t] & b.colors[c] }

// Occupancy returns the squares of the pieces of color c.
func (b *Board) Occupancy(c Color) Bitboard { return b.colors[c] }

// Occupied returns all occupied squares.
func (b *Board) Occupied() Bitboard { return b.colors[White] | b.colors[Black] }

// King returns the square of c's king.
func (b *Board) King(c Color) Square { return b.kings[c] }

// EnPassant returns the FEN en-passant square or NoSquare.
func (b *Board) EnPassant() Square { return b.ep }

// HalfmoveClock returns the plies since the last capture or pawn move
// (the FEN's halfmove clock, and the fifty-move rule's).
func (b *Board) HalfmoveClock() int { return b.halfmove }

// FullmoveNumber returns the FEN move number.
func (b *Board) FullmoveNumber() int { return b.fullmove }

// Ply returns the number of moves (null moves included) made since the FEN.
func (b *Board) Ply() int { return len(b.hist) }

// LastMove returns the last move made (NoMove for a null move or none).
func (b *Board) LastMove() Move {
	if len(b.hist) == 0 {
		return NoMove
	}
	return b.hist[len(b.hist)-1].move
}

// LastCaptured returns the piece captured by the last move, or NoPiece.
func (b *Board) LastCaptured() Piece {
	if len(b.hist) == 0 {
		return NoPiece
	}
	return b.hist[len(b.hist)-1].captured
}

// Clone returns an independent copy (history included).
func (b *Board) Clone() *Board {
	c := *b
	c.hist = make([]undo, len(b.hist), max(cap(b.hist), 256))
	copy(c.hist, b.hist)
	return &c
}

func (b *Board) put(p Piece, s Square) {
	bb := SquareBB(s)
	b.pieces[p.Type()] |= bb
	b.colors[p.Color()] |= bb
	b.squares[s] = p
}

func (b *Board) remove(s Square) {
	p := b.squares[s]
	bb := SquareBB(s)
	b.pieces[p.Type()] &^= bb
	b.colors[p.Color()] &^= bb
	b.squares[s] = NoPiece
}

// FromFEN parses a FEN string. The move counters may be omitted (EPD style:
// "0 1" is assumed). The position is checked for the things that would make
// move generation meaningless: one king per side, no pawns on the back
// ranks, the side not to move not in check, castling rights consistent with
// the king and rook squares, a plausible en-passant square.
func FromFEN(fen string) (*Board, error) {
	fields := strings.Fields(fen)
	if len(fields) < 4 || len(fields) > 6 {
		return nil, fmt.Errorf("fen %q: want 4 to 6 fields, got %d", fen, len(fields))
	}
	b := &Board{ep: NoSquare, fullmove: 1, hist: make([]undo, 0, 256)}
	if err := b.parsePlacement(fields[0]); err != nil {
		return nil, fmt.Errorf("fen %q: %w", fen, err)
	}
	switch fields[1] {
	case "w":
		b.side = White
	case "b":
		b.side = Black
	default:
		return nil, fmt.Errorf("fen %q: side to move %q is not w or b", fen, fields[1])
	}
	if fields[2] != "-" {
		for _, c := range fields[2] {
			var bit uint8
			switch c {
			case 'K':
				bit = castleWK
			case 'Q':
				bit = castleWQ
			case 'k':
				bit = castleBK
			case 'q':
				bit = castleBQ
			default:
				return nil, fmt.Errorf("fen %q: castling field %q: bad letter %q", fen, fields[2], c)
			}
			if b.castle&bit != 0 {
				return nil, fmt.Errorf("fen %q: castling field %q repeats %q", fen, fields[2], c)
			}
			b.castle |= bit
		}
	}
	if fields[3] != "-" {
		s, err := parseSquare(fields[3])
		if err != nil {
			return nil, fmt.Errorf("fen %q: en-passant field: %w", fen, err)
		}
		b.ep = s
	}
	if len(fields) >= 5 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("fen %q: halfmove clock %q is not a non-negative number", fen, fields[4])
		}
		b.halfmove = n
	}
	if len(fields) == 6 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("fen %q: fullmove number %q is not a positive number", fen, fields[5])
		}
		b.fullmove = n
	}
	if err := b.validate(); err != nil {
		return nil, fmt.Errorf("fen %q: %w", fen, err)
	}
	b.hash = b.computeHash()
	b.pawnHash = b.computePawnHash()
	return b, nil
}

func (b *Board) parsePlacement(s string) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("placement %q: want 8 ranks, got %d", s, len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for _, c := range row {
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				if file > 8 {
					return fmt.Errorf("placement: rank %d %q has more than 8 squares", rank+1, row)
				}
				continue
			}
			idx := strings.IndexRune(pieceLetters, c)
			if idx <= 0 || c == ' ' {
				return fmt.Errorf("placement: rank %d %q: unknown piece letter %q", rank+1, row, c)
			}
			if file >= 8 {
				return fmt.Errorf("placement: rank %d %q has more than 8 squares", rank+1, row)
			}
			b.put(Piece(idx), MakeSquare(file, rank))
			file++
		}
		if file != 8 {
			return fmt.Errorf("placement: rank %d %q has %d squares, want 8", rank+1, row, file)
		}
	}
	return nil
}

func (b *Board) validate() error {
	for c := White; c <= Black; c++ {
		k := b.Pieces(c, King)
		if k.Count() != 1 {
			return fmt.Errorf("%s has %d kings, want 1", c, k.Count())
		}
		b.kings[c] = k.First()
	}
	if b.pieces[Pawn]&(rank1|rank8) != 0 {
		return errors.New("pawn on the first or eighth rank")
	}
	if b.attackersTo(b.kings[b.side.Other()], b.Occupied())&b.colors[b.side] != 0 {
		return fmt.Errorf("the side not to move (%s) is in check", b.side.Other())
	}
	type right struct {
		bit        uint8
		king, rook Square
		c          Color
		name       string
	}
	for _, r := range []right{
		{castleWK, e1, h1, White, "K"}, {castleWQ, e1, a1, White, "Q"},
		{castleBK, e8, h8, Black, "k"}, {castleBQ, e8, a8, Black, "q"},
	} {
		if b.castle&r.bit != 0 && (b.squares[r.king] != makePiece(r.c, King) || b.squares[r.rook] != makePiece(r.c, Rook)) {
			return fmt.Errorf("castling right %s without king on %s and rook on %s", r.name, r.king, r.rook)
		}
	}
	if b.ep != NoSquare {
		wantRank, pawnSq := 5, b.ep-8 // white to move: black just pushed to rank 5
		if b.side == Black {
			wantRank, pawnSq = 2, b.ep+8
		}
		if b.ep.Rank() != wantRank {
			return fmt.Errorf("en-passant square %s is not on rank %d", b.ep, wantRank+1)
		}
		if b.squares[pawnSq] != makePiece(b.side.Other(), Pawn) {
			return fmt.Errorf("en-passant square %s without the pawn that just moved", b.ep)
		}
	}
	return nil
}

// FEN returns the position in FEN, including the move counters.
func (b *Board) FEN() string {
	var sb strings.Builder
	sb.Grow(90)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			p := b.squares[MakeSquare(file, rank)]
			if p == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteByte(p.letter())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	if b.side == White {
		sb.WriteString(" w ")
	} else {
		sb.WriteString(" b ")
	}
	if b.castle == 0 {
		sb.WriteByte('-')
	}
	for i, l := range "KQkq" {
		if b.castle&(1<<i) != 0 {
			sb.WriteRune(l)
		}
	}
	sb.WriteByte(' ')
	sb.WriteString(b.ep.String())
	fmt.Fprintf(&sb, " %d %d", b.halfmove, b.fullmove)
	return sb.String()
}

// parseSquare parses an algebraic square name like "e4".
func parseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("bad square %q", s)
	}
	return MakeSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}

// String returns the FEN.
func (b *Board) String() string { return b.FEN() }
