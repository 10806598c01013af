package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"selfplay/config"
	"selfplay/internal/fileid"
	"selfplay/pgnout"
	"selfplay/runner"
	"selfplay/stats"
	"selfplay/store"
	"selfplay/store/record"
)

// cmdRun plays the tournaments of a config file. Exit codes: 0 when every
// requested tournament is complete, 130 when interrupted, 2 on bad input
// (config, openings, a database that cannot be written or is in use by
// another selfplay process, a changed config), 1 otherwise (also when the
// database is deleted during the run).
func cmdRun(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "run", "[-config tournaments.toml] [-only A,B] [-db FILE] [-concurrency N] [-restart A,B] [flags]")
	cfgPath := fs.String("config", "tournaments.toml", "config file")
	only := fs.String("only", "", "comma-separated tournament names to run (default: all)")
	dbPath := fs.String("db", "", "database file (default: the config's database)")
	concurrency := fs.Int("concurrency", 0, "parallel games, overriding the config (0: as configured)")
	restart := fs.String("restart", "", "comma-separated tournaments whose stored games are deleted before running")
	shardSpec := fs.String("shard", "", "play only shard I of N: the game pairs whose index is I modulo N, into a database "+
		"of its own; I/N, slurm (from the Slurm array task) or k8s/N (from a Kubernetes Indexed Job)")
	pairs := fs.Int("pairs", 0, "play at most the first K game pairs (of the shard's share with -shard); 0: all")
	logSpec := fs.String("log", "", `"games": print cutechess-cli's per-game lines (Started game, Finished game, Score of); always on when standard output is not a terminal`)
	block := resultBlockFlags(fs)
	serveAddr := fs.String("serve", "", "also serve the database's web site (as selfplay serve does) on `addr` while "+
		"the run plays, e.g. 127.0.0.1:8080 or 8080 (this machine only) or :8080 (every interface)")
	checkMatePVs := fs.Bool("check-mate-pvs", false, checkMatePVsUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var share record.Shard
	if *shardSpec != "" {
		var err error
		if share, err = parseShard(*shardSpec, e.getenv); err != nil {
			return usageError(err)
		}
	}
	if *pairs < 0 {
		return usageErrorf("-pairs %d is negative (0: all pairs)", *pairs)
	}
	share.Pairs = *pairs
	if *concurrency < 0 || *concurrency > config.MaxConcurrency {
		return usageErrorf("-concurrency %d is out of range: want 0..%d (0: as configured)", *concurrency, config.MaxConcurrency)
	}
	opts := runner.Options{
		Only:        splitList(*only),
		Restart:     splitList(*restart),
		Concurrency: *concurrency,
		Shard:       share,
	}
	if err := setOutput(e, *logSpec, &opts); err != nil {
		return err
	}
	if err := block.set(&opts); err != nil {
		return err
	}
	cfg, err := config.LoadContext(ctx, *cfgPath)
	if err != nil {
		if ctx.Err() != nil { // waiting for a FIFO or a slow file
			return interruptedErrorf("interrupted while reading %s", *cfgPath)
		}
		return inputError(err)
	}
	cfgDatabase := cfg.Database
	if *dbPath != "" {
		cfg.Database = *dbPath
	} else if share.Sharded() {
		cfg.Database = shardFile(cfg.Database, share)
	}
	if share.Sharded() {
		shardOutputs(cfg, share)
	}
	var hint string
	if *dbPath != "" && share.Sharded() {
		hint = fmt.Sprintf(" (without -db, shard %d of %d writes %s)", share.Index, share.Count, shardFile(cfgDatabase, share))
	}
	return play(ctx, e, "run", cfg, opts, hint, *serveAddr, "", debugFlags{checkMatePVs: *checkMatePVs})
}

// setOutput sets where and how a run reports: progress on standard
// output, a live line fitted to the terminal when it is one, and the
// per-game lines with -log games or when standard output is not a
// terminal. A bad -log value is a usage error.
func setOutput(e env, logSpec string, opts *runner.Options) error {
	p := progressTo(e, e.stdout)
	opts.Progress, opts.Columns, opts.Terminal = p.w, p.columns, p.live()
	switch logSpec {
	case "":
		opts.GameLines = !opts.Terminal
	case "games":
		opts.GameLines = true
	default:
		return usageErrorf("-log %q: want \"games\" (per-game lines, as cutechess-cli prints them)", logSpec)
	}
	return nil
}

