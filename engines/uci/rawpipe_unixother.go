//go:build unix && !linux

package uci

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// rawPipe returns a pipe whose descriptors are closed on exec and are not
// in the runtime's poller (see stdoutReader). Without pipe2 everywhere,
// the descriptors are made close-on-exec under the fork lock, as os.Pipe
// does.
func rawPipe() (r, w int, err error) {
	var fds [2]int
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := unix.Pipe(fds[:]); err != nil {
		return -1, -1, err
	}
	unix.CloseOnExec(fds[0])
	unix.CloseOnExec(fds[1])
	return fds[0], fds[1], nil
}

// newWaker returns a self-pipe that wakes a reader blocked in poll: its
// read end and write end, both non-blocking (a wake on a full pipe is
// dropped: the reader has wakes to read already).
func newWaker() (r, w int, err error) {
	r, w, err = rawPipe()
	if err != nil {
		return -1, -1, err
	}
	if err := unix.SetNonblock(r, true); err != nil {
		unix.Close(r)
		unix.Close(w)
		return -1, -1, err
	}
	if err := unix.SetNonblock(w, true); err != nil {
		unix.Close(r)
		unix.Close(w)
		return -1, -1, err
	}
	return r, w, nil
}

// wakeWord is what a wake writes: a byte.
func wakeWord() []byte { return []byte{1} }
