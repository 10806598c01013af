// Package runner plays the tournaments of a config: it builds the
// deterministic schedule of game pairs, plays games concurrently between
// in-process (or external) engines with notnil/chess as arbiter, adjudicates,
// stores every finished game in SQLite at once, resumes interrupted runs
// without replaying or losing finished games, and exports PGN.
package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"selfplay/config"
	"selfplay/config/snapshot"
	"selfplay/engines"
	"selfplay/engines/local"
	"selfplay/engines/uciserver"
	"selfplay/openings"
	"selfplay/report"
	"selfplay/standings"
	"selfplay/store"
	"selfplay/store/record"
)

// Options adjust a run beyond the config file.
type Options struct {
	Only        []string // tournament names to run; empty: all, in file order
	Restart     []string // tournaments whose stored games are deleted first
	Concurrency int      // overrides every tournament's concurrency when > 0
	// Shard is the share of every tournament's schedule to play (run
	// -shard I/N -pairs K); the zero value plays all of it. A sharded run
	// plays its whole share whatever its games say about an SPRT: the
	// test decides on the merged shards.
	Shard    record.Shard
	Progress io.Writer // progress lines and result tables (nil: discarded)
	Terminal bool      // Progress is a terminal: one live line per tournament
	// Columns, if set, returns the terminal's width, read at every redraw
	// of the live line (so a resized window is followed); the line is
	// kept narrower. Nil or a result <= 0: no limit.
	Columns func() int
	// GameLines prints cutechess-cli's lines per game: "Started game N of
	// M (White vs Black)", "Finished game N (White vs Black): RESULT
	// {reason}" and after each finished game "Score of A vs B: W - L - D
	// [score] N" for its pairing. N is the game's place in the schedule.
	GameLines bool
	// Output prints, besides the per-game lines, the format's result
	// block every RatingInterval games (0: only at the end) and at the
	// end of each tournament, then its last line (Finished match).
	Output         OutputFormat
	RatingInterval int
	// ScoreInterval prints the Score of line after every ScoreInterval-th
	// game (counting stored ones) and after the last; 0 or 1: every game.
	ScoreInterval int
	// NewEngine creates the engine of a config entry (players.New in the
	// selfplay command); it is required.
	NewEngine func(ctx context.Context, e config.Engine) (engines.Engine, error)
	// OnGameStored, if set, is called after each game is stored.
	OnGameStored func(*record.Game)
	// Affinity, if set, pins the external engines of game slot i (the
	// i-th of the concurrency workers) to the CPUs Affinity[i], as
	// fastchess's -use-affinity does; it needs a set per worker.
	Affinity [][]int
}

// ErrInterrupted is returned when the context is cancelled mid-run.
var ErrInterrupted = errors.New("interrupted")

// ConfigChangedError refuses to continue a tournament whose stored games
// were played under a different configuration.
type ConfigChangedError struct {
	Tournament string
	Changes    []string
}

func (e *ConfigChangedError) Error() string {
	return fmt.Sprintf("tournament %q was started with a different configuration:\n  %s\n"+
		"rename the tournament to keep both, or pass -restart %s to delete its stored games and start again",
		e.Tournament, strings.Join(e.Changes, "\n  "), e.Tournament)
}

// Run plays the selected tournaments in file order.
func Run(ctx context.Context, cfg *config.File, st *store.Store, opts Options) error {
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	if opts.NewEngine == nil {
		return errors.New("runner: Options.NewEngine is not set")
	}
	if err := CheckNames(cfg, opts); err != nil {
		return err
	}
	for i := range cfg.Tournaments {
		t := &cfg.Tournaments[i]
		if len(opts.Only) > 0 && !slices.Contains(opts.Only, t.Name) {
			continue
		}
		if err := runTournament(ctx, cfg, t, st, opts); err != nil {
			return err
		}
	}
	return nil
}

