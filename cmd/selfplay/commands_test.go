package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"selfplay/internal/sysmem"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/internal/testkit"
)

func TestBareCommandUsage(t *testing.T) {
	code, stdout, stderr := run(t)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "usage: selfplay <command>") {
		t.Errorf("no command: exit %d, stdout %q, stderr %q; want exit %d and the usage on stderr", code, stdout, stderr, exitUsage)
	}
	for _, h := range []string{"help", "-h", "--help"} {
		code, stdout, stderr := run(t, h)
		if code != exitOK || stderr != "" || !strings.Contains(stdout, "usage: selfplay <command>") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want the usage on stdout", h, code, stdout, stderr)
		}
	}
}

func TestPerft(t *testing.T) {
	code, stdout, stderr := run(t, "perft", "-depth", "3")
	if code != exitOK || !strings.HasPrefix(stdout, "nodes 8902\n") || !regexp.MustCompile(`(?m)^nps \d+$`).MatchString(stdout) {
		t.Errorf("perft -depth 3: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = run(t, "perft", "-depth", "2", "-divide", "-fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != exitOK || len(lines) != 48+3 || !strings.Contains(stdout, "e1g1 43\n") || !strings.Contains(stdout, "nodes 2039\n") {
		t.Errorf("perft -divide: exit %d, stdout %q", code, stdout)
	}
}

// A perft whose context is cancelled stops before the next root move, prints
// no totals and exits 130.
func TestPerftInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := dispatch(ctx, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, []string{"perft", "-depth", "4", "-divide"})
	if code != exitInterrupted || out.String() != "" || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, no output", code, out.String(), errb.String(), exitInterrupted)
	}
}

// A cancelled perft stops within a root move: the first Ctrl-C is acted on
// at once even when one root move takes minutes (depth 9).
func TestPerftStopsWithinARootMove(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var out, errb bytes.Buffer
	go func() {
		done <- dispatch(ctx, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, []string{"perft", "-depth", "9", "-divide"})
	}()
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case code := <-done:
		if code != exitInterrupted || out.String() != "" || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, no output", code, out.String(), errb.String(), exitInterrupted)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("perft still running 10s after its context was cancelled")
	}
}

// Values that cannot work are bad input with a clear message, before any
// work or allocation.
func TestFlagRanges(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"perft", "-depth", "99999999999"}, "-depth 99999999999 is out of range: want 1..15"},
		{[]string{"perft", "-depth", "16"}, "want 1..15"},
		{[]string{"perft", "-depth", "0"}, "want 1..15"},
		{[]string{"perft", "-fen", ""}, "-fen: empty FEN"},
		{[]string{"perft", "-fen", "  "}, "-fen: empty FEN"},
		{[]string{"search", "-depth", "1", "-fen", ""}, "-fen: empty FEN"},
		{[]string{"search", "-depth", "121"}, "-depth 121 is out of range: want 1..120"},
		{[]string{"search", "-depth", "-3"}, "-depth -3 is out of range: want 1..120"},
		{[]string{"search", "-nodes", "0"}, "-nodes 0 is out of range: want >= 1"},
		{[]string{"search", "-movetime", "-1s"}, "-movetime -1s: want a positive duration"},
		{[]string{"search"}, "give a limit: -depth N, -nodes N or -movetime D"},
		{[]string{"search", "-movetime", "200"}, `invalid value "200" for flag -movetime: want a duration with its unit, such as 500ms or 2s`},
		{[]string{"search", "-fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "-depth", "3"}, "the position is checkmate: no move to search"},
		{[]string{"search", "-fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "-depth", "3"}, "the position is stalemate: no move to search"},
		{[]string{"bench", "-depth", "0"}, "-depth 0 is out of range: want 1..120"},
		{[]string{"search", "-depth", "1", "-hash", "9223372036854775807"}, "-hash: 9223372036854775807 MiB is out of range: want 1..65536"},
		{[]string{"search", "-depth", "1", "-hash", "0"}, "-hash: 0 MiB is out of range"},
		{[]string{"bench", "-depth", "99999"}, "-depth 99999 is out of range: want 1..120"},
		{[]string{"bench", "-hash", "9223372036854775807"}, "-hash: 9223372036854775807 MiB is out of range"},
		{[]string{"uci", "-hash", "9223372036854775807"}, "-hash: 9223372036854775807 MiB is out of range"},
		{[]string{"run", "-concurrency", "5000"}, "-concurrency 5000 is out of range: want 0..1024"},
	}
	// A table of more than the machine's memory, where that is below the
	// fixed bound.
	if phys := sysmem.PhysicalMiB(); phys > 0 && phys < config.MaxHash {
		h := strconv.FormatInt(phys+1, 10)
		tests = append(tests, struct {
			args []string
			want string
		}{[]string{"search", "-depth", "1", "-hash", h}, "more than this machine's physical memory"})
	}
	for _, tt := range tests {
		code, stdout, stderr := run(t, tt.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.args, code, stdout, stderr, exitUsage, tt.want)
		}
	}
}

// lineWriter passes on output and signals when the first line is complete.
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan struct{}
	once  sync.Once
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if bytes.IndexByte(w.buf.Bytes(), '\n') >= 0 {
		w.once.Do(func() { close(w.first) })
	}
	return len(p), nil
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// waitExit waits for cmd to end and returns its exit error.
func waitExit(t *testing.T, cmd *exec.Cmd, timeout time.Duration) *exec.ExitError {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("exit: %v", err)
		}
		return ee
	case <-time.After(timeout):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running %v after the signal", timeout)
		return nil
	}
}

