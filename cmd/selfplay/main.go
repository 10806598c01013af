// Command selfplay runs self-play tournaments between in-process chess engine
// variants from three selective-search papers (Fail-High Reductions, Extended
// Null-Move Reductions, Forward Pruning with Limited Extensions) and reports,
// with statistics, which variant is stronger.
//
// Usage:
//
//	selfplay <command> [flags]
//
// Run `selfplay help` for the list of commands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"selfplay/internal/termtext"
)

// Exit codes shared by every command.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2 // bad flags, config, input files
	exitInterrupted = 130
)

// env is what a command may touch of the outside world; tests pass buffers.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// lookupEnv reads an environment variable (run -shard slurm, k8s/N);
	// nil: os.LookupEnv.
	lookupEnv func(string) (string, bool)
	// searchDone, if set, is called after each finished search of suite
	// (a test interrupts a run at a known point with it).
	searchDone func(done, total int)
	// now is the clock that names fastchess's default output files; nil:
	// time.Now.
	now func() time.Time
}

// clock is e.now, or time.Now.
func (e env) clock() time.Time {
	if e.now == nil {
		return time.Now()
	}
	return e.now()
}

// getenv reads an environment variable through e.lookupEnv.
func (e env) getenv(name string) (string, bool) {
	if e.lookupEnv == nil {
		return os.LookupEnv(name)
	}
	return e.lookupEnv(name)
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e env, args []string) error
	// ownStdout: the command looks at standard output itself (a terminal
	// for the live line, the raw pipe for UCI) and reports its own write
	// errors; the others get it through a checkedWriter.
	ownStdout bool
}

func commands() []command {
	return []command{
		{name: "run", summary: "play the tournaments of a config file, storing games in SQLite", run: cmdRun, ownStdout: true},
		{name: "match", summary: "play a match (or gauntlet, round robin) given on the command line, without a config file", run: cmdMatch, ownStdout: true},
		{name: "report", summary: "statistics of stored tournaments (text, json or html)", run: cmdReport},
		{name: "export", summary: "write stored games as PGN", run: cmdExport},
		{name: "serve", summary: "a read-only web site over the database: live standings, charts, games on a board", run: cmdServe, ownStdout: true},
		{name: "ratings", summary: "ratings and statistics of the games of PGN files (cutechess, fastchess, ...)", run: cmdRatings},
		{name: "compare", summary: "the Elo difference of two matches (PGN files), or the interaction of four (a 2×2 design)", run: cmdCompare},
		{name: "merge", summary: "merge databases (the shards of a tournament) into one", run: cmdMerge},
		{name: "elo", summary: "Elo, confidence interval, LOS and SPRT for a W/L/D or pentanomial result", run: cmdElo},
		{name: "search", summary: "search one position and print the iterations", run: cmdSearch},
		{name: "perft", summary: "count leaf nodes of the move tree (move generator check and speed)", run: cmdPerft},
		{name: "bench", summary: "fixed-depth searches over benchmark positions (nodes, time, nps)", run: cmdBench},
		{name: "suite", summary: "run an EPD test suite (solved positions per node budget or depth)", run: cmdSuite},
		{name: "uci", summary: "act as a UCI engine on stdin/stdout", run: cmdUCI, ownStdout: true},
		{name: "compliance", summary: "check an external engine's UCI (fastchess's --compliance steps and more)", run: cmdCompliance},
		{name: "variants", summary: "list the search variant presets and their switches", run: cmdVariants},
		{name: "version", summary: "the module version and VCS revision of this binary", run: cmdVersion},
		{name: "help", summary: "the commands, or a section of the docs (selfplay help TOPIC; selfplay help lists them)", run: cmdHelp},
	}
}

// main cancels the commands' context on the first SIGINT or SIGTERM, so
// that they stop cleanly (exit 130); a second signal a quarter of a second or
// more later kills the process, whatever the command is doing (signals.go).
func main() {
	ctx, release := stopOnSignals()
	code := dispatch(ctx, env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	release()
	os.Exit(code)
}

func dispatch(ctx context.Context, e env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(e.stdout)
		return exitOK
	case "-version", "--version":
		return reportError(e.stderr, "version", cmdVersion(ctx, e, args[1:]))
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return reportError(e.stderr, c.name, c.call(ctx, e, args[1:]))
		}
	}
	fmt.Fprintf(e.stderr, "selfplay: unknown command %q\n", args[0])
	usage(e.stderr)
	return exitUsage
}

// call runs the command; a write error on standard output (when the
// command does not report its own) is the command's error.
func (c command) call(ctx context.Context, e env, args []string) error {
	if c.ownStdout {
		return c.run(ctx, e, args)
	}
	out := &checkedWriter{w: e.stdout}
	e.stdout = out
	err := c.run(ctx, e, args)
	if err == nil && out.err != nil {
		return fmt.Errorf("writing standard output: %w", out.err)
	}
	return err
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: selfplay <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "run `selfplay <command> -h` for a command's flags; `selfplay -version` for the version")
}

// errText is an error's message as a command prints it: escaped
// (termtext.EscapeLines), since it may quote an input file, a database or
// an engine.
func errText(err error) string { return termtext.EscapeLines(err.Error()) }

// checkedWriter remembers the first write error, so that a command whose
// output could not be written (a full disk, a closed pipe) exits 1 rather
// than 0, as the exit-code table says.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}
