package search

import (
	"context"
	"testing"

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

func mustSearcher(t testing.TB, preset string) *Searcher {
	t.Helper()
	o, err := Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(o, 16)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSmoke(t *testing.T) {
	s := mustSearcher(t, "plain")
	b := mustBoard(t, board.StartFEN)
	res, err := s.Search(context.Background(), b, Limits{Depth: 7, OnIteration: func(i Info) {
		t.Logf("depth %d score %s nodes %d time %v pv %v", i.Depth, i.Score.UCI(), i.Nodes, i.Elapsed, i.PV)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("best %s nodes %d nps %.0f counters %+v", res.Move, res.Info.Nodes, float64(res.Info.Nodes)/res.Info.Elapsed.Seconds(), res.Info.Counters)
}
