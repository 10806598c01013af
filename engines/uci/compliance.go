package uci

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ComplianceStep is the outcome of one step of CheckCompliance.
type ComplianceStep struct {
	Number int
	Name   string
	// Source is the line of fastchess's compliance check
	// (app/src/engine/compliance.hpp at commit 74deac23) that the step
	// follows; "" for a check of selfplay's own.
	Source  string
	Detail  string   // what the engine did, when it passed
	Err     error    // why it failed; nil: passed
	Skipped bool     // not run: an earlier step left no engine to ask
	Lines   []string // the engine's last lines, when it failed
}

// errSkipped is the Err of a step that was not run: an earlier one failed
// and left no engine to ask, or nothing to check.
var errSkipped = errors.New("skipped: an earlier step failed")

// fatalError is a failure that leaves the engine in no state to go on
// (no uciok, no readyok, no bestmove, exited): the remaining steps are
// skipped.
type fatalError struct{ error }

func fatalf(format string, args ...any) error { return fatalError{fmt.Errorf(format, args...)} }

// recentLines is how many of the engine's last lines a failed step quotes.
const recentLines = 8

// checker runs the steps of CheckCompliance on one engine process.
type checker struct {
	ctx    context.Context
	cfg    Config
	sp     *spawner
	p      *proc
	report func(ComplianceStep)
	recent []string // the engine's last lines
	n      int
	failed int
	dead   bool // a fatal failure: the remaining steps are skipped

	idName, idAuthor string
	options          []uciOption
}

// CheckCompliance runs fastchess's UCI compliance steps (fastchess
// --compliance) and selfplay's own on the engine of cfg, reporting each
// step as it ends, and returns how many failed. cfg.InitTimeout bounds
// each answer that is not a search (uciok, readyok, quit) and each search
// without a clock; cfg.StopTimeout is the time allowed over a clock or a
// movetime, and for bestmove after stop. The engine is killed at the end.
func CheckCompliance(ctx context.Context, cfg Config, report func(ComplianceStep)) int {
	if cfg.InitTimeout <= 0 {
		cfg.InitTimeout = defaultInitTimeout
	}
	if cfg.StopTimeout <= 0 {
		cfg.StopTimeout = defaultStopTimeout
	}
	sp, _ := newSpawner(nil) // without CPUs it cannot fail
	c := &checker{ctx: ctx, cfg: cfg, report: report, sp: sp}
	defer c.sp.stop()
	c.step("start the engine, uci: uciok", "81", c.start)
	defer func() {
		if c.p != nil {
			c.p.kill()
		}
	}()
	c.handshakeSteps()
	c.positionSteps()
	c.searchSteps()
	c.stopSteps()
	c.step("quit: the engine exits", "", c.quit)
	return c.failed
}

// step runs one step and reports it.
func (c *checker) step(name, source string, run func() (string, error)) {
	c.n++
	s := ComplianceStep{Number: c.n, Name: name}
	if source != "" {
		s.Source = "fastchess app/src/engine/compliance.hpp:" + source
	}
	switch {
	case c.dead:
		s.Skipped, s.Err = true, errSkipped
	case c.p == nil && c.n > 1:
		s.Skipped, s.Err = true, errSkipped
	default:
		s.Detail, s.Err = run()
		s.Skipped = errors.Is(s.Err, errSkipped)
	}
	if s.Err != nil && !s.Skipped {
		c.failed++
		s.Lines = append([]string(nil), c.recent...)
		if c.p != nil {
			for _, l := range c.p.stderr.last(stderrLines) {
				s.Lines = append(s.Lines, "stderr: "+l)
			}
		}
		var fe fatalError
		if errors.As(s.Err, &fe) {
			c.dead = true
		}
	}
	c.report(s)
}

