package search

import (
	"slices"
	"testing"

	"selfplay/engines"
	"selfplay/engines/board"
)

// TestQuiescenceSkipsLosingCaptures: with qsee, quiescence does not search
// captures that SEE says lose material, except in check; without it, it
// does.
func TestQuiescenceSkipsLosingCaptures(t *testing.T) {
	tests := []struct {
		name      string
		spec, fen string
		wantPrune bool
	}{
		{"qsee: losing capture skipped", "plain:delta=false", "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", true},
		{"qsee off: searched", "plain:delta=false:qsee=false", "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", false},
		{"winning capture: searched", "plain:delta=false", "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", false},
		// In check every evasion is searched, the losing capture Qxe2 (the
		// f3 pawn takes back) too.
		{"in check: searched", "plain:delta=false", "4k3/8/8/8/8/5p2/4r3/3QK3 w - - 0 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, tt.fen)
			s.quiesce(-infinity, infinity, 1, 0, false)
			if got := s.counters.SEEPrunes > 0; got != tt.wantPrune {
				t.Fatalf("SEE prunes %d, want pruned = %v (%+v)", s.counters.SEEPrunes, tt.wantPrune, s.counters)
			}
			// The skipped capture was the only one: only the node itself was entered.
			if tt.wantPrune && s.counters.QNodes != 1 {
				t.Fatalf("%d quiescence nodes, want 1", s.counters.QNodes)
			}
		})
	}
}

// TestCaptureOrder: winning and equal captures by MVV-LVA, then killers,
// then quiet moves, then (with see-order) the losing captures, the least
// losing first; without see-order the losing captures stay among the
// captures by MVV-LVA.
func TestCaptureOrder(t *testing.T) {
	// White: Ra1xa7 and Bg3xe5 take undefended pawns; d5 is defended by
	// the c6 and e6 pawns, so Nc3xd5 loses 220 (NxP PxP QxP PxQ stops
	// after PxP) and Qd1xd5 loses 850.
	const fen = "4k3/p7/2p1p3/3pp3/8/2N3B1/8/R2QK3 w - - 0 1"
	order := func(spec string, killer string) []string {
		s, b := node(t, spec, fen)
		ply := 1
		if killer != "" {
			m, err := b.ParseUCI(killer)
			if err != nil {
				t.Fatal(err)
			}
			s.plies[ply].killers[0] = m
		}
		s.scoreMoves(ply, board.NoMove)
		var out []string
		for i := 0; i < s.plies[ply].moves.N; i++ {
			out = append(out, s.pickMove(ply, i).UCI())
		}
		return out
	}
	index := func(list []string, m string) int {
		i := slices.Index(list, m)
		if i < 0 {
			t.Fatalf("%s not generated: %v", m, list)
		}
		return i
	}
	got := order("plain", "e1f2")
	// Winning captures first (Ra1xa7 and Bg3xe5 take pawns for free), then
	// the killer, quiet moves, and last the losing captures: Nxd5 (-220)
	// before Qxd5 (-850).
	if a7, e5, killer := index(got, "a1a7"), index(got, "g3e5"), index(got, "e1f2"); max(a7, e5) > 1 || killer != 2 {
		t.Errorf("see-order: winning captures then the killer first, got %v", got)
	}
	n := len(got)
	if got[n-2] != "c3d5" || got[n-1] != "d1d5" {
		t.Errorf("see-order: losing captures Nxd5 then Qxd5 last, got %v", got)
	}
	// Without see-order the losing captures are ordinary captures, ahead of
	// the killer and the quiet moves.
	got = order("plain:see-order=false", "e1f2")
	if killer := index(got, "e1f2"); index(got, "c3d5") > killer || index(got, "d1d5") > killer {
		t.Errorf("see-order=false: every capture before the killer, got %v", got)
	}
}

// TestDeltaPruning: out of check, a capture is skipped exactly when the
// stand pat plus the captured piece plus delta-margin cannot exceed alpha;
// promotions, evasions and the switch turned off are not.
func TestDeltaPruning(t *testing.T) {
	// White is a rook down; Bxa7 wins back a pawn (qsee is off here, so the
	// rook's recapture does not matter).
	const down = "r3k3/p7/8/8/8/4B3/8/4K3 w - - 0 1"
	s, b := node(t, "plain", down)
	e, _ := s.ev.Evaluate(b)
	standPat := engines.Score(e)
	pawnPlusMargin := engines.Score(100 + 200)
	tests := []struct {
		name         string
		spec, fen    string
		alpha        engines.Score
		wantPrune    bool
		wantSearched bool
	}{
		{"cannot exceed alpha: pruned", "plain:qsee=false", down, standPat + pawnPlusMargin, true, false},
		{"one centipawn short of the bound: searched", "plain:qsee=false", down, standPat + pawnPlusMargin - 1, false, true},
		{"margin widened: searched", "plain:qsee=false:delta-margin=1000", down, standPat + pawnPlusMargin, false, true},
		{"switched off: searched", "plain:qsee=false:delta=false", down, standPat + pawnPlusMargin, false, true},
		// A promotion is never delta-pruned.
		{"promotion: searched", "plain:qsee=false", "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 5000, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := node(t, tt.spec, tt.fen)
			s.quiesce(tt.alpha, tt.alpha+1, 1, 0, false)
			if got := s.counters.DeltaPrunes > 0; got != tt.wantPrune {
				t.Fatalf("delta prunes %d, want pruned = %v", s.counters.DeltaPrunes, tt.wantPrune)
			}
			if got := s.counters.QNodes > 1; got != tt.wantSearched {
				t.Fatalf("%d quiescence nodes, want a capture searched = %v", s.counters.QNodes, tt.wantSearched)
			}
		})
	}
	// In check the stand pat does not count: every evasion is searched.
	s, _ = node(t, "plain", "r3k3/8/8/8/8/8/4r3/3QK3 w - - 0 1")
	s.quiesce(5000, 5001, 1, 0, false)
	if s.counters.DeltaPrunes != 0 || s.counters.QNodes < 2 {
		t.Fatalf("in check: %+v", s.counters)
	}
}

// TestSEESwitchesAreShared: every preset has qsee, see-order and delta on,
// so variants differ only in their papers' rules.
func TestSEESwitchesAreShared(t *testing.T) {
	for _, p := range PresetNames() {
		o, err := Preset(p)
		if err != nil {
			t.Fatal(err)
		}
		if !o.QSEE || !o.SEEOrder || !o.Delta || o.DeltaMargin != 200 {
			t.Errorf("%s: qsee %v see-order %v delta %v delta-margin %d", p, o.QSEE, o.SEEOrder, o.Delta, o.DeltaMargin)
		}
	}
}
