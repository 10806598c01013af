package uci

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"selfplay/engines"
	"selfplay/engines/board"
)

// The move's clock starts when go is written: an engine whose readyok is
// late by more than the move's time plus the caller's margin (300 ms
// against 100 + 150 ms) does not lose the move. The caller's deadline,
// passed before the engine's readyok, becomes the move's budget whole (the
// time left at the call), on a timer started after readyok; the elapsed
// time reported is that of the search, from go.
//
// The budget's clock is the test's (it stands still at the call, the
// deadline passes as the search reads it, and the timer fires when the
// test says): with the wall clock, a loaded machine answered stop after
// the 250 ms budget had run out, and the move was lost ("bestmove came
// 325ms after go"). Every bound on the wall clock checked here is one that
// load can only make larger; the engine's timeouts are a minute.
func TestSlowReadyokIsNotTheMovesTime(t *testing.T) {
	t.Parallel()
	const readyDelay, moveTime, margin = 300 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond
	cfg := fakeConfig("-mode", "wait-stop", "-ready-delay", readyDelay.String())
	cfg.PingTimeout, cfg.StopTimeout = time.Minute, time.Minute
	e := startFake(t, cfg)
	type timer struct {
		d       time.Duration
		started time.Time
	}
	var timers []timer
	fire := make(chan time.Time, 1) // the budget's timer: fires only when the test sends
	e.newTimer = func(d time.Duration) (<-chan time.Time, func() bool) {
		timers = append(timers, timer{d, time.Now()})
		return fire, func() bool { return true }
	}
	var read time.Time // when the search first read the clock
	search := func(lim engines.Limits) (engines.Result, time.Duration, error) {
		// As the runner calls it: a deadline of the move time plus a
		// margin. The clock stands at the call when the search first
		// reads it, and the deadline passes then, before isready is sent;
		// after, the clock is the wall's again (a budget read after the
		// readyok would be gone).
		call := time.Now()
		ctx := &passingDeadline{deadline: call.Add(moveTime + margin), done: make(chan struct{})}
		e.now = func() time.Time {
			if ctx.pass() {
				read = time.Now()
				return call
			}
			return time.Now()
		}
		timers = nil
		res, err := e.Search(ctx, board.StartFEN, nil, lim)
		return res, time.Since(call), err
	}
	for i := 0; i < 2; i++ {
		res, took, err := search(engines.Limits{MoveTime: moveTime})
		if err != nil {
			t.Fatalf("search %d: %v", i, err)
		}
		if len(timers) != 1 || timers[0].d != moveTime+margin {
			t.Fatalf("search %d: budget timers %+v, want one of the caller's whole %v", i, timers, moveTime+margin)
		}
		// Between the two the engine delayed its readyok: the budget
		// was read before isready and started after readyok.
		if waited := timers[0].started.Sub(read); waited < readyDelay {
			t.Errorf("search %d: the budget's timer started %v after the clock was read, less than the readyok's delay (%v)",
				i, waited, readyDelay)
		}
		// The stop comes from the move time (MoveTime after go), and go
		// after readyok: the search's own time is at most what the call
		// took less the wait for readyok.
		if el := res.Info.Elapsed; el < moveTime || el > took-readyDelay {
			t.Errorf("search %d: Elapsed %v, want the search's time from go (%v to %v, the call took %v)",
				i, el, moveTime, took-readyDelay, took)
		}
	}
	// The budget's timer is what ends a search that outlives it: fired, it
	// stops the engine (which moves only on stop; the move time is far
	// off) and the move is lost on time.
	fire <- time.Now()
	_, _, err := search(engines.Limits{MoveTime: time.Hour})
	if !errors.Is(err, engines.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "deadline passed") {
		t.Errorf("search past its budget: err = %v, want engines.ErrTimeout, deadline passed", err)
	}
	if n := e.Restarts(); n != 0 {
		t.Errorf("Restarts = %d", n)
	}
}

// passingDeadline is a context whose deadline passes when pass is first
// called, whatever the wall clock says.
type passingDeadline struct {
	deadline time.Time
	once     sync.Once
	done     chan struct{}
}

// pass reports whether this call passed the deadline (the first does).
func (c *passingDeadline) pass() (first bool) {
	c.once.Do(func() { close(c.done); first = true })
	return first
}

