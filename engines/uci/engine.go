// Package uci runs external UCI chess engines as tournament players: an
// Engine starts the engine's process, talks UCI to it over its stdin and
// stdout, and satisfies engines.Engine, so the runner plays external and
// in-process engines alike.
//
// Faults of the engine are errors of distinct kinds: the contract's
// engines.ErrCrashed, ErrTimeout and ErrProtocol, this package's ErrOption,
// and an error after Close. A fault is reported once, by the call that
// meets it, and the process is then abandoned: the next NewGame or Search
// restarts it, handshake and options included, so a tournament goes on. A
// process that died when no call was under way (after its bestmove, before
// the next position; or between games) is not restarted unseen: the next
// call finds it dead and reports the crash with its exit status (Search: a
// crash before go; NewGame: a crash at ucinewgame), so the game it fell in
// is lost by it, whatever the timing. The adapter never judges moves: a
// bestmove is returned as text and the runner's arbiter decides.
//
// What an engine writes costs bounded memory (lines of at most 64 KiB, a
// bounded number of lines kept per reply, a size limit on stderr logs with
// OpenLog), and every string taken from it is sanitized (sanitize.go) before
// anyone stores or prints it. On Linux an engine gets SIGKILL from the
// kernel when the runner dies, even by SIGKILL itself.
package uci

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/notnil/chess"

	"selfplay/engines"
)

// Config describes how to run an engine.
type Config struct {
	Name        string
	Command     string
	Args        []string
	Dir         string
	Options     []Option      // setoption name/value pairs, sent in order
	InitTimeout time.Duration // uci/uciok, and isready/readyok at start and after ucinewgame (default 10s)
	PingTimeout time.Duration // isready/readyok before each go (default 10s)
	StopTimeout time.Duration // after stop (or quit), the wait for bestmove (or exit) before a kill (default 1s)
	StderrLog   io.Writer     // the engine's stderr is copied here (e.g. a *Log); nil: discarded
	Traffic     *TrafficLog   // every line sent and received is logged here; nil: none
	// PVWarnings, if set, gets a warning line for each info line whose
	// PV is illegal or, with a mate score, not that mate (fastchess's
	// -check-mate-pvs); the writer must be safe for concurrent use.
	PVWarnings io.Writer
	// CPUs, if set, are the only CPUs the engine's processes may run on
	// (Linux; elsewhere ignored): they inherit the affinity of the thread
	// that starts them, so that threads they create at start-up, before
	// anyone could pin them, are pinned too (fastchess's -use-affinity).
	CPUs []int
}

// Option is one UCI option setting; Value is sent as text ("" for a button).
type Option struct{ Name, Value string }

// Defaults of Config.
const (
	defaultInitTimeout = 10 * time.Second
	defaultPingTimeout = 10 * time.Second
	defaultStopTimeout = time.Second
)

// Bounds on what the adapter accepts and keeps of an engine's replies (the
// line length is bounded by maxLine).
const (
	// maxGarbage is how many lines that are not UCI an engine may print
	// while it searches before the adapter gives up on it.
	maxGarbage = 100
	// maxHandshakeGarbage is the same before uciok, where engines print
	// banners.
	maxHandshakeGarbage = 1000
	// maxOptions and maxOptionBytes bound the option names kept from the
	// uci reply (for the option check's message).
	maxOptions     = 1000
	maxOptionBytes = 256 << 10
)

// Ops of the *engineError values: what the adapter was doing. Only opSearch comes
// after go was written, when the engine's clock runs; the others unwrap to
// engines.ErrBeforeSearch.
const (
	opStart   = "start"
	opUCI     = "uci"
	opPing    = "isready"
	opNewGame = "ucinewgame"
	// opPosition: the position command and the readyok after it, before
	// go; a crash found there, also of a process found dead when the
	// search began, is reported with it.
	opPosition = "position"
	opSearch   = "search"
)

