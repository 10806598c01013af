package search

import "selfplay/engines"

// MaxDepth is the deepest iteration the search makes: it leaves room for
// extensions and quiescence below it within engines.MaxPly.
const MaxDepth = engines.MaxPly - 8

// The search computes with the contract's engines.Score, whose encoding
// stored games keep; these are the values only the search needs.
const (
	infinity  engines.Score = engines.Mate + 1 // beyond every score: the full window's bounds
	drawScore engines.Score = 0
)

// scoreToTT makes mate scores relative to the node so they stay valid when
// the entry is found at another ply; scoreFromTT undoes it.
func scoreToTT(s engines.Score, ply int) engines.Score {
	switch {
	case s >= engines.MateBound:
		return s + engines.Score(ply)
	case s <= -engines.MateBound:
		return s - engines.Score(ply)
	}
	return s
}

func scoreFromTT(s engines.Score, ply int) engines.Score {
	switch {
	case s >= engines.MateBound:
		return s - engines.Score(ply)
	case s <= -engines.MateBound:
		return s + engines.Score(ply)
	}
	return s
}
