package uci

import (
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// After YieldToEngines the calling thread runs SCHED_BATCH, with its nice
// unchanged, and an engine started afterwards runs SCHED_OTHER.
// Not parallel: it changes the policy of every thread of the test process
// (set back at the end).
func TestYieldToEngines(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, err := unix.SchedGetAttr(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { setAllPolicies(t, unix.SCHED_NORMAL) })
	if err := YieldToEngines(); err != nil {
		t.Fatal(err)
	}
	self, err := unix.SchedGetAttr(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if self.Policy != unix.SCHED_BATCH || self.Nice != before.Nice {
		t.Fatalf("calling thread: policy %d nice %d, want SCHED_BATCH (%d) nice %d", self.Policy, self.Nice, unix.SCHED_BATCH, before.Nice)
	}
	e := startFake(t, fakeConfig("-mode", "legal"))
	engine, err := unix.SchedGetAttr(e.pid(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if engine.Policy != unix.SCHED_NORMAL || engine.Nice != before.Nice {
		t.Errorf("engine: policy %d nice %d, want SCHED_OTHER (%d) nice %d", engine.Policy, engine.Nice, unix.SCHED_NORMAL, before.Nice)
	}
}

// setAllPolicies sets every thread of the process to policy.
func setAllPolicies(t *testing.T, policy uint32) {
	tasks, err := filepath.Glob("/proc/self/task/*")
	if err != nil {
		t.Error(err)
	}
	for _, task := range tasks {
		if tid, err := strconv.Atoi(filepath.Base(task)); err == nil {
			_, _ = setPolicy(tid, policy)
		}
	}
}
