package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"selfplay/engines/search"
	"selfplay/epd"
	"selfplay/epd/builtin"
	"selfplay/internal/termtext"
	"selfplay/store"
	"selfplay/store/record"
	"selfplay/suite"
)

// suiteFlags are the flags of `selfplay suite`.
type suiteFlags struct {
	epdFile, variants, nodes, depth, movetime string
	concurrency, hash                         int
	format, diffs, out, db                    string
	positions                                 bool
}

// newSuiteFlags defines suite's flags.
func newSuiteFlags(e env) (*flag.FlagSet, *suiteFlags) {
	fs := newFlagSet(e, "suite", "-epd FILE|SUITE -variant A,B,... (-nodes N,... | -depth N,... | -movetime D) [flags]")
	f := &suiteFlags{}
	fs.StringVar(&f.epdFile, "epd", "", "EPD file, or a built-in suite: "+builtin.Names()+" (required)")
	fs.StringVar(&f.variants, "variant", "plain", "comma-separated variants (preset or preset:switch=value:...)")
	fs.StringVar(&f.nodes, "nodes", "", "node budgets: a list (5400,10800) or BASEx2^A..B (2700x2^1..10); hard limits")
	fs.StringVar(&f.depth, "depth", "", "fixed depths: a list or range (4..8)")
	fs.StringVar(&f.movetime, "movetime", "", "time per search, e.g. 5s")
	fs.IntVar(&f.concurrency, "concurrency", 0, "parallel searches (default: number of CPUs)")
	fs.StringVar(&f.format, "format", "text", "output format: text, csv or json")
	fs.BoolVar(&f.positions, "positions", false, "text: add a per-position table; csv: write per-position records instead of rows")
	fs.StringVar(&f.diffs, "diff", "largest", "positions solved by one variant and not another, text only: largest (budget), all, none")
	fs.StringVar(&f.out, "o", "", "write the output to this file instead of stdout")
	fs.StringVar(&f.db, "db", "", "also store the run in this SQLite database (for selfplay report)")
	fs.IntVar(&f.hash, "hash", search.DefaultHashMiB, "transposition table size in MiB (per search)")
	return fs, f
}

// check checks the flags and returns the run's plan and variants.
func (f *suiteFlags) check() (suite.Plan, []suite.Variant, error) {
	plan, err := suitePlan(f.nodes, f.depth, f.movetime)
	if err != nil {
		return suite.Plan{}, nil, usageError(err)
	}
	if f.epdFile == "" {
		return suite.Plan{}, nil, usageErrorf("-epd FILE is required (an EPD file, or a built-in suite: %s)", builtin.Names())
	}
	vs, err := suite.ParseVariants(f.variants)
	if err != nil {
		return suite.Plan{}, nil, usageError(err)
	}
	switch f.format {
	case "text", "csv", "json":
	default:
		return suite.Plan{}, nil, usageErrorf("-format %q: want text, csv or json", f.format)
	}
	if _, ok := diffSetting[f.diffs]; !ok {
		return suite.Plan{}, nil, usageErrorf("-diff %q: want largest, all or none", f.diffs)
	}
	if f.hash < 1 || f.concurrency < 0 {
		return suite.Plan{}, nil, usageErrorf("-hash must be >= 1 and -concurrency >= 0")
	}
	return plan, vs, nil
}

// cmdSuite runs an EPD test suite: every position once per variant and
// budget (node budgets, depths or one move time), in parallel, and prints
// solved counts and node totals (the FHR paper's Table 1 and Figure 3, the
// NMR paper's Tables 3-5).
func cmdSuite(ctx context.Context, e env, args []string) error {
	fs, f := newSuiteFlags(e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	plan, vs, err := f.check()
	if err != nil {
		return err
	}
	use, skipped, err := loadSuite(ctx, e, f.epdFile, plan)
	if err != nil {
		return err
	}
	// The -o file is created before the run, so that a bad path fails fast.
	o, err := createOutput(e, f.out, append(store.Files(f.db), f.epdFile)...)
	if err != nil {
		return err
	}
	defer o.discard() // if the run fails before writing
	var st *store.Store
	if f.db != "" {
		if st, err = openWriter(ctx, "suite", f.db); err != nil {
			return err
		}
		defer st.Close()
	}
	res, err := runSuite(ctx, e, suite.Config{
		Suite: f.epdFile, Positions: use, Variants: vs, Plan: plan,
		Concurrency: f.concurrency, HashMiB: f.hash, Skipped: skipped,
	})
	if err != nil {
		return err
	}
	if err := o.write(func(w io.Writer) error { return f.write(w, res) }); err != nil {
		return err
	}
	if !res.Complete {
		return interruptedErrorf("interrupted after %d of %d searches; the run is not stored", res.Done(), len(res.Outcomes))
	}
	if st != nil {
		run := suiteRunRecord(res)
		if err := st.SaveSuiteRun(context.WithoutCancel(ctx), run); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "selfplay suite: stored as suite run %d in %s\n", run.ID, f.db)
	}
	return nil
}