// Engine is an external UCI engine. One game uses it at a time (NewGame and
// Search are not safe for concurrent use); Close may be called at any time
// from any goroutine.
type Engine struct {
	cfg   Config
	log   io.Writer // cfg.StderrLog behind a lock, or nil
	spawn *spawner  // starts the processes (Linux: on a thread of its own)

	// now and newTimer turn the caller's deadline into the move's budget:
	// the time left at the call, on a timer started when go is written
	// (newTimer nil: the wall clock, a deadline of the search's reads).
	// Tests stop this clock, so that what they check of the budget does
	// not depend on a machine's load.
	now      func() time.Time
	newTimer func(time.Duration) (<-chan time.Time, func() bool)

	mu       sync.Mutex // guards the fields below
	p        *proc      // the running process; nil when it must be (re)started
	starting *proc      // a process in its handshake
	closed   bool
	restarts int
	game     engines.Game // of the last NewGame or Search, for the traffic log
	// idName and idAuthor are what the running process said at its
	// handshake (id name, id author); "" when it said nothing.
	idName, idAuthor string
}

var _ engines.Engine = (*Engine)(nil)

// Start starts the engine, does the uci handshake (collecting id and
// options), checks that every configured option exists, sends them and
// waits for readyok.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	if cfg.Command == "" {
		return nil, fmt.Errorf("engine %q: no command", cfg.Name)
	}
	if cfg.InitTimeout <= 0 {
		cfg.InitTimeout = defaultInitTimeout
	}
	if cfg.PingTimeout <= 0 {
		cfg.PingTimeout = defaultPingTimeout
	}
	if cfg.StopTimeout <= 0 {
		cfg.StopTimeout = defaultStopTimeout
	}
	if cfg.Name == "" {
		cfg.Name = cfg.Command
	}
	cfg.Args = append([]string(nil), cfg.Args...)
	cfg.Options = append([]Option(nil), cfg.Options...)
	cfg.CPUs = append([]int(nil), cfg.CPUs...)
	sp, err := newSpawner(cfg.CPUs)
	if err != nil {
		return nil, fmt.Errorf("engine %q: CPU affinity %v: %w", cfg.Name, cfg.CPUs, err)
	}
	e := &Engine{cfg: cfg, spawn: sp, now: time.Now, game: engines.GameOf(ctx)}
	if cfg.StderrLog != nil {
		e.log = &lockedWriter{w: cfg.StderrLog}
	}
	if _, err := e.launch(ctx); err != nil {
		e.spawn.stop()
		return nil, err
	}
	return e, nil
}

// newTimer is a time.Timer as its channel and Stop (for tests that set
// Engine.newTimer).
func newTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

// tap returns the function that logs the traffic of the engine's
// processes, or nil without a traffic log.
func (e *Engine) tap() func(dir byte, text string) {
	if e.cfg.Traffic == nil {
		return nil
	}
	return func(dir byte, text string) {
		e.mu.Lock()
		g := e.game
		e.mu.Unlock()
		e.cfg.Traffic.record(g, e.cfg.Name, dir, text)
	}
}

// setGame takes the game of ctx, if it carries one, for the traffic log.
func (e *Engine) setGame(ctx context.Context) {
	if g := engines.GameOf(ctx); g != (engines.Game{}) {
		e.mu.Lock()
		e.game = g
		e.mu.Unlock()
	}
}

// Name returns the configured name.
func (e *Engine) Name() string { return e.cfg.Name }

// Restarts returns how many times the process was restarted after a crash,
// a kill or a protocol fault.
func (e *Engine) Restarts() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.restarts
}

func (e *Engine) fault(kind error, op, detail string, cause error) *engineError {
	return &engineError{Engine: e.cfg.Name, Kind: kind, Op: op, Detail: detail, Err: cause}
}

