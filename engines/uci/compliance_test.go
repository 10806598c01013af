package uci

import (
	"cmp"
	"context"
	"strings"
	"testing"
	"time"

	"selfplay/internal/tooltest"
)

// runCompliance checks the engine and returns its steps.
func runCompliance(t *testing.T, cfg Config) []ComplianceStep {
	t.Helper()
	var steps []ComplianceStep
	failed := CheckCompliance(context.Background(), cfg, func(s ComplianceStep) { steps = append(steps, s) })
	n := 0
	for _, s := range steps {
		if s.Err != nil && !s.Skipped {
			n++
		}
	}
	if n != failed {
		t.Errorf("CheckCompliance returned %d failures, its steps say %d", failed, n)
	}
	return steps
}

// failures lists the failed steps as "N name: error", and the skipped ones
// as "N skipped".
func failures(steps []ComplianceStep) []string {
	var out []string
	for _, s := range steps {
		switch {
		case s.Skipped:
			out = append(out, s.Name+": skipped")
		case s.Err != nil:
			out = append(out, s.Name+": "+s.Err.Error())
		}
	}
	return out
}

// TestComplianceFakes: the fake engine passes every step; each of its
// faulty modes fails the step that checks what it does wrong, and only
// that one (or, when it leaves no engine to ask, skips the rest). The
// margins are long where the engine answers (so load cannot fail a
// step) and short where it never answers in time.
func TestComplianceFakes(t *testing.T) {
	const search = "position fen 3r2k1/p5n1/... w, go wtime 100: "
	tests := []struct {
		mode   string
		delay  string // the fake's -delay; "": 5s
		margin time.Duration
		want   []string // substrings of failures(), in order; nil: all pass
		count  int      // failed steps; -1: not checked
	}{
		{mode: "legal", margin: time.Minute},
		{mode: "no-author", margin: time.Minute, want: []string{"id author: no id author line"}, count: 1},
		{mode: "bad-option", margin: time.Minute, want: []string{"option lines are well-formed: \"option name Bad type spin default 5 min 10 max 20\": spin option's default 5 is not within min 10 and max 20"}, count: 1},
		{mode: "bad-info", margin: time.Minute, want: []string{search + "info lines: \"info depth 1 score cp 0.5 pv g2g1\": score cp \"0.5\" is not an integer"}, count: 11},
		{mode: "mate-as-cp", margin: time.Minute, want: []string{search + "info lines: \"info depth 1 score cp 31990 pv g2g1\": score cp 31990 is beyond ±20000"}, count: 11},
		{mode: "illegal-pv", margin: time.Minute, want: []string{search + "info lines: \"info depth 2 score cp 10 pv g2g1 e2e5\": Illegal PV move - move e2e5"}, count: 11},
		{mode: "illegal", margin: time.Minute, want: []string{search + "a legal bestmove in time: bestmove e2e5: e2e5 is not a legal move", "info lines: no info line"}, count: 22},
		{mode: "no-uciok", margin: time.Second, want: []string{"start the engine, uci: uciok: no uciok within 1s", "id name: skipped"}, count: 1},
		{mode: "crash", margin: time.Minute, want: []string{search + "a legal bestmove in time: the engine's output ended (exit status 3)", "info lines: skipped"}, count: 1},
		// Searches end only at stop: every search with a limit fails (how
		// many is not checked: the steps with stop pass only if the fake
		// answers within the margin, which load may prevent).
		{mode: "wait-stop", margin: time.Second, want: []string{search + "a legal bestmove in time: no bestmove within 1.1s of go (bestmove came after a stop sent then)",
			"go wtime 100: info lines: skipped"}, count: -1},
		// A stop before its first iteration ends gets a bare bestmove (as
		// Stockfish's on a loaded machine): the stop waits for a score.
		{mode: "late-score", delay: "300ms", margin: 2 * time.Second},
		// Answers stop 5s late: fatal at the first search.
		{mode: "slow-stop", margin: 100 * time.Millisecond, want: []string{search + "a legal bestmove in time: no bestmove within 200ms of go, nor 100ms after a stop then",
			"info lines: skipped", "quit: the engine exits: skipped"}, count: 1},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			delay := cmp.Or(tc.delay, "5s")
			cfg := fakeConfig("-mode", tc.mode, "-delay", delay)
			cfg.InitTimeout, cfg.StopTimeout = time.Second, tc.margin
			if tc.want == nil {
				cfg.InitTimeout = time.Minute
			}
			steps := runCompliance(t, cfg)
			if len(steps) != 32 {
				t.Fatalf("%d steps, want 32", len(steps))
			}
			got := failures(steps)
			i := 0
			for _, f := range got {
				if i < len(tc.want) && strings.Contains(f, tc.want[i]) {
					i++
				}
			}
			count := 0
			for _, s := range steps {
				if s.Err != nil && !s.Skipped {
					count++
				}
			}
			if i < len(tc.want) || count != tc.count && tc.count >= 0 {
				t.Errorf("%d failures, want %d; missing %q in:\n%s", count, tc.count, tc.want[i:], strings.Join(got, "\n"))
			}
		})
	}
}

// TestComplianceStockfish: Stockfish passes every step (required in CI
// when SELFPLAY_REQUIRE_TOOLS names stockfish).
func TestComplianceStockfish(t *testing.T) {
	path := tooltest.Find(t, "stockfish", "stockfish")
	steps := runCompliance(t, Config{Command: path, InitTimeout: time.Minute, StopTimeout: time.Minute})
	if f := failures(steps); len(f) > 0 || len(steps) != 32 {
		t.Errorf("%d steps; failures:\n%s", len(steps), strings.Join(f, "\n"))
	}
}

// TestComplianceSources: the steps that follow fastchess's check name
// its lines (compliance.hpp at commit 74deac23): the handshake's, the
// position's and the six searches'.
func TestComplianceSources(t *testing.T) {
	cfg := fakeConfig()
	cfg.InitTimeout, cfg.StopTimeout = time.Minute, time.Minute
	n := 0
	for _, s := range runCompliance(t, cfg) {
		if s.Source != "" {
			n++
			if !strings.HasPrefix(s.Source, "fastchess app/src/engine/compliance.hpp:") {
				t.Errorf("step %d: source %q", s.Number, s.Source)
			}
		}
	}
	if n != 4+3+2*6 {
		t.Errorf("%d steps name fastchess's lines, want 19", n)
	}
}
