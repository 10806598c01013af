// Package merge combines selfplay databases — the shards of a tournament
// played on many machines (selfplay run -shard I/N), a single machine's
// database, an earlier merge — into one ordinary database, the same as if
// one machine had played every game.
//
// Every input is checked before anything is written: that it is an intact
// selfplay database, that a tournament has the same config snapshot in
// every input and in the output, that no two inputs are the same shard or
// shards of different splits, and that no two games with the same key
// differ. Then each input is copied in one transaction, so a merge that is
// killed leaves the output consistent (and running it again finishes it).
package merge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"selfplay/config/snapshot"
	"selfplay/standings"
	"selfplay/store"
	"selfplay/store/record"
)

// Options adjust a merge.
type Options struct {
	Progress io.Writer // a line per input and tournament (nil: discarded)
}

// InputError is a file that cannot be merged: missing, not a selfplay
// database, of another schema version, damaged or truncated.
type InputError struct {
	Path string
	Err  error
}

func (e *InputError) Error() string { return fmt.Sprintf("input %s: %v", e.Path, e.Err) }
func (e *InputError) Unwrap() error { return e.Err }

// OutputError is an output database that cannot be opened for writing:
// in use by another selfplay process (store.InUseError), not writable, not
// a selfplay database. Nothing was written.
type OutputError struct{ Err error }

func (e *OutputError) Error() string { return e.Err.Error() }
func (e *OutputError) Unwrap() error { return e.Err }

// RefusedError lists why the inputs cannot be merged as they are:
// different configurations of a tournament, overlapping shards, shards of
// different splits, conflicting games. Nothing was written.
type RefusedError struct {
	Problems []string
}

// maxProblems bounds the problems a RefusedError lists.
const maxProblems = 20

func (e *RefusedError) Error() string {
	lines := e.Problems
	more := ""
	if len(lines) > maxProblems {
		more = fmt.Sprintf("\n  ... and %d more", len(lines)-maxProblems)
		lines = lines[:maxProblems]
	}
	return fmt.Sprintf("nothing merged:\n  %s%s", strings.Join(lines, "\n  "), more)
}

// Result is what a merge did, per input.
type Result struct {
	Inputs []InputResult
}

// InputResult counts what one input added.
type InputResult struct {
	Path string
	store.MergeResult
	Known int // games the output (or an input before it) already had
}

// Run merges the databases at inputs into the database at out (created
// if it does not exist), which is opened with the writer lock; inputs are
// opened read-only.
func Run(ctx context.Context, out string, inputs []string, opts Options) (Result, error) {
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	if len(inputs) == 0 {
		return Result{}, errors.New("no input databases")
	}
	if err := distinctFiles(out, inputs); err != nil {
		return Result{}, err
	}
	// Without an output yet, the inputs are checked before it is created,
	// so that a refused merge leaves no empty database behind.
	_, statErr := os.Stat(out)
	var p *plan
	if errors.Is(statErr, fs.ErrNotExist) {
		var err error
		if p, err = check(ctx, inputs, nil); err != nil {
			return Result{}, err
		}
	}
	st, err := store.OpenWriter(ctx, out, "merge")
	if err != nil {
		return Result{}, &OutputError{Err: err}
	}
	defer st.Close()
	if p == nil || !p.empty(ctx, st) {
		if p, err = check(ctx, inputs, st); err != nil {
			return Result{}, err
		}
	}
	var res Result
	for i, in := range inputs {
		r, err := st.Merge(ctx, in, store.MergePlan{Games: p.games[i], Settle: settle})
		if err != nil {
			if ctx.Err() != nil {
				return res, fmt.Errorf("%w while merging %s: the inputs before it are merged, %s is as it was before it; "+
					"run the same merge again to finish", ctx.Err(), in, out)
			}
			return res, err
		}
		ir := InputResult{Path: in, MergeResult: r}
		for _, t := range r.Tournaments {
			known := p.stored[i][t.Name] - t.Added
			ir.Known += known
			fmt.Fprintf(opts.Progress, "%s: %s: %d games added, %d already there\n", in, t.Name, t.Added, known)
		}
		if r.SuiteRuns > 0 || r.SuiteKnown > 0 {
			fmt.Fprintf(opts.Progress, "%s: %d suite runs added, %d already there\n", in, r.SuiteRuns, r.SuiteKnown)
		}
		res.Inputs = append(res.Inputs, ir)
	}
	ts, err := st.Tournaments(ctx)
	if err != nil {
		return res, err
	}
	for _, t := range ts {
		n, err := st.CountGames(ctx, t.ID)
		if err != nil {
			return res, err
		}
		line := fmt.Sprintf("%s: %s: %d/%d games, %s", out, t.Name, n, t.TotalGames, t.Status)
		if t.SPRTState != "" {
			line += fmt.Sprintf(", SPRT %s (LLR %.2f)", t.SPRTState, t.SPRTLLR)
		}
		fmt.Fprintln(opts.Progress, line)
	}
	return res, nil
}