// SIGINT and SIGTERM stop perft between root moves with exit 130.
func TestPerftSignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	bin := selfplayBinary(t)
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		out := &lineWriter{first: make(chan struct{})}
		// About a second per root move; the whole count takes half a minute.
		cmd := exec.Command(bin, "perft", "-depth", "7", "-divide")
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-out.first: // a root move is done: the handler is in place
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no divide line within a minute: %q", out.String())
		}
		cmd.Process.Signal(sig)
		ee := waitExit(t, cmd, 60*time.Second)
		if ee.ExitCode() != exitInterrupted || strings.Contains(out.String(), "nodes ") || !strings.Contains(out.String(), "interrupted") {
			t.Errorf("%v: %v, output %q; want exit %d without totals", sig, ee, out.String(), exitInterrupted)
		}
	}
}

// A second SIGINT kills a command that has not stopped after the first:
// here a run whose external engine ignores stop and quit, so that the
// first signal's clean stop waits a second for it.
func TestSecondInterruptKills(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	bin := selfplayBinary(t)
	dir := t.TempDir()
	c := tinyConfig()
	c.Engines[1] = testkit.Engine{Name: "b", Body: fakeEngineTOML(t, "-mode", "hang")}
	cfg := c.Write(t, dir, "t.toml")
	cmd := exec.Command(bin, "run", "-config", cfg, "-concurrency", "1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The worker's engine is up (the preflight's is gone by then) and
	// searching.
	deadline := time.Now().Add(30 * time.Second)
	for childrenOf(cmd.Process.Pid, fakeEngineMarker) == 0 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the engine did not start within 30s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	engines := children(cmd.Process.Pid, fakeEngineMarker)
	// A hung engine whose selfplay was killed ends at the end of its input;
	// make sure anyway.
	defer func() {
		for _, pid := range engines {
			killMarked(pid, fakeEngineMarker)
		}
	}()
	cmd.Process.Signal(os.Interrupt)
	// Past repeatGrace (a sooner one is taken for a copy of the first), and
	// well before the clean stop's second for the engine is over.
	time.Sleep(650 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
		cmd.Wait()
		t.Fatalf("the first SIGINT ended the process (%v); it should only have cancelled the context", cmd.ProcessState)
	}
	cmd.Process.Signal(os.Interrupt)
	ee := waitExit(t, cmd, 10*time.Second)
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("after the second SIGINT: %v, want killed by SIGINT", ee)
	}
}

