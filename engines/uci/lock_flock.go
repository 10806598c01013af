//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package uci

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f (flock: per open file, so
// it also orders the Logs of one process that opened the same path) and
// returns its release. Without the lock (an error) the write goes on.
func lockFile(f *os.File) func() {
	rc, err := f.SyscallConn()
	if err != nil {
		return func() {}
	}
	var fd uintptr
	locked := false
	_ = rc.Control(func(d uintptr) {
		fd = d
		for {
			err := syscall.Flock(int(d), syscall.LOCK_EX)
			if err != syscall.EINTR {
				locked = err == nil
				return
			}
		}
	})
	if !locked {
		return func() {}
	}
	return func() { _ = syscall.Flock(int(fd), syscall.LOCK_UN) }
}