// loadSuite reads the EPD file or built-in suite and selects the
// positions the plan can run; what it skips, and why, it reports on
// standard error and returns (for the results).
func loadSuite(ctx context.Context, e env, epdFile string, plan suite.Plan) (use []epd.Record, skipped []suite.Skipped, err error) {
	recs, bad, err := builtin.LoadContext(ctx, epdFile)
	if err != nil {
		if ctx.Err() != nil { // waiting for a FIFO or a slow file
			return nil, nil, interruptedErrorf("interrupted while reading %s", epdFile)
		}
		return nil, nil, inputError(err)
	}
	for _, b := range bad {
		fmt.Fprintf(e.stderr, "selfplay suite: %s:%d: skipped malformed line: %s\n", epdFile, b.Line, termtext.Escape(b.Err.Error()))
	}
	if len(bad) > 0 {
		fmt.Fprintf(e.stderr, "selfplay suite: %s: %d malformed lines skipped\n", epdFile, len(bad))
	}
	use, skipped = suite.Select(recs, plan.Kind != suite.Depth)
	for _, s := range skipped {
		fmt.Fprintf(e.stderr, "selfplay suite: %s:%d: %s skipped: %s\n", epdFile, s.Line, termtext.Escape(s.ID), termtext.Escape(s.Reason))
	}
	if len(skipped) > 0 {
		fmt.Fprintf(e.stderr, "selfplay suite: %s: %d positions skipped\n", epdFile, len(skipped))
	}
	if plan.Kind == suite.Depth {
		if n := countUnjudged(use); n > 0 {
			fmt.Fprintf(e.stderr, "selfplay suite: %s: %d positions without bm or am: searched for node counts only\n", epdFile, n)
		}
	}
	if len(use) == 0 {
		return nil, nil, inputErrorf("%s: no positions to run", epdFile)
	}
	return use, append(suite.Malformed(bad), skipped...), nil
}

// runSuite runs the suite, with a progress bar on standard error when it
// is a terminal.
func runSuite(ctx context.Context, e env, cfg suite.Config) (*suite.Results, error) {
	bar := progressTo(e, e.stderr).bar("searches")
	cfg.Progress = func(done, total int) {
		bar.update(done, total)
		if e.searchDone != nil {
			e.searchDone(done, total)
		}
	}
	res, err := suite.Run(ctx, cfg)
	bar.finish()
	return res, err
}

// write writes the results in the -format asked for.
func (f *suiteFlags) write(w io.Writer, res *suite.Results) error {
	switch f.format {
	case "json":
		return res.WriteJSON(w)
	case "csv":
		return res.WriteCSV(w, f.positions)
	}
	return res.WriteText(w, suite.TextOptions{Diffs: diffSetting[f.diffs], Positions: f.positions})
}

// suitePlan parses the one budget flag given.
func suitePlan(nodes, depth, movetime string) (suite.Plan, error) {
	given := 0
	for _, s := range []string{nodes, depth, movetime} {
		if s != "" {
			given++
		}
	}
	if given != 1 {
		return suite.Plan{}, fmt.Errorf("give exactly one of -nodes, -depth or -movetime")
	}
	switch {
	case nodes != "":
		return suite.ParseNodes(nodes)
	case depth != "":
		return suite.ParseDepths(depth)
	default:
		return suite.ParseMoveTime(movetime)
	}
}

func countUnjudged(recs []epd.Record) int {
	n := 0
	for _, r := range recs {
		if !suite.Judged(r) {
			n++
		}
	}
	return n
}

var diffSetting = map[string]suite.Diffs{"largest": suite.DiffLargest, "all": suite.DiffAll, "none": suite.DiffNone}

// suiteRunRecord converts results for the database.
func suiteRunRecord(res *suite.Results) *record.SuiteRun {
	run := &record.SuiteRun{
		Suite:     res.Suite,
		LimitKind: string(res.Plan.Kind),
		Settings: fmt.Sprintf("epd=%s variants=%s %s=%s hash=%d concurrency=%d",
			res.Suite, strings.Join(res.Variants, ","), res.Plan.Kind, res.Plan.Spec, res.HashMiB, res.Concurrency),
	}
	for _, row := range res.Rows() {
		run.Rows = append(run.Rows, record.SuiteRow{
			Variant: row.Variant, Limit: row.Budget, Positions: row.Positions, Solved: row.Solved,
			Nodes: row.Nodes, MainNodes: row.MainNodes, QNodes: row.QNodes, Time: row.Time,
		})
	}
	for v, name := range res.Variants {
		for b, budget := range res.Plan.Values {
			for p, rec := range res.Positions {
				o := res.At(b, v, p)
				if !o.Done {
					continue
				}
				run.Positions = append(run.Positions, record.SuitePosition{
					Variant: name, Limit: budget, Position: rec.ID, Solved: o.Solved, Move: o.Move,
					FirstFound: o.FirstDepth, Depth: o.Depth, Score: int(o.Score), Nodes: o.Nodes, Time: o.Time,
				})
			}
		}
	}
	return run
}