// CheckNames validates the -only and -restart names against the config, so
// a typo is reported before anything is opened or written.
func CheckNames(cfg *config.File, opts Options) error {
	for _, name := range append(slices.Clone(opts.Only), opts.Restart...) {
		if !slices.ContainsFunc(cfg.Tournaments, func(t config.Tournament) bool { return t.Name == name }) {
			var names []string
			for _, t := range cfg.Tournaments {
				names = append(names, t.Name)
			}
			return fmt.Errorf("no tournament %q in %s (tournaments: %s)", name, cfg.Path, strings.Join(names, ", "))
		}
	}
	for _, name := range opts.Restart {
		if len(opts.Only) > 0 && !slices.Contains(opts.Only, name) {
			// It would not be played, so not restarted: said, not ignored.
			return fmt.Errorf("-restart %s: not among -only's tournaments (%s)", name, strings.Join(opts.Only, ", "))
		}
	}
	return nil
}

// gameKey identifies a game of a tournament.
type gameKey struct{ pair, index int }

func runTournament(ctx context.Context, cfg *config.File, t *config.Tournament, st *store.Store, opts Options) error {
	if t.Format == config.FormatKnockout && !opts.Shard.Whole() {
		return fmt.Errorf("tournament %s: %w", t.Name, errShardedKnockout)
	}
	sched, snapText, hash, err := planTournament(cfg, t)
	if err != nil {
		return err
	}
	lv, err := openLiveOf(ctx, st, t, opts)
	if err != nil {
		return err
	}
	defer lv.close()
	row, err := storedTournament(ctx, st, t, opts, snapText, hash)
	if err != nil {
		return err
	}
	stored, err := loadStoredGames(ctx, st, row, opts.Shard, lv)
	if err != nil {
		return err
	}
	if row.Status == record.StatusComplete {
		if err := lv.drain(true); err != nil {
			return err
		}
		fmt.Fprintf(opts.Progress, "%s: already complete (%d games stored); its report: selfplay report -tournament %s\n",
			t.Name, len(stored), t.Name)
		return nil
	}
	share := opts.Shard
	rp, err := replayStored(t, stored, share)
	if err != nil {
		return err
	}
	// Stored games are games of this schedule (the config hash matched).
	shareTotal := 2 * share.PairsOf(sched.total/2)
	pending := shareTotal - (len(rp.done) - rp.outside)
	var br *bracket
	if t.Format == config.FormatKnockout {
		br = newBracket(t, stored)
		kb := br.plan()
		shareTotal = knockoutTotal(t, kb)
		if pending = shareTotal - len(rp.done); kb.Winner != "" {
			pending = 0
		}
	}
	concurrency := t.Concurrency
	if opts.Concurrency > 0 {
		concurrency = opts.Concurrency
	}
	printPlan(opts.Progress, t, sched.total, shareTotal, share, concurrency, len(stored), pending, rp.outside)
	toPlay := pending > 0 && !rp.sprt.decided()
	var spare *spares
	// The engines are tried before the tournament is written: a bad
	// command or UCI option, or tables too large for the machine, store
	// nothing, so the fixed config starts afresh instead of meeting a
	// snapshot of the broken one.
	if toPlay {
		if err := t.CheckTables(cfg, min(concurrency, pending)); err != nil {
			return fmt.Errorf("%w: tournament %s: %w", ErrEngineSetup, t.Name, err)
		}
		var ids map[string]record.EngineID
		if len(stored) > 0 {
			if ids, err = st.LastIdentities(ctx, row.ID, t.Engines); err != nil {
				return err
			}
		}
		if spare, err = preflight(ctx, cfg, t, opts, ids); err != nil {
			return err
		}
		defer spare.close()
	}
	if row, err = saveTournament(ctx, cfg, t, st, row, snapText, hash, sched.total, share, rp.outside > 0); err != nil {
		return err
	}

	last := lastGame(share, sched.total)
	if br != nil {
		last = shareTotal
	}
	r := &run{cfg: cfg, t: t, tid: row.ID, st: st, opts: opts, tally: rp.tally, sprt: rp.sprt, live: lv, bracket: br, spare: spare,
		prog: newProgress(opts.Progress, opts, t, shareTotal+rp.outside, last, len(stored), rp.tally, rp.sprt)}
	r.prog.countStored(stored)
	r.prog.sides.matchup = fastchessMatchup(cfg, t)
	if toPlay {
		if err := r.play(ctx, sched, share, rp.done, pending, concurrency); err != nil {
			r.prog.finish()
			if errors.Is(err, ErrInterrupted) {
				printBroken(opts.Progress, fmt.Sprintf("%s: interrupted with %d of %d games stored;", t.Name, rp.tally.Games, shareTotal+rp.outside),
					"run the same command again to resume")
			}
			return err
		}
	}
	r.prog.finish()
	return r.finish(ctx, share, sched.total)
}