// tinyDB plays the tiny tournament once and returns its database.
var tinyDB = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "selfplay-test-db")
	if err != nil {
		return "", err
	}
	tinyDBDir = dir
	cfg := filepath.Join(dir, "t.toml")
	if err := os.WriteFile(cfg, []byte(tinyConfig().String()), 0o644); err != nil {
		return "", err
	}
	var out, errb bytes.Buffer
	if code := dispatch(context.Background(), env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, []string{"run", "-config", cfg}); code != exitOK {
		return "", fmt.Errorf("run: exit %d: %s", code, errb.String())
	}
	return filepath.Join(dir, "games.db"), nil
})

var tinyDBDir string // removed by TestMain

func storedTiny(t *testing.T) string {
	t.Helper()
	db, err := tinyDB()
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// Output flags: a file that cannot be created is bad input (exit 2, nothing
// written); a write that fails is a failure (exit 1).
func TestOutputExitCodes(t *testing.T) {
	db := storedTiny(t)
	dir := t.TempDir()
	epdPath := filepath.Join(dir, "t.epd")
	if err := os.WriteFile(epdPath, []byte(suiteTestEPD), 0o644); err != nil {
		t.Fatal(err)
	}
	commands := map[string][]string{
		"report": {"report", "-db", db},
		"export": {"export", "-db", db},
		"suite":  {"suite", "-epd", epdPath, "-depth", "1", "-hash", "1"},
	}
	for name, args := range commands {
		t.Run(name, func(t *testing.T) {
			bad := filepath.Join(dir, "no-such-dir", name+".out")
			code, stdout, stderr := run(t, append(args, "-o", bad)...)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, "selfplay "+name+": -o: ") || !strings.Contains(stderr, bad) {
				t.Errorf("-o %s: exit %d, stdout %q, stderr %q; want exit %d", bad, code, stdout, stderr, exitUsage)
			}
			code, stdout, stderr = run(t, append(args, "-o", dir)...)
			if code != exitUsage || stdout != "" {
				t.Errorf("-o a directory: exit %d, stdout %q, stderr %q; want exit %d", code, stdout, stderr, exitUsage)
			}
			good := filepath.Join(dir, name+".out")
			code, stdout, stderr = run(t, append(args, "-o", good)...)
			if data, err := os.ReadFile(good); code != exitOK || stdout != "" || err != nil || len(data) == 0 {
				t.Errorf("-o %s: exit %d, stdout %q, stderr %q, file %d bytes (%v)", good, code, stdout, stderr, len(data), err)
			}
			if _, err := os.Stat("/dev/full"); err != nil {
				return
			}
			code, stdout, stderr = run(t, append(args, "-o", "/dev/full")...)
			if code != exitFailure || !strings.Contains(stderr, "/dev/full") || !strings.Contains(stderr, "no space") {
				t.Errorf("-o /dev/full: exit %d, stdout %q, stderr %q; want exit %d", code, stdout, stderr, exitFailure)
			}
		})
	}
}