// launch starts a process and makes it ready to play.
func (e *Engine) launch(ctx context.Context) (*proc, error) {
	p, err := startProc(&e.cfg, e.log, e.tap(), e.spawn)
	if errors.Is(err, errSpawnerStopped) {
		return nil, e.fault(errClosed, opStart, "", nil)
	}
	if err != nil {
		return nil, e.fault(engines.ErrCrashed, opStart, "cannot start "+e.cfg.Command, err)
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		p.kill()
		return nil, e.fault(errClosed, opStart, "", nil)
	}
	e.starting = p // so that Close can kill it during the handshake
	e.mu.Unlock()
	err = e.handshake(ctx, p)
	e.mu.Lock()
	e.starting = nil
	if err == nil && e.closed {
		err = e.fault(errClosed, opStart, "", nil)
	}
	if err == nil {
		e.p = p
	}
	e.mu.Unlock()
	if err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

// Identity returns what the engine's process said of itself at its last
// handshake (UCI id name and id author; "" for a line it did not write),
// as fastchess's PGN tags EngineWhiteName ... take them from the process
// that played the game (game/pgn/pgn_builder.cpp:36-49).
func (e *Engine) Identity() (name, author string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.idName, e.idAuthor
}

// handshake: uci/uciok, option check, setoption, isready/readyok. The id
// name and the advertised options serve the check's error message only;
// what is kept of the reply is bounded (maxHandshakeGarbage, maxOptions).
func (e *Engine) handshake(ctx context.Context, p *proc) error {
	if err := p.send("uci"); err != nil {
		return e.crashed(p, opUCI)
	}
	var idName, idAuthor, firstOther string
	var options []string
	others, optionBytes := 0, 0
	err := e.await(ctx, p, opUCI, e.cfg.InitTimeout, func(f []string, line string) (bool, error) {
		switch {
		case f[0] == "uciok":
			return true, nil
		case f[0] == "id":
			// Identity keeps the text as fastchess does: what follows
			// "id name " or "id author " at the line's start, the last
			// such line winning (engine/uci_engine.cpp:237-242).
			if rest, ok := strings.CutPrefix(line, "id name "); ok {
				idName = rest
			} else if rest, ok := strings.CutPrefix(line, "id author "); ok {
				idAuthor = rest
			}
		case f[0] == "option":
			if n := optionName(f[1:]); n != "" {
				if optionBytes += len(n); len(options) >= maxOptions || optionBytes > maxOptionBytes {
					return false, e.fault(engines.ErrProtocol, opUCI, fmt.Sprintf("more than %d options (or %d KiB of option names) before uciok",
						maxOptions, maxOptionBytes>>10), nil)
				}
				options = append(options, n)
			}
		default:
			if others == 0 {
				firstOther = line
			}
			if others++; others > maxHandshakeGarbage {
				return false, e.fault(engines.ErrProtocol, opUCI, fmt.Sprintf("more than %d lines that are not UCI before uciok, e.g. %s",
					maxHandshakeGarbage, excerpt(firstOther)), nil)
			}
		}
		return false, nil
	})
	if err != nil {
		var fe *engineError
		if errors.As(err, &fe) && fe.Kind == engines.ErrTimeout && others > 0 {
			// It talked, but not UCI.
			return e.fault(engines.ErrProtocol, opUCI, fmt.Sprintf("no uciok within %v; the engine wrote %s", e.cfg.InitTimeout, excerpt(firstOther)), nil)
		}
		return err
	}
	var cmds []string
	for _, o := range e.cfg.Options {
		i := indexFold(options, o.Name)
		if i < 0 {
			return e.fault(ErrOption, "setoption", fmt.Sprintf("%q is not an option of %s (it has: %s)",
				o.Name, orUnnamed(strings.Join(strings.Fields(idName), " ")), listOrNone(options)), nil)
		}
		cmd := "setoption name " + options[i]
		if o.Value != "" {
			cmd += " value " + o.Value
		}
		cmds = append(cmds, cmd)
	}
	if len(cmds) > 0 {
		if err := p.send(cmds...); err != nil {
			return e.crashed(p, "setoption")
		}
	}
	if err := e.sync(ctx, p, opPing, e.cfg.InitTimeout); err != nil {
		return err
	}
	e.mu.Lock()
	e.idName, e.idAuthor = idName, idAuthor
	e.mu.Unlock()
	return nil
}

func indexFold(names []string, name string) int {
	for i, n := range names {
		if strings.EqualFold(n, strings.TrimSpace(name)) {
			return i
		}
	}
	return -1
}

func orUnnamed(name string) string {
	if name == "" {
		return "the engine"
	}
	return name
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "no options"
	}
	return strings.Join(names, ", ")
}

// sync sends isready and waits for readyok.
func (e *Engine) sync(ctx context.Context, p *proc, op string, timeout time.Duration) error {
	if err := p.send("isready"); err != nil {
		return e.crashed(p, op)
	}
	return e.awaitReady(ctx, p, op, timeout)
}

// awaitReady waits for readyok (isready was sent).
func (e *Engine) awaitReady(ctx context.Context, p *proc, op string, timeout time.Duration) error {
	return e.await(ctx, p, op, timeout, func(f []string, _ string) (bool, error) {
		return f[0] == "readyok", nil
	})
}

