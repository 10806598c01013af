//go:build unix

package uci

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// startSilent starts the fake engine in a mode where it says nothing (it
// sleeps an hour before it reads its input), killed at the end of the test.
func startSilent(t *testing.T) (*Engine, *proc) {
	t.Helper()
	cfg := fakeConfig("-mode", "slow-start", "-delay", "1h")
	sp, err := newSpawner(nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := startProc(&cfg, nil, nil, sp)
	if err != nil {
		sp.stop()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.kill()
		sp.stop()
	})
	return &Engine{cfg: cfg, spawn: sp, now: time.Now}, p
}

// within runs f and fails the test if it has not returned within guard: a
// read that is not woken would wait for its hour.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(guard):
		t.Fatalf("%s: still blocked after %v", what, guard)
	}
}

// A read blocked on an engine that says nothing returns on the context's
// cancellation, not at its time limit.
func TestReadWokenByCancel(t *testing.T) {
	t.Parallel()
	e, p := startSilent(t)
	ctx, cancel := context.WithCancel(context.Background())
	var err error
	within(t, "await", func() {
		go cancel() // before or during the read: either must end it
		err = e.await(ctx, p, opPing, time.Hour, func([]string, string) (bool, error) { return false, nil })
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("await: err = %v, want context.Canceled", err)
	}
	if !p.alive() {
		t.Fatal("the cancelled read killed the engine")
	}
}

// kill during a blocked read ends it with the end of the output; so does
// closing the reader while the process lives on.
func TestReadEndedByKill(t *testing.T) {
	t.Parallel()
	for name, end := range map[string]func(p *proc){
		"kill":  func(p *proc) { p.kill() },
		"close": func(p *proc) { p.out.close() },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, p := startSilent(t)
			if name == "close" {
				p.killOnce.Do(func() {}) // the reader is closed here; kill only kills
				t.Cleanup(func() { killTree(p.cmd.Process) })
			}
			var res readResult
			within(t, "next", func() {
				go end(p)
				_, res = p.next(time.Time{})
			})
			if res != outputEnded {
				t.Fatalf("next = %v, want outputEnded (%v)", res, outputEnded)
			}
		})
	}
}

// splitAll cuts in into lines through a lineSplitter, fed chunk bytes per
// read, as next does.
func splitAll(in string, chunk int) []line {
	var s lineSplitter
	var got []line
	r := strings.NewReader(in)
	for {
		for l, ok := s.next(); ok; l, ok = s.next() {
			got = append(got, l)
		}
		buf := s.space()
		n, _ := r.Read(buf[:min(chunk, len(buf))])
		if n == 0 {
			break
		}
		s.filled(n)
	}
	if l, ok := s.end(); ok {
		got = append(got, l)
	}
	return got
}

// The direct reads cut lines as readLine does (the goroutine reader's
// rules, pipeio.ReadLine's), whatever the writes' sizes: a line split
// across many writes, a line over maxLine, \r\n, a \r that ends no line,
// the text after the last end of line, control bytes.
func TestLineSplitterAsReadLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", maxLine)
	inputs := []string{
		"uciok\n",
		"uciok\r\nreadyok",
		"\n\n\r\n",
		"info depth 1 score cp 20 pv e2e4\ninfo depth 2\r\nbestmove e2e4\n",
		long + "\r\n" + "next\n",
		long + "b\nnext\n",
		long + "\r",
		long[:maxLine-1] + "\r\r\n",
		strings.Repeat("x", 3*maxLine) + "\nafter\n",
		"a\r\n\r\nb\r\r\n",
		"bell\a\n\xff\n",
		"ends with \r",
	}
	for _, in := range inputs {
		var want []line
		r := bufio.NewReaderSize(strings.NewReader(in), 4096)
		var buf []byte
		for {
			l, b, err := readLine(r, buf)
			buf = b
			if l.text != "" || l.tooLong || err == nil {
				want = append(want, l)
			}
			if err != nil {
				break
			}
		}
		for _, chunk := range []int{1, 2, 7, 4096} {
			got := splitAll(in, chunk)
			if len(got) != len(want) {
				t.Errorf("%.20q in reads of %d: %d lines, want %d", in, chunk, len(got), len(want))
				continue
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%.20q in reads of %d: line %d = {%.20q, %v}, want {%.20q, %v}",
						in, chunk, i, got[i].text, got[i].tooLong, want[i].text, want[i].tooLong)
				}
			}
		}
	}
}

