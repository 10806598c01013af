package board

import (
	"flag"
	"testing"
)

// Published counts from the Chess Programming Wiki "Perft Results" page.
var perftPositions = []struct {
	name   string
	fen    string
	counts []int64 // depth 1, 2, ...
}{
	{"initial", StartFEN, []int64{20, 400, 8902, 197281, 4865609, 119060324}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int64{48, 2039, 97862, 4085603, 193690690}},
	{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []int64{14, 191, 2812, 43238, 674624, 11030083}},
	{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []int64{6, 264, 9467, 422333, 15833292}},
	{"position4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []int64{6, 264, 9467, 422333, 15833292}},
	{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []int64{44, 1486, 62379, 2103487, 89941194}},
	{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []int64{46, 2079, 89890, 3894594, 164075551}},
}

// TestPerft checks every published count up to a leaf budget that keeps
// `go test ./...` to a few seconds; -short lowers it further. The deeper
// counts run with -run TestPerftDeep -perft.deep.
func TestPerft(t *testing.T) {
	budget := int64(5_000_000)
	if testing.Short() {
		budget = 200_000
	}
	for _, p := range perftPositions {
		t.Run(p.name, func(t *testing.T) {
			b, err := FromFEN(p.fen)
			if err != nil {
				t.Fatal(err)
			}
			lists := make([]MoveList, len(p.counts))
			for d, want := range p.counts {
				if want > budget {
					break
				}
				if got := b.Perft(d+1, lists); got != want {
					t.Fatalf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
			if b.FEN() != mustNormal(t, p.fen) {
				t.Errorf("board changed by perft: %s", b.FEN())
			}
		})
	}
}

func mustNormal(t *testing.T, fen string) string {
	t.Helper()
	b, err := FromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return b.FEN()
}

var deepPerft = flag.Bool("perft.deep", false, "run every published perft count (minutes)")

func TestPerftDeep(t *testing.T) {
	if !*deepPerft {
		t.Skip("pass -perft.deep to run the full published depths")
	}
	for _, p := range perftPositions {
		b, err := FromFEN(p.fen)
		if err != nil {
			t.Fatal(err)
		}
		d := len(p.counts)
		if got := b.Perft(d, make([]MoveList, d)); got != p.counts[d-1] {
			t.Errorf("%s: perft(%d) = %d, want %d", p.name, d, got, p.counts[d-1])
		}
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, c := range []struct {
		name  string
		fen   string
		depth int
	}{
		{"initial-5", StartFEN, 5},
		{"kiwipete-4", perftPositions[1].fen, 4},
	} {
		b.Run(c.name, func(b *testing.B) {
			bd, err := FromFEN(c.fen)
			if err != nil {
				b.Fatal(err)
			}
			lists := make([]MoveList, c.depth)
			var nodes int64
			for i := 0; i < b.N; i++ {
				nodes += bd.Perft(c.depth, lists)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