// await reads lines until match accepts one or fails. It fails with
// engines.ErrTimeout after timeout, engines.ErrCrashed when stdout ends,
// engines.ErrProtocol on a line longer than maxLine, or the context's error.
func (e *Engine) await(ctx context.Context, p *proc, op string, timeout time.Duration, match func(f []string, line string) (bool, error)) error {
	deadline := time.Now().Add(timeout)
	defer context.AfterFunc(ctx, p.wake)()
	for {
		l, res := p.next(deadline)
		switch res {
		case gotLine:
			if l.tooLong && isInfo(l) {
				continue // a long info string: what it says is not waited for
			}
			if l.tooLong {
				return e.lineTooLong(op, l)
			}
			if f := strings.Fields(l.text); len(f) > 0 {
				if ok, err := match(f, l.text); ok || err != nil {
					return err
				}
			}
		case outputEnded:
			return e.crashed(p, op)
		case deadlineReached:
			what := "no answer"
			if op == opPing || op == opNewGame {
				what = "no readyok"
			}
			return e.fault(engines.ErrTimeout, op, fmt.Sprintf("%s within %v", what, timeout), nil)
		case woken:
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("engine %q: %s: %w", e.cfg.Name, op, err)
			}
		}
	}
}

// isInfo reports whether the line (its kept start) is an info line.
func isInfo(l line) bool {
	word, _, _ := strings.Cut(strings.TrimLeft(l.text, " \t"), " ")
	return word == "info"
}

// lineTooLong is the protocol error of a line longer than maxLine.
func (e *Engine) lineTooLong(op string, l line) error {
	return e.fault(engines.ErrProtocol, op, fmt.Sprintf("a line longer than %d KiB, starting %s", maxLine>>10, excerpt(l.text)), nil)
}

// crashed builds the engines.ErrCrashed error of a process whose pipes
// failed, with its exit status and last stderr lines, and makes sure it is
// gone.
func (e *Engine) crashed(p *proc, op string) error {
	status := p.exitStatus(e.cfg.StopTimeout)
	p.kill()
	err := e.fault(engines.ErrCrashed, op, status, nil)
	err.Stderr = p.stderr.last(stderrLines)
	return err
}

// current returns the process for the next command (op: what that is).
// A process abandoned after a reported fault (or a cancellation) is
// restarted. A process that is still the engine's but has exited (or
// closed its stdout) crashed while no call was under way: that is
// reported now, as a crash at op, and the process is abandoned, so the
// crash costs the game in which it is found, and the next call restarts
// it. Whether the process is seen dead here or only when the command is
// written or answered, the outcome is the same crash.
func (e *Engine) current(ctx context.Context, op string) (*proc, error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, e.fault(errClosed, opSearch, "", nil)
	}
	p := e.p
	if p == nil {
		e.restarts++
	}
	e.mu.Unlock()
	if p == nil {
		return e.launch(ctx)
	}
	if !p.alive() || !p.drain() {
		return nil, e.crashedAbandon(p, op)
	}
	return p, nil
}

// abandon kills the process after a fault; the next call restarts it.
func (e *Engine) abandon(p *proc) {
	p.kill()
	e.mu.Lock()
	if e.p == p {
		e.p = nil
	}
	e.mu.Unlock()
}

// closedErr replaces the outcome of a search by errClosed when Close was
// called meanwhile (err may be nil: the engine answered quit with a move).
func (e *Engine) closedErr(err error) error {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed && !errors.Is(err, errClosed) {
		return e.fault(errClosed, opSearch, "", err)
	}
	return err
}

// NewGame sends ucinewgame and waits for readyok (at most InitTimeout),
// restarting the process first if it was abandoned after a fault. Its
// errors are the new game's: a failed restart; a crash at ucinewgame
// (engines.ErrCrashed, with the exit status), also of a process found
// dead (it exited after its last search); no readyok within InitTimeout
// (engines.ErrTimeout); or the context's error. After an error the
// process is gone and the next NewGame (or Search) restarts it. A fault
// that Close caused is an "engine closed" error.
func (e *Engine) NewGame(ctx context.Context) error {
	e.setGame(ctx)
	if err := e.newGame(ctx); err != nil {
		return e.closedErr(err)
	}
	return nil
}

