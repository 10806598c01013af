package uci

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/internal/testkit"
	"selfplay/internal/tooltest"
)

// fakePath is the fake engine, built once for the test binary.
var fakePath string

func TestMain(m *testing.M) {
	testkit.RunHelper(map[string]testkit.Helper{runnerLike: func(args []string) int { runHelper(args[0], args[1]); return 0 }})
	dir, err := os.MkdirTemp("", "uci-fakeengine")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakePath = filepath.Join(dir, "fakeengine")
	if runtime.GOOS == "windows" {
		fakePath += ".exe"
	}
	build := exec.Command("go", "build", "-o", fakePath, "./testdata/fakeengine")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the fake engine: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The test binary runs as the runner-like helper process runnerLike
// FAKE MODE: it starts the engine FAKE (mode immortal: it ignores the end
// of its input), prints the engine's pid and waits to be killed. With MODE
// "thread-exit" it starts the engine from a goroutine locked to its
// thread, which then exits, so the Go runtime ends that thread.
const runnerLike = "runner-like"

func runHelper(fake, mode string) {
	start := func() *Engine {
		e, err := Start(context.Background(), Config{Name: "immortal", Command: fake, Args: []string{"-mode", "immortal"}})
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(1)
		}
		return e
	}
	var e *Engine
	if mode == "thread-exit" {
		done := make(chan struct{})
		go func() {
			runtime.LockOSThread() // and exit locked: the runtime ends the thread
			e = start()
			close(done)
		}()
		<-done
	} else {
		e = start()
	}
	fmt.Println(e.pid())
	select {}
}

func fakeConfig(args ...string) Config {
	return Config{
		Name:        "fake",
		Command:     fakePath,
		Args:        args,
		InitTimeout: 20 * time.Second, // a start, not its timing: generous for a loaded CI machine
		StopTimeout: 200 * time.Millisecond,
	}
}

func startFake(t *testing.T, cfg Config) *Engine {
	t.Helper()
	e, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// pid is the process id of the running engine process; 0 if none.
func (e *Engine) pid() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.p == nil {
		return 0
	}
	return e.p.cmd.Process.Pid
}

var nodes100 = engines.Limits{Nodes: 100}

// guard bounds a wait that, without the behaviour under test, would last
// as long as the engine keeps silent (forever, or a minute): these tests
// check that the wait ends, not how fast, and the bound is far beyond what
// a loaded machine adds. (Bounds of 150 ms to 2 s failed there.)
const guard = 30 * time.Second

// waitGone reports whether pid is gone within the guard: a killed engine
// is reaped before the call that killed it returns, unless that took
// longer than reapTimeout.
func waitGone(t *testing.T, pid int) bool {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !processGone(t, pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

func TestHandshakeAndOptions(t *testing.T) {
	t.Parallel()
	e := startFake(t, Config{
		Name: "fake", Command: fakePath, Args: []string{"-option", "Skill Level"},
		Options: []Option{{"hash", "32"}, {"skill level", "5"}, {"THREADS", "1"}},
	})
	if e.Name() != "fake" {
		t.Errorf("Name = %q", e.Name())
	}

	_, err := Start(context.Background(), Config{
		Name: "fake", Command: fakePath, Args: []string{"-option", "Skill Level"},
		Options: []Option{{"Hash", "32"}, {"Contempt", "10"}},
	})
	if !errors.Is(err, ErrOption) {
		t.Fatalf("unknown option: err = %v, want ErrOption", err)
	}
	// The message names the engine by its id name and lists its options as advertised.
	for _, want := range []string{`"Contempt" is not an option of fake engine`, "(it has: Hash, Threads, Skill Level)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("unknown option error %q does not contain %q", err, want)
		}
	}
}

func TestStartFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cfg  Config
		want error
		text string
	}{
		{"slow start", Config{Command: fakePath, Args: []string{"-mode", "slow-start", "-delay", "1m"}, InitTimeout: 300 * time.Millisecond}, engines.ErrTimeout, "no answer"},
		// The init timeout is the time the fake has to start and say
		// something (a second failed at times on a loaded machine).
		{"no uciok", Config{Command: fakePath, Args: []string{"-mode", "no-uciok"}, InitTimeout: 5 * time.Second}, engines.ErrProtocol, "not quite UCI"},
		{"crash at start", Config{Command: fakePath, Args: []string{"-mode", "sleep", "-delay", "1ms"}, StopTimeout: guard}, engines.ErrCrashed, "exit status 0"},
		{"no such command", Config{Command: filepath.Join(t.TempDir(), "no-such-engine")}, engines.ErrCrashed, "cannot start"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.cfg.Name = "fake"
			begin := time.Now()
			e, err := Start(context.Background(), c.cfg)
			if e != nil || !errors.Is(err, c.want) {
				t.Fatalf("Start = %v, %v; want error %v", e, err, c.want)
			}
			if !strings.Contains(err.Error(), c.text) {
				t.Errorf("error %q does not contain %q", err, c.text)
			}
			if d := time.Since(begin); d > guard {
				t.Errorf("Start took %v", d)
			}
		})
	}
}

