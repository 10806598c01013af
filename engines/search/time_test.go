package search

import (
	"testing"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
)

func TestAllocateTime(t *testing.T) {
	s := time.Second
	tests := []struct {
		name       string
		lim        engines.Limits
		side       board.Color
		maxHard    time.Duration
		wantSoftGT time.Duration
	}{
		{"movetime is used in full", engines.Limits{MoveTime: 2 * s}, board.White, 2 * s, -1},
		{"40 moves in 2 minutes", engines.Limits{Clock: &engines.Clock{WhiteTime: 120 * s, BlackTime: 120 * s, MovesToGo: 40}}, board.White, 10 * s, s},
		{"black's clock is black's", engines.Limits{Clock: &engines.Clock{WhiteTime: 120 * s, BlackTime: 2 * s, MovesToGo: 40}}, board.Black, 2 * s, 0},
		{"last move before the control keeps a reserve", engines.Limits{Clock: &engines.Clock{WhiteTime: s, BlackTime: s, MovesToGo: 1}}, board.White, 800 * time.Millisecond, 0},
		{"almost no time left", engines.Limits{Clock: &engines.Clock{WhiteTime: 30 * time.Millisecond, MovesToGo: 10}}, board.White, 30 * time.Millisecond, -1},
		{"sudden death with increment", engines.Limits{Clock: &engines.Clock{WhiteTime: 10 * s, WhiteInc: s}}, board.White, 8 * s, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		b := allocateTime(tt.lim, tt.side)
		if b.hard <= 0 || b.hard > tt.maxHard || b.soft > b.hard {
			t.Errorf("%s: soft %v hard %v, want 0 < soft <= hard <= %v", tt.name, b.soft, b.hard, tt.maxHard)
		}
		if tt.wantSoftGT >= 0 && b.soft <= tt.wantSoftGT {
			t.Errorf("%s: soft %v, want > %v", tt.name, b.soft, tt.wantSoftGT)
		}
	}
	if b := allocateTime(engines.Limits{Nodes: 5}, board.White); b.soft != 0 || b.hard != 0 {
		t.Errorf("no clock: %+v", b)
	}
}

// A time-limited search stops near its limit (loose bound: CI machines are noisy).
func TestMoveTimeStops(t *testing.T) {
	s := mustSearcher(t, "plain")
	start := time.Now()
	res := mustSearch(t, s, board.StartFEN, engines.Limits{MoveTime: 50 * time.Millisecond})
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("a 50ms search took %v", el)
	}
	if res.Move == board.NoMove || res.Info.Depth < 1 {
		t.Fatalf("result %+v", res)
	}
}