// newGame is NewGame before a Close is told apart.
func (e *Engine) newGame(ctx context.Context) error {
	p, err := e.current(ctx, opNewGame)
	if err != nil {
		return err
	}
	if p.send("ucinewgame", "isready") != nil {
		return e.crashedAbandon(p, opNewGame)
	}
	if err := e.awaitReady(ctx, p, opNewGame, e.cfg.InitTimeout); err != nil {
		e.abandon(p) // in an unknown state: the next call restarts it
		return err
	}
	return nil
}

// Search sends the position and isready, waits for readyok (at most
// PingTimeout), sends go and waits for bestmove. Time limits are enforced
// by the adapter too: at the move time or the end of the mover's clock it
// sends stop. When ctx is done it sends stop as well. An engine that does
// not answer stop within StopTimeout is killed.
//
// The move's clock starts when go is written, as in cutechess-cli and
// fastchess: Info.Elapsed is measured from there to bestmove, and a
// deadline of ctx is taken as the time the search may take: its distance
// from the call is measured from go, so the ping (or a restart of a crashed
// engine) before it does not count. A slow readyok is an
// engines.ErrTimeout of its own, marked engines.ErrBeforeSearch, not a slow
// move.
//
// Errors: engines.ErrCrashed, engines.ErrProtocol, engines.ErrTimeout (no
// readyok, killed after stop, or ctx's deadline passed), ctx.Err() wrapped
// (ctx cancelled), or an "engine closed" error after Close.
func (e *Engine) Search(ctx context.Context, startFEN string, moves []string, lim engines.Limits) (engines.Result, error) {
	e.setGame(ctx)
	res, err := e.search(ctx, startFEN, moves, lim)
	if err = e.closedErr(err); err != nil {
		return engines.Result{}, err
	}
	return res, nil
}

// withoutDeadline returns a context that is cancelled when ctx is
// cancelled, but not when ctx's deadline passes. (A cancellation that comes
// after the deadline is not seen: the steps it guards are bounded by their
// own timeouts.)
func withoutDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); !ok {
		return ctx, func() {}
	}
	c, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cancel()
		}
	})
	return c, func() {
		stop()
		cancel()
	}
}

// search is Search before a Close is told apart: the position and go,
// then the engine's lines until its bestmove, the caller's deadline
// (counted from go) or its cancellation.
func (e *Engine) search(ctx context.Context, startFEN string, moves []string, lim engines.Limits) (engines.Result, error) {
	if err := ctx.Err(); err != nil {
		return engines.Result{}, fmt.Errorf("engine %q: search: %w", e.cfg.Name, err)
	}
	deadline, hasDeadline := ctx.Deadline()
	allowed := deadline.Sub(e.now())

	pctx, release := withoutDeadline(ctx)
	defer release()
	p, err := e.current(pctx, opPosition)
	if err != nil {
		return engines.Result{}, err
	}
	if err := e.sendGo(pctx, p, startFEN, moves, lim); err != nil {
		return engines.Result{}, err
	}
	r := &searchRun{e: e, p: p, onIteration: lim.OnIteration, start: time.Now(), startFEN: startFEN, moves: moves}
	if hasDeadline {
		defer r.startBudget(max(allowed, 0))()
	}
	if d := watchdog(startFEN, moves, lim); d > 0 {
		r.watchAt = r.start.Add(d)
	}
	// The lines are read here, in the caller's goroutine (see
	// stdoutReader); the timers are deadlines of the reads, and the
	// context's cancellation wakes a read.
	defer context.AfterFunc(ctx, p.wake)()
	for {
		l, res := p.next(r.earliest())
		if res == gotLine || res == outputEnded {
			if res, over, err := r.onLine(l, res == gotLine); over {
				return res, err
			}
			continue
		}
		if over, err := r.due(ctx); over {
			return engines.Result{}, err
		}
	}
}

// startBudget starts the caller's deadline, counted from go; stop ends it.
func (r *searchRun) startBudget(d time.Duration) (stop func()) {
	if r.e.newTimer == nil {
		r.budgetAt = time.Now().Add(d)
		return func() {}
	}
	// A test's clock: its timer's channel, seen by the reads as a wake.
	c, stopTimer := r.e.newTimer(d)
	r.budgetFired = new(atomic.Bool)
	quit := make(chan struct{})
	go func() {
		select {
		case <-c:
			r.budgetFired.Store(true)
			r.p.wake()
		case <-quit:
		}
	}()
	return func() {
		close(quit)
		stopTimer()
	}
}

