package search

import (
	"testing"

	"selfplay/engines"
	"selfplay/engines/board"
)

// FALCON's components, each on a position where its effect is known.

func TestMultiCut(t *testing.T) {
	// White is a queen up: against beta = -100 nearly every move fails high,
	// so the first three of the six shallow searches prune the node.
	const beta = -100
	tests := []struct {
		name        string
		spec        string
		fen         string
		alpha, beta engines.Score
		flags       nodeFlags
		depth       int
		tried, cut  int64
	}{
		{"expected cut node: pruned", "plain:multi-cut=true", queenUp, beta - 1, beta, flagNullAllowed | flagCutNode, 4, 1, 1},
		// Depth 3 where nothing must be tried: the children, at depth 2,
		// cannot try it either (depth must exceed R = 2).
		{"expected all node: not tried", "plain:multi-cut=true", queenUp, beta - 1, beta, flagNullAllowed, 3, 0, 0},
		{"PV node: not tried", "plain:multi-cut=true", queenUp, beta - 50, beta, flagNullAllowed | flagCutNode, 3, 0, 0},
		{"depth not above R: not tried", "plain:multi-cut=true", queenUp, beta - 1, beta, flagNullAllowed | flagCutNode, 2, 0, 0},
		{"beta out of reach: tried, not pruned", "plain:multi-cut=true", queenUp, 4999, 5000, flagNullAllowed | flagCutNode, 4, 1, 0},
		{"in check: not tried", "plain:multi-cut=true", "4k3/pp6/8/8/8/8/PP2r3/3QK3 w - - 0 1", beta - 1, beta, flagNullAllowed | flagCutNode, 3, 0, 0},
		{"switched off", "plain", queenUp, beta - 1, beta, flagNullAllowed | flagCutNode, 4, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, tt.fen)
			v := s.negascout(tt.alpha, tt.beta, tt.depth, 1, tt.flags)
			if tt.cut > 0 && v != tt.beta {
				t.Errorf("value %d, want beta %d after a multi-cut", v, tt.beta)
			}
			if tt.tried == 0 && s.counters.MultiCutTried != 0 {
				t.Errorf("multi-cut tried %d times, want never", s.counters.MultiCutTried)
			}
			if tt.tried > 0 && s.counters.MultiCutTried == 0 {
				t.Errorf("multi-cut never tried")
			}
			if tt.cut > 0 && s.counters.MultiCutPrunes == 0 {
				t.Errorf("no multi-cut prune: %+v", s.counters)
			}
		})
	}
	// The prune happens at the node itself: with depth 3 and R = 2 its
	// shallow searches are quiescence searches, where nothing else can
	// try multi-cut, so exactly one attempt and one prune are counted.
	s, _ := node(t, "plain:multi-cut=true", queenUp)
	if v := s.negascout(beta-1, beta, 3, 1, flagNullAllowed|flagCutNode); v != beta || s.counters.MultiCutTried != 1 || s.counters.MultiCutPrunes != 1 {
		t.Fatalf("depth 3: value %d, tried %d, pruned %d; want %d, 1, 1", v, s.counters.MultiCutTried, s.counters.MultiCutPrunes, beta)
	}
}

func TestChildCut(t *testing.T) {
	tests := []struct {
		flags  nodeFlags
		pvNode bool
		want   nodeFlags
	}{
		{0, true, flagCutNode},           // PV node: null-window children are cut nodes
		{flagCutNode, true, flagCutNode}, // the flag means nothing at a PV node
		{flagCutNode, false, 0},          // cut node: all-node children
		{0, false, flagCutNode},          // all node: cut-node children
	}
	for _, tt := range tests {
		if got := childCut(tt.flags, tt.pvNode); got != tt.want {
			t.Errorf("childCut(%b, %v) = %b, want %b", tt.flags, tt.pvNode, got, tt.want)
		}
	}
}

