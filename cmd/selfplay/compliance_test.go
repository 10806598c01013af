package main

import (
	"strings"
	"testing"

	"selfplay/internal/testkit"
)

// TestComplianceCommand: selfplay's own engine (selfplay uci) passes every
// step; a fake engine that plays an illegal move fails with exit 1 and
// the step's reason; no engine is a usage error.
func TestComplianceCommand(t *testing.T) {
	exe, argv := testkit.HelperCommand(t, selfplayHelper, "uci")
	code, stdout, stderr := run(t, append([]string{"compliance", "-timeout", "1m", "-margin", "1m", exe}, argv...)...)
	if code != exitOK || !strings.HasSuffix(stdout, "all 32 steps passed\n") {
		t.Errorf("selfplay uci: exit %d\n%s%s", code, stdout, stderr)
	}
	exe, argv = testkit.HelperCommand(t, fakeEngine, "-mode", "illegal")
	code, stdout, stderr = run(t, append([]string{"compliance", "-timeout", "1m", "-margin", "1m", exe}, argv...)...)
	const want = "FAIL 10 position fen 3r2k1/p5n1/... w, go wtime 100: a legal bestmove in time: bestmove e2e5: e2e5 is not a legal move\n"
	if code != exitFailure || !strings.Contains(stdout, want) || !strings.HasSuffix(stdout, "22 of 32 steps failed\n") || stderr != "" {
		t.Errorf("illegal fake: exit %d, want %d and %q\n%s%s", code, exitFailure, want, stdout, stderr)
	}
	if code, _, stderr := run(t, "compliance"); code != exitUsage || !strings.Contains(stderr, "want the engine's command") {
		t.Errorf("no engine: exit %d\n%s", code, stderr)
	}
}
