package openings

import (
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// gameAfter plays UCI moves from the initial position.
func gameAfter(t *testing.T, uci ...string) *chess.Game {
	t.Helper()
	g := chess.NewGame()
	for _, u := range uci {
		if _, err := playUCI(g, u); err != nil {
			t.Fatalf("%v: %v", uci, err)
		}
	}
	return g
}

// The keys listed in the Polyglot book format's description
// (http://hgm.nubati.net/book_format.html, "Test positions"), each after
// the moves given there from the initial position. They cover every kind
// of random number: pieces, castling rights lost one side at a time, White
// to move, and the en-passant file both when it counts (a pawn of the side
// to move beside the pawn that moved: after f7f5 and after c2c4) and when
// it does not (after e2e4 and d7d5, where FEN writes an en-passant square).
func TestPolyglotKeySpec(t *testing.T) {
	tests := []struct {
		moves string
		fen   string // as the description gives it, to show the position is that one
		key   uint64
	}{
		{"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c},
		{"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196},
		{"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0},
		{"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4},
		{"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78},
		{"e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 1 3", 0x652a607ca3f242c1},
		{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 2 4", 0x00fdd303c946bdd9},
		{"a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637},
		{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 1 4", 0x5c3f9b829b279560},
	}
	for _, tc := range tests {
		pos := gameAfter(t, strings.Fields(tc.moves)...).Position()
		if pos.String() != tc.fen {
			t.Errorf("after %q: position %s, want %s", tc.moves, pos, tc.fen)
		}
		if got := polyglotKey(pos); got != tc.key {
			t.Errorf("after %q: key %016x, want %016x", tc.moves, got, tc.key)
		}
		// The same position read from its FEN has the same key.
		fromFEN, err := chess.FEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := polyglotKey(chess.NewGame(fromFEN).Position()); got != tc.key {
			t.Errorf("FEN %s: key %016x, want %016x", tc.fen, got, tc.key)
		}
	}
}

// The en-passant file counts for a pawn of the side to move on either
// side of the pawn that moved, and for no other piece there.
func TestPolyglotKeyEnPassant(t *testing.T) {
	tests := []struct {
		fen     string
		counted bool
	}{
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", true},  // white pawn on e5, to the right of d5
		{"4k3/8/8/2Pp4/8/8/8/4K3 w - d6 0 1", true},  // on c5, to the left
		{"4k3/8/8/3pN3/8/8/8/4K3 w - d6 0 1", false}, // a knight beside it
		{"4k3/8/8/3p4/4P3/8/8/4K3 w - d6 0 1", false},
		{"4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", true}, // Black to move, black pawn on e4
		{"4k3/8/8/8/3P4/8/4p3/K7 b - d3 0 1", false},
		{"4k3/8/8/8/Pp6/8/8/4K3 b - a3 0 1", true}, // the a-file: only one side to look at
		{"4k3/8/8/6pP/8/8/8/4K3 w - g6 0 1", true},
	}
	for _, tc := range tests {
		fen, err := chess.FEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		pos := chess.NewGame(fen).Position()
		ep := pos.EnPassantSquare()
		if ep == chess.NoSquare {
			t.Fatalf("%s: notnil lost the en-passant square", tc.fen)
		}
		f := strings.Fields(tc.fen)
		f[3] = "-"
		without, err := chess.FEN(strings.Join(f, " "))
		if err != nil {
			t.Fatal(err)
		}
		diff := polyglotKey(pos) ^ polyglotKey(chess.NewGame(without).Position())
		want := uint64(0)
		if tc.counted {
			want = polyglotRandom[polyglotEnPassant+int(ep.File())]
		}
		if diff != want {
			t.Errorf("%s: the en-passant square changes the key by %016x, want %016x", tc.fen, diff, want)
		}
	}
}

// Move fields decode to UCI; castling, written king-takes-rook, becomes
// the king's two-square move, and only for a king taking its own rook.
func TestPolyglotMoveUCI(t *testing.T) {
	enc := func(from, to string, promo int) polyglotMove {
		sq := func(s string) int { return int(s[0]-'a') + 8*int(s[1]-'1') }
		return polyglotMove(promo<<12 | sq(from)<<6 | sq(to))
	}
	castling := "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
	tests := []struct {
		fen  string
		move polyglotMove
		want string
	}{
		{StandardStartFEN, enc("e2", "e4", 0), "e2e4"},
		{StandardStartFEN, enc("g1", "f3", 0), "g1f3"},
		{castling, enc("e1", "h1", 0), "e1g1"},
		{castling, enc("e1", "a1", 0), "e1c1"},
		{"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", enc("e8", "h8", 0), "e8g8"},
		{"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", enc("e8", "a8", 0), "e8c8"},
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", enc("e1", "f1", 0), "e1f1"}, // an ordinary king move
		{"4k3/8/8/8/8/8/8/4Q2K w - - 0 1", enc("e1", "h1", 0), "e1h1"}, // a queen, not a king
		{"4k2r/8/8/8/8/8/8/4K3 b k - 0 1", enc("e8", "h8", 0), "e8g8"}, // Black castles
		{"7k/P7/8/8/8/8/8/K7 w - - 0 1", enc("a7", "a8", 4), "a7a8q"},  // promotions
		{"7k/P7/8/8/8/8/8/K7 w - - 0 1", enc("a7", "a8", 1), "a7a8n"},
		{"7k/8/8/8/8/8/p7/7K b - - 0 1", enc("a2", "a1", 3), "a2a1r"},
		{"7k/8/8/8/8/8/p7/7K b - - 0 1", enc("a2", "a1", 2), "a2a1b"},
	}
	for _, tc := range tests {
		fen, err := chess.FEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.move.uci(chess.NewGame(fen).Position()); got != tc.want {
			t.Errorf("%s: move %#04x = %s, want %s", tc.fen, uint16(tc.move), got, tc.want)
		}
	}
	for _, bad := range []polyglotMove{0, enc("e2", "e2", 0), enc("e7", "e8", 5), enc("e7", "e8", 7)} {
		if bad.check() == nil {
			t.Errorf("move %#04x accepted", uint16(bad))
		}
	}
	if err := enc("e2", "e4", 0).check(); err != nil {
		t.Errorf("e2e4: %v", err)
	}
}
