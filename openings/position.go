package openings

import (
	"fmt"
	"strings"

	"github.com/notnil/chess"

	"selfplay/engines/board"
)

// parseStartFEN checks a six-field FEN with engines/board (see
// board.FromFEN: one king per side, no pawn on the first or last rank, the
// side not to move not in check, castling rights backed by king and rook,
// an en-passant square behind a pawn that just moved), adds what a game
// start needs beyond that (see checkEnPassantSquares), parses it with
// notnil and returns the FEN as notnil writes it, with castling rights in
// the usual KQkq order, and the position on a board (for newOpeningOn).
func parseStartFEN(fen string) (string, *board.Board, error) {
	f := strings.Fields(fen)
	if len(f) != 6 {
		return "", nil, fmt.Errorf("FEN has %d fields, want 6", len(f))
	}
	b, err := board.FromFEN(fen)
	if err != nil {
		return "", nil, err
	}
	if err := checkEnPassantSquares(b); err != nil {
		return "", nil, err
	}
	f[2] = canonicalCastling(f[2])
	fen = strings.Join(f, " ")
	if b.FEN() == fen {
		// Written as board writes it (placement, clocks without leading
		// zeros, the en-passant square as given), which is as notnil
		// writes it: notnil would read it and write it back unchanged.
		// Its reader is most of the time of loading an EPD book.
		return fen, b, nil
	}
	fen, err = notnilFEN(fen)
	return fen, b, err
}

// notnilFEN returns a FEN as notnil reads and writes it.
func notnilFEN(fen string) (string, error) {
	var pos chess.Position
	if err := pos.UnmarshalText([]byte(fen)); err != nil {
		return "", err
	}
	return pos.String(), nil
}

// canonicalCastling returns the castling field in KQkq order (board.FromFEN
// has checked that it is "-" or distinct letters of KQkq; notnil keeps the
// field as written).
func canonicalCastling(s string) string {
	if s == "-" {
		return s
	}
	var out []byte
	for _, c := range []byte("KQkq") {
		if strings.IndexByte(s, c) >= 0 {
			out = append(out, c)
		}
	}
	return string(out)
}

// checkEnPassantSquares checks what board.FromFEN does not: the squares the
// pawn of an en-passant square crossed and came from are empty, as they
// are right after a double step.
func checkEnPassantSquares(b *board.Board) error {
	ep := b.EnPassant()
	if ep == board.NoSquare {
		return nil
	}
	from := board.MakeSquare(ep.File(), 6) // White to move: Black's pawn came from rank 7
	if b.Side() == board.Black {
		from = board.MakeSquare(ep.File(), 1)
	}
	if b.PieceAt(ep) != board.NoPiece || b.PieceAt(from) != board.NoPiece {
		return fmt.Errorf("en-passant square %s but %s or %s is occupied", ep, ep, from)
	}
	return nil
}
