package uci

import (
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// rawPipe returns a pipe whose descriptors are closed on exec and are not
// in the runtime's poller (see stdoutReader).
func rawPipe() (r, w int, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return -1, -1, err
	}
	return fds[0], fds[1], nil
}

// newWaker returns the descriptor that wakes a reader blocked in poll (an
// eventfd: one descriptor, readable while its count is not zero) and its
// write end, the same descriptor.
func newWaker() (r, w int, err error) {
	fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	return fd, fd, err
}

// wakeWord is what a wake writes: 1 added to an eventfd's 8-byte count.
func wakeWord() []byte { return binary.NativeEndian.AppendUint64(nil, 1) }
