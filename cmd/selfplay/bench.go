package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/search"
	"selfplay/engines/uciserver"
	"selfplay/epd/builtin"
	"selfplay/internal/termtext"
	"selfplay/suite"
)

// benchPosition is a position of the built-in benchmark.
type benchPosition struct {
	name, fen string
}

// benchPositions: the six CRAFTY benchmark positions printed in Appendix A of
// the NMR paper, then five opening and middlegame positions and a rook
// ending of our own.
func benchPositions() []benchPosition {
	return []benchPosition{
		{"crafty-1", "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1"},
		{"crafty-2", "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1"},
		{"crafty-3", "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1"},
		{"crafty-4", "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1"},
		{"crafty-5", "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1"},
		{"crafty-6", "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1"},
		{"initial", board.StartFEN},
		{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
		{"italian", "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7"},
		{"sicilian", "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6"},
		{"queens-gambit", "rnbq1rk1/ppp1bppp/4pn2/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 2 6"},
		{"rook-ending", "8/5pk1/6p1/R7/5P2/r5P1/5K2/8 w - - 0 1"},
	}
}

type benchRow struct {
	variant  string
	nodes    int64
	elapsed  time.Duration
	counters search.Counters
	depths   int // sum of the depths reached, one per position (for -nodes)
}

// cmdBench runs fixed-depth searches (fresh transposition table per
// position) and prints per-position lines and totals; with several variants,
// one comparison table (the shape of NMR Table 2 and FHR Figure 3). With
// -nodes each search has a node budget instead, and the table gives the
// mean depth each variant reached with it.
func cmdBench(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "bench", "[-variant A,B,...] [-depth 7 | -nodes N] [-epd FILE|SUITE] [-hash MiB]")
	variants := fs.String("variant", "plain", "comma-separated variants (preset or preset:switch=value:...)")
	depth := fs.Int("depth", 7, "search depth")
	nodes := fs.Int64("nodes", 0, "node budget per position instead of a depth (the table adds the mean depth reached)")
	epdFile := fs.String("epd", "", "EPD file, or a built-in suite: "+builtin.Names()+" (default: the built-in benchmark)")
	hash := fs.Int("hash", search.DefaultHashMiB, "transposition table size in MiB")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkDepth(*depth); err != nil {
		return err
	}
	if *nodes < 0 {
		return usageErrorf("-nodes %d is out of range: want >= 1", *nodes)
	}
	lim := engines.Limits{Depth: *depth}
	if *nodes > 0 {
		lim = engines.Limits{Nodes: *nodes}
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "depth" {
				lim.Depth = *depth // both: whichever comes first
			}
		})
	}
	if err := checkHashFlag(*hash); err != nil {
		return err
	}
	positions := benchPositions()
	if *epdFile != "" {
		var err error
		if positions, err = loadBenchPositions(ctx, e, *epdFile); err != nil {
			return err
		}
	}
	vs, err := suite.ParseVariants(*variants)
	if err != nil {
		return usageError(err)
	}
	single := len(vs) == 1
	var rows []benchRow
	for _, v := range vs {
		row, err := benchVariant(ctx, e.stdout, v.Name, v.Options, positions, lim, *hash, single)
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return interruptedError(nil) // no totals: they would not be a bench's
		}
		rows = append(rows, row)
	}
	if single {
		r := rows[0]
		fmt.Fprintf(e.stdout, "total nodes %d\n", r.nodes)
		fmt.Fprintf(e.stdout, "time %d\n", r.elapsed.Milliseconds())
		fmt.Fprintf(e.stdout, "nps %d\n", uciserver.NPS(r.nodes, r.elapsed))
		for _, c := range r.counters.Fields() {
			fmt.Fprintf(e.stdout, "%s %d\n", c.Name, c.Value)
		}
		return nil
	}
	printBenchTable(e.stdout, rows, lim, len(positions))
	return nil
}

// loadBenchPositions reads bench's -epd file or built-in suite; malformed
// lines are reported and skipped.
func loadBenchPositions(ctx context.Context, e env, epdFile string) ([]benchPosition, error) {
	recs, bad, err := builtin.LoadContext(ctx, epdFile)
	if err != nil {
		if ctx.Err() != nil { // waiting for a FIFO or a slow file
			return nil, interruptedErrorf("interrupted while reading %s", epdFile)
		}
		return nil, inputError(err)
	}
	for _, b := range bad {
		fmt.Fprintf(e.stderr, "selfplay bench: %s: skipped %s\n", epdFile, termtext.Escape(fmt.Sprint(b)))
	}
	var positions []benchPosition
	for _, r := range recs {
		positions = append(positions, benchPosition{termtext.Escape(r.ID), r.FEN}) // the id is printed
	}
	if len(positions) == 0 {
		return nil, inputErrorf("%s: no positions", epdFile)
	}
	return positions, nil
}

func benchVariant(ctx context.Context, w io.Writer, spec string, o search.Options, positions []benchPosition, lim engines.Limits, hash int, perPosition bool) (benchRow, error) {
	row := benchRow{variant: spec}
	s, err := search.New(o, hash)
	if err != nil {
		return row, err
	}
	for _, p := range positions {
		b, err := board.FromFEN(p.fen)
		if err != nil {
			return row, fmt.Errorf("position %s: %w", p.name, err)
		}
		s.NewGame()
		res, err := s.Search(ctx, b, lim)
		if err != nil {
			return row, fmt.Errorf("position %s: %w", p.name, err)
		}
		if ctx.Err() != nil {
			return row, nil
		}
		i := res.Info
		row.nodes += i.Nodes
		row.elapsed += i.Elapsed
		row.counters.Add(res.Counters)
		row.depths += i.Depth
		if perPosition {
			fmt.Fprintf(w, "position %s depth %d score %s nodes %d time %d bestmove %s\n",
				p.name, i.Depth, i.Score.UCI(), i.Nodes, i.Elapsed.Milliseconds(), res.Move.UCI())
		}
	}
	return row, nil
}

func printBenchTable(w io.Writer, rows []benchRow, lim engines.Limits, positions int) {
	budget := lim.Nodes > 0
	if budget {
		fmt.Fprintf(w, "bench nodes %d positions %d\n", lim.Nodes, positions)
	} else {
		fmt.Fprintf(w, "bench depth %d positions %d\n", lim.Depth, positions)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "variant\tnodes\tvs first\tmain\tquiescence\ttime_ms\tnps\tnull tried\tnull fh\tfhr\tnmr\tverified\tfutility\textensions\t"
	if budget {
		head += "depth\t"
	}
	fmt.Fprintln(tw, head)
	base := rows[0].nodes
	for _, r := range rows {
		c := r.counters
		ext := c.ExtCheck + c.ExtRecapture + c.ExtKingThreat + c.ExtAttackEvading + c.ExtSingleReply + c.ExtMateThreat + c.ExtPassedPawn
		fmt.Fprintf(tw, "%s\t%d\t%+.1f%%\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d/%d\t%d\t%d\t",
			r.variant, r.nodes, 100*(float64(r.nodes)/float64(max(base, 1))-1), c.MainNodes, c.QNodes,
			r.elapsed.Milliseconds(), uciserver.NPS(r.nodes, r.elapsed), c.NullTried, c.NullFailHigh,
			c.FHRReductions, c.NMRReductions, c.VerifiedReductions, c.VerifiedResearches, c.FutilityPrunes, ext)
		if budget {
			fmt.Fprintf(tw, "%.2f\t", float64(r.depths)/float64(max(positions, 1)))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