func TestLegalPlay(t *testing.T) {
	t.Parallel()
	e := startFake(t, fakeConfig())
	kiwipete := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	positions := []struct {
		fen   string
		moves []string
	}{
		{board.StartFEN, nil},
		{board.StartFEN, []string{"e2e4"}},
		{board.StartFEN, []string{"e2e4", "c7c5", "g1f3"}},
		{kiwipete, nil},
		{kiwipete, []string{"e1g1", "e8c8"}},
		{"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", []string{"e2e4"}},
	}
	e.NewGame(context.Background())
	for _, p := range positions {
		var iterations []engines.Info
		lim := nodes100
		lim.OnIteration = func(i engines.Info) { iterations = append(iterations, i) }
		res, err := e.Search(context.Background(), p.fen, p.moves, lim)
		if err != nil {
			t.Fatalf("Search(%q, %v): %v", p.fen, p.moves, err)
		}
		b, _ := board.FromFEN(p.fen)
		if err := b.ApplyUCI(p.moves); err != nil {
			t.Fatal(err)
		}
		if _, err := b.ParseUCI(res.Move); err != nil {
			t.Errorf("Search(%q, %v) = %q: %v", p.fen, p.moves, res.Move, err)
		}
		i := res.Info
		if i.Depth != 2 || i.SelDepth != 3 || i.Score != 15 || i.Bound != engines.BoundExact || i.Nodes != 57 ||
			!slices.Equal(i.PV, []string{res.Move}) || i.Elapsed <= 0 {
			t.Errorf("Search(%q, %v): info %+v", p.fen, p.moves, i)
		}
		// The fake's depth-2 upperbound line is not an iteration's result:
		// OnIteration sees depth 1 and the exact depth 2.
		if len(iterations) != 2 || iterations[0].Depth != 1 || iterations[1].Depth != 2 || iterations[1].Bound != engines.BoundExact || iterations[1].Nodes != 57 {
			t.Errorf("Search(%q, %v): OnIteration got %+v", p.fen, p.moves, iterations)
		}
	}
	if n := e.Restarts(); n != 0 {
		t.Errorf("Restarts = %d", n)
	}
}

// The fake engine exits on a position command it cannot follow, so that an
// adapter sending a wrong one shows up as a crash rather than going unseen.
func TestFakeRejectsBadPosition(t *testing.T) {
	t.Parallel()
	cfg := fakeConfig()
	cfg.StopTimeout = guard // how long the exit status is waited for, after stdout closed
	for _, moves := range [][]string{{"e2e5"}, {"e2e4", "e2e4"}} {
		e := startFake(t, cfg)
		_, err := e.Search(context.Background(), board.StartFEN, moves, nodes100)
		var fe *engineError
		if !errors.Is(err, engines.ErrCrashed) || !errors.As(err, &fe) || !strings.Contains(fe.Detail, "exit status 4") ||
			!slices.ContainsFunc(fe.Stderr, func(l string) bool { return strings.Contains(l, "fake: bad position command") }) {
			t.Errorf("moves %v: err = %v, want a crash with exit status 4 and the fake's complaint", moves, err)
		}
	}
}

