package eval

import (
	"math/rand/v2"
	"strings"
	"testing"

	"selfplay/engines/board"
)

// mirror flips a FEN vertically and swaps the colors, which must negate
// nothing: the side to move sees the same position.
func mirror(t *testing.T, fen string) string {
	t.Helper()
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	f[0] = swap(strings.Join(ranks, "/"))
	if f[1] == "w" {
		f[1] = "b"
	} else {
		f[1] = "w"
	}
	if f[2] != "-" {
		f[2] = swap(f[2])
		// keep KQkq order
		var out string
		for _, c := range "KQkq" {
			if strings.ContainsRune(f[2], c) {
				out += string(c)
			}
		}
		f[2] = out
	}
	if f[3] != "-" {
		f[3] = string(f[3][0]) + string(rune('1'+'8'-rune(f[3][1])))
	}
	return strings.Join(f, " ")
}

func mustBoard(t *testing.T, fen string) *board.Board {
	t.Helper()
	b, err := board.FromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var evalPositions = []string{
	board.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
	"2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
	"4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
}

func TestEvaluateSymmetric(t *testing.T) {
	for _, fen := range evalPositions {
		e1, t1 := evaluateUncached(mustBoard(t, fen))
		m := mirror(t, fen)
		e2, t2 := evaluateUncached(mustBoard(t, m))
		if e1 != e2 || t1 != t2 {
			t.Errorf("%s: (e,t) = (%d,%d), mirrored %s: (%d,%d)", fen, e1, t1, m, e2, t2)
		}
	}
}

func TestEvaluateSideToMove(t *testing.T) {
	// The same placement with the other side to move changes sign (plus tempo twice).
	w, _ := evaluateUncached(mustBoard(t, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"))
	b, _ := evaluateUncached(mustBoard(t, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1"))
	if w < 800 || b > -800 || w+b != 2*tempo {
		t.Fatalf("queen up: white to move %d, black to move %d", w, b)
	}
}

func TestThreat(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		min  int
		max  int
	}{
		{"start position has no threats", board.StartFEN, 0, 0},
		{"in check is infinite", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", threatInCheck, threatInCheck},
		{"defended knight attacked by pawn", "4k3/8/8/3p4/4N3/5P2/8/4K3 w - - 0 1", 320 - 100, 320 - 100},
		{"undefended knight attacked by pawn", "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1", 320, 320},
		{"undefended rook attacked by bishop", "4k3/8/8/3b4/8/8/R7/4K3 w - - 0 1", 500, 500},
		{"defended rook attacked by queen is no threat", "4k3/8/8/8/8/4q3/4R3/4K3 w - - 0 1", 0, 0},
		{"knight fork of queen and queen-defended rook", "7k/8/8/8/4R3/2n5/8/1Q5K w - - 0 1", 950 + (500 - 320), 950 + (500 - 320)},
		{"enemy passed pawn on its 7th rank", "4k3/8/8/8/8/8/p7/4K3 w - - 0 1", threatPassed7th, threatPassed7th},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, th := evaluateUncached(mustBoard(t, tt.fen))
			if th < tt.min || th > tt.max {
				t.Fatalf("t = %d, want in [%d, %d]", th, tt.min, tt.max)
			}
		})
	}
	// A second attacked piece raises t.
	_, single := evaluateUncached(mustBoard(t, "7k/8/8/8/8/2n5/8/1Q5K w - - 0 1"))
	_, double := evaluateUncached(mustBoard(t, "7k/8/8/8/4R3/2n5/8/1Q5K w - - 0 1"))
	if double <= single {
		t.Errorf("double attack t = %d not above single t = %d", double, single)
	}
}

func TestMaterial(t *testing.T) {
	if m := Material(mustBoard(t, board.StartFEN)); m != 0 {
		t.Fatalf("start material = %d", m)
	}
	if m := Material(mustBoard(t, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1")); m != -PieceValue(board.Queen) {
		t.Fatalf("material = %d", m)
	}
}

func TestInsufficientMaterialIsDraw(t *testing.T) {
	if e, _ := evaluateUncached(mustBoard(t, "4k3/8/8/8/8/8/8/3NK3 w - - 0 1")); e != 0 {
		t.Fatalf("K+N v K evaluates to %d, want 0", e)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	var boards []*board.Board
	for _, fen := range evalPositions {
		bd, err := board.FromFEN(fen)
		if err != nil {
			b.Fatal(err)
		}
		boards = append(boards, bd)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		evaluateUncached(boards[i%len(boards)])
	}
}

// The pawn cache and skipping the threat must change speed only: the cached
// evaluator and its Score agree with the uncached one along random games
// (which revisit pawn structures).
func TestEvaluatorCacheAgrees(t *testing.T) {
	ev := NewEvaluator()
	rng := rand.New(rand.NewPCG(3, 5))
	var l board.MoveList
	for game := 0; game < 20; game++ {
		b := mustBoard(t, evalPositions[game%len(evalPositions)])
		for ply := 0; ply < 120; ply++ {
			e1, t1 := evaluateUncached(b)
			e2, t2 := ev.Evaluate(b)
			if e1 != e2 || t1 != t2 {
				t.Fatalf("%s: uncached (%d,%d), cached (%d,%d)", b.FEN(), e1, t1, e2, t2)
			}
			if e3 := ev.Score(b); e3 != e1 {
				t.Fatalf("%s: Score %d, Evaluate's e %d", b.FEN(), e3, e1)
			}
			b.Generate(&l, board.All)
			if l.N == 0 {
				break
			}
			b.MakeMove(l.Moves[rng.IntN(l.N)])
		}
	}
}

// The packed score must unpack to exactly what was packed (negative halves
// included), and the packed constants must hold their two terms. That sums
// and multiples stay exact follows from pack being linear in wrapping int64
// arithmetic; TestEvaluationGolden checks the evaluation as a whole.
func TestPackedScore(t *testing.T) {
	halves := [][2]int{
		{0, 0}, {1, -1}, {-1, 1}, {-1, -1}, {0, -1}, {-1, 0}, {37, -12},
		{-20000, 20000}, {1<<31 - 1, -1 << 31}, {-1 << 31, 1<<31 - 1},
	}
	for _, h := range halves {
		s := pack(h[0], h[1])
		if s.mg() != h[0] || s.eg() != h[1] {
			t.Errorf("pack(%d, %d) unpacks to (%d, %d)", h[0], h[1], s.mg(), s.eg())
		}
	}
	consts := []struct {
		name   string
		packed score
		mg, eg int
	}{
		{"doubled", doubled, doubledMG, doubledEG},
		{"isolated", isolated, isolatedMG, isolatedEG},
		{"bishopPair", bishopPair, bishopPairMG, bishopPairEG},
		{"threatByPawn", threatByPawn, threatByPawnMG, threatByPawnEG},
		{"threatByMinor", threatByMinor, threatByMinorMG, threatByMinorEG},
		{"threatByRook", threatByRook, threatByRookMG, threatByRookEG},
		{"threatHanging", threatHanging, hangingMG, hangingEG},
		{"threatHangingPawn", threatHangingPawn, hangingPawnMG, hangingPawnEG},
	}
	for _, c := range consts {
		if c.packed != pack(c.mg, c.eg) {
			t.Errorf("%s = (%d, %d), want (%d, %d)", c.name, c.packed.mg(), c.packed.eg(), c.mg, c.eg)
		}
	}
}

// TestEvaluationGolden pins the evaluation: e and t of the test positions,
// and a checksum of e and t along 40 random games from them (promotions,
// bare kings and every phase come up). The values were computed by the
// evaluation as it was before it packed its scores (commit 3c2b3f6), so a
// change to how the evaluation is computed cannot change what it returns
// unnoticed; a deliberate change to its terms updates them.
func TestEvaluationGolden(t *testing.T) {
	want := [][2]int{{10, 0}, {80, 230}, {10, 0}, {-15, 0}, {72, 0}, {0, 0}, {-35, 0}}
	for i, fen := range evalPositions {
		e, th := evaluateUncached(mustBoard(t, fen))
		if i >= len(want) || e != want[i][0] || th != want[i][1] {
			t.Errorf("%s: e %d, t %d; want %v", fen, e, th, want[min(i, len(want)-1)])
		}
	}
	ev := NewEvaluator()
	rng := rand.New(rand.NewPCG(11, 13))
	var l board.MoveList
	sum, n := uint64(14695981039346656037), 0 // FNV-1a over the values
	for game := 0; game < 40; game++ {
		b := mustBoard(t, evalPositions[game%len(evalPositions)])
		for ply := 0; ply < 150; ply++ {
			e, th := ev.Evaluate(b)
			for _, v := range []int{e, th} {
				sum = (sum ^ uint64(int64(v))) * 1099511628211
			}
			n++
			b.Generate(&l, board.All)
			if l.N == 0 {
				break
			}
			b.MakeMove(l.Moves[rng.IntN(l.N)])
		}
	}
	if want := uint64(0x102ea66da518ba0d); sum != want || n != 5806 {
		t.Errorf("checksum of e and t over %d positions: %#x; want %#x over %d", n, sum, want, 5806)
	}
}
