package board

import (
	"strings"
	"testing"
)

func TestFromFENErrors(t *testing.T) {
	tests := []struct {
		fen, want string
	}{
		{"", "want 4 to 6 fields"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "want 8 ranks"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece letter '9'"},
		{"rnbqkbnr/pppppppp/45/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 squares"},
		{"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "has 7 squares"},
		{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece letter"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "bad letter"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "bad square"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number"},
		{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 0 kings"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w - - 0 1", "white has 2 kings"},
		{"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on the first"},
		{"4k3/8/8/8/8/8/8/4K2R w Q - 0 1", "castling right Q"},
		{"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "not to move (black) is in check"},
		{"4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "not on rank 6"},
		{"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "without the pawn"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := FromFEN(tt.fen)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("FromFEN(%q) error = %v, want it to mention %q", tt.fen, err, tt.want)
			}
		})
	}
}

func TestFENWithoutCounters(t *testing.T) {
	b, err := FromFEN("4k3/8/8/8/8/8/8/4K3 b - -")
	if err != nil {
		t.Fatal(err)
	}
	if got := b.FEN(); got != "4k3/8/8/8/8/8/8/4K3 b - - 0 1" {
		t.Fatalf("FEN = %q", got)
	}
}

func TestParseUCIErrors(t *testing.T) {
	b := New()
	for _, tt := range []struct{ move, want string }{
		{"e2e5", "not legal"},
		{"e2", "want 4 or 5 characters"},
		{"i2i4", "bad square"},
		{"e7e8x", "bad promotion letter"},
		{"e1g1", "not legal"},
	} {
		if _, err := b.ParseUCI(tt.move); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseUCI(%q) error = %v, want %q", tt.move, err, tt.want)
		}
	}
	if err := b.ApplyUCI([]string{"e2e4", "e7e5", "e4e5"}); err == nil || !strings.Contains(err.Error(), "move 3") {
		t.Errorf("ApplyUCI error = %v, want it to name move 3", err)
	}
}

func TestCastlingAsKingTakesRook(t *testing.T) {
	b, err := FromFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ in, want string }{{"e1h1", "e1g1"}, {"e1a1", "e1c1"}, {"e1g1", "e1g1"}} {
		m, err := b.ParseUCI(tt.in)
		if err != nil || m.UCI() != tt.want || !m.IsCastle() {
			t.Errorf("ParseUCI(%s) = %v, %v; want castling %s", tt.in, m, err, tt.want)
		}
	}
}

func TestRepetition(t *testing.T) {
	b := New()
	shuffle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	if err := b.ApplyUCI(shuffle); err != nil {
		t.Fatal(err)
	}
	// Start position seen twice now (once before): not threefold in the game.
	if b.IsRepetition(b.Ply()) || b.IsThreefoldRepetition() {
		t.Error("twofold repetition in the game history counted as a draw")
	}
	if !b.IsRepetition(0) {
		t.Error("repetition inside the search (root at ply 0) not seen")
	}
	if err := b.ApplyUCI(shuffle); err != nil {
		t.Fatal(err)
	}
	if !b.IsRepetition(b.Ply()) || !b.IsThreefoldRepetition() {
		t.Error("threefold repetition not seen")
	}
	// A null move in between breaks the chain.
	b2 := New()
	b2.MakeMove(mustMove(t, b2, "g1f3"))
	b2.MakeNullMove()
	b2.MakeMove(mustMove(t, b2, "f3g1"))
	b2.MakeNullMove()
	if b2.IsRepetition(0) {
		t.Error("repetition across null moves")
	}
	// After a pawn move, the later positions still repeat among themselves.
	b3 := New()
	if err := b3.ApplyUCI([]string{"g1f3", "g8f6", "f3g1", "e7e6", "g1f3", "f8e7", "f3g1", "e7f8"}); err != nil {
		t.Fatal(err)
	}
	if !b3.IsRepetition(0) || b3.IsRepetition(b3.Ply()) || b3.IsThreefoldRepetition() {
		t.Error("repetition after a pawn move not seen")
	}
}

func mustMove(t *testing.T, b *Board, s string) Move {
	t.Helper()
	m, err := b.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestInsufficientMaterial(t *testing.T) {
	for _, tt := range []struct {
		fen  string
		want bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},
		{"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},   // c1 and f8: both dark
		{"4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, // c1 dark, g8 light
		{"4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false},
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", false},
		{"4k3/p7/8/8/8/8/8/4K3 w - - 0 1", false},
	} {
		b, err := FromFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.IsInsufficientMaterial(); got != tt.want {
			t.Errorf("%s: IsInsufficientMaterial = %v, want %v", tt.fen, got, tt.want)
		}
	}
}

func TestFiftyMoves(t *testing.T) {
	b, err := FromFEN("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
	if err != nil {
		t.Fatal(err)
	}
	if b.IsFiftyMoveDraw() {
		t.Fatal("99 plies is not yet a draw")
	}
	b.MakeMove(mustMove(t, b, "a1a2"))
	if !b.IsFiftyMoveDraw() {
		t.Fatal("100 plies without capture or pawn move is a draw")
	}
}

func FuzzFromFEN(f *testing.F) {
	for _, p := range perftPositions {
		f.Add(p.fen)
	}
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1")
	f.Fuzz(func(t *testing.T, fen string) {
		b, err := FromFEN(fen)
		if err != nil {
			return
		}
		var l MoveList
		b.Generate(&l, All)
		for _, m := range l.Slice() {
			b.MakeMove(m)
			b.UnmakeMove()
		}
		if _, err := FromFEN(b.FEN()); err != nil {
			t.Fatalf("FEN %q of a parsed board does not parse: %v", b.FEN(), err)
		}
	})
}
