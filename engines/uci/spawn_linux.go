package uci

import (
	"os/exec"
	"runtime"
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

func newSpawner() *spawner {
	s := &spawner{reqs: make(chan spawnReq), done: make(chan struct{})}
	ready := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		close(ready)
		for {
			select {
			case r := <-s.reqs:
				r.err <- r.cmd.Start()
			case <-s.done:
				return
			}
		}
	}()
	<-ready
	return s
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
