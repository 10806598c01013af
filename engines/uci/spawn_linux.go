package uci

import (
	"fmt"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// spawner starts an Engine's processes from one OS thread that lives as
// long as the Engine. The parent-death signal is tied to the thread that
// forked the child, not to the process: a process started from an ordinary
// goroutine would be killed whenever the Go runtime ends that thread, which
// it does when a goroutine locked to it exits (in any package). The
// spawner's goroutine holds its thread locked and never lets another
// goroutine run there; when the Engine is closed the goroutine returns
// still locked, the runtime ends the thread, and any process of the Engine
// still alive gets the signal too.
type spawner struct {
	reqs chan spawnReq
	done chan struct{}
}

type spawnReq struct {
	cmd *exec.Cmd
	err chan error
}

// With cpus, the thread is pinned to them first: a child inherits its
// parent thread's affinity, from its first instruction on. A child
// inherits the thread's scheduling policy too: the thread is set back to
// SCHED_OTHER before each start, so that engines run as normal tasks
// whatever YieldToEngines did to the runner's threads. The thread's own
// affinity and policy are restored when the spawner stops, for the one
// thread the runtime keeps after its goroutine ends locked: the main
// thread.
func newSpawner(cpus []int) (*spawner, error) {
	s := &spawner{reqs: make(chan spawnReq), done: make(chan struct{})}
	ready := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		restore, err := pin(cpus)
		ready <- err
		if err != nil {
			return
		}
		defer restore()
		var policy normalPolicy
		defer policy.restore()
		for {
			select {
			case r := <-s.reqs:
				policy.set()
				r.err <- r.cmd.Start()
			case <-s.done:
				return
			}
		}
	}()
	if err := <-ready; err != nil {
		return nil, err
	}
	return s, nil
}

// pin restricts the calling thread to cpus (none: no change); restore
// gives it back the CPUs it had.
func pin(cpus []int) (restore func(), err error) {
	if len(cpus) == 0 {
		return func() {}, nil
	}
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return nil, err
	}
	for _, c := range cpus {
		if c < 0 || c >= len(set)*64 {
			return nil, fmt.Errorf("no CPU %d", c)
		}
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return nil, err
	}
	return func() { _ = unix.SchedSetaffinity(0, &old) }, nil
}

// start starts cmd on the spawner's thread.
func (s *spawner) start(cmd *exec.Cmd) error {
	r := spawnReq{cmd: cmd, err: make(chan error, 1)}
	select {
	case s.reqs <- r:
		return <-r.err
	case <-s.done:
		return errSpawnerStopped
	}
}

// stop ends the spawner's goroutine and thread. Call it once, after the
// Engine's processes are killed.
func (s *spawner) stop() { close(s.done) }

// normalPolicy sets the calling thread back from SCHED_BATCH to
// SCHED_OTHER (nice unchanged) and, at restore, to batch again.
type normalPolicy struct {
	changed bool
}

// set sets SCHED_OTHER where the thread is SCHED_BATCH (YieldToEngines);
// a policy the user chose for the whole run (chrt -f, -r, -i) is left to
// the engines. A failure leaves the policy as it is: the engine then runs
// as the runner does, which is no error.
func (n *normalPolicy) set() {
	attr, err := unix.SchedGetAttr(0, 0)
	if err != nil || attr.Policy != unix.SCHED_BATCH {
		return
	}
	attr.Policy = unix.SCHED_NORMAL
	if unix.SchedSetAttr(0, attr, 0) == nil {
		n.changed = true
	}
}

func (n *normalPolicy) restore() {
	if n.changed {
		_, _ = setPolicy(0, unix.SCHED_BATCH)
	}
}