func (c *passingDeadline) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *passingDeadline) Done() <-chan struct{}       { return c.done }
func (c *passingDeadline) Value(any) any               { return nil }
func (c *passingDeadline) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// A readyok later than PingTimeout is a timeout of its own, before go: not
// a slow move (engines.ErrBeforeSearch), with a reason that says so; the
// engine is killed.
func TestPingTimeout(t *testing.T) {
	t.Parallel()
	// Every readyok is late, the one of Start's handshake too (which
	// waits for it): long enough that the ping timeout comes first even
	// on a loaded machine.
	cfg := fakeConfig("-ready-delay", "3s")
	cfg.PingTimeout = 200 * time.Millisecond
	e := startFake(t, cfg)
	pid := e.pid()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := e.Search(ctx, board.StartFEN, nil, engines.Limits{MoveTime: 100 * time.Millisecond})
	var fe *engineError
	if !errors.Is(err, engines.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &fe) || fe.Op != "isready" {
		t.Fatalf("err = %v, want engines.ErrTimeout in isready", err)
	}
	if !errors.Is(err, engines.ErrBeforeSearch) {
		t.Errorf("%v is not ErrBeforeSearch", err)
	}
	for _, want := range []string{"no readyok within 200ms", "go was not sent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if !waitGone(t, pid) {
		t.Errorf("process %d is still there", pid)
	}
	// A fault after go is not ErrBeforeSearch.
	h := startFake(t, fakeConfig("-mode", "hang"))
	_, err = h.Search(context.Background(), board.StartFEN, nil, engines.Limits{MoveTime: 20 * time.Millisecond})
	if !errors.Is(err, engines.ErrTimeout) || errors.Is(err, engines.ErrBeforeSearch) {
		t.Errorf("hang: err = %v; want a timeout after go", err)
	}
}

// An info line longer than 64 KiB (a long info string) is skipped, its
// start kept at most: the search goes on.
func TestLongInfoLineSkipped(t *testing.T) {
	t.Parallel()
	e := startFake(t, fakeConfig("-mode", "long-line"))
	res, err := e.Search(context.Background(), board.StartFEN, nil, nodes100)
	if err != nil || res.Move == "" {
		t.Fatalf("search: %+v, %v; want a move", res, err)
	}
}

// Another line longer than 64 KiB is a protocol error that quotes its start.
func TestLongLine(t *testing.T) {
	t.Parallel()
	e := startFake(t, fakeConfig("-mode", "long-garbage"))
	_, err := e.Search(context.Background(), board.StartFEN, nil, nodes100)
	if !errors.Is(err, engines.ErrProtocol) {
		t.Fatalf("err = %v, want engines.ErrProtocol", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "longer than 64 KiB") || !strings.Contains(msg, `"xxxx`) || len(msg) > 500 {
		t.Errorf("error (%d bytes) %.300q...: want the limit and the line's start, briefly", len(msg), msg)
	}
	// The engine is restarted for the next search.
	e2 := startFake(t, fakeConfig("-mode", "long-garbage"))
	if _, err := e2.Search(context.Background(), board.StartFEN, nil, nodes100); !errors.Is(err, engines.ErrProtocol) {
		t.Fatalf("err = %v", err)
	}
	e2.NewGame(context.Background())
	if n := e2.Restarts(); n != 1 {
		t.Errorf("Restarts = %d, want 1", n)
	}
}

// An engine that answers uci with a flood of lines (yes(1) as an engine)
// fails fast with a protocol error instead of filling memory until the
// init timeout.
func TestHandshakeFlood(t *testing.T) {
	t.Parallel()
	cfg := fakeConfig("-mode", "flood-start")
	cfg.InitTimeout = 2 * guard // fast means long before the init timeout
	begin := time.Now()
	_, err := Start(context.Background(), cfg)
	if !errors.Is(err, engines.ErrProtocol) || !strings.Contains(err.Error(), `more than 1000 lines that are not UCI before uciok, e.g. "y"`) {
		t.Fatalf("err = %v, want the flood as a protocol error", err)
	}
	if d := time.Since(begin); d > guard {
		t.Errorf("took %v", d)
	}
}

// hasUnsafe reports bytes that must not reach a database, a terminal or a
// PGN file: control characters, invalid UTF-8, bidirectional overrides.
func hasUnsafe(s string) bool {
	return !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool {
		return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e
	})
}