// settle gives a tournament that received games its status (standings.Settle).
func settle(ctx context.Context, r *store.Reader, t record.Tournament) (record.Status, string, float64, error) {
	games, err := r.TournamentGames(ctx, t.ID)
	if err != nil {
		return "", "", 0, err
	}
	s, err := standings.Settle(t, games)
	if err != nil {
		return "", "", 0, err
	}
	return s.Status, s.SPRTState, s.SPRTLLR, nil
}

// distinctFiles refuses an input that is the output or given twice.
func distinctFiles(out string, inputs []string) error {
	type file struct {
		path string
		info os.FileInfo
	}
	var seen []file
	outInfo, _ := os.Stat(out)
	for _, in := range inputs {
		fi, err := os.Stat(in)
		if err != nil {
			return &InputError{Path: in, Err: err}
		}
		if outInfo != nil && os.SameFile(fi, outInfo) {
			return &InputError{Path: in, Err: fmt.Errorf("is the output (-o %s)", out)}
		}
		for _, f := range seen {
			if os.SameFile(fi, f.info) {
				return &InputError{Path: in, Err: fmt.Errorf("is given twice (also as %s)", f.path)}
			}
		}
		seen = append(seen, file{in, fi})
	}
	return nil
}

// plan is what each input adds: per input (by position) and tournament
// name, the keys of the games to copy, and how many games it holds.
type plan struct {
	games  []map[string][]store.GameKey
	stored []map[string]int
}

// empty reports whether the output st holds nothing a plan made without
// it could have missed (it was created just now).
func (p *plan) empty(ctx context.Context, st *store.Store) bool {
	ts, err := st.Tournaments(ctx)
	return err == nil && len(ts) == 0
}

// source is where a tournament's game was seen: the output (-1) or an
// input (its position).
type source int

const outputSource source = -1

// tournamentSeen is a tournament as the output and the inputs hold it.
type tournamentSeen struct {
	first  record.Tournament // the first row seen, for comparing snapshots
	from   source
	id     map[source]int64           // its row id in each source
	shards map[record.Shard]source    // the shards among the inputs
	counts map[int]source             // shard count -> an input with it
	owner  map[store.GameKey]source   // the first source of each game
	twice  map[store.GameKey][]source // later sources of a game, to compare with the first
}

// check reads every input (and what the output st holds; nil for no
// output) and returns the plan, an *InputError for the first input that
// cannot be read, or a *RefusedError listing every reason the inputs
// cannot be merged: other configurations, overlapping shards, shards of
// different splits, different games under the same key.
func check(ctx context.Context, inputs []string, st *store.Store) (*plan, error) {
	c := &checker{inputs: inputs, seen: map[string]*tournamentSeen{},
		plan: &plan{games: make([]map[string][]store.GameKey, len(inputs)), stored: make([]map[string]int, len(inputs))}}
	if err := c.readSources(ctx, st); err != nil {
		return nil, err
	}
	if len(c.problems) > 0 {
		return nil, &RefusedError{Problems: c.problems}
	}
	// A game in two sources is merged once if it is the same game in both.
	digests, err := c.readDigests(ctx, st)
	if err != nil {
		return nil, err
	}
	if err := c.compareTwice(digests); err != nil {
		return nil, err
	}
	if len(c.problems) > 0 {
		return nil, &RefusedError{Problems: c.problems}
	}
	return c.plan, nil
}