// blockFlags are -output and -ratinginterval: the result block of
// cutechess-cli or fastchess every N games and at the end.
type blockFlags struct {
	format        *string
	interval      *int
	scoreInterval *int
}

func resultBlockFlags(fs *flag.FlagSet) blockFlags {
	return blockFlags{
		format: fs.String("output", "", "cutechess or fastchess (also format=cutechess): print that tool's result block "+
			"every -ratinginterval games and at the end, then its last line (cutechess: Finished match), beside the per-game lines"),
		interval:      fs.Int("ratinginterval", 0, "with -output: print the result block every N games (0: only at the end)"),
		scoreInterval: fs.Int("scoreinterval", 1, "print the per-game lines' Score of line every N games (and after the last), as fastchess does"),
	}
}

// set decodes the flags into opts; -ratinginterval needs -output.
func (b blockFlags) set(opts *runner.Options) error {
	if *b.interval < 0 {
		return usageErrorf("-ratinginterval %d is negative (0: only at the end)", *b.interval)
	}
	if *b.scoreInterval < 1 {
		return usageErrorf("-scoreinterval %d: want 1 or more", *b.scoreInterval)
	}
	opts.ScoreInterval = *b.scoreInterval
	if *b.format == "" {
		if *b.interval > 0 {
			return usageErrorf("-ratinginterval applies only with -output cutechess or -output fastchess")
		}
		return nil
	}
	f, err := runner.ParseOutputFormat(strings.TrimPrefix(*b.format, "format="))
	if err != nil {
		return usageErrorf("-output: %v", err)
	}
	opts.Output, opts.RatingInterval = f, *b.interval
	return nil
}

// debugFlags are the engine debugging flags of run and match.
type debugFlags struct {
	checkMatePVs bool // -check-mate-pvs
	// emptyLog is match's -log file= append=false: the traffic log
	// emptied only as the run starts, once everything before it has
	// succeeded, so that a bad command leaves the old log as it was.
	emptyLog string
}

// play runs the config's tournaments into its database (run, match);
// shardHint is added to a shard mismatch's message. With serveAddr, the
// database's web site is served there while it plays.
func play(ctx context.Context, e env, cmd string, cfg *config.File, opts runner.Options, shardHint, serveAddr, banner string, debug debugFlags) (err error) {
	// External engines' stderr goes to engine-logs/NAME.log beside the database.
	logDir := filepath.Join(filepath.Dir(cfg.Database), "engine-logs")
	if err := runner.CheckNames(cfg, opts); err != nil {
		return inputError(err)
	}
	if err := checkOutputsNotDatabase(cfg, opts.Only); err != nil {
		return err
	}
	fresh := absentOutputs(cfg, opts.Only)
	defer func() {
		// After the traffic logs are closed (deferred next), their last
		// lines written.
		if failedBeforeStoring(err) {
			removeEmpty(fresh)
		}
	}()
	traffic, err := openTrafficLogs(cfg, opts.Only)
	if err != nil {
		return inputError(err)
	}
	defer traffic.close(e.stderr)
	var pvWarnings io.Writer
	if debug.checkMatePVs {
		pvWarnings = e.stderr
	}
	opts.NewEngine = traffic.newEngine(logDir, pvWarnings)
	// The site's address is bound first: one that cannot be is an error
	// before anything is written.
	var ln net.Listener
	if serveAddr != "" {
		if ln, err = listen(serveAddr); err != nil {
			return inputErrorf("-serve: %w", err)
		}
	}
	st, err := openWriter(ctx, cmd, cfg.Database)
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return err
	}
	defer func() {
		if !failedBeforeStoring(err) {
			st.Close()
			return
		}
		// A run that failed before it stored anything (an engine that
		// cannot be started) leaves no empty database it created.
		st.CloseRemovingIfEmpty(context.WithoutCancel(ctx))
	}()
	// The live files have one writer, as the database has: another run
	// appending to one would mix its games with this run's.
	releaseLive, err := lockLiveOutputs(cfg, opts.Only, cmd)
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return err
	}
	defer releaseLive()
	if ln != nil {
		stop, err := serveBeside(ctx, e, cmd, cfg.Database, ln)
		if err != nil {
			return fmt.Errorf("-serve: %w", err)
		}
		defer stop()
	}
	if debug.emptyLog != "" {
		// Nothing is in the log yet: its engines start in runner.Run.
		if err := os.Truncate(debug.emptyLog, 0); err != nil {
			return inputErrorf("-log append=false: %w", err)
		}
	}
	if banner != "" {
		// Only now: a database that cannot be opened must not be announced.
		fmt.Fprintln(e.stdout, banner)
	}
	yieldToEngines(e, cfg, opts.Only)
	return runError(runner.Run(ctx, cfg, st, opts), cfg.Database, shardHint)
}