// Every string taken from an engine is sanitized: its id name in an option
// error, its stderr in a crash report.
func TestEngineTextIsSanitized(t *testing.T) {
	t.Parallel()
	cfg := fakeConfig("-mode", "control")
	cfg.Options = []Option{{"Contempt", "1"}}
	_, err := Start(context.Background(), cfg)
	if !errors.Is(err, ErrOption) || hasUnsafe(err.Error()) || !strings.Contains(err.Error(), `fake\x1b[2Jengine\x07`) {
		t.Errorf("option error %q: want the id name, escaped", err)
	}
	e := startFake(t, fakeConfig("-mode", "control"))
	_, err = e.Search(context.Background(), board.StartFEN, nil, nodes100)
	var fe *engineError
	if !errors.Is(err, engines.ErrCrashed) || !errors.As(err, &fe) {
		t.Fatalf("err = %v, want a crash", err)
	}
	if hasUnsafe(err.Error()) || !strings.Contains(err.Error(), `fake: \x1b[31mred\x1b[0m bell\x07 nul\x00 del\x7f bad`+"\ufffd\ufffd"+` utf-8 \u202eevil`) {
		t.Errorf("crash error %q: want the stderr line, escaped", err)
	}
	for _, l := range fe.Stderr {
		if hasUnsafe(l) {
			t.Errorf("stderr line %q", l)
		}
	}
}

// readLine keeps memory bounded whatever the engine writes: a 20 MB line
// costs its first 64 KiB.
// Not parallel: it measures the allocations of the process.
func TestReadLine(t *testing.T) {
	long := strings.Repeat("a", maxLine)
	cases := []struct {
		in   string
		want []line
	}{
		{"uciok\n", []line{{"uciok", false}}},
		{"uciok\r\nreadyok", []line{{"uciok", false}, {"readyok", false}}},
		{"\n\n", []line{{"", false}, {"", false}}},
		{long + "\r\n", []line{{long, false}}},
		{long + "b\n", []line{{long, true}}},
		{"bell\a\n", []line{{`bell\x07`, false}}},
	}
	for _, c := range cases {
		r := bufio.NewReaderSize(strings.NewReader(c.in), 4096)
		var got []line
		var buf []byte
		for {
			var l line
			var err error
			l, buf, err = readLine(r, buf)
			if l.text != "" || err == nil {
				got = append(got, l)
			}
			if err != nil {
				break
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%.20q: %d lines, want %d", c.in, len(got), len(c.want))
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%.20q: line %d = {%.20q, %v}, want {%.20q, %v}", c.in, i, got[i].text, got[i].tooLong, c.want[i].text, c.want[i].tooLong)
			}
		}
	}

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := bufio.NewReaderSize(io.MultiReader(&repeatReader{n: 20 << 20}, strings.NewReader("\nreadyok\n")), 4096)
	l, buf, err := readLine(r, nil)
	l2, _, _ := readLine(r, buf)
	runtime.ReadMemStats(&after)
	if err != nil || !l.tooLong || len(l.text) != maxLine || l2.text != "readyok" {
		t.Fatalf("20 MB line: %d bytes, tooLong %v, err %v; next %q", len(l.text), l.tooLong, err, l2.text)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("reading a 20 MB line allocated %d bytes", n)
	}
}

// repeatReader yields n bytes of 'x'.
type repeatReader struct{ n int }

func (r *repeatReader) Read(b []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(b), r.n)
	for i := range b[:k] {
		b[i] = 'x'
	}
	r.n -= k
	return k, nil
}

// An engine's stderr log stops at its limit with one marker line, however
// many processes and Engines write to it.
func TestStderrLogLimit(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "fake.log")
	const limit = 1 << 20
	var logs []*Log
	for i := 0; i < 2; i++ {
		l, err := OpenLog(path, limit)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, l)
		cfg := fakeConfig("-stderr-flood", "3000000")
		cfg.StderrLog = l
		e := startFake(t, cfg)
		if _, err := e.Search(context.Background(), board.StartFEN, nil, nodes100); err != nil {
			t.Fatal(err)
		}
		defer e.Close()
	}
	for _, l := range logs {
		defer l.Close()
	}
	// The stderr copy is asynchronous: wait for both floods to arrive.
	marker := logFullMarker(limit)
	deadline := time.Now().Add(guard)
	for {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(data), marker) == 1 && len(data) == limit+len(marker) {
			if !strings.HasPrefix(string(data), strings.Repeat("e", 99)+"\n") {
				t.Errorf("log starts %.120q", data)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("log of %d bytes with %d markers, want %d bytes and one marker", len(data), strings.Count(string(data), marker), limit+len(marker))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A log that is full when opened stays as it is.
	l, err := OpenLog(path, limit)
	if err != nil {
		t.Fatal(err)
	}
	l.Write([]byte("more\n"))
	l.Close()
	if st, _ := os.Stat(path); st.Size() != limit+int64(len(marker)) {
		t.Errorf("size %d after a write to a full log", st.Size())
	}
}