// earliest is the deadline of the next read: the first of the timers
// still to fire (zero: none).
func (r *searchRun) earliest() time.Time {
	var t time.Time
	for _, d := range [...]time.Time{r.watchAt, r.budgetAt, r.stopAt} {
		if !d.IsZero() && (t.IsZero() || d.Before(t)) {
			t = d
		}
	}
	return t
}

// due acts on the timers that have fired and on the context's end, once
// each: the watchdog and the budget send stop, as does a cancellation (a
// passed deadline of ctx is left to the budget, counted from go); over is
// set, with the error, when bestmove did not come StopTimeout after stop.
func (r *searchRun) due(ctx context.Context) (over bool, err error) {
	now := time.Now()
	if !r.watchAt.IsZero() && !now.Before(r.watchAt) {
		r.watchAt = time.Time{}
		r.sendStop()
	}
	budget := !r.budgetAt.IsZero() && !now.Before(r.budgetAt)
	if budget || (r.budgetFired != nil && r.budgetFired.Swap(false)) {
		r.budgetAt = time.Time{}
		if r.why == nil {
			r.why = context.DeadlineExceeded
		}
		r.sendStop()
	}
	if !r.ctxDone && ctx.Err() != nil {
		r.ctxDone = true
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.why = ctx.Err()
			r.sendStop()
		}
	}
	if !r.stopAt.IsZero() && !now.Before(r.stopAt) {
		r.e.abandon(r.p)
		return true, r.noBestMove()
	}
	return false, nil
}

// sendGo sends the position and go, with a readiness check between them:
// a fault there comes before the move's clock starts.
func (e *Engine) sendGo(ctx context.Context, p *proc, startFEN string, moves []string, lim engines.Limits) error {
	// One write for both: one wake-up of the engine.
	if p.send(positionCommand(startFEN, moves), "isready") != nil {
		return e.crashedAbandon(p, opPosition)
	}
	if err := e.awaitReady(ctx, p, opPing, e.cfg.PingTimeout); err != nil {
		if ctx.Err() == nil {
			e.abandon(p)
		}
		if fe := (*engineError)(nil); errors.As(err, &fe) && fe.Kind == engines.ErrCrashed {
			// A process that died before it answered is the crash
			// before go that current reports of one found dead: the
			// same text, whenever its end is seen.
			fe.Op = opPosition
		}
		if errors.Is(err, engines.ErrTimeout) {
			err = e.fault(engines.ErrTimeout, opPing, fmt.Sprintf("no readyok within %v of the isready before go "+
				"(the ping timeout; go was not sent and the move's clock had not started)", e.cfg.PingTimeout), nil)
		}
		return err
	}
	if p.send(goCommand(lim)) != nil {
		return e.crashedAbandon(p, "go")
	}
	return nil
}

// searchRun is the state of one search between go and bestmove.
type searchRun struct {
	e           *Engine
	p           *proc
	onIteration func(engines.Info)
	start       time.Time // when go was sent

	si  searchInfo
	why error // why stop was sent: nil (time limit), or ctx.Err()

	// The timers, as deadlines (zero: not running).
	watchAt     time.Time    // the watchdog's
	budgetAt    time.Time    // the caller's deadline, counted from go
	budgetFired *atomic.Bool // instead of budgetAt, with a test's clock: it fired
	stopAt      time.Time    // StopTimeout after stop was sent
	ctxDone     bool         // the context's end was acted on

	garbage      int // lines that are not UCI
	firstGarbage string

	startFEN string   // the position searched, for PVWarnings
	moves    []string // after startFEN
	pvGame   *chess.Game
}

// sendStop sends stop once and starts waiting StopTimeout for bestmove.
func (r *searchRun) sendStop() {
	if r.stopAt.IsZero() {
		_ = r.p.send("stop") // a dead engine shows as closed stdout
		r.stopAt = time.Now().Add(r.e.cfg.StopTimeout)
	}
}