func TestMoveText(t *testing.T) {
	t.Parallel()
	cases := []struct{ mode, fen, want string }{
		{"illegal", board.StartFEN, "e2e5"},
		{"none", board.StartFEN, "0000"},
		{"null", board.StartFEN, "0000"},
		{"legal", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "0000"}, // stalemate: the fake says (none)
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			e := startFake(t, fakeConfig("-mode", c.mode))
			res, err := e.Search(context.Background(), c.fen, nil, nodes100)
			if err != nil || res.Move != c.want {
				t.Errorf("Search = %q, %v; want %q", res.Move, err, c.want)
			}
		})
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	// No search has a deadline: without the fault's handling each would
	// wait for its engine forever (the guard).
	cases := []struct {
		mode string
		lim  engines.Limits
		want error
		text []string
	}{
		{"crash", nodes100, engines.ErrCrashed, []string{"exit status 3", "fatal error: boom"}},
		{"hang", engines.Limits{MoveTime: 100 * time.Millisecond}, engines.ErrTimeout, []string{"no bestmove", "killed"}},
		{"hang", engines.Limits{Clock: &engines.Clock{WhiteTime: 100 * time.Millisecond, BlackTime: time.Hour}}, engines.ErrTimeout, []string{"no bestmove"}},
		{"garbage", nodes100, engines.ErrProtocol, []string{"not UCI", "garbage"}},
		{"bad-bestmove", nodes100, engines.ErrProtocol, []string{`"xyzzy"`}},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			cfg := fakeConfig("-mode", c.mode)
			if c.want == engines.ErrCrashed {
				cfg.StopTimeout = guard // how long the exit status is waited for, after stdout closed
			}
			e := startFake(t, cfg)
			pid := e.pid()
			begin := time.Now()
			_, err := e.Search(context.Background(), board.StartFEN, nil, c.lim)
			elapsed := time.Since(begin)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			var fe *engineError
			if !errors.As(err, &fe) || fe.Engine != "fake" || fe.Op != "search" {
				t.Errorf("err = %#v, want an *engineError of engine fake in search", err)
			}
			for _, s := range c.text {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if elapsed > guard {
				t.Errorf("took %v", elapsed)
			}
			if !waitGone(t, pid) {
				t.Errorf("process %d is still there", pid)
			}
		})
	}
}

// An engine that exits while a child it started holds its stdout (and
// stderr) open has crashed: the adapter sees the exit itself, reports the
// exit status at once instead of waiting out the move's time, and kills the
// child with the engine's process group.
func TestCrashWithChildHoldingStdout(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the child's end is checked through /proc")
	}
	for _, escape := range []bool{false, true} {
		name := map[bool]string{false: "child in the group", true: "child in a session of its own"}[escape]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testCrashWithChild(t, escape)
		})
	}
}

// testCrashWithChild: with escape, the child is out of reach of the kill
// of the engine's group and keeps the pipes open until the test kills it;
// the crash is seen all the same.
func testCrashWithChild(t *testing.T, escape bool) {
	file := filepath.Join(t.TempDir(), "child")
	args := []string{"-mode", "orphan-crash", "-childpid", file}
	if escape {
		args = append(args, "-escape")
	}
	cfg := fakeConfig(args...)
	cfg.StopTimeout = guard // how long the exit status is waited for
	e := startFake(t, cfg)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(data))
	if processGone(t, child) {
		t.Fatalf("child %d did not start", child)
	}
	if escape {
		t.Cleanup(func() {
			if c, err := os.FindProcess(child); err == nil {
				_ = c.Kill()
			}
		})
	}
	// A move time far longer than the test may take: only the exit can end
	// the search as a crash with an exit status.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	begin := time.Now()
	_, err = e.Search(ctx, board.StartFEN, nil, engines.Limits{MoveTime: 2 * time.Minute})
	if !errors.Is(err, engines.ErrCrashed) || !strings.Contains(err.Error(), "exit status 4") {
		t.Fatalf("err = %v, want a crash with exit status 4", err)
	}
	if d := time.Since(begin); d > time.Minute {
		t.Errorf("the crash took %v to be seen", d) // a guard, not a timing test
	}
	var fe *engineError
	if errors.As(err, &fe); fe == nil || fe.Op != opSearch || !slices.Contains(fe.Stderr, "fake: exiting, the child keeps stdout") {
		t.Errorf("err = %#v, want a search crash with the engine's last stderr line", err)
	}
	e.Close()
	if escape {
		return // it left the group: not ours to kill
	}
	if !waitGone(t, child) {
		t.Fatalf("child %d survived its engine", child)
	}
}

