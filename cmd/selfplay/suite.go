package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"selfplay/engines/search"
	"selfplay/epd"
	"selfplay/epd/builtin"
	"selfplay/internal/termtext"
	"selfplay/store"
	"selfplay/store/record"
	"selfplay/suite"
)

// cmdSuite runs an EPD test suite: every position once per variant and
// budget (node budgets, depths or one move time), in parallel, and prints
// solved counts and node totals (the FHR paper's Table 1 and Figure 3, the
// NMR paper's Tables 3-5).
func cmdSuite(ctx context.Context, e env, args []string) int {
	fs := newFlagSet(e, "suite", "-epd FILE|SUITE -variant A,B,... (-nodes N,... | -depth N,... | -movetime D) [flags]")
	epdFile := fs.String("epd", "", "EPD file, or a built-in suite: "+builtin.Names()+" (required)")
	variants := fs.String("variant", "plain", "comma-separated variants (preset or preset:switch=value:...)")
	nodes := fs.String("nodes", "", "node budgets: a list (5400,10800) or BASEx2^A..B (2700x2^1..10); hard limits")
	depth := fs.String("depth", "", "fixed depths: a list or range (4..8)")
	movetime := fs.String("movetime", "", "time per search, e.g. 5s")
	concurrency := fs.Int("concurrency", 0, "parallel searches (default: number of CPUs)")
	format := fs.String("format", "text", "output format: text, csv or json")
	positions := fs.Bool("positions", false, "text: add a per-position table; csv: write per-position records instead of rows")
	diffs := fs.String("diff", "largest", "positions solved by one variant and not another, text only: largest (budget), all, none")
	out := fs.String("o", "", "write the output to this file instead of stdout")
	db := fs.String("db", "", "also store the run in this SQLite database (for selfplay report)")
	hash := fs.Int("hash", search.DefaultHashMiB, "transposition table size in MiB (per search)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(e.stderr, "selfplay suite: %s\n", termtext.EscapeLines(fmt.Sprintf(format, a...)))
		return code
	}

	plan, err := suitePlan(*nodes, *depth, *movetime)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if *epdFile == "" {
		return fail(exitUsage, "-epd FILE is required (an EPD file, or a built-in suite: %s)", builtin.Names())
	}
	vs, err := suite.ParseVariants(*variants)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	switch *format {
	case "text", "csv", "json":
	default:
		return fail(exitUsage, "-format %q: want text, csv or json", *format)
	}
	if _, ok := diffSetting[*diffs]; !ok {
		return fail(exitUsage, "-diff %q: want largest, all or none", *diffs)
	}
	if *hash < 1 || *concurrency < 0 {
		return fail(exitUsage, "-hash must be >= 1 and -concurrency >= 0")
	}

	recs, bad, err := builtin.LoadContext(ctx, *epdFile)
	if err != nil {
		if ctx.Err() != nil { // waiting for a FIFO or a slow file
			return fail(exitInterrupted, "interrupted while reading %s", *epdFile)
		}
		return fail(exitUsage, "%v", err)
	}
	for _, b := range bad {
		fmt.Fprintf(e.stderr, "selfplay suite: %s:%d: skipped malformed line: %s\n", *epdFile, b.Line, termtext.Escape(b.Err.Error()))
	}
	if len(bad) > 0 {
		fmt.Fprintf(e.stderr, "selfplay suite: %s: %d malformed lines skipped\n", *epdFile, len(bad))
	}
	use, skipped := suite.Select(recs, plan.Kind != suite.Depth)
	for _, s := range skipped {
		fmt.Fprintf(e.stderr, "selfplay suite: %s:%d: %s skipped: %s\n", *epdFile, s.Line, termtext.Escape(s.ID), termtext.Escape(s.Reason))
	}
	if len(skipped) > 0 {
		fmt.Fprintf(e.stderr, "selfplay suite: %s: %d positions skipped\n", *epdFile, len(skipped))
	}
	if plan.Kind == suite.Depth {
		if n := countUnjudged(use); n > 0 {
			fmt.Fprintf(e.stderr, "selfplay suite: %s: %d positions without bm or am: searched for node counts only\n", *epdFile, n)
		}
	}
	if len(use) == 0 {
		return fail(exitUsage, "%s: no positions to run", *epdFile)
	}

	// The -o file is created before the run, so that a bad path fails fast.
	o, code := createOutput(e, "suite", *out, append(store.Files(*db), *epdFile)...)
	if o == nil {
		return code
	}
	defer o.discard() // if the run fails before writing
	var st *store.Store
	if *db != "" {
		if st, code = openWriter(ctx, e.stderr, "suite", *db); st == nil {
			return code
		}
		defer st.Close()
	}

	cfg := suite.Config{
		Suite: *epdFile, Positions: use, Variants: vs, Plan: plan,
		Concurrency: *concurrency, HashMiB: *hash,
		Skipped: append(suite.Malformed(bad), skipped...),
	}
	var bar *progressBar
	if isTerminal(e.stderr) {
		bar = &progressBar{w: e.stderr, start: time.Now()}
		cfg.Progress = bar.update
	}
	res, err := suite.Run(ctx, cfg)
	if bar != nil {
		bar.finish()
	}
	if err != nil {
		return fail(exitFailure, "%v", err)
	}

	if code := o.write(func(w io.Writer) error {
		switch *format {
		case "json":
			return res.WriteJSON(w)
		case "csv":
			return res.WriteCSV(w, *positions)
		}
		return res.WriteText(w, suite.TextOptions{Diffs: diffSetting[*diffs], Positions: *positions})
	}); code != exitOK {
		return code
	}
	if !res.Complete {
		fmt.Fprintf(e.stderr, "selfplay suite: interrupted after %d of %d searches; the run is not stored\n", res.Done(), len(res.Outcomes))
		return exitInterrupted
	}
	if st != nil {
		run := suiteRunRecord(res)
		if err := st.SaveSuiteRun(context.WithoutCancel(ctx), run); err != nil {
			return fail(exitFailure, "%v", err)
		}
		fmt.Fprintf(e.stderr, "selfplay suite: stored as suite run %d in %s\n", run.ID, *db)
	}
	return exitOK
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

// progressBar is a line on a terminal rewritten in place.
type progressBar struct {
	w     io.Writer
	start time.Time
	last  time.Time
	drawn bool
}

func (p *progressBar) update(done, total int) {
	now := time.Now()
	if done < total && now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	const width = 30
	fill := width * done / total
	elapsed := now.Sub(p.start)
	eta := "?"
	if done > 0 {
		eta = (time.Duration(float64(elapsed) / float64(done) * float64(total-done))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d searches, elapsed %s, ETA %s ", strings.Repeat("#", fill),
		strings.Repeat(".", width-fill), done, total, elapsed.Round(time.Second), eta)
	p.drawn = true
}

func (p *progressBar) finish() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