// onLine reads one line of the engine (ok false: its output closed); over
// says the search ended, with the result or the error.
func (r *searchRun) onLine(l line, ok bool) (res engines.Result, over bool, err error) {
	e, p := r.e, r.p
	if !ok {
		return engines.Result{}, true, e.crashedAbandon(p, opSearch)
	}
	if l.tooLong && isInfo(l) {
		// An info line past the bound (a long info string, a huge PV) is
		// skipped, as fastchess would read it and go on: the search goes
		// on with the last exact info line.
		return engines.Result{}, false, nil
	}
	if l.tooLong {
		e.abandon(p)
		return engines.Result{}, true, e.lineTooLong(opSearch, l)
	}
	f := strings.Fields(l.text)
	if len(f) == 0 {
		return engines.Result{}, false, nil
	}
	switch f[0] {
	case "info":
		li := parseInfo(f[1:])
		if e.cfg.PVWarnings != nil && li.hasPV {
			r.checkPV(li, l.text)
		}
		if r.si.add(li) && r.onIteration != nil {
			i := r.si.info()
			i.Nodes, i.Elapsed = r.si.nodes, time.Since(r.start)
			r.onIteration(i)
		}
	case "bestmove":
		res, err := r.bestMove(f[1:])
		return res, true, err
	case "readyok", "uciok", "id", "option", "copyprotection", "registration":
		// out of place but harmless
	default:
		if r.garbage == 0 {
			r.firstGarbage = l.text
		}
		if r.garbage++; r.garbage > maxGarbage {
			e.abandon(p)
			return engines.Result{}, true, e.fault(engines.ErrProtocol, opSearch,
				fmt.Sprintf("more than %d lines that are not UCI, e.g. %s", maxGarbage, excerpt(l.text)), nil)
		}
	}
	return engines.Result{}, false, nil
}

// bestMove ends the search on the engine's bestmove (args: what follows
// it): its move and the last info, unless stop was sent for the caller.
func (r *searchRun) bestMove(args []string) (engines.Result, error) {
	e := r.e
	elapsed := time.Since(r.start)
	mv, err := parseBestMove(args)
	if err != nil {
		e.abandon(r.p)
		return engines.Result{}, e.fault(engines.ErrProtocol, opSearch, err.Error(), nil)
	}
	switch {
	case r.why == context.DeadlineExceeded:
		return engines.Result{}, e.fault(engines.ErrTimeout, opSearch,
			fmt.Sprintf("deadline passed; bestmove came %v after go", elapsed.Round(time.Millisecond)), r.why)
	case r.why != nil:
		return engines.Result{}, fmt.Errorf("engine %q: search: %w", e.cfg.Name, r.why)
	}
	info := r.si.info()
	info.Nodes = r.si.nodes
	info.Elapsed = elapsed
	info.EngineTime = r.si.time
	return engines.Result{Move: mv, Info: info}, nil
}

// noBestMove is the error of an engine that did not answer stop within
// StopTimeout (it has been abandoned).
func (r *searchRun) noBestMove() error {
	e := r.e
	if r.why != nil && r.why != context.DeadlineExceeded {
		return fmt.Errorf("engine %q: search: no bestmove %v after stop, killed: %w",
			e.cfg.Name, e.cfg.StopTimeout, r.why)
	}
	detail := fmt.Sprintf("no bestmove %v after stop (%v after go), killed", e.cfg.StopTimeout,
		time.Since(r.start).Round(time.Millisecond))
	if r.garbage > 0 {
		detail += fmt.Sprintf("; it wrote %d lines that are not UCI, e.g. %s", r.garbage, excerpt(r.firstGarbage))
	}
	return e.fault(engines.ErrTimeout, opSearch, detail, r.why)
}

// crashedAbandon reports a crash and forgets the process.
func (e *Engine) crashedAbandon(p *proc, op string) error {
	err := e.crashed(p, op)
	e.abandon(p)
	return err
}

// Close asks the engine to quit, waits up to StopTimeout, then kills its
// process group and reaps it. A Search in progress returns errClosed. Safe
// to call more than once and concurrently with Search.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	p, starting := e.p, e.starting
	e.p = nil
	e.mu.Unlock()
	if starting != nil {
		starting.kill() // its handshake fails; launch reports errClosed
	}
	if p != nil {
		p.shutdown(e.cfg.StopTimeout)
	}
	// Processes abandoned after a fault were killed and reaped when they
	// were abandoned; a launch still under way sees the spawner stopped.
	e.spawn.stop()
	return nil
}
