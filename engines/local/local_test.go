package local

import (
	"context"
	"strings"
	"testing"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
)

// position reuses the previous call's board when the game went on, and
// rebuilds it otherwise (new game, takeback, other start): the board must
// always be the position the caller described.
func TestLocalPositionFollowsTheGame(t *testing.T) {
	l, err := NewVariant("p", "plain", 1)
	if err != nil {
		t.Fatal(err)
	}
	const other = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
	steps := []struct {
		fen   string
		moves string
	}{
		{board.StartFEN, ""},
		{board.StartFEN, "e2e4"},
		{board.StartFEN, "e2e4 e7e5 g1f3"},
		{board.StartFEN, "e2e4 e7e5"}, // takeback
		{board.StartFEN, "d2d4"},      // another line
		{other, "e2e4"},               // another start
		{other, "e2e4 e8d7"},
	}
	for _, st := range steps {
		moves := strings.Fields(st.moves)
		b, err := l.position(st.fen, moves)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := board.FromFEN(st.fen)
		if err := want.ApplyUCI(moves); err != nil {
			t.Fatal(err)
		}
		if b.FEN() != want.FEN() || b.Ply() != want.Ply() {
			t.Fatalf("%s + %q: board %s (ply %d), want %s (ply %d)", st.fen, st.moves, b.FEN(), b.Ply(), want.FEN(), want.Ply())
		}
	}
}

func TestLocalBadInput(t *testing.T) {
	l, err := NewVariant("p", "plain", 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := l.Search(ctx, "not a fen", nil, engines.Limits{Depth: 1}); err == nil || !strings.Contains(err.Error(), "engine p") {
		t.Fatalf("bad FEN: %v", err)
	}
	if _, err := l.Search(ctx, board.StartFEN, []string{"e2e4", "e2e4"}, engines.Limits{Depth: 1}); err == nil || !strings.Contains(err.Error(), "not legal") {
		t.Fatalf("illegal move: %v", err)
	}
	// A failed call leaves the engine usable.
	res, err := l.Search(ctx, board.StartFEN, []string{"e2e4"}, engines.Limits{Depth: 2})
	if err != nil || res.Move == "" || res.Move == "0000" {
		t.Fatalf("after errors: %+v, %v", res, err)
	}
	if _, err := NewVariant("x", "nope", 1); err == nil || !strings.Contains(err.Error(), "unknown variant preset") {
		t.Fatalf("unknown preset: %v", err)
	}
}

// A clock and the iteration callback reach the search: a game clock of
// 50 ms makes the time manager stop early, and every iteration is reported
// in the contract's types.
func TestLimitsReachTheSearch(t *testing.T) {
	l, err := NewVariant("p", "plain", 1)
	if err != nil {
		t.Fatal(err)
	}
	var iterations []engines.Info
	lim := engines.Limits{Clock: &engines.Clock{WhiteTime: 50 * time.Millisecond, BlackTime: 50 * time.Millisecond},
		OnIteration: func(i engines.Info) { iterations = append(iterations, i) }}
	start := time.Now()
	res, err := l.Search(context.Background(), board.StartFEN, nil, lim)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("a 50 ms clock took %v", time.Since(start))
	}
	if len(iterations) == 0 || iterations[len(iterations)-1].Depth != res.Info.Depth || res.Info.Nodes <= 0 || len(res.Info.PV) == 0 || res.Info.PV[0] != res.Move {
		t.Errorf("result %+v after iterations %+v", res, iterations)
	}
	res, err = l.Search(context.Background(), board.StartFEN, nil, engines.Limits{Nodes: 1000})
	if err != nil || res.Info.Nodes != 1000 {
		t.Errorf("node limit: %+v, %v", res.Info, err)
	}
}