func TestCrashRestart(t *testing.T) {
	t.Parallel()
	var log syncBuffer
	cfg := fakeConfig("-mode", "crash-after=2", "-option", "Skill Level")
	cfg.Options = []Option{{"Skill Level", "3"}}
	cfg.StderrLog = &log
	e := startFake(t, cfg)
	e.NewGame(context.Background())
	if _, err := e.Search(context.Background(), board.StartFEN, nil, nodes100); err != nil {
		t.Fatalf("first search: %v", err)
	}
	_, err := e.Search(context.Background(), board.StartFEN, []string{"e2e4", "e7e5"}, nodes100)
	if !errors.Is(err, engines.ErrCrashed) {
		t.Fatalf("second search: err = %v, want engines.ErrCrashed", err)
	}
	var fe *engineError
	if errors.As(err, &fe); fe == nil || !slices.Contains(fe.Stderr, "fake: fatal error: boom") {
		t.Errorf("crash error %#v lacks the stderr line", err)
	}
	if !strings.Contains(log.String(), "boom") {
		t.Errorf("stderr log %q lacks the crash", log.String())
	}
	// The next game restarts the engine (with its options) and goes on.
	e.NewGame(context.Background())
	res, err := e.Search(context.Background(), board.StartFEN, []string{"e2e4"}, nodes100)
	if err != nil || res.Move == "" {
		t.Fatalf("search after the crash: %q, %v", res.Move, err)
	}
	if n := e.Restarts(); n != 1 {
		t.Errorf("Restarts = %d, want 1", n)
	}
	// A crash followed directly by a Search also restarts.
	if _, err := e.Search(context.Background(), board.StartFEN, nil, nodes100); !errors.Is(err, engines.ErrCrashed) {
		t.Fatalf("err = %v, want engines.ErrCrashed", err)
	}
	if _, err := e.Search(context.Background(), board.StartFEN, nil, nodes100); err != nil {
		t.Fatalf("search after the second crash: %v", err)
	}
	if n := e.Restarts(); n != 2 {
		t.Errorf("Restarts = %d, want 2", n)
	}
}

