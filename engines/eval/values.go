// Package eval is the engines' static evaluation. One call returns both the
// score e of the position for the side to move and Feldmann's threat value
// t (Fail-High Reductions, §2): a pessimistic score of the threats against
// the side to move, built only from what the evaluation already detects
// (attack maps, passed pawns), so FHR costs no extra detection work.
//
// The evaluation is tapered between middlegame and endgame weights by the
// material left on the board: material, piece-square tables, pawn structure
// (doubled, isolated, passed), mobility, king safety and threats.
package eval

import "selfplay/engines/board"

// Score units are centipawns.

// threatInCheck is t(v) when the side to move is in check: "infinite" in
// Feldmann's sense, large enough that e - t can never reach any beta.
const threatInCheck = 1 << 20

// PieceValue is the plain material value of each piece type, used for move
// ordering (MVV-LVA), the threat function and Ye & Marsland's material test.
var pieceValue = [7]int{0, 100, 320, 330, 500, 950, 0}

// PieceValue returns the plain material value of t (king 0).
func PieceValue(t board.PieceType) int { return pieceValue[t] }

// Tapered material: middlegame and endgame values.
var materialMG = [7]int{0, 82, 330, 350, 470, 990, 0}
var materialEG = [7]int{0, 100, 290, 310, 520, 960, 0}

// phaseWeight is each piece type's share of the game phase; 24 = opening.
var phaseWeight = [7]int{0, 0, 1, 1, 2, 4, 0}

const maxPhase = 24

// Piece-square tables from White's point of view, written as seen from
// White's side: the first row is rank 8. Lookup flips them (see pst).
var pstMG = [7][64]int{
	board.Pawn: {
		0, 0, 0, 0, 0, 0, 0, 0,
		40, 40, 40, 45, 45, 40, 40, 40,
		12, 14, 20, 28, 28, 20, 14, 12,
		4, 6, 10, 22, 22, 10, 6, 4,
		0, 0, 6, 18, 18, 4, 0, 0,
		2, 2, 2, 6, 6, -4, 2, 2,
		0, 2, 2, -14, -14, 8, 8, 2,
		0, 0, 0, 0, 0, 0, 0, 0,
	},
	board.Knight: {
		-60, -30, -25, -20, -20, -25, -30, -60,
		-30, -15, 0, 5, 5, 0, -15, -30,
		-20, 5, 12, 18, 18, 12, 5, -20,
		-15, 5, 15, 22, 22, 15, 5, -15,
		-15, 0, 15, 20, 20, 15, 0, -15,
		-20, 2, 10, 12, 12, 10, 2, -20,
		-30, -15, 0, 4, 4, 0, -15, -30,
		-55, -25, -20, -20, -20, -20, -25, -55,
	},
	board.Bishop: {
		-20, -10, -10, -10, -10, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 10, 10, 5, 0, -10,
		-10, 5, 5, 10, 10, 5, 5, -10,
		-10, 0, 10, 10, 10, 10, 0, -10,
		-10, 10, 10, 8, 8, 10, 10, -10,
		-10, 12, 0, 5, 5, 0, 12, -10,
		-20, -10, -12, -10, -10, -12, -10, -20,
	},
	board.Rook: {
		0, 0, 0, 5, 5, 0, 0, 0,
		10, 15, 15, 15, 15, 15, 15, 10,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-8, 0, 0, 0, 0, 0, 0, -8,
		-5, 0, 3, 8, 8, 5, 0, -5,
	},
	board.Queen: {
		-20, -10, -10, -5, -5, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 5, 5, 5, 0, -10,
		-5, 0, 5, 5, 5, 5, 0, -5,
		-5, 0, 5, 5, 5, 5, 0, -5,
		-10, 2, 5, 5, 5, 5, 0, -10,
		-10, 0, 2, 0, 0, 0, 0, -10,
		-20, -10, -10, 0, -5, -10, -10, -20,
	},
	board.King: {
		-40, -45, -45, -50, -50, -45, -45, -40,
		-35, -40, -40, -45, -45, -40, -40, -35,
		-30, -35, -35, -40, -40, -35, -35, -30,
		-30, -35, -35, -40, -40, -35, -35, -30,
		-25, -30, -30, -35, -35, -30, -30, -25,
		-15, -20, -20, -25, -25, -20, -20, -15,
		10, 10, -5, -15, -15, -5, 10, 10,
		15, 25, 10, -10, 0, -5, 30, 20,
	},
}

