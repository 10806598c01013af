package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/engines/uci"
	"selfplay/internal/testkit"
	"selfplay/internal/tooltest"
	"selfplay/store"
	"selfplay/store/record"
)

// playExternal plays the pair of externalConfig with the fake engine
// started with args, the limits replaced by limits (unless empty), and
// returns the store and the games.
func playExternal(t *testing.T, args []string, extra string, limits testkit.Table, logDir string) (*store.Store, []record.Game) {
	t.Helper()
	ext := helperEngine(t, fakeEngine, args...) + "\n" + extra
	c := externalConfig(t, ext)
	if limits != nil {
		c.Tournaments[0].Limits = limits
	}
	cfg := loadConfig(t, c)
	st := openStore(t, cfg)
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(logDir)}); err != nil {
		t.Fatal(err)
	}
	games, err := st.Games(context.Background(), store.GameFilter{WithMoves: true})
	if err != nil || len(games) != 2 {
		t.Fatalf("%d games stored (%v), want the pair", len(games), err)
	}
	if n := processesRunning(fakeEngine); n != 0 {
		t.Errorf("%d engine processes left running", n)
	}
	return st, games
}

// An engine whose readyok comes 500 ms late is not charged for it: the
// move's clock starts when go is written (issue 10 item 4). The fake
// answers go at once; the margin spares the in-process opponent a time
// loss on a loaded machine.
func TestSlowReadyokIsNoTimeLoss(t *testing.T) {
	const readyDelay = 500 * time.Millisecond
	_, games := playExternal(t, []string{"-ready-delay", readyDelay.String()}, "", testkit.Table{"movetime": "200ms", "time_margin": "30s"}, "")
	for _, g := range games {
		if g.Culprit != "" {
			t.Errorf("game %d: %s (%s)", g.Index, g.Termination, g.Reason)
		}
		// Each of ext's searches waited for its readyok before go, within
		// the game: the time its moves were charged and those waits fit
		// in the game's time only if the waits were not charged. (No
		// bound on how fast the fake answers, which load can break.)
		extWhite := g.White == "ext"
		var charged time.Duration
		searches := 0
		for _, m := range g.Moves {
			if ext := (m.Ply%2 == 1) == extWhite; ext && !m.Book {
				charged += m.Time
				searches++
			}
		}
		took := g.Finished.Sub(g.Started)
		if searches == 0 || charged+time.Duration(searches)*readyDelay > took {
			t.Errorf("game %d: ext charged %v for %d moves, which with a %v wait for each readyok is more than the game's %v: the ping was counted",
				g.Index, charged, searches, readyDelay, took)
		}
	}
}

// A readyok later than ping_timeout loses the game as an engine timeout with
// the reason, not on time. The margin spares the in-process opponent, which
// may move first, a time loss on a loaded machine.
func TestPingTimeoutIsEngineTimeout(t *testing.T) {
	_, games := playExternal(t, []string{"-ready-delay", "1s"}, "ping_timeout = \"300ms\"", testkit.Table{"movetime": "100ms", "time_margin": "30s"}, "")
	for _, g := range games {
		fakeWhite := g.White == "ext"
		if g.Termination != record.EngineTimeout || (fakeWhite && g.Result != "0-1") || (!fakeWhite && g.Result != "1-0") ||
			!strings.Contains(g.Reason, "timed out before its search") || !strings.Contains(g.Reason, "no readyok within 300ms") ||
			g.Culprit != "ext" {
			t.Errorf("game %d: %s %s (%s), want an engine timeout of ext for its ping", g.Index, g.Result, g.Termination, g.Reason)
		}
	}
}

// Control bytes and invalid UTF-8 that an engine writes reach neither the
// stored reasons nor the PGN, which pgn-extract reads whole (issue 10
// item 8).
func TestEngineControlBytesInPGN(t *testing.T) {
	tool := pgnExtract(t)
	st, games := playExternal(t, []string{"-mode", "control"}, "", nil, "")
	for _, g := range games {
		if g.Termination != record.EngineCrash || !strings.Contains(g.Reason, `\x1b[31mred`) ||
			strings.ContainsFunc(g.Reason, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0x202e }) {
			t.Errorf("game %d: %s, reason %q: want the crash with its stderr escaped", g.Index, g.Termination, g.Reason)
		}
	}
	pgnExtractReads(t, tool, st, 2)
}

// Each engine's stderr log stops at 10 MiB with a marker (issue 10 item 5).
func TestEngineLogIsCapped(t *testing.T) {
	logDir := t.TempDir()
	playExternal(t, []string{"-stderr-flood", "1000000"}, "", nil, logDir) // 1 MB per move
	data, err := os.ReadFile(filepath.Join(logDir, "ext.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < uci.DefaultLogLimit || len(data) > uci.DefaultLogLimit+200 ||
		!strings.HasSuffix(string(data), "[selfplay: this log reached its limit of 10 MiB; later stderr output of the engine is dropped]\n") {
		t.Errorf("log of %d bytes ending %q: want 10 MiB and the marker", len(data), data[max(0, len(data)-120):])
	}
}

// pgnExtract finds pgn-extract (or skips, unless CI requires it).
func pgnExtract(t *testing.T) string {
	t.Helper()
	return tooltest.Find(t, "pgn-extract", "pgn-extract")
}

// pgnExtractReads exports st's games to a file and has pgn-extract (tool)
// check them (-r: read without writing; -l: diagnostics to a file): all n
// games must match. It returns the PGN file and the diagnostics.
func pgnExtractReads(t *testing.T, tool string, st *store.Store, n int) (pgn, diagnostics string) {
	t.Helper()
	dir := t.TempDir()
	pgn = filepath.Join(dir, "games.pgn")
	if err := os.WriteFile(pgn, []byte(exportAll(t, st)), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "log")
	if out, err := exec.Command(tool, "-r", "-l", log, pgn).CombinedOutput(); err != nil {
		t.Fatalf("pgn-extract: %v\n%s", err, out)
	}
	text, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d games matched out of %d.", n, n); !strings.Contains(string(text), want) {
		t.Fatalf("pgn-extract did not accept every game (want %q):\n%s", want, text)
	}
	return pgn, string(text)
}
