package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/players"
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
func cmdRun(ctx context.Context, e env, args []string) int {
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
	serveAddr := fs.String("serve", "", "also serve the database's web site (as selfplay serve does) on `addr` while "+
		"the run plays, e.g. 127.0.0.1:8080 or 8080 (this machine only) or :8080 (every interface)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	var share record.Shard
	if *shardSpec != "" {
		var err error
		if share, err = parseShard(*shardSpec, e.getenv); err != nil {
			fmt.Fprintf(e.stderr, "selfplay run: %s\n", errText(err))
			return exitUsage
		}
	}
	if *pairs < 0 {
		fmt.Fprintf(e.stderr, "selfplay run: -pairs %d is negative (0: all pairs)\n", *pairs)
		return exitUsage
	}
	share.Pairs = *pairs
	if *concurrency < 0 || *concurrency > config.MaxConcurrency {
		fmt.Fprintf(e.stderr, "selfplay run: -concurrency %d is out of range: want 0..%d (0: as configured)\n", *concurrency, config.MaxConcurrency)
		return exitUsage
	}
	opts := runner.Options{
		Only:        splitList(*only),
		Restart:     splitList(*restart),
		Concurrency: *concurrency,
		Shard:       share,
	}
	if !setOutput(e, "run", *logSpec, &opts) {
		return exitUsage
	}
	cfg, err := config.LoadContext(ctx, *cfgPath)
	if err != nil {
		if ctx.Err() != nil { // waiting for a FIFO or a slow file
			fmt.Fprintf(e.stderr, "selfplay run: interrupted while reading %s\n", *cfgPath)
			return exitInterrupted
		}
		fmt.Fprintf(e.stderr, "selfplay run: %s\n", errText(err))
		return exitUsage
	}
	cfgDatabase := cfg.Database
	if *dbPath != "" {
		cfg.Database = *dbPath
	} else if share.Sharded() {
		cfg.Database = shardDatabase(cfg.Database, share)
	}
	var hint string
	if *dbPath != "" && share.Sharded() {
		hint = fmt.Sprintf(" (without -db, shard %d of %d writes %s)", share.Index, share.Count, shardDatabase(cfgDatabase, share))
	}
	return play(ctx, e, "run", cfg, opts, hint, *serveAddr, "")
}

// setOutput sets where and how a run reports: progress on standard
// output, a live line fitted to the terminal when it is one, and the
// per-game lines with -log games or when standard output is not a
// terminal. It reports a bad -log value and returns false.
func setOutput(e env, cmd, logSpec string, opts *runner.Options) bool {
	opts.Progress = e.stdout
	opts.Columns = terminalColumns(e, e.stdout) // nil unless a terminal
	opts.Terminal = opts.Columns != nil
	switch logSpec {
	case "":
		opts.GameLines = !opts.Terminal
	case "games":
		opts.GameLines = true
	default:
		fmt.Fprintf(e.stderr, "selfplay %s: -log %q: want \"games\" (per-game lines, as cutechess-cli prints them)\n", cmd, logSpec)
		return false
	}
	return true
}

// play runs the config's tournaments into its database (run, match) and
// returns the exit code; shardHint is added to a shard mismatch's message.
// With serveAddr, the database's web site is served there while it plays.
func play(ctx context.Context, e env, cmd string, cfg *config.File, opts runner.Options, shardHint, serveAddr, banner string) (code int) {
	// External engines' stderr goes to engine-logs/NAME.log beside the database.
	logDir := filepath.Join(filepath.Dir(cfg.Database), "engine-logs")
	opts.NewEngine = func(ctx context.Context, e config.Engine) (engines.Engine, error) {
		return players.New(ctx, e, logDir)
	}
	if err := runner.CheckNames(cfg, opts); err != nil {
		fmt.Fprintf(e.stderr, "selfplay %s: %s\n", cmd, errText(err))
		return exitUsage
	}
	// The site's address is bound first: one that cannot be is an error
	// before anything is written.
	var ln net.Listener
	if serveAddr != "" {
		var err error
		if ln, err = listen(serveAddr); err != nil {
			fmt.Fprintf(e.stderr, "selfplay %s: -serve: %s\n", cmd, errText(err))
			return exitUsage
		}
	}
	st, code := openWriter(ctx, e.stderr, cmd, cfg.Database)
	if st == nil {
		if ln != nil {
			ln.Close()
		}
		return code
	}
	defer func() {
		if code == exitOK || code == exitInterrupted {
			st.Close()
			return
		}
		// A run that failed before it stored anything (an engine that
		// cannot be started) leaves no empty database it created.
		st.CloseRemovingIfEmpty(context.WithoutCancel(ctx))
	}()
	if ln != nil {
		stop, err := serveBeside(ctx, e, cmd, cfg.Database, ln)
		if err != nil {
			fmt.Fprintf(e.stderr, "selfplay %s: -serve: %s\n", cmd, errText(err))
			return exitFailure
		}
		defer stop()
	}
	if banner != "" {
		// Only now: a database that cannot be opened must not be announced.
		fmt.Fprintln(e.stdout, banner)
	}
	err := runner.Run(ctx, cfg, st, opts)
	var changed *runner.ConfigChangedError
	var mismatch *runner.ShardMismatchError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, runner.ErrEngineSetup):
		fmt.Fprintf(e.stderr, "selfplay %s: %s\n", cmd, errText(err))
		return exitUsage
	case errors.Is(err, runner.ErrInterrupted):
		fmt.Fprintf(e.stderr, "selfplay %s: interrupted; finished games are stored in %s\n", cmd, cfg.Database)
		return exitInterrupted
	case errors.As(err, &changed):
		fmt.Fprintf(e.stderr, "selfplay %s: %s\n", cmd, errText(err))
		return exitUsage
	case errors.As(err, &mismatch):
		fmt.Fprintf(e.stderr, "selfplay %s: database %s: %v%s\n", cmd, cfg.Database, err, shardHint)
		return exitUsage
	case errors.Is(err, store.ErrDatabaseGone):
		fmt.Fprintf(e.stderr, "selfplay %s: %s; stopped\n", cmd, errText(err))
		return exitFailure
	default:
		fmt.Fprintf(e.stderr, "selfplay %s: %s\n", cmd, errText(err))
		return exitFailure
	}
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