func TestMateThreatExtension(t *testing.T) {
	// If White passes, Ra1 mates on the back rank: the null-move search
	// (depth 5 - R 3 - 1 = 1, so it sees the quiet mate) finds it, and the
	// node is extended. Deeper nodes' null searches are quiescence
	// searches, which see no quiet mate.
	// White, two knights against a rook, stands better, so only the mate
	// lets Black's null-move search reach beta.
	const backRank = "r5k1/5ppp/8/4N3/7N/8/5PPP/6K1 w - - 0 1"
	// With luft on h2 the same Ra1+ is no mate.
	const luft = "r5k1/5ppp/8/4N3/7N/7P/5PP1/6K1 w - - 0 1"
	tests := []struct {
		name, spec, fen string
		want            bool
	}{
		{"mate threat: extended", "null-r3:ext-mate-threat=true", backRank, true},
		{"no threat: not extended", "null-r3:ext-mate-threat=true", luft, false},
		{"switched off", "null-r3", backRank, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, tt.fen)
			s.negascout(-1, 0, 5, 1, flagNullAllowed)
			if got := s.counters.ExtMateThreat > 0; got != tt.want {
				t.Fatalf("mate-threat extensions = %d, want extended = %v", s.counters.ExtMateThreat, tt.want)
			}
		})
	}
	// The extension deepens the node itself: the same node searches more.
	base, _ := node(t, "null-r3", backRank)
	base.negascout(-1, 0, 5, 1, flagNullAllowed)
	ext, _ := node(t, "null-r3:ext-mate-threat=true", backRank)
	ext.negascout(-1, 0, 5, 1, flagNullAllowed)
	if ext.nodes <= base.nodes {
		t.Fatalf("extended node searched %d nodes, unextended %d", ext.nodes, base.nodes)
	}
}

func TestPassedPawnExtension(t *testing.T) {
	tests := []struct {
		name, spec, fen string
		want            int64 // extensions counted at the node (depth 1: only its own moves)
	}{
		// White's e6-e7 and Black's d3-d2 are pushes to the 7th rank.
		{"white push to the 7th", "plain:ext-check=false:ext-passed-pawn=true", "7k/8/4P3/8/8/8/8/K7 w - - 0 1", 1},
		{"black push to the 7th", "plain:ext-check=false:ext-passed-pawn=true", "7k/8/8/8/8/3p4/8/K7 b - - 0 1", 1},
		{"push to the 6th: no", "plain:ext-check=false:ext-passed-pawn=true", "7k/8/8/4P3/8/8/8/K7 w - - 0 1", 0},
		{"promotion: no", "plain:ext-check=false:ext-passed-pawn=true", "7k/4P3/8/8/8/8/8/K7 w - - 0 1", 0},
		{"switched off", "plain:ext-check=false", "7k/8/4P3/8/8/8/8/K7 w - - 0 1", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, tt.fen)
			s.negascout(-infinity, infinity, 1, 1, 0)
			if got := s.counters.ExtPassedPawn; got != tt.want {
				t.Fatalf("passed-pawn extensions = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestIIDFindsHashMove(t *testing.T) {
	// A PV node with an empty table: IID searches it shallower first and
	// leaves the best move there, so the full search starts with it.
	const fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
	tests := []struct {
		name         string
		spec         string
		alpha, beta  engines.Score
		depth        int
		wantSearches bool
	}{
		{"PV node, no hash move: IID", "plain:iid=true", -infinity, infinity, 4, true},
		{"below iid-depth: none", "plain:iid=true", -infinity, infinity, 3, false},
		{"null-window node: none", "plain:iid=true", -1, 0, 5, false},
		{"switched off", "plain", -infinity, infinity, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, fen)
			s.negascout(tt.alpha, tt.beta, tt.depth, 1, flagNullAllowed)
			if got := s.counters.IIDSearches > 0; got != tt.wantSearches {
				t.Fatalf("IID searches = %d, want any = %v", s.counters.IIDSearches, tt.wantSearches)
			}
		})
	}
	// The move IID leaves in the table is the one the full search would
	// find at the shallower depth: search depth 2 from an empty table and
	// compare with the move ordered first at depth 4.
	shallow, b := node(t, "plain", fen)
	shallow.negascout(-infinity, infinity, 2, 1, flagNullAllowed)
	e, ok := shallow.tt.probe(b.Hash())
	if !ok || e.move() == board.NoMove {
		t.Fatal("a depth-2 search left no move in the table")
	}
	s, _ := node(t, "plain:iid=true", fen)
	s.negascout(-infinity, infinity, 4, 1, flagNullAllowed)
	if s.plies[1].moves.Moves[0] != e.move() {
		t.Fatalf("first move searched %s, want IID's hash move %s", s.plies[1].moves.Moves[0].UCI(), e.move().UCI())
	}
	// Without IID the ordering starts elsewhere, so the check above is
	// IID's doing.
	off, _ := node(t, "plain", fen)
	off.negascout(-infinity, infinity, 4, 1, flagNullAllowed)
	if off.plies[1].moves.Moves[0] == e.move() {
		t.Fatalf("without IID the first move is %s too: this position cannot show IID's effect", e.move().UCI())
	}
}

func TestAspirationWindows(t *testing.T) {
	const fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
	// The same best move as with the full window at depth 6 (the root is
	// searched inside a narrow window around the previous value).
	full := mustSearch(t, mustSearcher(t, "plain"), fen, engines.Limits{Depth: 6})
	asp := mustSearch(t, mustSearcher(t, "plain:aspiration=true"), fen, engines.Limits{Depth: 6})
	if asp.Move != full.Move {
		t.Errorf("aspiration plays %s, full window %s", asp.Move.UCI(), full.Move.UCI())
	}
	// A window narrower than any change of score forces re-searches, and
	// the value still comes out right.
	narrow := mustSearch(t, mustSearcher(t, "plain:aspiration=true:aspiration-window=1"), fen, engines.Limits{Depth: 6})
	if narrow.Counters.AspirationFails == 0 {
		t.Error("a 1-centipawn window never failed")
	}
	if narrow.Info.Score != asp.Info.Score && narrow.Info.Score != full.Info.Score {
		t.Errorf("score %d after re-searches, want %d or %d", narrow.Info.Score, asp.Info.Score, full.Info.Score)
	}
	// Mate scores are searched with the full window.
	mate := mustSearch(t, mustSearcher(t, "plain:aspiration=true"), "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", engines.Limits{Depth: 5})
	if mate.Info.Score < engines.MateBound {
		t.Errorf("back-rank mate scored %d", mate.Info.Score)
	}
}

func TestExtendedFutility(t *testing.T) {
	// White is 400 down (rook against queen): against alpha = 200 material
	// plus the 500 margin cannot reach alpha, so at depth 2 quiet moves are
	// futile; at depth 1 only the frontier rule (off here) would prune.
	const down = "3qk3/pp6/8/8/8/8/PP6/4K2R w - - 0 1"
	tests := []struct {
		name       string
		spec       string
		alpha      engines.Score
		depth      int
		wantPruned bool
	}{
		{"pre-frontier, hopeless: pruned", "plain:ext-futility=true", 200, 2, true},
		{"pre-frontier, within margin: searched", "plain:ext-futility=true", 0, 2, false},
		{"frontier: not this rule", "plain:ext-futility=true", 200, 1, false},
		{"switched off", "plain", 200, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, down)
			s.negascout(tt.alpha, tt.alpha+1, tt.depth, 1, flagNullAllowed)
			// Children at depth 1 have no frontier rule here (futility is
			// off), so any prune is this node's.
			if got := s.counters.FutilityPrunes > 0; got != tt.wantPruned {
				t.Fatalf("futility prunes = %d, want pruned = %v", s.counters.FutilityPrunes, tt.wantPruned)
			}
		})
	}
}