var pstEG = [7][64]int{
	board.Pawn: {
		0, 0, 0, 0, 0, 0, 0, 0,
		70, 70, 65, 60, 60, 65, 70, 70,
		40, 40, 35, 30, 30, 35, 40, 40,
		20, 20, 15, 10, 10, 15, 20, 20,
		8, 8, 5, 2, 2, 5, 8, 8,
		0, 0, 0, 0, 0, 0, 0, 0,
		-5, -5, -5, -5, -5, -5, -5, -5,
		0, 0, 0, 0, 0, 0, 0, 0,
	},
	board.Knight: {
		-40, -25, -20, -15, -15, -20, -25, -40,
		-25, -10, 0, 0, 0, 0, -10, -25,
		-20, 0, 10, 12, 12, 10, 0, -20,
		-15, 5, 12, 18, 18, 12, 5, -15,
		-15, 5, 12, 18, 18, 12, 5, -15,
		-20, 0, 8, 12, 12, 8, 0, -20,
		-25, -10, 0, 0, 0, 0, -10, -25,
		-40, -25, -20, -15, -15, -20, -25, -40,
	},
	board.Bishop: {
		-15, -10, -8, -5, -5, -8, -10, -15,
		-10, -3, 0, 0, 0, 0, -3, -10,
		-8, 0, 5, 5, 5, 5, 0, -8,
		-5, 0, 5, 10, 10, 5, 0, -5,
		-5, 0, 5, 10, 10, 5, 0, -5,
		-8, 0, 5, 5, 5, 5, 0, -8,
		-10, -3, 0, 0, 0, 0, -3, -10,
		-15, -10, -8, -5, -5, -8, -10, -15,
	},
	board.Rook: {
		8, 8, 8, 8, 8, 8, 8, 8,
		10, 10, 10, 10, 10, 10, 10, 10,
		3, 3, 3, 3, 3, 3, 3, 3,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		-3, -3, -3, -3, -3, -3, -3, -3,
		-5, -3, 0, 0, 0, 0, -3, -5,
	},
	board.Queen: {
		-15, -10, -5, -5, -5, -5, -10, -15,
		-10, 0, 5, 5, 5, 5, 0, -10,
		-5, 5, 10, 12, 12, 10, 5, -5,
		-5, 5, 12, 15, 15, 12, 5, -5,
		-5, 5, 12, 15, 15, 12, 5, -5,
		-5, 5, 10, 12, 12, 10, 5, -5,
		-10, 0, 5, 5, 5, 5, 0, -10,
		-15, -10, -5, -5, -5, -5, -10, -15,
	},
	board.King: {
		-50, -30, -20, -15, -15, -20, -30, -50,
		-30, -10, 0, 5, 5, 0, -10, -30,
		-20, 0, 15, 20, 20, 15, 0, -20,
		-15, 5, 20, 28, 28, 20, 5, -15,
		-15, 5, 20, 28, 28, 20, 5, -15,
		-20, 0, 15, 20, 20, 15, 0, -20,
		-30, -10, 0, 5, 5, 0, -10, -30,
		-50, -35, -25, -20, -20, -25, -35, -50,
	},
}

// score packs a middlegame and an endgame value into one word, the
// middlegame in the high half: sums and multiples by an int of packed
// values are the packed sums and multiples, so the evaluation's piece loop
// adds one word where it added two. Exact while the halves of every value
// unpacked stay within [-2^31, 2^31), far beyond any evaluation's.
type score int64

func pack(mg, eg int) score { return score(mg)<<32 + score(eg) }

// mg and eg unpack the halves; the low half is signed, so mg rounds it away.
func (s score) mg() int { return int((s + 1<<31) >> 32) }
func (s score) eg() int { return int(int32(s)) }

// psq[c][pt][sq] holds material plus table value, from c's own point of
// view, packed and precomputed so the evaluation does one lookup per piece.
var psq = func() (p [2][7][64]score) {
	for pt := board.Pawn; pt <= board.King; pt++ {
		for sq := 0; sq < 64; sq++ {
			// The tables are written rank 8 first: white on sq reads row of sq^56.
			p[board.White][pt][sq] = pack(materialMG[pt]+pstMG[pt][sq^56], materialEG[pt]+pstEG[pt][sq^56])
			p[board.Black][pt][sq] = pack(materialMG[pt]+pstMG[pt][sq], materialEG[pt]+pstEG[pt][sq])
		}
	}
	return p
}()