// start starts the process and does the uci handshake.
func (c *checker) start() (string, error) {
	p, err := startProc(&c.cfg, nil, nil, c.sp)
	if err != nil {
		return "", fatalf("cannot start %s: %v", c.cfg.Command, err)
	}
	c.p = p
	if err := c.send("uci"); err != nil {
		return "", err
	}
	err = c.until(c.cfg.InitTimeout, "uciok", func(f []string, line string) {
		switch f[0] {
		case "id":
			if len(f) > 2 && f[1] == "name" {
				c.idName = strings.Join(f[2:], " ")
			} else if len(f) > 2 && f[1] == "author" {
				c.idAuthor = strings.Join(f[2:], " ")
			}
		case "option":
			c.options = append(c.options, parseOption(line))
		}
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d options", len(c.options)), nil
}

// send writes command lines to the engine; a failure is fatal.
func (c *checker) send(lines ...string) error {
	if err := c.p.send(lines...); err != nil {
		return fatalf("cannot write %q to the engine: %v (%s)", lines[0], err, c.p.exitStatus(c.cfg.StopTimeout))
	}
	return nil
}

// next returns the engine's next line (its words and itself), errTimeout
// when deadline passes first, errStopDue when stopAt does (zero times
// never pass), or a fatal error when the output ends.
func (c *checker) next(deadline, stopAt time.Time) ([]string, string, error) {
	defer context.AfterFunc(c.ctx, c.p.wake)()
	for {
		first := deadline
		if !stopAt.IsZero() && stopAt.Before(deadline) {
			first = stopAt
		}
		l, res := c.p.next(first)
		switch res {
		case outputEnded:
			return nil, "", fatalf("the engine's output ended (%s)", c.p.exitStatus(c.cfg.StopTimeout))
		case deadlineReached:
			if !stopAt.IsZero() && !time.Now().Before(stopAt) {
				return nil, "", errStopDue
			}
			return nil, "", errTimeout
		case woken:
			if err := c.ctx.Err(); err != nil {
				return nil, "", fatalf("interrupted: %v", err)
			}
			continue
		}
		if l.tooLong {
			return nil, "", fatalf("a line longer than %d KiB, starting %s", maxLine>>10, excerpt(l.text))
		}
		c.remember(l.text)
		if f := strings.Fields(l.text); len(f) > 0 {
			return f, l.text, nil
		}
	}
}

var (
	errTimeout = errors.New("timeout")
	errStopDue = errors.New("stop is due")
)

func (c *checker) remember(line string) {
	if len(c.recent) == recentLines {
		c.recent = append(c.recent[:0], c.recent[1:]...)
	}
	c.recent = append(c.recent, line)
}

// until reads lines until one whose first word is word, within timeout,
// passing the others to each (nil: ignored).
func (c *checker) until(timeout time.Duration, word string, each func(f []string, line string)) error {
	deadline := time.Now().Add(timeout)
	for {
		f, line, err := c.next(deadline, time.Time{})
		if errors.Is(err, errTimeout) {
			return fatalf("no %s within %v", word, timeout)
		}
		if err != nil {
			return err
		}
		if f[0] == word {
			return nil
		}
		if each != nil {
			each(f, line)
		}
	}
}

// ready sends isready and waits for readyok.
func (c *checker) ready() (string, error) {
	start := time.Now()
	if err := c.send("isready"); err != nil {
		return "", err
	}
	if err := c.until(c.cfg.InitTimeout, "readyok", nil); err != nil {
		return "", err
	}
	return fmt.Sprintf("readyok after %v", roundDuration(time.Since(start))), nil
}

// roundDuration rounds a duration for the report.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(100 * time.Microsecond)
}

// quit sends quit and waits for the process to exit.
func (c *checker) quit() (string, error) {
	if err := c.send("quit"); err != nil {
		return "", err
	}
	select {
	case <-c.p.exited:
		return c.p.exitStatus(c.cfg.StopTimeout), nil
	case <-time.After(c.cfg.InitTimeout):
		return "", fmt.Errorf("still running %v after quit", c.cfg.InitTimeout)
	}
}