func TestFalconPresetsDiffer(t *testing.T) {
	// Each falcon preset is its base preset plus the same components.
	pairs := map[string]string{"falcon": "plain", "falcon-null-r3": "null-r3", "falcon-adaptive-r2-3": "adaptive-r2-3",
		"falcon-nmr-r3-4": "nmr-r3-4", "falcon-fhr": "fhr"}
	for f, base := range pairs {
		fo, err := Preset(f)
		if err != nil {
			t.Fatal(err)
		}
		bo, err := Preset(base)
		if err != nil {
			t.Fatal(err)
		}
		if falcon(bo) != fo {
			t.Errorf("%s is not falcon(%s)", f, base)
		}
	}
}

// TestAspirationFailHighNotTaken: a root move that failed high on an
// aspiration window is not yet confirmed by a search with the full window
// (FHR paper, item 6), so a node budget that ends right as the re-search
// begins keeps the last completed iteration's move and value. At 1,040
// nodes the depth-3 pass has failed high on d1e1 and the re-search gets no
// node; before the fix the search played d1e1 and reported its bound, 80,
// as an exact depth-3 score.
func TestAspirationFailHighNotTaken(t *testing.T) {
	const fen = "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1"
	for _, nodes := range []int64{1039, 1040, 1041} {
		res := mustSearch(t, mustSearcher(t, "falcon-fhr"), fen, engines.Limits{Nodes: nodes})
		if res.Move.UCI() != "b2c3" || res.Info.Depth != 2 || res.Info.Score != 29 {
			t.Errorf("%d nodes: %s at depth %d, score %d; want b2c3 at depth 2, score 29 (the completed iteration)",
				nodes, res.Move.UCI(), res.Info.Depth, res.Info.Score)
		}
	}
}