// A process that dies while no call is under way (after its bestmove,
// before the next position; between games; at ucinewgame), or that does
// not answer the isready after ucinewgame, is not restarted unseen: the
// call that meets it fails with the crash (its exit status and stderr) or
// the timeout, as the fault of the game it falls in, with the same text
// whenever the death is seen; the next game restarts the engine and plays
// normally. Each fake has its fault in its first process only (-once).
func TestFaultBetweenCalls(t *testing.T) {
	t.Parallel()
	crashBefore := `engine "fake": position: engine crashed: exit status 5; stderr: fake: exiting after its move`
	cases := []struct {
		name  string
		args  []string
		calls string        // n: NewGame, s: Search; the last one fails
		wait  bool          // the process is gone before the last call
		init  time.Duration // InitTimeout of the last call (0: fakeConfig's)
		kind  error
		text  string // the error, exactly
	}{
		// Seen dead when the search starts, or only when its readyok does
		// not come (the fake exits a second after its move, reading
		// nothing): the same crash of the game.
		{"crash between moves, seen dead", []string{"-mode", "exit-after-move", "-delay", "0s"}, "nss", true, 0,
			engines.ErrCrashed, crashBefore},
		{"crash between moves, seen at readyok", []string{"-mode", "exit-after-move", "-delay", "1s"}, "nss", false, 0,
			engines.ErrCrashed, crashBefore},
		// It died after the last move of a game: the next game's.
		{"crash between games", []string{"-mode", "exit-after-move", "-delay", "0s"}, "nsn", true, 0,
			engines.ErrCrashed, `engine "fake": ucinewgame: engine crashed: exit status 5; stderr: fake: exiting after its move`},
		{"exit at ucinewgame", []string{"-mode", "exit-on-newgame"}, "n", false, 0,
			engines.ErrCrashed, `engine "fake": ucinewgame: engine crashed: exit status 0`},
		{"no readyok after ucinewgame", []string{"-mode", "newgame-no-readyok"}, "n", false, 300 * time.Millisecond,
			engines.ErrTimeout, `engine "fake": ucinewgame: engine timed out: no readyok within 300ms`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := fakeConfig(append(c.args, "-once", filepath.Join(t.TempDir(), "once"))...)
			cfg.StopTimeout = guard // how long the exit status is waited for, after stdout closed
			e := startFake(t, cfg)
			pid := e.pid()
			var moves []string
			call := func(op byte) error {
				if op == 'n' {
					return e.NewGame(context.Background())
				}
				res, err := e.Search(context.Background(), board.StartFEN, moves, nodes100)
				if err == nil {
					moves = append(moves, res.Move)
				}
				return err
			}
			last := len(c.calls) - 1
			for i := range last {
				if err := call(c.calls[i]); err != nil {
					t.Fatalf("call %d (%c): %v", i, c.calls[i], err)
				}
			}
			if c.wait && !waitGone(t, pid) {
				t.Fatalf("process %d did not exit", pid)
			}
			if c.init > 0 {
				e.cfg.InitTimeout = c.init // the start had fakeConfig's
			}
			begin := time.Now()
			err := call(c.calls[last])
			took := time.Since(begin)
			e.cfg.InitTimeout = fakeConfig().InitTimeout
			if !errors.Is(err, c.kind) || err.Error() != c.text {
				t.Fatalf("call %d (%c): err = %v\nwant %v: %s", last, c.calls[last], err, c.kind, c.text)
			}
			if took < c.init || took > guard {
				t.Errorf("the fault took %v", took)
			}
			if !waitGone(t, pid) {
				t.Errorf("process %d is still there", pid)
			}
			if n := e.Restarts(); n != 0 {
				t.Errorf("Restarts = %d before the next game, want 0", n)
			}
			// The next game: a new process, which plays.
			if err := e.NewGame(context.Background()); err != nil {
				t.Fatalf("next game: NewGame: %v", err)
			}
			if p := e.pid(); p == 0 || p == pid {
				t.Errorf("next game: process %d, want a new one (the old was %d)", p, pid)
			}
			moves = nil
			for i := range 2 {
				if err := call('s'); err != nil {
					t.Fatalf("next game: search %d: %v", i, err)
				}
			}
			if n := e.Restarts(); n != 1 {
				t.Errorf("Restarts = %d, want 1", n)
			}
		})
	}
}

func TestRestartFailureIsReported(t *testing.T) {
	t.Parallel()
	exe := filepath.Join(t.TempDir(), "engine")
	data, err := os.ReadFile(fakePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := fakeConfig("-mode", "crash")
	cfg.Command = exe
	e := startFake(t, cfg)
	if _, err := e.Search(context.Background(), board.StartFEN, nil, nodes100); !errors.Is(err, engines.ErrCrashed) {
		t.Fatalf("err = %v, want engines.ErrCrashed", err)
	}
	os.Remove(exe)
	// The restart fails: NewGame says so, and the next Search, which tries
	// again, too.
	if err := e.NewGame(context.Background()); !errors.Is(err, engines.ErrCrashed) || !strings.Contains(err.Error(), "cannot start") {
		t.Fatalf("NewGame: err = %v, want the failed restart", err)
	}
	_, err = e.Search(context.Background(), board.StartFEN, nil, nodes100)
	if !errors.Is(err, engines.ErrCrashed) || !strings.Contains(err.Error(), "cannot start") {
		t.Fatalf("Search: err = %v, want the failed restart", err)
	}
}

// cancelAtGo is a context that is cancelled as e writes go (when the timer
// of its deadline, an hour off, starts): a cancel in the search, not before
// it, whatever the machine's load.
func cancelAtGo(t *testing.T, e *Engine) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	t.Cleanup(cancel)
	e.newTimer = func(d time.Duration) (<-chan time.Time, func() bool) {
		cancel()
		return newTimer(d)
	}
	return ctx
}

