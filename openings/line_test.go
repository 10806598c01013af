package openings

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/notnil/chess"
)

// A line reaches the outcomes a notnil Game reaches, move for move: over
// the first 15 games of results/fhr-vs-plain.pgn.gz and over lines made to
// end in each automatic outcome.
func TestLineAsGame(t *testing.T) {
	type sequence struct {
		name, fen string
		moves     []string
	}
	shuffle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	var fivefold []string
	for range 4 {
		fivefold = append(fivefold, shuffle...)
	}
	seqs := []sequence{
		{"fivefold repetition", StandardStartFEN, append(fivefold, "e2e4")},
		{"75-move rule", "4k3/8/8/8/8/8/4P3/R3K3 w - - 148 80", []string{"a1a2", "e8d8", "a2a1"}},
		{"75-move rule on mate", "7k/8/6K1/8/8/8/8/R7 w - - 149 90", []string{"a1a8"}},
		{"insufficient material by a capture", "4k3/8/8/8/8/8/3r4/3NK3 w - - 0 1", []string{"e1d2"}},
		{"bishops on one colour", "4k3/8/8/3b4/8/8/8/2B1K3 w - - 0 1", []string{"c1d2", "d5e6"}},
		{"bishops on both colours", "4k3/8/8/4b3/8/8/8/2B1K3 w - - 0 1", []string{"c1d2", "e5d6"}},
		{"knight and bishop", "4k3/8/8/4n3/8/8/8/2B1K3 w - - 0 1", []string{"c1d2"}},
		{"stalemate", "7k/8/6QK/8/8/8/8/8 w - - 0 1", []string{"g6f7"}},
		{"castling and en passant", StandardStartFEN, []string{"e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "g8f6", "g1f3", "e7e6", "f1e2", "f8e7", "e1g1", "e8g8"}},
	}
	sc := chess.NewScanner(bytes.NewReader(fhrVsPlain(t)))
	for sc.Scan() && len(seqs) < 9+15 { // notnil's Game is slow on whole games
		g := sc.Next()
		var moves []string
		for _, m := range g.Moves() {
			moves = append(moves, m.String())
		}
		seqs = append(seqs, sequence{fmt.Sprintf("game %d", len(seqs)-8), StandardStartFEN, moves})
	}
	if len(seqs) < 9+15 {
		t.Fatalf("%d sequences: the PGN was not read", len(seqs))
	}
	methods := map[chess.Method]int{}
	for _, s := range seqs {
		start, err := chess.FEN(s.fen)
		if err != nil {
			t.Fatal(err)
		}
		g := chess.NewGame(start)
		l, err := newLine(s.fen)
		if err != nil {
			t.Fatal(err)
		}
		for i, u := range s.moves {
			if _, err := playUCI(g, u); err != nil {
				t.Fatalf("%s: ply %d: %v", s.name, i+1, err)
			}
			if _, err := l.play(u); err != nil {
				t.Fatalf("%s: ply %d: %v", s.name, i+1, err)
			}
			if l.outcome != g.Outcome() || l.method != g.Method() || l.pos.String() != g.Position().String() {
				t.Fatalf("%s: ply %d %s: line %s %s %s, game %s %s %s", s.name, i+1, u,
					l.outcome, l.method, l.pos, g.Outcome(), g.Method(), g.Position())
			}
		}
		methods[g.Method()]++
	}
	for _, m := range []chess.Method{chess.Checkmate, chess.Stalemate, chess.FivefoldRepetition, chess.SeventyFiveMoveRule, chess.InsufficientMaterial, chess.NoMethod} {
		if methods[m] == 0 {
			t.Errorf("no sequence ends in %s", m)
		}
	}
}
