//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"errors"
	"os"
	"syscall"
)

// removeLockFileOnRelease: a Unix file can be unlinked while open, so the
// holder removes its lock file when it lets go.
const removeLockFileOnRelease = true

// tryLock takes an exclusive flock on f without waiting. A flock belongs to
// the open file description: it conflicts with every other open of the
// file, in this process too, and the kernel drops it when the last
// descriptor closes (also when the process is killed).
func tryLock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLockBusy
		}
		return err
	}
}