func TestContext(t *testing.T) {
	t.Parallel()
	t.Run("cancel, engine stops", func(t *testing.T) {
		t.Parallel()
		// An infinite search that ends only on stop; the engine answers
		// stop however long a loaded machine makes it take (a kill
		// would restart it).
		cfg := fakeConfig("-mode", "wait-stop")
		cfg.StopTimeout = time.Minute
		e := startFake(t, cfg)
		ctx := cancelAtGo(t, e)
		begin := time.Now()
		_, err := e.Search(ctx, board.StartFEN, nil, engines.Limits{})
		if !errors.Is(err, context.Canceled) || errors.Is(err, engines.ErrTimeout) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if d := time.Since(begin); d > guard {
			t.Errorf("took %v", d)
		}
		// The engine answered stop: it is still usable as it is.
		res, err := e.Search(context.Background(), board.StartFEN, nil, engines.Limits{MoveTime: 30 * time.Millisecond})
		if err != nil || res.Move == "" || e.Restarts() != 0 {
			t.Fatalf("next search: %q, %v, restarts %d", res.Move, err, e.Restarts())
		}
		if res.Info.Elapsed < 30*time.Millisecond {
			t.Errorf("movetime search returned after %v", res.Info.Elapsed)
		}
	})
	t.Run("cancel, engine hangs", func(t *testing.T) {
		t.Parallel()
		e := startFake(t, fakeConfig("-mode", "hang"))
		pid := e.pid()
		ctx := cancelAtGo(t, e)
		begin := time.Now()
		_, err := e.Search(ctx, board.StartFEN, nil, nodes100)
		if !errors.Is(err, context.Canceled) || errors.Is(err, engines.ErrTimeout) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if d := time.Since(begin); d > guard {
			t.Errorf("took %v", d)
		}
		if !waitGone(t, pid) {
			t.Errorf("process %d is still there", pid)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		cfg := fakeConfig("-mode", "wait-stop")
		cfg.StopTimeout = time.Minute // it answers stop: not killed however slow
		e := startFake(t, cfg)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := e.Search(ctx, board.StartFEN, nil, nodes100)
		if !errors.Is(err, engines.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want engines.ErrTimeout and DeadlineExceeded", err)
		}
		if _, err := e.Search(context.Background(), board.StartFEN, nil, engines.Limits{MoveTime: 10 * time.Millisecond}); err != nil || e.Restarts() != 0 {
			t.Fatalf("next search: %v, restarts %d", err, e.Restarts())
		}
	})
	t.Run("already cancelled", func(t *testing.T) {
		t.Parallel()
		e := startFake(t, fakeConfig())
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := e.Search(ctx, board.StartFEN, nil, nodes100); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestClose(t *testing.T) {
	t.Parallel()
	t.Run("quit", func(t *testing.T) {
		t.Parallel()
		e := startFake(t, fakeConfig())
		pid := e.pid()
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if _, err := e.Search(context.Background(), board.StartFEN, nil, nodes100); !errors.Is(err, errClosed) {
			t.Errorf("Search after Close: %v", err)
		}
		if err := e.NewGame(context.Background()); !errors.Is(err, errClosed) { // no restart, no panic
			t.Errorf("NewGame after Close: %v", err)
		}
		if !waitGone(t, pid) {
			t.Errorf("process %d is still there", pid)
		}
	})
	t.Run("ignores quit", func(t *testing.T) {
		t.Parallel()
		e := startFake(t, fakeConfig("-mode", "hang"))
		pid := e.pid()
		begin := time.Now()
		e.Close()
		if d := time.Since(begin); d > guard {
			t.Errorf("Close took %v", d)
		}
		if !waitGone(t, pid) {
			t.Errorf("process %d is still there", pid)
		}
	})
	t.Run("during search", func(t *testing.T) {
		t.Parallel()
		e := startFake(t, fakeConfig("-mode", "hang"))
		pid := e.pid()
		time.AfterFunc(50*time.Millisecond, func() { e.Close() })
		begin := time.Now()
		_, err := e.Search(context.Background(), board.StartFEN, nil, nodes100)
		if !errors.Is(err, errClosed) {
			t.Fatalf("err = %v, want errClosed", err)
		}
		if d := time.Since(begin); d > guard {
			t.Errorf("took %v", d)
		}
		if !waitGone(t, pid) {
			t.Errorf("process %d is still there", pid)
		}
	})
	t.Run("children", func(t *testing.T) {
		t.Parallel()
		if runtime.GOOS != "linux" {
			t.Skip("process groups checked through /proc")
		}
		file := filepath.Join(t.TempDir(), "child")
		e := startFake(t, fakeConfig("-childpid", file))
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		child, _ := strconv.Atoi(string(data))
		if processGone(t, child) {
			t.Fatalf("child %d did not start", child)
		}
		e.Close()
		if !waitGone(t, child) {
			t.Fatalf("child %d survived Close", child)
		}
	})
}

func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, mode := range []string{"legal", "crash", "hang", "exit-on-newgame"} {
		e, err := Start(context.Background(), fakeConfig("-mode", mode))
		if err != nil {
			t.Fatal(err)
		}
		_ = e.NewGame(context.Background())
		_, _ = e.Search(context.Background(), board.StartFEN, nil, engines.Limits{MoveTime: 20 * time.Millisecond})
		e.Close()
	}
	deadline := time.Now().Add(guard)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStockfish plays a few searches against a real engine: stockfish on
// PATH or in /usr/games; without one it skips, or fails where
// SELFPLAY_REQUIRE_TOOLS names stockfish (CI).
func TestStockfish(t *testing.T) {
	path := tooltest.Find(t, "stockfish", "stockfish")
	e := startFake(t, Config{Name: "stockfish", Command: path, Options: []Option{{"Threads", "1"}, {"Hash", "16"}}, StopTimeout: time.Second})
	e.NewGame(context.Background())
	b := board.New()
	var moves []string
	for i := 0; i < 6; i++ {
		res, err := e.Search(context.Background(), board.StartFEN, moves, engines.Limits{Nodes: 5000})
		if err != nil {
			t.Fatalf("search %d: %v", i, err)
		}
		m, err := b.ParseUCI(res.Move)
		if err != nil {
			t.Fatalf("search %d: %v", i, err)
		}
		if res.Info.Depth == 0 || res.Info.Nodes == 0 || len(res.Info.PV) == 0 {
			t.Errorf("search %d: info %+v", i, res.Info)
		}
		b.MakeMove(m)
		moves = append(moves, res.Move)
	}
	// The handshake read the id name: the option check's message names it.
	_, err := Start(context.Background(), Config{Name: "stockfish", Command: path, Options: []Option{{"No Such Option", "1"}}})
	if !errors.Is(err, ErrOption) || !strings.Contains(strings.ToLower(err.Error()), "is not an option of stockfish") {
		t.Errorf("unknown option: %v", err)
	}
}

// syncBuffer is safe for the adapter's stderr copier.
type syncBuffer = testkit.SyncBuffer

// Identity is what the process said at its handshake, as fastchess takes
// it (engine/uci_engine.cpp:237-242): the text after "id name " and
// "id author ", "" for a line not written; control bytes come out as
// visible escapes, as every engine text does here.
func TestIdentity(t *testing.T) {
	for _, tc := range []struct {
		mode, name, author string
	}{
		{"legal", "fake engine", "the tests"},
		{"no-author", "fake engine", ""},
		{"control", `fake\x1b[2Jengine\x07`, ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			e := startFake(t, fakeConfig("-mode", tc.mode))
			if name, author := e.Identity(); name != tc.name || author != tc.author {
				t.Errorf("Identity() = %q, %q; want %q, %q", name, author, tc.name, tc.author)
			}
		})
	}
}
