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

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/search"
	"selfplay/openings"
	"selfplay/report"
	"selfplay/runner/store"
)

// Options adjust a run beyond the config file.
type Options struct {
	Only        []string  // tournament names to run; empty: all, in file order
	Restart     []string  // tournaments whose stored games are deleted first
	Concurrency int       // overrides every tournament's concurrency when > 0
	Progress    io.Writer // progress lines and result tables (nil: discarded)
	Terminal    bool      // Progress is a terminal: one live line per tournament
	// LogDir receives the stderr of external engines, one NAME.log each
	// ("" discards it).
	LogDir string
	// NewEngine creates the engine of a config entry; nil uses NewEngine
	// with LogDir.
	NewEngine func(ctx context.Context, e config.Engine) (engines.Engine, error)
	// OnGameStored, if set, is called after each game is stored.
	OnGameStored func(*store.Game)
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
		"rename the tournament to keep both, or pass -restart %s to delete its %s games and start again",
		e.Tournament, strings.Join(e.Changes, "\n  "), e.Tournament, "stored")
}

// Run plays the selected tournaments in file order.
func Run(ctx context.Context, cfg *config.File, st *store.Store, opts Options) error {
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	if opts.NewEngine == nil {
		opts.NewEngine = func(ctx context.Context, e config.Engine) (engines.Engine, error) {
			return NewEngine(ctx, e, opts.LogDir)
		}
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
	return nil
}

// Pairings lists the pairings a format plays, in schedule order, each as
// (first engine, second engine): match, the first engine against each other
// (gauntlet), or every two engines (round robin).
func Pairings(format string, engines []string) [][2]string {
	var out [][2]string
	switch {
	case format == config.FormatMatch && len(engines) == 2:
		out = append(out, [2]string{engines[0], engines[1]})
	case format == config.FormatGauntlet && len(engines) > 1:
		for _, o := range engines[1:] {
			out = append(out, [2]string{engines[0], o})
		}
	default:
		for i := range engines {
			for j := i + 1; j < len(engines); j++ {
				out = append(out, [2]string{engines[i], engines[j]})
			}
		}
	}
	return out
}

// schedule lists the tournament's games in a deterministic order: rounds,
// then openings (in the configured order; a random order is reshuffled each
// round from the seed), then pairings; each opening and pairing is a pair of
// games with colors swapped.
func schedule(t *config.Tournament, list []openings.Opening) ([]gameJob, error) {
	pairings := Pairings(t.Format, t.Engines)
	var jobs []gameJob
	pair := 0
	for r := 0; r < t.Rounds; r++ {
		ordered, err := openings.Order(list, t.Openings.Order, t.Seed+uint64(r))
		if err != nil {
			return nil, err
		}
		for _, o := range ordered {
			for _, p := range pairings {
				jobs = append(jobs,
					gameJob{pair: pair, index: 0, round: r, opening: o, white: p[0], black: p[1]},
					gameJob{pair: pair, index: 1, round: r, opening: o, white: p[1], black: p[0]})
				pair++
			}
		}
	}
	return jobs, nil
}

func runTournament(ctx context.Context, cfg *config.File, t *config.Tournament, st *store.Store, opts Options) error {
	list, err := openings.Load(t.OpeningSpec())
	if err != nil {
		return fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	jobs, err := schedule(t, list)
	if err != nil {
		return fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	snapshot, err := t.Snapshot(cfg)
	if err != nil {
		return fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	sum := sha256.Sum256([]byte(snapshot))
	hash := hex.EncodeToString(sum[:])

	row, err := st.TournamentByName(ctx, t.Name)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return err
	case slices.Contains(opts.Restart, t.Name):
		fmt.Fprintf(opts.Progress, "%s: -restart: deleting its stored games\n", t.Name)
		if err := st.DeleteTournament(ctx, row.ID); err != nil {
			return err
		}
		row = store.Tournament{}
	case row.ConfigHash != hash:
		return &ConfigChangedError{Tournament: t.Name, Changes: config.DiffSnapshots(row.Config, snapshot)}
	}
	if row.ID == 0 {
		row = store.Tournament{Name: t.Name, Config: snapshot, ConfigHash: hash, TotalGames: len(jobs)}
		for _, name := range t.Engines {
			e, _ := cfg.Engine(name)
			row.Engines = append(row.Engines, store.Engine{Name: name, Options: engineDescription(e)})
		}
		if row.ID, err = st.CreateTournament(ctx, row); err != nil {
			return err
		}
		row.Status = store.StatusRunning
	}

	stored, err := st.Games(ctx, store.GameFilter{TournamentID: row.ID})
	if err != nil {
		return err
	}
	tally := NewTally(t.Engines)
	done := map[store.GameKey]bool{}
	for i := range stored {
		if err := tally.Add(&stored[i]); err != nil {
			return err
		}
		done[store.GameKey{Pair: stored[i].Pair, Index: stored[i].Index}] = true
	}
	sprt := newSPRTState(t, tally)
	if row.Status == store.StatusComplete {
		fmt.Fprintf(opts.Progress, "%s: already complete (%d games stored); its report: selfplay report -tournament %s\n",
			t.Name, len(stored), t.Name)
		return nil
	}
	var pending []gameJob
	for _, j := range jobs {
		if !done[store.GameKey{Pair: j.pair, Index: j.index}] {
			pending = append(pending, j)
		}
	}
	concurrency := t.Concurrency
	if opts.Concurrency > 0 {
		concurrency = opts.Concurrency
	}
	fmt.Fprintf(opts.Progress, "%s: %s, %d games (%d openings x %d pairings x 2 colors x %d rounds), %s, concurrency %d\n",
		t.Name, describePlayers(t), len(jobs), len(list), len(jobs)/2/len(list)/t.Rounds, t.Rounds,
		describeLimits(t.Limits), concurrency)
	if len(stored) > 0 && len(pending) > 0 {
		fmt.Fprintf(opts.Progress, "%s: resuming, %d of %d games stored\n", t.Name, len(stored), len(jobs))
	}
	if len(pending) > 0 && !sprt.decided() {
		if err := preflight(ctx, cfg, t, opts); err != nil {
			return err
		}
	}
	prog := newProgress(opts.Progress, opts.Terminal, t.Name, len(jobs), len(stored), tally, sprt)
	if !sprt.decided() {
		if err := play(ctx, cfg, t, row.ID, st, pending, concurrency, opts, tally, sprt, prog); err != nil {
			prog.finish()
			if errors.Is(err, ErrInterrupted) {
				fmt.Fprintf(opts.Progress, "%s: interrupted with %d of %d games stored; run the same command again to resume\n",
					t.Name, tally.Games, len(jobs))
			}
			return err
		}
	}
	prog.finish()
	state, llr := "", 0.0
	if sprt.enabled() {
		state, llr = sprt.result.State.String(), sprt.result.LLR
	}
	if err := st.UpdateStatus(ctx, row.ID, store.StatusComplete, state, llr); err != nil {
		return err
	}
	return printReport(ctx, st, t.Name, opts.Progress)
}

// printReport writes a finished tournament's text report (what `selfplay
// report -tournament NAME` prints).
func printReport(ctx context.Context, st *store.Store, name string, w io.Writer) error {
	rep, err := BuildReport(ctx, st, ReportOptions{Tournament: name})
	if err != nil {
		return err
	}
	rep.SuiteRuns = nil
	fmt.Fprintln(w)
	return report.WriteText(w, rep)
}

// describePlayers says who plays whom.
func describePlayers(t *config.Tournament) string {
	switch t.Format {
	case config.FormatMatch:
		return strings.Join(t.Engines, " vs ")
	case config.FormatGauntlet:
		return fmt.Sprintf("gauntlet of %s against %s", t.Engines[0], strings.Join(t.Engines[1:], ", "))
	}
	return "round robin of " + strings.Join(t.Engines, ", ")
}

// describeLimits is the per-move limit in words.
func describeLimits(l config.Limits) string {
	switch {
	case l.Nodes > 0 && l.NodesJitter > 0:
		return fmt.Sprintf("%d nodes per move (±%.0f%%)", l.Nodes, 100*l.NodesJitter)
	case l.Nodes > 0:
		return fmt.Sprintf("%d nodes per move", l.Nodes)
	case l.Depth > 0:
		return fmt.Sprintf("depth %d per move", l.Depth)
	case l.MoveTime > 0:
		return fmt.Sprintf("%v per move", l.MoveTime)
	case l.TC != nil:
		return "time control " + l.TC.Text
	}
	return "no limit"
}

// engineDescription is the engine's resolved options as stored.
func engineDescription(e config.Engine) string {
	if e.External() {
		return fmt.Sprintf("command=%q args=%q options=%v", e.Command, e.Args, e.UCIOptions)
	}
	return fmt.Sprintf("preset=%s %s hash=%d", e.Preset, e.Options.String(), e.Hash)
}

// outcome is a finished game reported by a worker.
type outcome struct {
	game *store.Game
	err  error
}

// play runs the pending games with concurrency workers and stores each as
// it finishes. It returns when all are done, the SPRT decides, a worker
// fails, or ctx is cancelled (ErrInterrupted).
func play(ctx context.Context, cfg *config.File, t *config.Tournament, tid int64, st *store.Store, pending []gameJob,
	concurrency int, opts Options, tally *Tally, sprt *sprtState, prog *progress) error {
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	jobs := make(chan gameJob)
	results := make(chan outcome)
	var wg sync.WaitGroup
	for w := 0; w < min(concurrency, len(pending)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker(runCtx, cfg, t, jobs, results, opts)
		}()
	}
	go func() {
		defer close(jobs)
		for _, j := range pending {
			select {
			case jobs <- j:
			case <-runCtx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	var firstErr error
	for {
		select {
		case r, ok := <-results:
			if !ok {
				if ctx.Err() != nil {
					return ErrInterrupted // errors after Ctrl-C are its consequences
				}
				return firstErr
			}
			if r.err != nil {
				if !errors.Is(r.err, errAbandoned) && firstErr == nil {
					firstErr = r.err
					stop()
				}
				continue
			}
			r.game.TournamentID = tid
			r.game.PGN = writePGN(r.game, pgnHeaderFor(t, r.game))
			// The game is stored even if the run is being interrupted: it
			// is finished, and finished games are never lost.
			if err := st.SaveGame(context.WithoutCancel(ctx), r.game); err != nil {
				if firstErr == nil {
					firstErr = err
					stop()
				}
				continue
			}
			if err := tally.Add(r.game); err != nil && firstErr == nil {
				firstErr = err
				stop()
			}
			sprt.update(tally)
			prog.gameDone()
			if opts.OnGameStored != nil {
				opts.OnGameStored(r.game)
			}
			if sprt.decided() {
				stop() // games still in flight are abandoned, not stored
			}
		case <-ticker.C:
			prog.tick()
		}
	}
}

// worker plays games from jobs with its own engine instances (one per
// engine name, reused across games after NewGame) and referee.
func worker(ctx context.Context, cfg *config.File, t *config.Tournament, jobs <-chan gameJob, results chan<- outcome, opts Options) {
	players := map[string]engines.Engine{}
	defer func() {
		for _, e := range players {
			e.Close()
		}
	}()
	refOpts, err := search.ParseVariant(t.Adjudication.Referee)
	var referee *search.Searcher
	if err == nil {
		referee, err = search.New(refOpts, 16)
	}
	get := func(name string) (engines.Engine, error) {
		if e, ok := players[name]; ok {
			return e, nil
		}
		ce, ok := cfg.Engine(name)
		if !ok {
			return nil, fmt.Errorf("engine %q is not defined", name)
		}
		e, err := opts.NewEngine(ctx, ce)
		if err != nil {
			return nil, err
		}
		players[name] = e
		return e, nil
	}
	for j := range jobs {
		if err != nil {
			results <- outcome{err: fmt.Errorf("tournament %s: referee %q: %w", t.Name, t.Adjudication.Referee, err)}
			return
		}
		white, werr := get(j.white)
		black, berr := get(j.black)
		if werr != nil || berr != nil {
			if ctx.Err() != nil {
				return // interrupted while starting an engine
			}
			results <- outcome{err: fmt.Errorf("tournament %s: %w", t.Name, errors.Join(werr, berr))}
			return
		}
		// The collector reads until every worker is gone, so this never
		// blocks for long; a game finished just as the run stops is
		// delivered and stored too.
		g, gerr := playGame(ctx, t, j, white, black, referee)
		results <- outcome{game: g, err: gerr}
	}
}

func pgnHeaderFor(t *config.Tournament, g *store.Game) pgnHeader {
	h := pgnHeader{event: t.Name, timeControl: "-", standard: g.StartFEN == openings.StandardStartFEN, startMove: 1}
	if tc := t.Limits.TC; tc != nil {
		h.timeControl = pgnTimeControl(tc.Moves, tc.Base, tc.Increment)
	}
	if f := strings.Fields(g.StartFEN); len(f) >= 6 {
		fmt.Sscan(f[5], &h.startMove)
		h.blackFirst = f[1] == "b"
	}
	return h
}