// loadStoredGames are the tournament's stored games, without PGN and moves:
// the tally needs only results, pairs and colors (a resume at 100,000
// games would otherwise hold every PGN). The live files catch up with
// them.
func loadStoredGames(ctx context.Context, st *store.Store, row record.Tournament, shard record.Shard, lv *live) ([]record.Game, error) {
	var stored []record.Game
	if row.ID != 0 {
		var err error
		if stored, err = st.TournamentGames(ctx, row.ID); err != nil {
			return nil, err
		}
		if err := checkShard(row, len(stored), shard); err != nil {
			return nil, err
		}
	}
	return stored, lv.resume(ctx, st, stored)
}

// planTournament is the tournament's schedule and its config snapshot
// (canonical JSON) with the snapshot's hash (sha256, hex).
func planTournament(cfg *config.File, t *config.Tournament) (sched *schedule, snapText, hash string, err error) {
	if len(t.Openings.List) == 0 {
		return nil, "", "", fmt.Errorf("tournament %s: no openings loaded (the config must come from config.Load or config.Parse)", t.Name)
	}
	sched, err = newSchedule(t)
	if err != nil {
		return nil, "", "", fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	snap, err := t.Snapshot(cfg)
	if err != nil {
		return nil, "", "", fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	snapText, err = snap.Encode()
	if err != nil {
		return nil, "", "", err
	}
	sum := sha256.Sum256([]byte(snapText))
	return sched, snapText, hex.EncodeToString(sum[:]), nil
}

// openLiveOf opens the tournament's live files (openLive), fresh when the
// run starts the tournament with no game stored: none is, or -restart
// deletes them.
func openLiveOf(ctx context.Context, st *store.Store, t *config.Tournament, opts Options) (*live, error) {
	fresh := slices.Contains(opts.Restart, t.Name)
	if !fresh {
		row, err := st.TournamentByName(ctx, t.Name)
		switch {
		case errors.Is(err, store.ErrNotFound):
			fresh = true
		case err != nil:
			return nil, err
		default:
			n, err := st.CountGames(ctx, row.ID)
			if err != nil {
				return nil, err
			}
			fresh = n == 0
		}
	}
	return openLive(t, opts.Shard, opts, fresh)
}

// storedTournament is the tournament's stored row, or the zero row when it
// has none or -restart deleted it; a row stored under another config
// snapshot is a *ConfigChangedError.
func storedTournament(ctx context.Context, st *store.Store, t *config.Tournament, opts Options, snapText, hash string) (record.Tournament, error) {
	row, err := st.TournamentByName(ctx, t.Name)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return record.Tournament{}, err
	case slices.Contains(opts.Restart, t.Name):
		fmt.Fprintf(opts.Progress, "%s: -restart: deleting its stored games\n", t.Name)
		if err := st.DeleteTournament(ctx, row.ID); err != nil {
			return record.Tournament{}, err
		}
		row = record.Tournament{}
	case row.ConfigHash != hash:
		return record.Tournament{}, &ConfigChangedError{Tournament: t.Name, Changes: snapshot.Diff(row.Config, snapText)}
	}
	return row, nil
}

// replayed is what a tournament's stored games add up to.
type replayed struct {
	tally   *standings.Tally
	sprt    *sprtState
	done    map[gameKey]bool
	outside int // stored games outside the share (of a larger -pairs before)
}

// replayStored counts the stored games, game by game, so the SPRT decides
// where it decided in the interrupted run and later stored games cannot
// undo that.
func replayStored(t *config.Tournament, stored []record.Game, share record.Shard) (replayed, error) {
	rp := replayed{tally: standings.NewTally(), done: map[gameKey]bool{}}
	if share.Sharded() {
		rp.sprt = &sprtState{} // no test: a shard's games alone do not decide it
	} else {
		rp.sprt = newSPRTState(t, rp.tally)
	}
	for i := range stored {
		if err := rp.tally.Add(&stored[i]); err != nil {
			return replayed{}, err
		}
		rp.sprt.update(rp.tally)
		rp.done[gameKey{stored[i].Pair, stored[i].Index}] = true
		if !share.Contains(stored[i].Pair) {
			rp.outside++
		}
	}
	return rp, nil
}

// printPlan prints what the run will play: the players, limits and games,
// the share of them (shareTotal games: a knockout's with the tie-breaks
// planned so far), and how many are stored already (outside of them
// outside the share).
func printPlan(w io.Writer, t *config.Tournament, total, shareTotal int, share record.Shard, concurrency, stored, pending, outside int) {
	games := fmt.Sprintf("%d games (%d openings x %d pairings x 2 colors x %d rounds)", total, len(t.Openings.List), len(t.Pairings()), t.Rounds)
	if t.Schedule == config.ScheduleFastchess {
		games = fmt.Sprintf("%d games (%d pairings x 2 colors x %d rounds, an opening per pair from the first %d of %d, as fastchess)",
			total, len(t.Pairings()), t.Rounds, min(len(t.Openings.List), t.Rounds), len(t.Openings.List))
	}
	if t.Format == config.FormatKnockout {
		games = fmt.Sprintf("%d games and any tie-breaks (%d encounters x %d games)", total, len(t.Engines)-1, t.Knockout.Games)
	}
	printBroken(w, fmt.Sprintf("%s: %s, %s, concurrency %d,", t.Name, describePlayers(t), describeTournamentLimits(t), concurrency), games)
	if o := t.Openings; o.Choice == openings.ChoiceWeighted && o.Count > len(o.List) {
		fmt.Fprintf(w, "%s: the book %s yields %d distinct openings of at most %d plies, fewer than the %d that count asks for\n",
			t.Name, o.File, len(o.List), o.Plies, o.Count)
	}
	if replaysGames(t) {
		printBroken(w, fmt.Sprintf("%s: every pass over the openings after the first replays the first pass's games move for move", t.Name),
			"(a node or depth limit without nodes_jitter: the in-process engines, and most UCI engines at fixed nodes, play the same game again from the same opening);",
			"an SPRT would count them again: set nodes_jitter (-nodes-jitter) or use more openings")
	}
	if !share.Covers(total / 2) {
		fmt.Fprintf(w, "%s: %s: %d of the %d games\n", t.Name, share, shareTotal, total)
	}
	if stored > 0 && pending > 0 {
		fmt.Fprintf(w, "%s: resuming, %d of %d games stored\n", t.Name, stored, shareTotal+outside)
	}
}

// replaysGames says whether the schedule plays an opening with the same
// colours more than once (selfplay's rounds are passes over the openings;
// fastchess's rounds take one opening each, starting over past the last)
// under limits that make such a game the same game: nodes or depth without
// jitter, no clock.
func replaysGames(t *config.Tournament) bool {
	repeats := t.Rounds > 1
	if t.Schedule == config.ScheduleFastchess {
		repeats = t.Rounds > len(t.Openings.List)
	}
	if !repeats || t.Format == config.FormatKnockout {
		return false
	}
	for _, name := range t.Engines {
		l := t.LimitsOf(name)
		if l.MoveTime > 0 || l.TC != nil || l.NodesJitter > 0 && l.Nodes > 0 {
			return false
		}
	}
	return true
}

// saveTournament creates the tournament's row with its engines when it has
// none, or records a new share of it; not one that its stored games
// overflow (storedOutside: a smaller -pairs than they cover).
func saveTournament(ctx context.Context, cfg *config.File, t *config.Tournament, st *store.Store, row record.Tournament,
	snapText, hash string, total int, share record.Shard, storedOutside bool) (record.Tournament, error) {
	if row.ID == 0 {
		row = record.Tournament{Name: t.Name, Config: snapText, ConfigHash: hash, TotalGames: total, Shard: share}
		for _, name := range t.Engines {
			e, _ := cfg.Engine(name)
			row.Engines = append(row.Engines, record.Engine{Name: name, Options: engineDescription(e)})
		}
		var err error
		if row.ID, err = st.CreateTournament(ctx, row); err != nil {
			return record.Tournament{}, err
		}
	} else if !row.Shard.Equal(share) && !storedOutside {
		// The same shard with another -pairs (the next wave), or a new
		// share for a tournament without games (checkShard). A smaller
		// -pairs than the games stored leaves the share they cover: the
		// database holds them (its report would count 8 of 4 games).
		if err := st.SetShard(ctx, row.ID, share); err != nil {
			return record.Tournament{}, err
		}
	}
	return row, nil
}

// finish stores the tournament's status and SPRT state after the run and
// prints its report.
func (r *run) finish(ctx context.Context, share record.Shard, total int) error {
	// The run is over: games after one that an SPRT decision left
	// unplayed go out now, in schedule order.
	if err := r.live.drain(true); err != nil {
		return err
	}
	state, llr := r.sprt.stored()
	// A share is not the tournament: only the whole schedule, or a
	// decided SPRT, completes it.
	status := record.StatusComplete
	if !share.Covers(total/2) && !r.sprt.decided() {
		status = record.StatusShareComplete
	}
	if err := r.st.UpdateStatus(ctx, r.tid, status, state, llr); err != nil {
		return err
	}
	return printReport(ctx, r.st, r.t.Name, r.opts.Progress)
}

// printReport writes a finished tournament's text report (what `selfplay
// report -tournament NAME` prints).
func printReport(ctx context.Context, st *store.Store, name string, w io.Writer) error {
	rep, err := standings.Load(ctx, st, standings.Options{Tournament: name, SkipSuiteRuns: true})
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	return report.WriteText(w, rep)
}

// lineWidth is the width of the plan and interruption lines: the
// narrowest terminal they meet, so that none wraps there. (The live line
// follows the terminal's real width.)
const lineWidth = 80

// printBroken prints a message of several parts, each on a line of its own
// and, where longer than lineWidth columns, broken at spaces; every line
// but the first is indented by two spaces, as the continuation it is. A
// word longer than a line stays whole.
func printBroken(w io.Writer, parts ...string) {
	var b strings.Builder
	for i, part := range parts {
		indent := ""
		if i > 0 {
			indent = "  "
		}
		col := 0
		for _, word := range strings.Fields(part) {
			n := utf8.RuneCountInString(word)
			switch {
			case col == 0:
				b.WriteString(indent)
				col = len(indent)
			case col+1+n > lineWidth:
				b.WriteString("\n  ")
				col = 2
			default:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(word)
			col += n
		}
		b.WriteByte('\n')
	}
	io.WriteString(w, b.String())
}

// describePlayers says who plays whom.
func describePlayers(t *config.Tournament) string {
	switch t.Format {
	case config.FormatMatch:
		return strings.Join(t.Engines, " vs ")
	case config.FormatGauntlet:
		if n := gauntletSeeds(t); n > 1 {
			return fmt.Sprintf("gauntlet of %s, each against every engine after it", strings.Join(t.Engines[:n], ", "))
		}
		return fmt.Sprintf("gauntlet of %s against %s", t.Engines[0], strings.Join(t.Engines[1:], ", "))
	case config.FormatKnockout:
		return "knockout of " + strings.Join(t.Engines, ", ")
	}
	return "round robin of " + strings.Join(t.Engines, ", ")
}

// describeTournamentLimits is the tournament's limits in words, with those
// of the engines that have their own: "5000 nodes per move (a: 10000 nodes
// per move)", or "a: ..., b: ..." when every engine has its own.
func describeTournamentLimits(t *config.Tournament) string {
	var own []string
	for _, name := range t.Engines {
		if l := t.LimitsOf(name); !l.SameAs(t.Limits) {
			own = append(own, name+": "+l.String())
		}
	}
	switch {
	case len(own) == 0:
		return t.Limits.String()
	case len(own) == len(t.Engines):
		return strings.Join(own, ", ")
	}
	return t.Limits.String() + " (" + strings.Join(own, ", ") + ")"
}

// engineDescription is the engine's resolved options as stored.
func engineDescription(e config.Engine) string {
	if e.External() {
		return fmt.Sprintf("command=%q args=%q options=%v", e.Command, e.Args, e.UCIOptions)
	}
	return fmt.Sprintf("preset=%s %s hash=%d", e.Preset, e.Options.String(), e.Hash)
}

// workerEvent is a finished game reported by a worker, or with
// Options.GameLines the start of one (start set, game and err nil): sent
// on the same channel, so that with one worker "Started game 2" always
// follows "Finished game 1".
type workerEvent struct {
	game  *record.Game
	err   error
	start *gameJob
}

// run is a tournament being played: its config, its stored row and what
// the games stored so far add up to.
type run struct {
	cfg   *config.File
	t     *config.Tournament
	tid   int64 // the tournament's row
	st    *store.Store
	opts  Options
	tally *standings.Tally
	sprt  *sprtState
	prog  *progress
	live  *live   // the live files; nil: none
	spare *spares // the preflight's engines, for the workers; nil: none
	// bracket is a knockout's results, which decide its next games; nil
	// for other formats.
	bracket *bracket
}

// play runs the schedule's games that are not done (pending of them) with
// concurrency workers, in schedule order, and stores each as it finishes.
// It returns when all are done, the SPRT decides, a worker fails, or ctx is
// cancelled (ErrInterrupted).
//
// When the run stops early (SPRT decision, error, Ctrl-C), the games still
// being played are abandoned and not stored; a game that had already
// finished is stored all the same, since finished games are never lost.
// After an SPRT decision such games count in the tally but leave the
// decision as it is (sprtState).
func (r *run) play(ctx context.Context, sched *schedule, share record.Shard, done map[gameKey]bool, pending, concurrency int) error {
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	jobs := make(chan gameJob)
	finished := make(chan workerEvent)
	// With an SPRT, a game is handed out only while fewer than
	// concurrency games are neither stored nor abandoned: a slot is freed
	// when the collector has counted a game, not when a worker has played
	// it. So no game starts that the decision on the games before it would
	// have made unnecessary, and with concurrency 1 where the test stops
	// (and so the games stored) is a function of the config, also across
	// kills and resumes.
	var slots chan struct{}
	if r.sprt.enabled() {
		slots = make(chan struct{}, concurrency)
	}
	release := func() {
		select {
		case <-slots:
		default:
		}
	}
	var wg sync.WaitGroup
	if n := len(r.opts.Affinity); n > 0 && n < min(concurrency, pending) {
		return fmt.Errorf("%w: tournament %s: %d CPU sets for %d games at once (-use-affinity: one per game slot)",
			ErrEngineSetup, r.t.Name, n, min(concurrency, pending))
	}
	for w := 0; w < min(concurrency, pending); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wctx := runCtx
			if len(r.opts.Affinity) > 0 {
				wctx = engines.WithCPUs(runCtx, r.opts.Affinity[w])
			}
			r.worker(wctx, jobs, finished)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		if r.bracket != nil {
			r.dealKnockout(runCtx, done, jobs, finished)
			return
		}
		r.deal(runCtx, sched, share, done, slots, jobs, finished)
	}()
	go func() {
		wg.Wait()
		close(finished)
	}()
	return r.collect(ctx, runCtx, stop, finished, release)
}

// deal hands the share's games that are not done to the workers in
// schedule order, each once a slot is free (slots nil: no limit), until
// all are handed out or runCtx ends.
func (r *run) deal(runCtx context.Context, sched *schedule, share record.Shard, done map[gameKey]bool,
	slots chan struct{}, jobs chan<- gameJob, finished chan<- workerEvent) {
	shareGames(share, sched.total, func(i int) bool {
		j, err := sched.job(i)
		if err != nil {
			finished <- workerEvent{err: fmt.Errorf("tournament %s: %w", r.t.Name, err)}
			return false
		}
		if done[gameKey{j.pair, j.index}] {
			return true
		}
		if slots != nil {
			select {
			case slots <- struct{}{}:
			case <-runCtx.Done():
				return false
			}
		}
		select {
		case jobs <- j:
			return true
		case <-runCtx.Done():
			return false
		}
	})
}

// collect stores and counts the games the workers finish until they have
// all stopped; the first error stops the run (stop cancels runCtx), and
// release frees a game's slot once it is counted or abandoned.
func (r *run) collect(ctx, runCtx context.Context, stop func(), finished <-chan workerEvent, release func()) error {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	var firstErr error
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
			stop()
		}
	}
	for {
		select {
		case res, ok := <-finished:
			if !ok {
				if ctx.Err() != nil {
					return ErrInterrupted // errors after Ctrl-C are its consequences
				}
				return firstErr
			}
			if res.start != nil {
				if runCtx.Err() == nil {
					r.prog.gameStarted(*res.start)
				}
				continue
			}
			if res.err != nil {
				if !errors.Is(res.err, errAbandoned) {
					fail(res.err)
				}
				release()
				continue
			}
			if err := r.store(ctx, res.game); err != nil {
				fail(err)
				release()
				continue
			}
			if r.sprt.decided() {
				stop() // abandon the games being played
			}
			release()
		case <-ticker.C:
			r.prog.tick()
		}
	}
}

