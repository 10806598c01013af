// Package outcome names how a chess game ended: its Result, written as in
// PGN ("1-0", "0-1", "1/2-1/2", or "*" for a game without one), and the
// points each side takes from it. The arbiter produces results, the
// database and the PGN readers decode them (Parse), and the tallies and
// renderers use them typed. It is a leaf: anything may import it.
package outcome

import "fmt"

// Result is a game's result as PGN writes it, in the Result tag and as
// the movetext's termination marker. It is text so that the database and
// JSON keep the PGN spelling; a value that is none of the constants (read
// from a damaged or newer database) is kept as it is and is not Valid.
type Result string

// Results.
const (
	WhiteWins  Result = "1-0"
	BlackWins  Result = "0-1"
	Draw       Result = "1/2-1/2"
	Unfinished Result = "*" // a game that has no result (yet)
)

// Side is a player's colour.
type Side uint8

// Sides.
const (
	White Side = iota
	Black
)

// Other is the opponent's side.
func (s Side) Other() Side { return 1 - s }

// Final returns the results a finished game can have, in the order the
// reports list them.
func Final() []Result { return []Result{WhiteWins, BlackWins, Draw} }

// Parse decodes a result's PGN text; it is how results enter the program
// from text (a PGN tag or marker, a query).
func Parse(s string) (Result, error) {
	if r := Result(s); r.Valid() {
		return r, nil
	}
	return "", fmt.Errorf("result %q is not 1-0, 0-1, 1/2-1/2 or *", s)
}

// Valid reports whether r is one of the four results.
func (r Result) Valid() bool { return r == Unfinished || r.Finished() }

// Finished reports whether r is the result of a finished game: a win for
// either side or a draw.
func (r Result) Finished() bool { return r == WhiteWins || r == BlackWins || r == Draw }

// String is the PGN text.
func (r Result) String() string { return string(r) }

// win is the result when side wins.
func win(side Side) Result {
	if side == White {
		return WhiteWins
	}
	return BlackWins
}

// Loss is the result when side loses.
func Loss(side Side) Result { return win(side.Other()) }

// Winner is the side that won; false for a draw, an unfinished game or an
// unknown result.
func (r Result) Winner() (Side, bool) {
	switch r {
	case WhiteWins:
		return White, true
	case BlackWins:
		return Black, true
	}
	return White, false
}

// Points is side's score: 1 for a win, 1/2 for a draw, 0 for a loss;
// false when r is not a finished game's result.
func (r Result) Points(side Side) (float64, bool) {
	if !r.Finished() {
		return 0, false
	}
	if r == Draw {
		return 0.5, true
	}
	if w, _ := r.Winner(); w == side {
		return 1, true
	}
	return 0, true
}