// A 20 MB line costs the splitter its first maxLine bytes.
// Not parallel: it measures the allocations of the process.
func TestLineSplitterMemory(t *testing.T) {
	var s lineSplitter
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := io.MultiReader(&repeatReader{n: 20 << 20}, strings.NewReader("\nreadyok\n"))
	var got []line
	for len(got) < 2 {
		if l, ok := s.next(); ok {
			got = append(got, l)
			continue
		}
		n, err := r.Read(s.space())
		if err != nil {
			t.Fatalf("read: %v after %d lines", err, len(got))
		}
		s.filled(n)
	}
	runtime.ReadMemStats(&after)
	if !got[0].tooLong || len(got[0].text) != maxLine || got[1].text != "readyok" {
		t.Fatalf("20 MB line: %d bytes, tooLong %v; next %q", len(got[0].text), got[0].tooLong, got[1].text)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("reading a 20 MB line allocated %d bytes", n)
	}
}

// stockfishInfo is a Stockfish-like info line, for the benchmark.
const stockfishInfo = "info depth 20 seldepth 31 multipv 1 score cp 35 nodes 1234567 nps 1000000 hashfull 10 tbhits 0 time 1234 pv e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"

// BenchmarkNext reads info lines from a process that writes them without
// end (yes(1)) through next: one allocation per line, its string.
func BenchmarkNext(b *testing.B) {
	yes, err := exec.LookPath("yes")
	if err != nil {
		b.Skip("no yes(1)")
	}
	cfg := Config{Command: yes, Args: []string{stockfishInfo}}
	sp, err := newSpawner(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sp.stop()
	p, err := startProc(&cfg, nil, nil, sp)
	if err != nil {
		b.Fatal(err)
	}
	defer p.kill()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if l, res := p.next(time.Time{}); res != gotLine || l.text != stockfishInfo {
			b.Fatalf("next = %q, %v", l.text, res)
		}
	}
}

// newPipeReader returns a reader and the write end of its pipe, with no
// process: the test writes the engine's output itself.
func newPipeReader(t *testing.T) (*stdoutReader, io.WriteCloser) {
	t.Helper()
	r, w, err := newStdoutReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		w.Close()
		r.close()
	})
	return r, w
}

// After the process's exitDrain the output ends even while a helper keeps
// the pipe full (the reader stops reading, at most its buffer's lines
// more), and a last line without its newline is still delivered.
func TestReadEndsAfterExitDrain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		written  string
		maxLines int
		last     string
	}{
		// One read's lines (the last one cut at the buffer's end), not
		// the 6,000 in the pipe.
		{"a full pipe", strings.Repeat("info\n", 6000), 4096/len("info\n") + 1, ""},
		{"no final newline", "readyok\nbestmove e2e4", 2, "bestmove e2e4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, w := newPipeReader(t)
			if _, err := io.WriteString(w, tt.written); err != nil {
				t.Fatal(err)
			}
			// The first line is read before the process is gone.
			if _, res := r.next(time.Time{}); res != gotLine {
				t.Fatalf("first read: %v", res)
			}
			r.endAfter(0) // gone, and its exitDrain over
			n, last := 1, ""
			for {
				l, res := r.next(time.Now().Add(guard))
				if res != gotLine {
					if res != outputEnded {
						t.Fatalf("after %d lines: %v, want the output ended", n, res)
					}
					break
				}
				n, last = n+1, l.text
			}
			if n > tt.maxLines || tt.last != "" && last != tt.last {
				t.Errorf("%d lines read, the last %q; want at most %d, the last %q", n, last, tt.maxLines, tt.last)
			}
		})
	}
}

// drain discards a bounded amount: an engine that writes without end while
// idle cannot hold up the next search, whose reads find the rest.
func TestDrainIsBounded(t *testing.T) {
	t.Parallel()
	r, w := newPipeReader(t)
	if _, err := io.WriteString(w, strings.Repeat("info string idle\n", (60<<10)/len("info string idle\n"))); err != nil {
		t.Fatal(err)
	}
	if !r.drain() {
		t.Fatal("drain: the output ended")
	}
	if _, res := r.next(time.Now().Add(guard)); res != gotLine {
		t.Errorf("after drain: %v; want the lines drain left", res)
	}
}
