package uci

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfplay/engines"
)

var trafficTime = regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z `)

// readTraffic returns the log's lines with their timestamps replaced by
// "T ", after checking that each line has one.
func readTraffic(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if n, want := len(trafficTime.FindAllString(text, -1)), strings.Count(text, "\n"); n != want {
		t.Fatalf("%d of %d lines have a timestamp:\n%s", n, want, text)
	}
	return trafficTime.ReplaceAllString(text, "T ")
}

// TestTrafficLog: one engine's handshake, game and quit are logged line
// by line, each with its game and direction.
func TestTrafficLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "traffic.log")
	log, err := OpenTrafficLog(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fakeConfig()
	cfg.Name = "fake one"
	cfg.Traffic = log
	ctx := engines.WithGame(context.Background(), engines.Game{Tournament: "t1"})
	e, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx = engines.WithGame(ctx, engines.Game{Tournament: "t1", Number: 7})
	if err := e.NewGame(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Search(ctx, "", []string{"e2e4"}, engines.Limits{Nodes: 10}); err != nil {
		t.Fatal(err)
	}
	e.Close()
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	const before = `T tournament=t1 game=- engine="fake one" `
	const in = `T tournament=t1 game=7 engine="fake one" `
	want := strings.Join([]string{
		before + "> uci",
		before + "< id name fake engine",
		before + "< id author the tests",
		before + "< option name Hash type spin default 16 min 1 max 1024",
		before + "< option name Threads type spin default 1 min 1 max 64",
		before + "< uciok",
		before + "> isready",
		before + "< readyok",
		in + "> ucinewgame",
		in + "> isready",
		in + "< readyok",
		in + "> position startpos moves e2e4",
		in + "> isready",
		in + "< readyok",
		in + "> go nodes 10",
		in + "< info depth 1 seldepth 1 multipv 1 score cp 12 nodes 20 nps 20000 time 1 pv b8a6",
		in + "< info depth 2 currmove b8a6 currmovenumber 1",
		in + "< info depth 2 seldepth 3 multipv 1 score cp 15 upperbound nodes 40 nps 20000 time 2 pv b8a6",
		in + "< info depth 2 seldepth 3 multipv 1 score cp 15 nodes 57 nps 28500 time 2 pv b8a6",
		in + "< info string fake engine done",
		in + "< bestmove b8a6",
		in + "> quit",
	}, "\n") + "\n"
	if got := readTraffic(t, path); got != want {
		t.Errorf("traffic log:\n%s\nwant:\n%s", got, want)
	}
}

// TestTrafficLogWholeLines: what reaches the file before Close is whole
// lines only, whatever their lengths (a killed run loses the buffered
// tail, never half a line); a line longer than the buffer is written by
// itself.
func TestTrafficLogWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "traffic.log")
	log, err := OpenTrafficLog(path)
	if err != nil {
		t.Fatal(err)
	}
	frozen := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	log.now = func() time.Time { return frozen } // no flush by the clock
	lengths := []int{10, trafficBuffer / 3, trafficBuffer / 2, 2 * trafficBuffer, 5, trafficBuffer - 100, 77}
	for i, n := range lengths {
		log.record(engines.Game{Number: i + 1}, "e", fromEngine, strings.Repeat("x", n))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			t.Fatalf("after line %d the file ends in half a line (%d bytes)", i+1, len(b))
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != len(lengths) {
		t.Fatalf("%d lines, want %d", len(lines), len(lengths))
	}
	for i, l := range lines {
		prefix := "2026-01-02T03:04:05.000006Z game=" + string(rune('1'+i)) + " engine=e < "
		if !strings.HasPrefix(l, prefix) || len(l) != len(prefix)+lengths[i] {
			t.Errorf("line %d: %.60q... (%d bytes), want %q and %d x", i+1, l, len(l), prefix, lengths[i])
		}
	}
}

// BenchmarkTrafficLogRecord: the cost of logging one typical info line
// (its formatting and the buffered write), from 4 goroutines at once as
// concurrent games do.
func BenchmarkTrafficLogRecord(b *testing.B) {
	log, err := OpenTrafficLog(filepath.Join(b.TempDir(), "traffic.log"))
	if err != nil {
		b.Fatal(err)
	}
	defer log.Close()
	const text = "info depth 12 seldepth 17 multipv 1 score cp 31 nodes 48211 nps 1205275 hashfull 12 tbhits 0 time 40 pv e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"
	g := engines.Game{Tournament: "sf-vs-sf-1a2b3c4d", Number: 1234}
	b.SetParallelism(1)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			log.record(g, "stockfish", fromEngine, text)
		}
	})
}
