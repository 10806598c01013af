package search

import (
	"context"
	"testing"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/eval"
)

// node prepares s to search a single node of b directly, so a test can see
// exactly what one node does with a given window and depth.
func node(t *testing.T, spec, fen string, moves ...string) (*Searcher, *board.Board) {
	t.Helper()
	s := mustSearcher(t, spec)
	b := mustBoard(t, fen)
	// The root is the position of the FEN, before the moves.
	s.rootSide, s.rootMat = b.Side(), eval.Material(b)
	if err := b.ApplyUCI(moves); err != nil {
		t.Fatal(err)
	}
	s.b, s.ctx, s.rootPly, s.iterDepth = b, context.Background(), b.Ply()-1, 10
	return s, b
}

// A position where White is a queen up and quiet: e - t is far above small betas.
const queenUp = "4k3/pp6/8/8/8/8/PP6/3QK3 w - - 0 1"

func TestFHROnlyAtNullWindowNodes(t *testing.T) {
	tests := []struct {
		name        string
		spec        string
		fen         string
		alpha, beta engines.Score
		want        int64
	}{
		{"null window, e - t >= beta: reduced", "fhr", queenUp, 99, 100, 1},
		{"wide window: never reduced", "fhr", queenUp, 99, 101, 0},
		{"full window: never reduced", "fhr", queenUp, -infinity, infinity, 0},
		{"null window, e - t < beta: not reduced", "fhr", queenUp, 1999, 2000, 0},
		{"margin lowers the bar", "fhr:fhr-margin=2000", queenUp, 1999, 2000, 1},
		{"plain never reduces", "plain", queenUp, 99, 100, 0},
		// In check t is infinite: no reduction whatever the margin.
		{"in check: t infinite", "fhr:fhr-margin=5000", "4k3/pp6/8/8/8/8/PP2r3/3QK3 w - - 0 1", 99, 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, tt.fen)
			// Depth 1: the children are quiescence nodes, so only this node can reduce.
			s.negascout(tt.alpha, tt.beta, 1, 1, flagNullAllowed)
			if got := s.counters.FHRReductions; got != tt.want {
				t.Fatalf("FHR reductions = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestFHRReducedNodeStoresUnreducedDepth(t *testing.T) {
	s, b := node(t, "fhr", queenUp)
	s.negascout(99, 100, 3, 1, flagNullAllowed)
	if s.counters.FHRReductions == 0 {
		t.Fatal("node not reduced")
	}
	e, ok := s.tt.probe(b.Hash())
	if !ok || e.depth != 3 {
		t.Fatalf("TT entry depth = %d (found %v), want the unreduced depth 3 (Feldmann item 7)", e.depth, ok)
	}
}

func TestNullMoveRules(t *testing.T) {
	const middlegame = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
	const pawnEnding = "8/4k3/4p3/8/3P4/4K3/8/8 w - - 0 1"
	const inCheck = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"
	tests := []struct {
		name  string
		spec  string
		fen   string
		flags nodeFlags
		depth int
		want  int64 // null moves tried at this node
	}{
		{"standard tries a null move", "null-r3", middlegame, flagNullAllowed, 1, 1},
		{"never two null moves in a row", "null-r3", middlegame, 0, 1, 0},
		{"never in check", "null-r3", inCheck, flagNullAllowed, 1, 0},
		{"not with only king and pawns", "null-r3", pawnEnding, flagNullAllowed, 1, 0},
		{"nmr: also with only king and pawns", "nmr-r3-4", pawnEnding, flagNullAllowed, 1, 1},
		{"guard switch on nmr", "nmr-r3-4:null-pawn-endings=false", pawnEnding, flagNullAllowed, 1, 0},
		{"ye-marsland: interior nodes only", "ye-marsland", middlegame, flagNullAllowed, 1, 0},
		{"plain: none", "plain", middlegame, flagNullAllowed, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, tt.fen)
			s.negascout(-infinity, infinity, tt.depth, 1, tt.flags)
			if got := s.counters.NullTried; got != tt.want {
				t.Fatalf("null moves tried = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestNullReductionR(t *testing.T) {
	tests := []struct {
		spec  string
		depth int
		want  int
	}{
		{"null-r1", 8, 1}, {"null-r4", 3, 4},
		{"adaptive-r2-3", 6, 2}, {"adaptive-r2-3", 7, 3},
		{"adaptive-r3-4", 6, 3}, {"adaptive-r3-4", 7, 4},
		{"nmr-r3-4", 6, 3}, {"nmr-r3-4", 7, 4}, {"nmr-r4", 6, 4},
		{"verified-r3", 9, 3},
	}
	for _, tt := range tests {
		o, err := ParseVariant(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := o.nullR(tt.depth); got != tt.want {
			t.Errorf("%s at depth %d: R = %d, want %d", tt.spec, tt.depth, got, tt.want)
		}
	}
}

// The fail-high rule: standard null move cuts off, NMR reduces by DR and
// searches on, verified reduces by one once per path.
func TestNullFailHighRules(t *testing.T) {
	const fen = queenUp
	// searched: whether the node searched any move itself (a PV move at
	// ply 1), which a null-move cutoff does not.
	search := func(spec string) (v engines.Score, c Counters, nodes int64, searched bool) {
		s, _ := node(t, spec, fen)
		v = s.negascout(99, 100, 6, 1, flagNullAllowed|flagVerify)
		return v, s.counters, s.nodes, s.plies[1].pvLen > 0
	}
	_, _, nodesWithoutNull, _ := search("plain")
	results := map[string]int64{}
	for _, tt := range []struct {
		spec                          string
		wantNMR, wantVerified, cutOff bool
	}{
		{"null-r3", false, false, true},
		{"nmr-r3-4", true, false, false},
		{"nmr-r3-4:dr=1", true, false, false},
		{"verified-r3", false, true, false},
	} {
		t.Run(tt.spec, func(t *testing.T) {
			v, c, nodes, searched := search(tt.spec)
			results[tt.spec] = nodes
			if c.NullFailHigh == 0 {
				t.Fatalf("no null-move fail-high in a queen-up position: %+v", c)
			}
			if (c.NMRReductions > 0) != tt.wantNMR || (c.VerifiedReductions > 0) != tt.wantVerified {
				t.Fatalf("counters %+v", c)
			}
			if v < 100 {
				t.Fatalf("a queen up fails low: %d", v)
			}
			if nodes >= nodesWithoutNull {
				t.Fatalf("%d nodes, not fewer than the %d without null move", nodes, nodesWithoutNull)
			}
			// Standard null move cuts the node off before any move; the
			// others go on to search moves.
			if searched == tt.cutOff {
				t.Fatalf("searched moves: %v, want %v (%+v)", searched, !tt.cutOff, c)
			}
			if tt.cutOff && c.NMRReductions+c.VerifiedReductions != 0 {
				t.Fatalf("standard null move must cut off, not reduce: %+v", c)
			}
			if tt.wantNMR && c.NMRReductions != c.NullFailHigh {
				t.Fatalf("NMR reduces at every null-move fail-high: %+v", c)
			}
		})
	}
	// A smaller depth reduction leaves more to search.
	if results["nmr-r3-4:dr=1"] <= results["nmr-r3-4"] {
		t.Fatalf("DR=1 searched %d nodes, DR=4 %d: DR has no effect", results["nmr-r3-4:dr=1"], results["nmr-r3-4"])
	}
}

// Zugzwang: in these positions the side to move would love to pass, so the
// null move fails high wrongly; verified null move detects it and re-searches.
func TestVerifiedNullResearchesInZugzwang(t *testing.T) {
	zugzwang := []string{
		"8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1",
		"1q1k4/2Rr4/8/2Q3K1/8/8/8/8 w - - 0 1",
		"8/8/8/2p5/1pp5/brpp4/1pprp2P/qnkbK3 w - - 0 1",
	}
	var researches int64
	for _, fen := range zugzwang {
		res := mustSearch(t, mustSearcher(t, "verified-r3"), fen, engines.Limits{Depth: 9})
		researches += res.Counters.VerifiedResearches
	}
	if researches == 0 {
		t.Fatal("verified-r3 never re-searched in the zugzwang positions")
	}
}

func TestFutilityCutoff(t *testing.T) {
	// White is a queen down at a frontier node: quiet moves cannot raise
	// material + margin above alpha = 0, so they are pruned; checks and
	// captures are searched.
	const down = "3qk3/pp6/8/8/8/8/PP6/4K2R w - - 0 1"
	for _, tt := range []struct {
		name       string
		spec       string
		alpha      engines.Score
		depth      int
		wantPruned bool
	}{
		{"frontier, hopeless: pruned", "ye-marsland", 0, 1, true},
		{"frontier, within margin: searched", "ye-marsland", -2000, 1, false},
		{"not at depth 2", "ye-marsland", 0, 2, false},
		{"switched off", "ye-marsland:futility=false", 0, 1, false},
		{"plain: never", "plain", 0, 1, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, down)
			s.opts.Null = NullOff // isolate the futility rule
			s.negascout(tt.alpha, tt.alpha+1, tt.depth, 1, flagNullAllowed)
			if got := s.counters.FutilityPrunes > 0; got != tt.wantPruned {
				t.Fatalf("futility prunes = %d, want pruned = %v", s.counters.FutilityPrunes, tt.wantPruned)
			}
		})
	}
	// A checking move is never pruned: here Rh8+ is the only way to win.
	s, b := node(t, "ye-marsland", "3qk3/pp6/8/8/8/8/PP6/4K2R w - - 0 1")
	s.opts.Null = NullOff
	s.negascout(0, 1, 1, 1, flagNullAllowed)
	var l board.MoveList
	b.Generate(&l, board.All)
	if s.counters.FutilityPrunes >= int64(l.N) {
		t.Fatalf("all %d moves pruned, checks included", l.N)
	}
}

func TestExtensions(t *testing.T) {
	tests := []struct {
		name  string
		spec  string
		fen   string
		moves []string // played before the node (the "last move")
		count func(Counters) int64
		none  bool // the switch is off: the count must be zero
	}{
		{"check", "plain", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", nil, func(c Counters) int64 { return c.ExtCheck }, false},
		{"check off", "plain:ext-check=false", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", nil, func(c Counters) int64 { return c.ExtCheck }, true},
		{"recapture", "plain:ext-check=false:ext-recapture=true", "4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", []string{"e3d5"},
			func(c Counters) int64 { return c.ExtRecapture }, false},
		{"single reply", "plain:ext-check=false:ext-single-reply=true", "7k/8/8/8/8/8/1r6/K7 w - - 0 1", nil,
			func(c Counters) int64 { return c.ExtSingleReply }, false},
		{"king threat", "plain:ext-check=false:ext-king-threat=true", "8/8/8/4k3/8/8/8/3QK2R w - - 0 1", nil,
			func(c Counters) int64 { return c.ExtKingThreat }, false},
		{"attack evading", "plain:ext-check=false:ext-attack-evading=true", "4k3/8/8/8/4n3/8/8/1R2K3 b - - 0 1", []string{"e4c3"},
			func(c Counters) int64 { return c.ExtAttackEvading }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, tt.fen, tt.moves...)
			s.negascout(-infinity, infinity, 1, 1, 0)
			got := tt.count(s.counters)
			if tt.none {
				if got != 0 {
					t.Fatalf("%s: extensions counted with the switch off: %+v", tt.name, s.counters)
				}
				return
			}
			if got == 0 {
				t.Fatalf("no %s extension: %+v", tt.name, s.counters)
			}
		})
	}
}
