//go:build !linux

package uci

import "os/exec"

// spawner starts processes directly: the parent-death signal that needs a
// thread of its own is Linux only.
type spawner struct{ done chan struct{} }

// newSpawner ignores cpus: CPU affinity is set on Linux only.
func newSpawner([]int) (*spawner, error) { return &spawner{done: make(chan struct{})}, nil }

func (s *spawner) start(cmd *exec.Cmd) error {
	select {
	case <-s.done:
		return errSpawnerStopped
	default:
	}
	return cmd.Start()
}

func (s *spawner) stop() { close(s.done) }