// runError is runner.Run's error with its kind: an engine that cannot be
// set up, a changed config and a shard's mismatched database are bad
// input; a deleted database stops the run.
func runError(err error, database, shardHint string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, runner.ErrEngineSetup), errors.As(err, new(*runner.ConfigChangedError)),
		errors.Is(err, pgnout.ErrNotLiveFile), errors.Is(err, pgnout.ErrForeign):
		return inputError(err)
	case errors.Is(err, runner.ErrInterrupted):
		return interruptedErrorf("interrupted; finished games are stored in %s", database)
	case errors.As(err, new(*runner.ShardMismatchError)):
		return inputErrorf("database %s: %w%s", database, err, shardHint)
	case errors.Is(err, store.ErrDatabaseGone):
		return fmt.Errorf("%w; stopped", err)
	}
	return err
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// serveBeside starts the web site of the database that the run writes, over
// a read-only connection of its own, and returns the function that stops it
// (called when the run ends, before the database is closed). A site that
// fails while the run plays is reported and the run plays on.
func serveBeside(ctx context.Context, e env, cmd, dbPath string, ln net.Listener) (stop func(), err error) {
	h, logger, err := openSite(ctx, e.stderr, dbPath, stats.DefaultLevel)
	if err != nil {
		ln.Close()
		return nil, err
	}
	site := startSite(logger, h, ln)
	fmt.Fprintf(e.stdout, "selfplay %s: serving %s on http://%s/ (read-only) while the run plays\n", cmd, dbPath, site.addr)
	watched := make(chan struct{})
	go func() {
		select {
		case err := <-site.failed:
			fmt.Fprintf(e.stderr, "selfplay %s: the web site stopped: %s; the run goes on\n", cmd, errText(err))
		case <-watched:
		}
	}()
	return func() {
		close(watched)
		if err := site.stop(); err != nil {
			fmt.Fprintf(e.stderr, "selfplay %s: stopping the web site: %s\n", cmd, errText(err))
		}
		h.Close()
	}, nil
}

// failedBeforeStoring reports whether a run's error may be a failure
// before anything was stored: not an interruption, whose files a resume
// goes on with. (What it stored, the callers check: an empty database, an
// empty file.)
func failedBeforeStoring(err error) bool {
	return err != nil && kindOf(err) != kindInterrupted
}

// runOutput is a file that a tournament of the run writes besides the
// database: a live game file or a traffic log, named by its config key.
type runOutput struct{ tournament, key, path string }

// runOutputs are the files that the run's tournaments (only: their names;
// empty: all) write besides the database.
func runOutputs(cfg *config.File, only []string) []runOutput {
	var out []runOutput
	for _, t := range cfg.Tournaments {
		if len(only) > 0 && !slices.Contains(only, t.Name) {
			continue
		}
		for _, o := range []runOutput{{t.Name, "pgn_out", t.Live.PGN}, {t.Name, "epd_out", t.Live.EPD}, {t.Name, "log", t.Log}} {
			if o.path != "" {
				out = append(out, o)
			}
		}
	}
	return out
}

// checkOutputsNotDatabase refuses an output of the run that is the
// database: text appended to it would destroy it.
func checkOutputsNotDatabase(cfg *config.File, only []string) error {
	for _, o := range runOutputs(cfg, only) {
		if fileid.Same(o.path, cfg.Database) {
			return inputErrorf("tournament %s: %s %s is the database", o.tournament, o.key, o.path)
		}
	}
	return nil
}

// absentOutputs are the outputs of the run that do not exist yet.
func absentOutputs(cfg *config.File, only []string) []string {
	var paths []string
	for _, o := range runOutputs(cfg, only) {
		if _, err := os.Lstat(o.path); errors.Is(err, fs.ErrNotExist) && !slices.Contains(paths, o.path) {
			paths = append(paths, o.path)
		}
	}
	return paths
}

// removeEmpty removes the files of paths that are empty regular files: a
// run that failed before its first game leaves none it created (a log
// that holds the failing engine's lines stays).
func removeEmpty(paths []string) {
	for _, p := range paths {
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() && st.Size() == 0 {
			os.Remove(p)
		}
	}
}