// store saves a finished game and counts it. The game is stored even if the
// run is being interrupted: it is finished, and finished games are never
// lost.
func (r *run) store(ctx context.Context, g *record.Game) error {
	g.TournamentID = r.tid
	if err := r.st.SaveGame(context.WithoutCancel(ctx), g); err != nil {
		return err
	}
	if err := r.tally.Add(g); err != nil {
		return err
	}
	if err := r.live.add(g); err != nil {
		return err
	}
	if r.bracket != nil {
		r.bracket.add(g)
	}
	r.sprt.update(r.tally)
	r.prog.gameDone(g)
	if r.opts.OnGameStored != nil {
		r.opts.OnGameStored(g)
	}
	return nil
}

// worker plays games from jobs with its own engine instances (one per
// engine name, reused across games after NewGame) and, for the referee
// policy, its own referee.
func (r *run) worker(ctx context.Context, jobs <-chan gameJob, finished chan<- workerEvent) {
	// Not locked to its OS thread: its engines' lines are read here (uci's
	// direct reads, in poll(2)), which keeps the goroutine on its thread
	// while it waits, and a locked goroutine's periodic yield to the
	// scheduler would hand its P to another thread and back.
	t := r.t
	players := map[string]engines.Engine{}
	defer func() {
		for _, e := range players {
			e.Close()
		}
	}()
	var referee engines.Engine
	var err error
	if a := t.Adjudication; a.UsesReferee() {
		if referee, err = local.New(a.Referee, a.RefereeOptions, config.RefereeHashMiB); err != nil {
			err = fmt.Errorf("tournament %s: referee %q: %w", t.Name, a.Referee, err)
		}
	}
	get := func(name string) (engines.Engine, error) {
		if e, ok := players[name]; ok {
			return e, nil
		}
		if e, ok := r.spare.take(name); ok {
			players[name] = e
			return e, nil
		}
		ce, ok := r.cfg.Engine(name)
		if !ok {
			return nil, fmt.Errorf("engine %q is not defined", name)
		}
		e, err := r.opts.NewEngine(engines.WithGame(ctx, engines.Game{Tournament: t.Name}), ce)
		if err != nil {
			return nil, err
		}
		players[name] = e
		return e, nil
	}
	for j := range jobs {
		if err != nil {
			finished <- workerEvent{err: err}
			return
		}
		white, werr := get(j.white)
		black, berr := get(j.black)
		if werr != nil || berr != nil {
			if ctx.Err() != nil {
				return // interrupted while starting an engine
			}
			// An engine that passed the preflight but fails to start
			// now loses this game; it is not kept, so the next game
			// starts it again (as the adapter restarts a crashed one).
			if werr != nil {
				white = unstarted{werr}
			}
			if berr != nil {
				black = unstarted{berr}
			}
		}
		j.external = [2]bool{r.external(j.white), r.external(j.black)}
		if r.opts.GameLines {
			started := j
			finished <- workerEvent{start: &started}
		}
		gctx := engines.WithGame(ctx, engines.Game{Tournament: t.Name, Number: gameNumber(j.pair, j.index)})
		g, gerr := playGame(gctx, t, j, white, black, referee)
		if gerr == nil {
			g.Identity = [2]record.EngineID{r.identity(j.white, white), r.identity(j.black, black)}
			var h pgnHeader
			if h, gerr = pgnHeaderFor(t, j.white, j.black, j.opening); gerr == nil {
				g.PGN = writePGN(g, h)
			}
		}
		// The collector reads until every worker is gone, so this never
		// blocks for long; a game that finished just as the run stops is
		// delivered and stored too.
		finished <- workerEvent{game: g, err: gerr}
		for _, name := range []string{j.white, j.black} {
			if ce, ok := r.cfg.Engine(name); ok && ce.Restart && players[name] != nil {
				players[name].Close() // restart: the next game starts a new process
				delete(players, name)
			}
		}
		if !pause(ctx, t.Wait) {
			return
		}
	}
}

