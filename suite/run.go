package suite

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/search"
	"selfplay/epd"
)

// Variant is one engine variant of a run: its spec as the user wrote it
// (preset or preset:switch=value...) and the options it stands for.
type Variant struct {
	Name    string
	Options search.Options
}

// ParseVariants parses a comma-separated list of variant specs.
func ParseVariants(s string) ([]Variant, error) {
	items, err := splitList("-variant", s)
	if err != nil {
		return nil, err
	}
	var out []Variant
	for _, it := range items {
		o, err := search.ParseVariant(it)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(v Variant) bool { return v.Name == it }) {
			return nil, fmt.Errorf("-variant: %q is given twice", it)
		}
		out = append(out, Variant{Name: it, Options: o})
	}
	return out, nil
}

// Skipped is an EPD record the run leaves out, with the reason.
type Skipped struct {
	Line   int
	ID     string
	Reason string
}

// Skip reasons.
const (
	reasonNoAnswer = "no bm or am: cannot be judged"
	reasonNoMove   = "no legal move (mate or stalemate)"
)

// Select returns the records a run can search and those it must skip:
// positions without a legal move always, and positions without bm or am
// when judge is set (node-count runs with -depth keep them, unjudged).
func Select(recs []epd.Record, judge bool) ([]epd.Record, []Skipped) {
	var use []epd.Record
	var skip []Skipped
	var l board.MoveList
	for _, r := range recs {
		b, err := board.FromFEN(r.FEN)
		if err != nil { // epd.Parse checked it; kept for records built by hand
			skip = append(skip, Skipped{r.Line, r.ID, err.Error()})
			continue
		}
		b.Generate(&l, board.All)
		switch {
		case l.N == 0:
			skip = append(skip, Skipped{r.Line, r.ID, reasonNoMove})
		case judge && !Judged(r):
			skip = append(skip, Skipped{r.Line, r.ID, reasonNoAnswer})
		default:
			use = append(use, r)
		}
	}
	return use, skip
}

// Judged reports whether a record has an answer to judge a move by.
func Judged(r epd.Record) bool { return len(r.Best) > 0 || len(r.Avoid) > 0 }

// solves reports whether move (UCI) solves the record: one of bm (when it
// has any) and none of am.
func solves(r epd.Record, move string) bool {
	if !Judged(r) || slices.Contains(r.Avoid, move) {
		return false
	}
	return len(r.Best) == 0 || slices.Contains(r.Best, move)
}

// Config is one run: every position searched once per variant and budget.
type Config struct {
	Suite       string // the EPD file's name, for headers and the database
	Positions   []epd.Record
	Variants    []Variant
	Plan        Plan
	Concurrency int       // workers; <= 0 means runtime.NumCPU()
	HashMiB     int       // transposition table per search; <= 0 means 16
	Skipped     []Skipped // records left out (malformed or unusable), reported with the results
	// Progress, if set, is called after each finished search with the
	// number of searches done and the total, from Run's goroutine.
	Progress func(done, total int)
}

// Outcome is one search: a position for a variant at a budget.
type Outcome struct {
	Done       bool   // false if the run stopped before this search finished
	Judged     bool   // the position has bm or am
	Solved     bool   // the final move is one of bm and none of am
	Move       string // final move, UCI
	FirstDepth int    // first iteration that chose the final move (later ones may have left it and come back); -1 if none
	Depth      int    // iteration depth of the final move
	Score      engines.Score
	Nodes      int64
	MainNodes  int64
	QNodes     int64
	Time       time.Duration
}

// Results of a run. Outcomes are indexed by budget, variant and position
// (see At), whatever order the workers finished in, so a run with node or
// depth limits gives the same results at any concurrency.
type Results struct {
	Suite       string
	Plan        Plan
	Variants    []string
	Positions   []epd.Record
	Skipped     []Skipped
	Outcomes    []Outcome
	Complete    bool // every search finished (false after cancellation)
	Concurrency int
	HashMiB     int
	Wall        time.Duration
}

