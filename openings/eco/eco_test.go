package eco

import (
	"bytes"
	"strings"
	"testing"

	"selfplay/engines/board"
)

// Lines taken from the TSV files, a transposition, a position the table
// lacks, and the walk of pgn_builder.cpp:136-146: the last position found
// along the whole game wins, the start position counts, and an illegal
// move ends the walk.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		name, fen, moves string
		want             Opening // zero: not found
	}{
		{"b.tsv: 1. e4", board.StartFEN, "e2e4", Opening{"B00", "King's Pawn Game"}},
		{"b.tsv: 1. e4 c5", board.StartFEN, "e2e4 c7c5", Opening{"B20", "Sicilian Defense"}},
		{"c.tsv: Ruy Lopez", board.StartFEN, "e2e4 e7e5 g1f3 b8c6 f1b5", Opening{"C60", "Ruy Lopez"}},
		{"transposition: 1. c4 Nf6 2. Nc3 e6 3. d4 Bb4 is e.tsv's 1. d4 Nf6 2. c4 e6 3. Nc3 Bb4",
			board.StartFEN, "c2c4 g8f6 b1c3 e7e6 d2d4 f8b4", Opening{"E20", "Nimzo-Indian Defense"}},
		{"the initial position is not in the table", board.StartFEN, "", Opening{}},
		{"a position off every line", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2 e8e7", Opening{}},
		{"the start position counts", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "", Opening{"B00", "King's Pawn Game"}},
		{"moves off the table keep the last entry", board.StartFEN, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 h2h3 h7h6 a2a3 h6h5", Opening{"C70", "Ruy Lopez: Morphy Defense"}},
		{"a later entry wins over an earlier one", board.StartFEN, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", Opening{"C70", "Ruy Lopez: Morphy Defense"}},
		{"an illegal move ends the walk", board.StartFEN, "e2e4 c7c5 e1e3 g1f3", Opening{"B20", "Sicilian Defense"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := Classify(c.fen, strings.Fields(c.moves))
			if err != nil || got != c.want || ok != (c.want != Opening{}) {
				t.Errorf("Classify = %+v, %v, %v; want %+v", got, ok, err, c.want)
			}
		})
	}
	if _, _, err := Classify("not a fen", nil); err == nil {
		t.Error("Classify of a bad FEN: no error")
	}
}

// The key is Board::getFen(false) of chess-library: no move counters, and
// the en-passant square only where a pawn can take there.
func TestEPD(t *testing.T) {
	for _, c := range []struct{ fen, moves, want string }{
		{board.StartFEN, "e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"},
		{board.StartFEN, "d2d4 c7c5 d4d5 e7e5", "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6"},
		{"8/8/8/8/k2p4/8/4P3/4K3 w - - 0 1", "e2e4", "8/8/8/8/k2pP3/8/8/4K3 b - e3"},
		{"8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", "e2e4", "8/8/8/8/k2pP2R/8/8/4K3 b - -"}, // dxe3 would open the rook's rank
		{"8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1", "", "8/8/8/8/k2pP2R/8/8/4K3 b - -"},     // a start FEN's square too
	} {
		b, err := board.FromFEN(c.fen)
		if err == nil {
			err = b.ApplyUCI(strings.Fields(c.moves))
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := epd(b); got != c.want {
			t.Errorf("%s %s: epd = %q, want %q", c.fen, c.moves, got, c.want)
		}
	}
}

// Every line of the files reaches its own position (so the rule for two
// lines with one position, the first kept, changes nothing), and the
// table has as many entries as fastchess 1.8.2's openings_data.cpp: 3536.
func TestTable(t *testing.T) {
	byEPD, err := table()
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, name := range files {
		text, err := data.ReadFile("data/" + name)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(text, []byte("\n")) - 1
	}
	if len(byEPD) != lines || lines != 3536 {
		t.Errorf("%d entries from %d lines, want 3536 of each", len(byEPD), lines)
	}
	if got := byEPD["rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6"]; got != (Opening{"A44", "Benoni Defense: Old Benoni"}) {
		t.Errorf("Old Benoni (an en-passant key): %+v", got)
	}
}

func TestSANErrors(t *testing.T) {
	for _, pgn := range []string{"1. e5", "1. Nd4", "1. 0-0", "1. Nf3 d5 2. d3 e5 3. Nd2", "1. e4 e5 2. Q"} {
		if _, err := replay(board.New(), pgn); err == nil {
			t.Errorf("replay(%q): no error", pgn)
		}
	}
}

// BenchmarkBuild is the table's one-time build from the embedded files.
func BenchmarkBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := build(data, files); err != nil {
			b.Fatal(err)
		}
	}
}
