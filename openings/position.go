package openings

import (
	"errors"
	"fmt"
	"strings"

	"github.com/notnil/chess"
)

// parseStartFEN parses a six-field FEN with notnil, checks what notnil does
// not check (see checkPosition) and returns the FEN as notnil writes it, with
// castling rights in the usual KQkq order.
func parseStartFEN(fen string) (string, error) {
	f := strings.Fields(fen)
	if len(f) != 6 {
		return "", fmt.Errorf("FEN has %d fields, want 6", len(f))
	}
	cr, err := canonicalCastling(f[2])
	if err != nil {
		return "", err
	}
	f[2] = cr
	var pos chess.Position
	if err := pos.UnmarshalText([]byte(strings.Join(f, " "))); err != nil {
		return "", err
	}
	if err := checkPosition(&pos); err != nil {
		return "", err
	}
	return pos.String(), nil
}

// canonicalCastling returns the castling field in KQkq order. notnil keeps
// the field as written and accepts mixtures such as "K-".
func canonicalCastling(s string) (string, error) {
	if s == "-" {
		return s, nil
	}
	var out []byte
	for _, c := range "KQkq" {
		switch strings.Count(s, string(c)) {
		case 0:
		case 1:
			out = append(out, byte(c))
		default:
			return "", fmt.Errorf("castling field %q repeats %c", s, c)
		}
	}
	if len(out) != len(s) {
		return "", fmt.Errorf("castling field %q: want \"-\" or letters from KQkq", s)
	}
	return string(out), nil
}

// square helpers on notnil's numbering: a1 = 0, b1 = 1, ..., h8 = 63.
func sqIndex(file, rank int) int { return rank*8 + file }
func sqName(i int) string        { return chess.Square(i).String() }
func onBoard(file, rank int) bool {
	return file >= 0 && file < 8 && rank >= 0 && rank < 8
}

// checkPosition checks what a game needs beyond what notnil's FEN parser
// checks: one king per side, no pawns on the first or last rank, the side not
// to move not in check, castling rights backed by a king and rook on their
// original squares, and an en-passant square behind a pawn that can just
// have made a double step.
func checkPosition(pos *chess.Position) error {
	var b [64]chess.Piece
	for sq, p := range pos.Board().SquareMap() {
		b[sq] = p
	}
	kings := map[chess.Color][]int{}
	var errs []error
	for i, p := range b {
		switch p.Type() {
		case chess.King:
			kings[p.Color()] = append(kings[p.Color()], i)
		case chess.Pawn:
			if r := i / 8; r == 0 || r == 7 {
				errs = append(errs, fmt.Errorf("pawn on %s", sqName(i)))
			}
		}
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		if n := len(kings[c]); n != 1 {
			errs = append(errs, fmt.Errorf("%s has %d kings, want 1", c.Name(), n))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}

	us, them := pos.Turn(), pos.Turn().Other()
	if attacked(&b, kings[them][0], us) {
		errs = append(errs, fmt.Errorf("%s is in check but it is %s's move", them.Name(), us.Name()))
	}

	cr := pos.CastleRights()
	for _, c := range []struct {
		color      chess.Color
		side       chess.Side
		king, rook int
		letter     string
	}{
		{chess.White, chess.KingSide, sqIndex(4, 0), sqIndex(7, 0), "K"},
		{chess.White, chess.QueenSide, sqIndex(4, 0), sqIndex(0, 0), "Q"},
		{chess.Black, chess.KingSide, sqIndex(4, 7), sqIndex(7, 7), "k"},
		{chess.Black, chess.QueenSide, sqIndex(4, 7), sqIndex(0, 7), "q"},
	} {
		if !cr.CanCastle(c.color, c.side) {
			continue
		}
		if b[c.king] != chess.NewPiece(chess.King, c.color) {
			errs = append(errs, fmt.Errorf("castling right %s but no %s king on %s", c.letter, c.color.Name(), sqName(c.king)))
		}
		if b[c.rook] != chess.NewPiece(chess.Rook, c.color) {
			errs = append(errs, fmt.Errorf("castling right %s but no %s rook on %s", c.letter, c.color.Name(), sqName(c.rook)))
		}
	}

	if ep := pos.EnPassantSquare(); ep != chess.NoSquare {
		file, rank := int(ep)%8, int(ep)/8
		wantRank, dir := 5, -1 // White to move: square on rank 6, pawn on rank 5
		if us == chess.Black {
			wantRank, dir = 2, 1 // Black to move: square on rank 3, pawn on rank 4
		}
		switch {
		case rank != wantRank:
			errs = append(errs, fmt.Errorf("en-passant square %s is on the wrong rank for %s to move", ep, us.Name()))
		case b[sqIndex(file, rank+dir)] != chess.NewPiece(chess.Pawn, them):
			errs = append(errs, fmt.Errorf("en-passant square %s but no %s pawn on %s", ep, them.Name(), sqName(sqIndex(file, rank+dir))))
		case b[int(ep)] != chess.NoPiece || b[sqIndex(file, rank-dir)] != chess.NoPiece:
			errs = append(errs, fmt.Errorf("en-passant square %s but %s or %s is occupied", ep, ep, sqName(sqIndex(file, rank-dir))))
		}
	}
	return errors.Join(errs...)
}

// attacked reports whether a piece of color by attacks square sq.
func attacked(b *[64]chess.Piece, sq int, by chess.Color) bool {
	file, rank := sq%8, sq/8
	is := func(f, r int, types ...chess.PieceType) bool {
		if !onBoard(f, r) {
			return false
		}
		p := b[sqIndex(f, r)]
		if p == chess.NoPiece || p.Color() != by {
			return false
		}
		for _, t := range types {
			if p.Type() == t {
				return true
			}
		}
		return false
	}
	// A white pawn attacks upwards, so it stands one rank below sq.
	pr := rank - 1
	if by == chess.Black {
		pr = rank + 1
	}
	if is(file-1, pr, chess.Pawn) || is(file+1, pr, chess.Pawn) {
		return true
	}
	for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
		if is(file+d[0], rank+d[1], chess.Knight) {
			return true
		}
	}
	for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		if is(file+d[0], rank+d[1], chess.King) {
			return true
		}
		slider := chess.Rook
		if d[0] != 0 && d[1] != 0 {
			slider = chess.Bishop
		}
		for f, r := file+d[0], rank+d[1]; onBoard(f, r); f, r = f+d[0], r+d[1] {
			if b[sqIndex(f, r)] == chess.NoPiece {
				continue
			}
			if is(f, r, slider, chess.Queen) {
				return true
			}
			break
		}
	}
	return false
}