// At returns the outcome of position p for variant v at budget b (indices).
func (r *Results) At(b, v, p int) *Outcome {
	return &r.Outcomes[(b*len(r.Variants)+v)*len(r.Positions)+p]
}

// Run searches every position for every variant and budget, each search
// single-threaded with an empty transposition table, over Concurrency
// workers. Cancelling ctx stops it promptly: the searches in flight are
// dropped and Results.Complete is false; the error is nil then, as the
// results so far are valid. Jobs run budget by budget (smallest first), so an
// interrupted run still has whole rows for its smaller budgets.
func Run(ctx context.Context, cfg Config) (*Results, error) {
	res, boards, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	nv, np := len(cfg.Variants), len(cfg.Positions)
	total := len(cfg.Plan.Values) * nv * np
	res.Outcomes = make([]Outcome, total)
	workers := min(res.Concurrency, total)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	jobs := make(chan int)
	type done struct {
		job int
		out Outcome
		err error
	}
	results := make(chan done)
	go func() {
		defer close(jobs)
		for j := range total {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One searcher per worker, replaced when the variant changes
			// (rarely: jobs come variant by variant), so memory stays at
			// one table per worker however many variants run.
			var s *search.Searcher
			sv := -1
			for j := range jobs {
				b, v, p := j/(nv*np), j/np%nv, j%np
				if v != sv {
					s, sv = nil, v
				}
				out, err := searchOne(ctx, &s, cfg.Variants[v].Options, res.HashMiB,
					cfg.Positions[p], boards[p].Clone(), cfg.Plan.Limits(cfg.Plan.Values[b]))
				if ctx.Err() != nil {
					return // the search may have been cut short: drop it
				}
				results <- done{j, out, err}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var firstErr error
	finished := 0
	for d := range results {
		if d.err != nil {
			if firstErr == nil {
				firstErr = d.err
				cancel()
			}
			continue
		}
		if ctx.Err() != nil {
			continue // stopped: take nothing more, so the run ends where it was stopped
		}
		res.Outcomes[d.job] = d.out
		finished++
		if cfg.Progress != nil {
			cfg.Progress(finished, total)
		}
	}
	res.Wall = time.Since(start)
	res.Complete = finished == total
	if firstErr != nil {
		return nil, firstErr
	}
	return res, nil
}

// prepare checks the config and returns the empty results (the defaults
// of concurrency and hash filled in) and each position's board, its FEN
// parsed once: every search gets its own copy.
func prepare(cfg Config) (*Results, []*board.Board, error) {
	if len(cfg.Variants) == 0 || len(cfg.Positions) == 0 || len(cfg.Plan.Values) == 0 {
		return nil, nil, errors.New("suite: nothing to run (no variant, position or budget)")
	}
	for _, v := range cfg.Variants {
		if err := v.Options.Validate(); err != nil {
			return nil, nil, fmt.Errorf("variant %s: %w", v.Name, err)
		}
	}
	res := &Results{
		Suite: cfg.Suite, Plan: cfg.Plan, Positions: cfg.Positions, Skipped: cfg.Skipped,
		Concurrency: cfg.Concurrency, HashMiB: cfg.HashMiB,
	}
	if res.Concurrency <= 0 {
		res.Concurrency = runtime.NumCPU()
	}
	if res.HashMiB <= 0 {
		res.HashMiB = search.DefaultHashMiB
	}
	for _, v := range cfg.Variants {
		res.Variants = append(res.Variants, v.Name)
	}
	boards := make([]*board.Board, len(cfg.Positions))
	for p, rec := range cfg.Positions {
		b, err := board.FromFEN(rec.FEN)
		if err != nil {
			return nil, nil, fmt.Errorf("position %s (line %d): %w", rec.ID, rec.Line, err)
		}
		boards[p] = b
	}
	return res, boards, nil
}

// searchOne searches one position (b, the record's board, which the search
// may change) with a pooled searcher, reset first, so each search starts
// from an empty table exactly like a new Searcher.
func searchOne(ctx context.Context, sp **search.Searcher, o search.Options, hash int, rec epd.Record, b *board.Board,
	lim engines.Limits) (Outcome, error) {
	if *sp == nil {
		s, err := search.New(o, hash)
		if err != nil {
			return Outcome{}, err
		}
		*sp = s
	}
	s := *sp
	s.NewGame()
	type iter struct {
		depth int
		move  string
	}
	var iters []iter
	lim.OnIteration = func(i engines.Info) {
		if len(i.PV) > 0 {
			iters = append(iters, iter{i.Depth, i.PV[0]})
		}
	}
	r, err := s.Search(ctx, b, lim)
	if err != nil {
		return Outcome{}, fmt.Errorf("position %s (line %d): %w", rec.ID, rec.Line, err)
	}
	move := r.Move.UCI()
	first := -1
	for _, it := range iters {
		if it.move == move {
			first = it.depth
			break
		}
	}
	i := r.Info
	return Outcome{
		Done: true, Judged: Judged(rec), Solved: solves(rec, move), Move: move,
		FirstDepth: first, Depth: i.Depth, Score: i.Score,
		Nodes: i.Nodes, MainNodes: r.Counters.MainNodes, QNodes: r.Counters.QNodes, Time: i.Elapsed,
	}, nil
}

// Row sums one variant at one budget over the positions searched.
type Row struct {
	Variant   string
	Budget    int64
	Positions int // searches done
	Judged    int // of those, positions with bm or am
	Solved    int
	Nodes     int64
	MainNodes int64
	QNodes    int64
	Time      time.Duration // sum of the searches' times (not wall time)
	DepthSum  int           // sum of the depths of the final moves
	Complete  bool          // every position done
}

// MeanDepth is the average iteration depth of the final moves.
func (r Row) MeanDepth() float64 {
	if r.Positions == 0 {
		return 0
	}
	return float64(r.DepthSum) / float64(r.Positions)
}

// Rows returns one row per variant and budget, variant by variant, budgets
// ascending.
func (r *Results) Rows() []Row {
	var rows []Row
	for v, name := range r.Variants {
		for b, budget := range r.Plan.Values {
			row := Row{Variant: name, Budget: budget}
			for p := range r.Positions {
				o := r.At(b, v, p)
				if !o.Done {
					continue
				}
				row.Positions++
				if o.Judged {
					row.Judged++
				}
				if o.Solved {
					row.Solved++
				}
				row.Nodes += o.Nodes
				row.MainNodes += o.MainNodes
				row.QNodes += o.QNodes
				row.Time += o.Time
				row.DepthSum += o.Depth
			}
			row.Complete = row.Positions == len(r.Positions)
			rows = append(rows, row)
		}
	}
	return rows
}

// FirstSolved returns the smallest budget of the run at which variant v
// solved position p, and false if it solved it at none.
func (r *Results) FirstSolved(v, p int) (int64, bool) {
	for b, budget := range r.Plan.Values {
		if r.At(b, v, p).Solved {
			return budget, true
		}
	}
	return 0, false
}

// Diff returns the ids of the positions that variant a solved at budget b
// and variant c did not, and the reverse; positions not searched by both are
// left out.
func (r *Results) Diff(b, a, c int) (onlyA, onlyC []string) {
	for p, rec := range r.Positions {
		x, y := r.At(b, a, p), r.At(b, c, p)
		if !x.Done || !y.Done {
			continue
		}
		switch {
		case x.Solved && !y.Solved:
			onlyA = append(onlyA, rec.ID)
		case y.Solved && !x.Solved:
			onlyC = append(onlyC, rec.ID)
		}
	}
	return onlyA, onlyC
}

// Done returns the number of searches finished.
func (r *Results) Done() int {
	n := 0
	for i := range r.Outcomes {
		if r.Outcomes[i].Done {
			n++
		}
	}
	return n
}
