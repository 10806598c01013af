package uci

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// YieldToEngines puts every thread of this process under SCHED_BATCH;
// threads the runtime starts later inherit it. The engines' processes
// still start under SCHED_OTHER (the spawner sets its thread back first,
// see spawner). Batch keeps a thread's share of the CPU (same weight, nice
// unchanged) but a wakeup of a batch thread does not preempt the thread
// running: a runner woken by an engine's line no longer interrupts the
// other game's engine, and its engines migrate less between CPUs, as in
// fastchess's measurement (docs/architecture.md, Performance). Call it
// once, before the engines start, where external engines play. A runner
// started under another policy than SCHED_OTHER (chrt) is left as it is.
func YieldToEngines() error {
	if attr, err := unix.SchedGetAttr(0, 0); err != nil || attr.Policy != unix.SCHED_NORMAL {
		return err
	}
	// A thread the runtime starts during a pass, cloned from one not yet
	// changed, is missed by that pass: walk until a pass changes nothing.
	for range 8 {
		changed, err := batchAllThreads()
		if err != nil || !changed {
			return err
		}
	}
	return nil
}

// batchAllThreads puts the threads listed in /proc/self/task under
// SCHED_BATCH; changed says whether one was not already.
func batchAllThreads() (changed bool, err error) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false, fmt.Errorf("SCHED_BATCH: %w", err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		c, err := setPolicy(tid, unix.SCHED_BATCH)
		// A thread that ended meanwhile is no longer there to change.
		if err != nil && err != unix.ESRCH {
			return changed, fmt.Errorf("SCHED_BATCH for thread %d: %w", tid, err)
		}
		changed = changed || c
	}
	return changed, nil
}

// setPolicy sets thread tid's (0: the calling thread's) scheduling policy
// among the normal ones (SCHED_OTHER, SCHED_BATCH), its nice unchanged;
// changed says whether it was another.
func setPolicy(tid int, policy uint32) (changed bool, err error) {
	attr, err := unix.SchedGetAttr(tid, 0)
	if err != nil {
		return false, err
	}
	if attr.Policy == policy {
		return false, nil
	}
	attr.Policy = policy
	return true, unix.SchedSetAttr(tid, attr, 0)
}