// identity is what the engine of config entry name that played a game
// says of itself: an external engine's process, what it said at its
// handshake (fastchess records the process that played the game); an
// in-process variant, what `selfplay uci -variant` would say, the engine
// that fastchess would run in its place; nothing for an engine that did
// not start.
func (r *run) identity(name string, e engines.Engine) record.EngineID {
	ce, ok := r.cfg.Engine(name)
	if !ok {
		return record.EngineID{}
	}
	if !ce.External() {
		n, a := uciserver.Identity(ce.VariantSpec())
		return record.EngineID{Name: n, Author: a}
	}
	return reportedIdentity(e)
}

// reportedIdentity is what an external engine said at its handshake;
// nothing for an engine that says nothing (one that did not start).
func reportedIdentity(e engines.Engine) record.EngineID {
	if id, ok := e.(interface{ Identity() (name, author string) }); ok {
		n, a := id.Identity()
		return record.EngineID{Name: n, Author: a}
	}
	return record.EngineID{}
}

// pause waits d after a game, as fastchess's -wait does after each game
// (matchmaking/tournament/roundrobin/roundrobin.cpp:139-140); false when
// ctx ended first.
func pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// external reports whether the engine of that name is an external one.
func (r *run) external(name string) bool {
	e, ok := r.cfg.Engine(name)
	return ok && e.External()
}

// unstarted stands in for an engine whose start failed in a worker: its
// NewGame returns the start's error, so playGame charges the game to it
// before any move, as it charges a failed restart at the new game.
type unstarted struct{ err error }

// startError marks a fault at an engine's start (not at its new game).
type startError struct{ err error }

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

func (u unstarted) Name() string                  { return "" }
func (u unstarted) NewGame(context.Context) error { return &startError{u.err} }
func (u unstarted) Search(context.Context, string, []string, engines.Limits) (engines.Result, error) {
	return engines.Result{}, &startError{u.err}
}
func (u unstarted) Close() error { return nil }