// checker gathers what check finds.
type checker struct {
	inputs   []string
	seen     map[string]*tournamentSeen
	order    []string // tournament names in the order seen
	problems []string
	plan     *plan
}

// name is how a problem names a source.
func (c *checker) name(s source) string {
	if s == outputSource {
		return "the output"
	}
	return c.inputs[s]
}

// readSources reads the tournaments and game keys of the output st (nil:
// none) and of every input.
func (c *checker) readSources(ctx context.Context, st *store.Store) error {
	if st != nil {
		ts, err := st.Tournaments(ctx)
		if err != nil {
			return err
		}
		for _, t := range ts {
			keys, err := st.GameKeys(ctx, t.ID)
			if err != nil {
				return err
			}
			c.add(outputSource, t, keys)
		}
	}
	for i, in := range c.inputs {
		c.plan.games[i], c.plan.stored[i] = map[string][]store.GameKey{}, map[string]int{}
		err := readInput(ctx, in, true, func(r *store.Reader) error {
			ts, err := r.Tournaments(ctx)
			if err != nil {
				return err
			}
			for _, t := range ts {
				keys, err := r.GameKeys(ctx, t.ID)
				if err != nil {
					return err
				}
				c.add(source(i), t, keys)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// add records the tournament t of source src with its game keys.
func (c *checker) add(src source, t record.Tournament, keys []store.GameKey) {
	s := c.seen[t.Name]
	if s == nil {
		s = &tournamentSeen{first: t, from: src, id: map[source]int64{}, shards: map[record.Shard]source{},
			counts: map[int]source{}, owner: map[store.GameKey]source{}, twice: map[store.GameKey][]source{}}
		c.seen[t.Name] = s
		c.order = append(c.order, t.Name)
	} else if t.ConfigHash != s.first.ConfigHash {
		c.problems = append(c.problems, fmt.Sprintf("tournament %q has another configuration in %s than in %s:\n    %s",
			t.Name, c.name(src), c.name(s.from), strings.Join(snapshot.Diff(s.first.Config, t.Config), "\n    ")))
		return
	}
	s.id[src] = t.ID
	if t.Shard.Sharded() {
		c.addShard(s, src, t)
	}
	if src != outputSource {
		c.plan.stored[src][t.Name] = len(keys)
	}
	for _, k := range keys {
		if _, ok := s.owner[k]; ok {
			s.twice[k] = append(s.twice[k], src)
			continue
		}
		s.owner[k] = src
		if src != outputSource {
			c.plan.games[src][t.Name] = append(c.plan.games[src][t.Name], k)
		}
	}
}

// addShard records the shard t of tournament s held by src: the output
// must hold the whole tournament, and the inputs distinct shards of one
// split.
func (c *checker) addShard(s *tournamentSeen, src source, t record.Tournament) {
	sh := t.Shard
	if src == outputSource {
		c.problems = append(c.problems, fmt.Sprintf("the output holds %s of tournament %q: merge into a new database",
			sh, t.Name))
	}
	key := record.Shard{Index: sh.Index, Count: sh.Count}
	if other, ok := s.shards[key]; ok {
		c.problems = append(c.problems, fmt.Sprintf("%s and %s are both shard %d of %d of tournament %q "+
			"(overlapping shard numbers): merge one of them", c.name(other), c.name(src), sh.Index, sh.Count, t.Name))
	}
	s.shards[key] = src
	for n, other := range s.counts {
		if n != sh.Count {
			c.problems = append(c.problems, fmt.Sprintf("%s is a shard of %d and %s a shard of %d of tournament %q: "+
				"the number of shards changed between waves (every wave of a tournament must use the same N)",
				c.name(other), n, c.name(src), sh.Count, t.Name))
		}
	}
	s.counts[sh.Count] = src
}

// digests holds, per source and tournament, the digests of games read to
// compare them.
type digests map[source]map[string]map[store.GameKey]store.GameDigest

// readDigests reads the digests of every game held by more than one
// source, from each source that has it.
func (c *checker) readDigests(ctx context.Context, st *store.Store) (digests, error) {
	need := map[source]map[string][]store.GameKey{}
	for _, tn := range c.order {
		s := c.seen[tn]
		for k, srcs := range s.twice {
			for _, src := range append([]source{s.owner[k]}, srcs...) {
				if need[src] == nil {
					need[src] = map[string][]store.GameKey{}
				}
				need[src][tn] = append(need[src][tn], k)
			}
		}
	}
	out := digests{}
	read := func(src source, r *store.Reader) error {
		out[src] = map[string]map[store.GameKey]store.GameDigest{}
		for tn, keys := range need[src] {
			ds, err := r.GameDigests(ctx, c.seen[tn].id[src], keys)
			if err != nil {
				return fmt.Errorf("tournament %s: %w", tn, err)
			}
			m := make(map[store.GameKey]store.GameDigest, len(ds))
			for _, d := range ds {
				m[d.Key] = d
			}
			out[src][tn] = m
		}
		return nil
	}
	for src := range need {
		var err error
		if src == outputSource {
			err = read(src, &st.Reader)
		} else {
			err = readInput(ctx, c.inputs[src], false, func(r *store.Reader) error { return read(src, r) })
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// compareTwice adds a problem for every game held by two sources that
// differs between them, in key order per tournament.
func (c *checker) compareTwice(ds digests) error {
	for _, tn := range c.order {
		s := c.seen[tn]
		keys := make([]store.GameKey, 0, len(s.twice))
		for k := range s.twice {
			keys = append(keys, k)
		}
		sortKeys(keys)
		for _, k := range keys {
			first := s.owner[k]
			a, aok := ds[first][tn][k]
			for _, src := range s.twice[k] {
				b, bok := ds[src][tn][k]
				if !aok || !bok {
					return fmt.Errorf("tournament %s game %s: no longer in %s or %s (did an input change during the merge?)",
						tn, k, c.name(first), c.name(src))
				}
				if a.Sum != b.Sum {
					c.problems = append(c.problems, conflict(tn, k, c.name(first), a, c.name(src), b))
				}
			}
		}
	}
	return nil
}

// readInput opens an input read-only, checks that it is intact (if
// integrity) and calls
// fn with it inside one read transaction (one snapshot of it).
func readInput(ctx context.Context, in string, integrity bool, fn func(r *store.Reader) error) error {
	r, err := store.OpenReader(ctx, in)
	if err != nil {
		return &InputError{Path: in, Err: errors.Unwrap(err)}
	}
	defer r.Close()
	if integrity {
		if err := r.CheckIntegrity(ctx); err != nil {
			return &InputError{Path: in, Err: err}
		}
	}
	if err := r.ReadTx(ctx, fn); err != nil {
		return &InputError{Path: in, Err: err}
	}
	return nil
}

func sortKeys(keys []store.GameKey) {
	slices.SortFunc(keys, func(a, b store.GameKey) int {
		if a.Pair != b.Pair {
			return a.Pair - b.Pair
		}
		return a.Index - b.Index
	})
}

// conflict describes two different games with the same key.
func conflict(tournament string, k store.GameKey, fromA string, a store.GameDigest, fromB string, b store.GameDigest) string {
	// The game as its PGN's Round names it; the 0-based columns to find it by in sqlite3.
	head := fmt.Sprintf("conflicting games: tournament %q game %s (stored as pair_index %d, game_index %d)", tournament, k, k.Pair, k.Index)
	if a.Describe() == b.Describe() {
		return fmt.Sprintf("%s: %s in both %s and %s, but with other moves, players or opening", head, a.Describe(), fromA, fromB)
	}
	return fmt.Sprintf("%s: %s in %s, %s in %s", head, a.Describe(), fromA, b.Describe(), fromB)
}