func TestExportBadInput(t *testing.T) {
	db := storedTiny(t)
	out := filepath.Join(t.TempDir(), "nope.pgn")
	code, stdout, stderr := run(t, "export", "-db", db, "-tournament", "nope", "-o", out)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, `tournament "nope"`) {
		t.Errorf("unknown tournament: exit %d, stdout %q, stderr %q; want exit %d", code, stdout, stderr, exitUsage)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("unknown tournament: %s was created (%v)", out, err)
	}
	code, stdout, stderr = run(t, "export", "-db", db, "-engine", "Nope", "-o", out)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, `engine "Nope" not found (engines: a, b)`) {
		t.Errorf("unknown engine: exit %d, stdout %q, stderr %q; want exit %d", code, stdout, stderr, exitUsage)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("unknown engine: %s was created (%v)", out, err)
	}
	if code, _, stderr := run(t, "export", "-db", db, "stray"); code != exitUsage || !strings.Contains(stderr, "unexpected argument") {
		t.Errorf("stray argument: exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr = run(t, "export", "-db", db, "-tournament", "tiny")
	if code != exitOK || strings.Count(stdout, `[Event "tiny"]`) != 50 || !strings.Contains(stderr, "50 games") {
		t.Errorf("export -tournament tiny: exit %d, %d games, stderr %q", code, strings.Count(stdout, `[Event "tiny"]`), stderr)
	}
}

// A suite run that fails after creating its -o file leaves no empty file.
func TestSuiteFailureRemovesOutput(t *testing.T) {
	dir, epdPath := suiteFile(t)
	out := filepath.Join(dir, "out.txt")
	code, _, stderr := suiteCmd(t, context.Background(), "-epd", epdPath, "-depth", "1", "-o", out, "-db", filepath.Join(dir, "no-such-dir", "s.db"))
	if code != exitUsage {
		t.Errorf("bad -db: exit %d, stderr %q; want %d", code, stderr, exitUsage)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s left behind (%v)", out, err)
	}
}

func TestBench(t *testing.T) {
	dir := t.TempDir()
	epdPath := filepath.Join(dir, "b.epd")
	if err := os.WriteFile(epdPath, []byte(suiteTestEPD), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, "bench", "-epd", epdPath, "-depth", "2", "-hash", "1")
	if code != exitOK || strings.Count(stdout, "position ") != 5 || !strings.Contains(stdout, "position mate1 depth ") ||
		strings.Contains(stdout, "crafty") || !regexp.MustCompile(`(?m)^nps \d+$`).MatchString(stdout) {
		t.Errorf("bench -epd: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = run(t, "bench", "-epd", epdPath, "-depth", "1", "-hash", "1", "-variant", " plain , fhr ")
	if code != exitOK || !strings.Contains(stdout, "bench depth 1 positions 5") || !regexp.MustCompile(`(?m)^ *fhr  `).MatchString(stdout) {
		t.Errorf("bench two variants: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// A node budget: every search spends exactly it, and the table adds
	// the mean depth reached (plain and null-r3 reach different depths).
	code, stdout, stderr = run(t, "bench", "-epd", epdPath, "-nodes", "3000", "-hash", "1", "-variant", "plain,null-r3")
	depthCol := regexp.MustCompile(`(?m)^ *(plain|null-r3) +15000 .* (\d+\.\d\d)$`)
	if code != exitOK || !strings.Contains(stdout, "bench nodes 3000 positions 5") || !strings.HasSuffix(strings.SplitN(stdout, "\n", 3)[1], "  depth") ||
		len(depthCol.FindAllString(stdout, -1)) != 2 {
		t.Errorf("bench -nodes: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := run(t, "bench", "-nodes", "-5"); code != exitUsage || !strings.Contains(stderr, "-nodes -5 is out of range: want >= 1") {
		t.Errorf("bench -nodes -5: exit %d, stderr %q", code, stderr)
	}
	for _, tc := range []struct{ variant, want string }{
		{"plain,nosuch", `unknown variant preset "nosuch"`},
		{"plain,plain", "given twice"},
		{"plain,", "empty item"},
		{"plain:dr=9", "dr"},
	} {
		code, stdout, stderr := run(t, "bench", "-depth", "1", "-variant", tc.variant)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("-variant %q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.variant, code, stdout, stderr, exitUsage, tc.want)
		}
	}
}

// The search command prints the UCI server's info lines.
func TestSearchCommand(t *testing.T) {
	code, stdout, stderr := run(t, "search", "-depth", "3", "-hash", "1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	info := regexp.MustCompile(`^info depth (\d+) seldepth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ nps \d+ time \d+ pv( [a-h][1-8][a-h][1-8][nbrq]?)+$`)
	var depths []string
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "info ") {
			m := info.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("info line %q", l)
				continue
			}
			depths = append(depths, m[1])
		}
	}
	if strings.Join(depths, ",") != "1,2,3" || !strings.Contains(stdout, "\nbestmove ") {
		t.Errorf("depths %v in\n%s", depths, stdout)
	}
}

// An -o that names the command's input is refused before anything is
// written: creating the output would truncate the input first.
func TestOutputIsInputRefused(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "copy.db")
	data, err := os.ReadFile(storedTiny(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "linked.db")
	if err := os.Link(db, linked); err != nil {
		t.Fatal(err)
	}
	pgn := filepath.Join(dir, "g.pgn")
	if err := os.WriteFile(pgn, []byte("[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	epd := filepath.Join(dir, "t.epd")
	if err := os.WriteFile(epd, []byte(suiteTestEPD), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		input string // the file that must be left as it was
	}{
		{"report", []string{"report", "-db", db, "-o", db}, db},
		{"report through a hard link", []string{"report", "-db", db, "-o", linked}, db},
		{"export", []string{"export", "-db", db, "-o", db}, db},
		{"ratings", []string{"ratings", "-o", pgn, pgn}, pgn},
		{"compare", []string{"compare", "-o", pgn, pgn, pgn}, pgn},
		{"suite", []string{"suite", "-epd", epd, "-depth", "1", "-o", epd}, epd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, err := os.ReadFile(tt.input)
			if err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := run(t, tt.args...)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, "is the input") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and a message", code, stdout, stderr, exitUsage)
			}
			after, err := os.ReadFile(tt.input)
			if err != nil || !bytes.Equal(before, after) {
				t.Errorf("%s changed (%d bytes before, %d after, %v)", tt.input, len(before), len(after), err)
			}
		})
	}
}

// failingWriter fails every write, like a full disk.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A command whose standard output cannot be written exits 1 with the
// reason, as the exit-code table says, rather than 0.
func TestStdoutWriteErrorExitsOne(t *testing.T) {
	for _, args := range [][]string{
		{"elo", "-w", "1", "-l", "2", "-d", "3"},
		{"search", "-depth", "2"},
		{"perft", "-depth", "2"},
		{"bench", "-depth", "1"},
		{"variants"},
		{"version"},
	} {
		t.Run(args[0], func(t *testing.T) {
			var errb bytes.Buffer
			code := dispatch(context.Background(), env{stdin: strings.NewReader(""), stdout: failingWriter{}, stderr: &errb}, args)
			if code != exitFailure || !strings.Contains(errb.String(), "selfplay "+args[0]+": writing standard output: no space left") {
				t.Errorf("exit %d, stderr %q; want exit %d and the reason", code, errb.String(), exitFailure)
			}
		})
	}
}

// Ctrl-C while the database is being created is an interruption (exit
// 130), not bad input, and leaves no database behind.
func TestInterruptWhileOpeningTheDatabase(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := filepath.Join(t.TempDir(), "new.db")
	st, err := openWriter(ctx, "run", path)
	if st != nil {
		st.Close()
	}
	if code := exitCode(err); code != exitInterrupted || err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("exit %d, error %v; want exit %d", code, err, exitInterrupted)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a database was left behind: %v", err)
	}
}

// The published games (results/) replay node for node only while every
// earlier preset searches exactly as it did: these are the built-in
// benchmark's node counts at depth 5, measured with commit 1e925cc's
// selfplay (before FALCON's switches). A change to the search that moves
// one of them must say so, and the published results with it.
func TestPublishedPresetsNodeCounts(t *testing.T) {
	want := map[string]string{
		"plain": "518092", "fhr": "146196", "null-r1": "367722", "null-r2": "306938", "null-r3": "279992",
		"null-r4": "279992", "adaptive-r2-3": "306938", "adaptive-r3-4": "279992", "verified-r3": "249350",
		"nmr-r3-4": "297737", "nmr-r4": "297737", "ye-marsland": "311317",
	}
	variants := "plain,fhr,null-r1,null-r2,null-r3,null-r4,adaptive-r2-3,adaptive-r3-4,verified-r3,nmr-r3-4,nmr-r4,ye-marsland"
	code, stdout, stderr := run(t, "bench", "-depth", "5", "-variant", variants)
	if code != exitOK {
		t.Fatalf("bench: exit %d, %s", code, stderr)
	}
	got := map[string]string{}
	for _, line := range strings.Split(stdout, "\n")[2:] {
		if f := strings.Fields(line); len(f) > 1 {
			got[f[0]] = f[1]
		}
	}
	for v, n := range want {
		if got[v] != n {
			t.Errorf("%s: %s nodes at depth 5, want %s", v, got[v], n)
		}
	}
}
