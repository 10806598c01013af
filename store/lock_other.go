//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package store

import (
	"fmt"
	"os"
	"runtime"
)

const removeLockFileOnRelease = false

// tryLock fails: without an OS lock, one writer per database cannot be
// enforced, and writing without that guarantee could mix two runs' games.
func tryLock(*os.File) error {
	return fmt.Errorf("no file lock on %s: selfplay cannot write a database here", runtime.GOOS)
}
