package openings

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/notnil/chess"
)

// Names of the built-in opening sets.
const (
	// SetFHR25 is the 25 two-ply openings of Feldmann's FHR self-play test.
	SetFHR25 = "fhr25"
	// setTwoPly is all 400 two-ply openings from the initial position.
	setTwoPly = "two-ply"
	// SetStartpos is the initial position alone, no book moves: the games
	// of fastchess and cutechess-cli without -openings.
	SetStartpos = "startpos"
)

// SetNames returns the names of the built-in opening sets.
func SetNames() []string { return []string{SetFHR25, setTwoPly, SetStartpos} }

// builtin returns the named built-in set and whether it exists.
func builtin(name string) ([]Opening, bool) {
	switch name {
	case SetFHR25:
		return FHR25(), true
	case setTwoPly:
		return TwoPly(), true
	case SetStartpos:
		return []Opening{{ID: SetStartpos, Name: "initial position", StartFEN: StandardStartFEN}}, true
	}
	return nil, false
}

// fhr25Table lists the openings of Table 2 of R. Feldmann, "Fail-High
// Reductions" (Advances in Computer Chess 8, 1997), in the paper's order:
// White's and Black's move in SAN, then the same moves in UCI.
var fhr25Table = [25][4]string{
	{"e4", "e5", "e2e4", "e7e5"},
	{"e4", "e6", "e2e4", "e7e6"},
	{"e4", "c5", "e2e4", "c7c5"},
	{"e4", "c6", "e2e4", "c7c6"},
	{"e4", "d6", "e2e4", "d7d6"},
	{"e4", "g6", "e2e4", "g7g6"},
	{"e4", "Nf6", "e2e4", "g8f6"},
	{"e4", "d5", "e2e4", "d7d5"},
	{"e4", "Nc6", "e2e4", "b8c6"},
	{"d4", "Nf6", "d2d4", "g8f6"},
	{"d4", "d5", "d2d4", "d7d5"},
	{"d4", "f5", "d2d4", "f7f5"},
	{"c4", "c5", "c2c4", "c7c5"},
	{"c4", "e5", "c2c4", "e7e5"},
	{"c4", "c6", "c2c4", "c7c6"},
	{"c4", "f5", "c2c4", "f7f5"},
	{"c4", "e6", "c2c4", "e7e6"},
	{"c4", "Nf6", "c2c4", "g8f6"},
	{"Nf3", "d5", "g1f3", "d7d5"},
	{"Nf3", "Nf6", "g1f3", "g8f6"},
	{"Nf3", "f5", "g1f3", "f7f5"},
	{"f4", "e5", "f2f4", "e7e5"},
	{"f4", "d5", "f2f4", "d7d5"},
	{"b4", "Nf6", "b2b4", "g8f6"},
	{"b4", "e5", "b2b4", "e7e5"},
}

// FHR25 returns the 25 two-ply openings of Table 2 of Feldmann's
// "Fail-High Reductions", in the paper's order, with IDs "fhr-01" to
// "fhr-25" and names such as "1. e4 e5". Each call returns a fresh slice.
func FHR25() []Opening {
	list := make([]Opening, 0, len(fhr25Table))
	for i, row := range fhr25Table {
		list = append(list, Opening{
			ID:       fmt.Sprintf("fhr-%02d", i+1),
			Name:     fmt.Sprintf("1. %s %s", row[0], row[1]),
			StartFEN: StandardStartFEN,
			Moves:    []string{row[2], row[3]},
			SAN:      []string{row[0], row[1]},
		})
	}
	return list
}

// TwoPly returns all 400 two-ply openings from the initial position (20
// White moves times 20 Black replies), generated with notnil/chess. The
// order is by the UCI text of White's move, then of Black's move, so it
// starts "1. a3 a5" (a2a3 a7a5), "1. a3 a6", "1. a3 b5", ... and ends
// "1. h4 h6" (h2h4 h7h6); IDs are "2ply-001" to "2ply-400" in that order.
// Each call returns a fresh slice.
func TwoPly() []Opening {
	start := chess.StartingPosition()
	var list []Opening
	for _, w := range sortedMoves(start) {
		after := start.Update(w)
		wSAN := chess.AlgebraicNotation{}.Encode(start, w)
		for _, b := range sortedMoves(after) {
			bSAN := chess.AlgebraicNotation{}.Encode(after, b)
			list = append(list, Opening{
				ID:       fmt.Sprintf("2ply-%03d", len(list)+1),
				Name:     fmt.Sprintf("1. %s %s", wSAN, bSAN),
				StartFEN: StandardStartFEN,
				Moves:    []string{w.String(), b.String()},
				SAN:      []string{wSAN, bSAN},
			})
		}
	}
	return list
}

// sortedMoves returns the legal moves of pos sorted by their UCI text.
func sortedMoves(pos *chess.Position) []*chess.Move {
	moves := pos.ValidMoves()
	slices.SortFunc(moves, func(a, b *chess.Move) int { return cmp.Compare(a.String(), b.String()) })
	return moves
}
