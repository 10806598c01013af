package engines

import "fmt"

// Score is a search value in centipawns from the side to move's point of
// view; values beyond ±MateBound encode mates by their distance in plies.
// Stored games keep scores in this encoding; engines/search computes with
// this type.
type Score int

// Score limits.
const (
	Mate      Score = 32000
	MaxPly          = 128
	MateBound Score = Mate - MaxPly // |score| >= MateBound is a forced mate
)

// IsMate reports whether the score is a forced mate for either side.
func (s Score) IsMate() bool { return s >= MateBound || s <= -MateBound }

// MateMoves returns the distance to mate in moves as UCI reports it:
// positive when the side to move mates, negative when it is mated.
func (s Score) MateMoves() int {
	if s > 0 {
		return int(Mate-s+1) / 2
	}
	return -int(Mate+s) / 2
}

// MateIn returns the score of a mate in n moves (n > 0: the side to move
// mates; n < 0: it is mated), the inverse of MateMoves.
func MateIn(n int) Score {
	if n > 0 {
		return Mate - Score(2*n-1)
	}
	return -Mate + Score(-2*n)
}

// UCI formats the score as UCI's info line does: "cp 31" or "mate -2".
func (s Score) UCI() string {
	if s.IsMate() {
		return fmt.Sprintf("mate %d", s.MateMoves())
	}
	return fmt.Sprintf("cp %d", int(s))
}

// Pawns formats the score in pawns for PGN comments as cutechess-cli and
// fastchess write it: "+0.31", "-2.50", "0.00" without a sign, and mates
// by their distance in plies, "+M5" for a mate in 3 moves, "-M4" for
// being mated in 2 (cutechess moveevaluation.cpp:120-146, fastchess
// types/score.hpp:41-53).
func (s Score) Pawns() string {
	switch {
	case s.IsMate() && s > 0 && s != Mate:
		return fmt.Sprintf("+M%d", int(Mate-s))
	case s.IsMate():
		if s > 0 { // Mate itself: the side to move is mated, as -Mate
			s = -s
		}
		return fmt.Sprintf("-M%d", int(Mate+s))
	case s == 0:
		return "0.00"
	}
	return fmt.Sprintf("%+.2f", float64(s)/100)
}
