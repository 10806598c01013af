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
// once, before the engines start, where external engines play.
func YieldToEngines() error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("SCHED_BATCH: %w", err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		// A thread that ended meanwhile is no longer there to change.
		if err := setPolicy(tid, unix.SCHED_BATCH); err != nil && err != unix.ESRCH {
			return fmt.Errorf("SCHED_BATCH for thread %d: %w", tid, err)
		}
	}
	return nil
}

// setPolicy sets thread tid's (0: the calling thread's) scheduling policy
// among the normal ones (SCHED_OTHER, SCHED_BATCH), its nice unchanged.
func setPolicy(tid int, policy uint32) error {
	attr, err := unix.SchedGetAttr(tid, 0)
	if err != nil {
		return err
	}
	if attr.Policy == policy {
		return nil
	}
	attr.Policy = policy
	return unix.SchedSetAttr(tid, attr, 0)
}
