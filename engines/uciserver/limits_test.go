package uciserver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// xs yields 'x' without end.
type xs struct{}

func (xs) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}

// A command line longer than maxLine (here 200 MB) is ignored with an
// error, in bounded memory, and the next command is answered. Not
// parallel: it measures the allocations of the process.
func TestLongCommandLine(t *testing.T) {
	srv, err := New("plain", 1)
	if err != nil {
		t.Fatal(err)
	}
	in := io.MultiReader(strings.NewReader("position startpos moves "), io.LimitReader(xs{}, 200<<20), strings.NewReader("\nisready\n"))
	var out bytes.Buffer
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := srv.Run(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	want := "info string error: a command line longer than 1024 KiB was ignored (it starts \"position startpos moves xxxx"
	if !strings.HasPrefix(out.String(), want) || !strings.HasSuffix(out.String(), "\nreadyok\n") {
		t.Errorf("output %q, want the error then readyok", out.String())
	}
	// The searcher's 1 MiB table and the line's first MiB, not 200 MB.
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Errorf("a 200 MB line cost %d MB of allocations", n>>20)
	}
}

// Info lines held back are written within infoDelay even while the search
// goes on, in order, and bestmove comes after all of them.
func TestInfoDelay(t *testing.T) {
	t.Parallel()
	s := newSession(t, "plain")
	s.send("go infinite")
	begin := time.Now()
	line, _ := s.until("info depth", 2*time.Second)
	if d := time.Since(begin); d > time.Second {
		t.Errorf("first info line %q after %v", line, d)
	}
	s.send("stop")
	_, before := s.until("bestmove", 2*time.Second)
	last := 0
	for _, l := range before {
		var depth int
		if _, err := fmt.Sscanf(l, "info depth %d", &depth); err == nil {
			if depth < last {
				t.Errorf("info lines out of order: %q", before)
			}
			last = depth
		}
	}
}
