package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/notnil/chess"

	"selfplay/engines"
	"selfplay/engines/board"
)

func mustBoard(t testing.TB, fen string) *board.Board {
	t.Helper()
	b, err := board.FromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustSearcher(t testing.TB, spec string) *Searcher {
	t.Helper()
	o, err := ParseVariant(spec)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(o, 4)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustSearch(t testing.TB, s *Searcher, fen string, lim engines.Limits) Result {
	t.Helper()
	res, err := s.Search(context.Background(), mustBoard(t, fen), lim)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// mateIn is an independent reference: a plain minimax over notnil/chess's
// move generator that reports whether the side to move forces mate within n
// moves.
func mateIn(pos *chess.Position, n int) bool {
	if n == 0 {
		return false
	}
	for _, m := range pos.ValidMoves() {
		next := pos.Update(m)
		replies := next.ValidMoves()
		if len(replies) == 0 {
			if next.Status() == chess.Checkmate {
				return true
			}
			continue
		}
		all := true
		for _, r := range replies {
			if !mateIn(next.Update(r), n-1) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func TestFindsMates(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves int // mate in
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 1},
		{"rook ladder", "k7/8/1K6/8/8/8/8/7R w - - 0 1", 1},
		{"king and rook", "k7/8/2K5/8/8/8/8/7R w - - 0 1", 2},
		{"rook endgame", "k7/8/K7/8/8/8/1R6/8 w - - 0 1", 3},
		{"black mates", "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The independent reference: mate in n exists, none faster.
			opt, err := chess.FEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			pos := chess.NewGame(opt).Position()
			if tt.moves > 1 && mateIn(pos, tt.moves-1) {
				t.Fatalf("reference finds a mate in %d", tt.moves-1)
			}
			memo := map[string]bool{}
			forces := func(uci string) bool { // does this first move force mate in n?
				if v, ok := memo[uci]; ok {
					return v
				}
				ok := false
				for _, m := range pos.ValidMoves() {
					if m.String() != uci {
						continue
					}
					next := pos.Update(m)
					ok = next.Status() == chess.Checkmate
					if !ok && tt.moves > 1 && len(next.ValidMoves()) > 0 {
						ok = true
						for _, r := range next.ValidMoves() {
							if !mateIn(next.Update(r), tt.moves-1) {
								ok = false
								break
							}
						}
					}
				}
				memo[uci] = ok
				return ok
			}
			for _, preset := range []string{"plain", "fhr", "null-r3", "nmr-r3-4", "verified-r3", "ye-marsland"} {
				res := mustSearch(t, mustSearcher(t, preset), tt.fen, engines.Limits{Depth: 2*tt.moves + 2})
				if !res.Info.Score.IsMate() || res.Info.Score.MateMoves() != tt.moves {
					t.Errorf("%s: score %s, want mate %d (pv %v)", preset, res.Info.Score.UCI(), tt.moves, res.Info.PV)
				}
				if !forces(res.Move.UCI()) {
					t.Errorf("%s: %s does not force mate in %d", preset, res.Move, tt.moves)
				}
			}
		})
	}
}

func TestDrawScores(t *testing.T) {
	tests := []struct {
		name string
		fen  string
	}{
		{"insufficient material", "8/8/4k3/8/8/3NK3/8/8 w - - 0 1"},
		// Every move but a pawn move or capture ends in a fifty-move draw, and
		// there are none: the rook cannot be won in time either.
		{"fifty moves", "8/8/4k3/8/8/3RK3/8/8 w - - 99 80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustSearch(t, mustSearcher(t, "plain"), tt.fen, engines.Limits{Depth: 4})
			if res.Info.Score != drawScore {
				t.Fatalf("score %s, want draw", res.Info.Score.UCI())
			}
		})
	}
}

func TestStalemate(t *testing.T) {
	// Black to move is stalemated: no move to return.
	if _, err := mustSearcher(t, "plain").Search(context.Background(), mustBoard(t, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), engines.Limits{Depth: 3}); err != ErrNoLegalMove {
		t.Fatalf("err = %v, want ErrNoLegalMove", err)
	}
	// White to move wins easily, but Qf7 stalemates: the search sees the
	// stalemate as a draw and avoids it.
	const fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"
	b := mustBoard(t, fen)
	m, err := b.ParseUCI("f1f7")
	if err != nil {
		t.Fatal(err)
	}
	b.MakeMove(m)
	var l board.MoveList
	if b.Generate(&l, board.All); l.N != 0 || b.InCheck() {
		t.Fatal("test position: Qf7 should stalemate")
	}
	res := mustSearch(t, mustSearcher(t, "plain"), fen, engines.Limits{Depth: 3})
	if res.Move == m || !res.Info.Score.IsMate() {
		t.Fatalf("search chose %s with score %s", res.Move, res.Info.Score.UCI())
	}
}

// randomPositions plays seeded random games and collects positions.
func randomPositions(t testing.TB, n int, seed uint64) []*board.Board {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []*board.Board
	var l board.MoveList
	starts := []string{board.StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"}
	for len(out) < n {
		b := mustBoard(t, starts[len(out)%len(starts)])
		plies := 4 + rng.IntN(80)
		for i := 0; i < plies; i++ {
			b.Generate(&l, board.All)
			if l.N == 0 {
				break
			}
			b.MakeMove(l.Moves[rng.IntN(l.N)])
		}
		b.Generate(&l, board.All)
		if l.N > 0 {
			out = append(out, b)
		}
	}
	return out
}

func TestAllPresetsPlayLegalMoves(t *testing.T) {
	positions := randomPositions(t, 60, 42)
	for _, preset := range PresetNames() {
		s := mustSearcher(t, preset)
		for i, b := range positions {
			for _, nodes := range []int64{1, 37, 3000} {
				fen := b.FEN()
				res, err := s.Search(context.Background(), b, engines.Limits{Nodes: nodes})
				if err != nil {
					t.Fatalf("%s %s: %v", preset, fen, err)
				}
				if b.FEN() != fen {
					t.Fatalf("%s: board not restored: %s -> %s", preset, fen, b.FEN())
				}
				if _, err := b.ParseUCI(res.Move.UCI()); err != nil {
					t.Fatalf("%s position %d nodes %d: illegal move: %v", preset, i, nodes, err)
				}
				if res.Info.Nodes > nodes {
					t.Fatalf("%s: %d nodes searched with a budget of %d", preset, res.Info.Nodes, nodes)
				}
				if c := res.Counters; c.MainNodes+c.QNodes != res.Info.Nodes {
					t.Fatalf("%s: main %d + q %d != nodes %d", preset, c.MainNodes, c.QNodes, res.Info.Nodes)
				}
				if c := res.Counters; c.HorizonNodes > c.QNodes {
					t.Fatalf("%s: %d horizon nodes of %d quiescence nodes", preset, c.HorizonNodes, c.QNodes)
				}
			}
		}
	}
}

// TestHorizonNodes checks the split of quiescence nodes where it is known:
// after one move from the start no capture exists, so at depth 1 every
// quiescence node is a horizon node; at depth 2 White can capture after
// some replies (1. e4 d5), so deeper quiescence nodes appear.
func TestHorizonNodes(t *testing.T) {
	tests := []struct {
		depth  int
		deeper bool // whether quiescence goes below the horizon
	}{
		{1, false},
		{2, true},
		{4, true},
	}
	for _, tt := range tests {
		res := mustSearch(t, mustSearcher(t, "plain"), board.StartFEN, engines.Limits{Depth: tt.depth})
		c := res.Counters
		if c.HorizonNodes == 0 || c.HorizonNodes > c.QNodes {
			t.Fatalf("depth %d: %d horizon nodes of %d quiescence nodes", tt.depth, c.HorizonNodes, c.QNodes)
		}
		if deeper := c.QNodes > c.HorizonNodes; deeper != tt.deeper {
			t.Errorf("depth %d: %d horizon nodes of %d quiescence nodes; want deeper quiescence nodes %v",
				tt.depth, c.HorizonNodes, c.QNodes, tt.deeper)
		}
	}
}

func TestNodeBudgetIsExact(t *testing.T) {
	for _, budget := range []int64{1, 2, 1000, 12345} {
		res := mustSearch(t, mustSearcher(t, "plain"), board.StartFEN, engines.Limits{Nodes: budget})
		if res.Info.Nodes != budget {
			t.Errorf("budget %d: searched %d nodes", budget, res.Info.Nodes)
		}
	}
}

func TestDeterministic(t *testing.T) {
	fens := []string{board.StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1"}
	for _, preset := range PresetNames() {
		for _, lim := range []engines.Limits{{Depth: 5}, {Nodes: 20000}} {
			name := fmt.Sprintf("%s/depth%d-nodes%d", preset, lim.Depth, lim.Nodes)
			t.Run(name, func(t *testing.T) {
				want := make([]Result, len(fens))
				for i, fen := range fens {
					want[i] = mustSearch(t, mustSearcher(t, preset), fen, lim)
				}
				// Again, with two engines searching concurrently.
				var wg sync.WaitGroup
				got := make([][]Result, 2)
				for g := range got {
					wg.Add(1)
					go func() {
						defer wg.Done()
						s := mustSearcher(t, preset)
						for _, fen := range fens {
							s.NewGame()
							got[g] = append(got[g], mustSearch(t, s, fen, lim))
						}
					}()
				}
				wg.Wait()
				for g := range got {
					for i := range fens {
						a, b := want[i], got[g][i]
						if a.Move != b.Move || a.Info.Score != b.Info.Score || a.Info.Nodes != b.Info.Nodes || a.Counters != b.Counters {
							t.Fatalf("%s: first run %s %s %d nodes, run %d: %s %s %d nodes", fens[i],
								a.Move, a.Info.Score.UCI(), a.Info.Nodes, g, b.Move, b.Info.Score.UCI(), b.Info.Nodes)
						}
					}
				}
			})
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := mustSearcher(t, "plain")
	res, err := s.Search(ctx, mustBoard(t, board.StartFEN), engines.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Move == board.NoMove {
		t.Fatal("a cancelled search must still return a legal move")
	}
}
