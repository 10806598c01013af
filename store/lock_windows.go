//go:build windows

package store

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// removeLockFileOnRelease: Windows does not delete an open file, and the
// lock file's content must stay readable to a second writer, so the file
// is left in place (it is an empty lock once the holder has gone).
const removeLockFileOnRelease = false

// lockOffset is where the locked byte lies: far past the holder's line, so
// that a second writer can still read who holds the lock (Windows locks
// are mandatory for reads of the locked range).
const lockOffset = 1 << 40

// tryLock takes an exclusive LockFileEx lock on f without waiting; Windows
// releases it when the handle closes or the process ends.
func tryLock(f *os.File) error {
	ol := new(windows.Overlapped)
	ol.OffsetHigh = lockOffset >> 32
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return errLockBusy
	}
	return err
}
