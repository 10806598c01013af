package search

import (
	"context"
	"testing"

	"selfplay/engines"
)

// benchFENs are the six CRAFTY benchmark positions of the NMR paper's
// Appendix A.
var benchFENs = []string{
	"3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
	"rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
	"4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
	"r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
	"2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
	"r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
}

// BenchmarkSearch measures nodes per second of each preset on the CRAFTY
// positions at a fixed depth (new table per position). Compare presets with
// benchstat on the ns/node metric: the variants' per-node cost must stay
// within 10% of plain's.
func BenchmarkSearch(b *testing.B) {
	for _, preset := range PresetNames() {
		b.Run(preset, func(b *testing.B) {
			s := mustSearcher(b, preset)
			var nodes int64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, fen := range benchFENs {
					s.NewGame()
					res, err := s.Search(context.Background(), mustBoard(b, fen), engines.Limits{Depth: 6})
					if err != nil {
						b.Fatal(err)
					}
					nodes += res.Info.Nodes
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkFHRCost isolates what fail-high reductions cost per node: the
// same tree as plain (the margin makes the test never succeed) with the
// evaluation and threat function computed at every null-window interior
// node. The paper puts this overhead at about 3% (item 8).
func BenchmarkFHRCost(b *testing.B) {
	plain, err := Preset("plain")
	if err != nil {
		b.Fatal(err)
	}
	evalOnly := plain
	evalOnly.FHR = true
	evalOnly.FHRMargin = -1 << 30 // e - t >= beta + 2^30 never holds
	for _, c := range []struct {
		name string
		opts Options
	}{{"plain", plain}, {"eval-only", evalOnly}} {
		b.Run(c.name, func(b *testing.B) {
			s, err := New(c.opts, 16)
			if err != nil {
				b.Fatal(err)
			}
			var nodes int64
			for i := 0; i < b.N; i++ {
				for _, fen := range benchFENs {
					s.NewGame()
					res, err := s.Search(context.Background(), mustBoard(b, fen), engines.Limits{Depth: 6})
					if err != nil {
						b.Fatal(err)
					}
					if res.Counters.FHRReductions != 0 {
						b.Fatal("the eval-only variant reduced a node")
					}
					nodes += res.Info.Nodes
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
		})
	}
}
