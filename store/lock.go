package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// The single-writer lock is an OS lock (flock on Unix, LockFileEx on
// Windows) on the file PATH.lock beside the database: the kernel holds it
// for the open file and drops it when the process exits, however it exits,
// so a killed writer never leaves a stale lock. The file's content (who
// holds it, for the message a second writer prints) is information only;
// its presence means nothing.

// lockSuffix is appended to the database path to name its lock file.
const lockSuffix = ".lock"

// errLockBusy is returned by tryLock when another open file holds the lock.
var errLockBusy = errors.New("lock held by another process")

// InUseError is returned by OpenWriter when another process writes the
// database.
type InUseError struct {
	Path    string    // the database as given to OpenWriter
	Command string    // the holder's command ("run", "suite", ...); "" if unknown
	PID     int       // 0 if unknown
	Host    string    // "" if unknown
	Since   time.Time // zero if unknown
}

func (e *InUseError) Error() string {
	who := "selfplay " + e.Command
	if e.Command == "" {
		who = "selfplay process"
	}
	if e.PID == 0 {
		return fmt.Sprintf("%s is in use by another %s", e.Path, who)
	}
	return fmt.Sprintf("%s is in use by another %s (pid %d on %s since %s)", e.Path, who, e.PID, e.Host,
		e.Since.Local().Format("2006-01-02 15:04:05 -0700"))
}

// writerLock is a held single-writer lock.
type writerLock struct {
	f    *os.File
	path string
}

// lockInfo is what the lock file says about its holder: one line,
// "selfplay COMMAND pid PID on HOST since RFC3339-TIME".
func lockInfo(command string) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	return fmt.Sprintf("selfplay %s pid %d on %s since %s\n", command, os.Getpid(), host, time.Now().Format(time.RFC3339))
}

// parseLockInfo reads a lock file's line back into e's holder fields; a
// line it cannot read leaves them unknown.
func parseLockInfo(line string, e *InUseError) {
	f := strings.Fields(line)
	if len(f) != 8 || f[0] != "selfplay" || f[2] != "pid" || f[4] != "on" || f[6] != "since" {
		return
	}
	pid, err := strconv.Atoi(f[3])
	if err != nil {
		return
	}
	since, err := time.Parse(time.RFC3339, f[7])
	if err != nil {
		return
	}
	e.Command, e.PID, e.Host, e.Since = f[1], pid, f[5], since
}

// acquireWriterLock takes the lock of the database at path (as given, for
// messages; lockPath is PATH.lock) for command, or returns an *InUseError
// naming the holder.
func acquireWriterLock(path, lockPath, command string) (*writerLock, error) {
	// The previous holder removes the file when it lets go (release), so
	// the file we opened may be unlinked by the time we hold its lock:
	// then the lock guards nothing and we try again on the new file.
	for attempt := 0; attempt < 20; attempt++ {
		f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("creating the lock file: %w", err)
		}
		if err := tryLock(f); err != nil {
			f.Close()
			if errors.Is(err, errLockBusy) {
				return nil, holderOf(path, lockPath)
			}
			return nil, fmt.Errorf("locking %s: %w", lockPath, err)
		}
		if !stillNamed(f, lockPath) {
			f.Close()
			continue
		}
		l := &writerLock{f: f, path: lockPath}
		if err := l.describe(command); err != nil {
			l.release()
			return nil, fmt.Errorf("writing the lock file: %w", err)
		}
		return l, nil
	}
	return nil, fmt.Errorf("locking %s: the lock file keeps being replaced", lockPath)
}

// holderOf reads the holder's description from the lock file. The holder
// may have taken the lock an instant ago and not written it yet: the read
// is retried briefly before the holder is reported as unknown.
func holderOf(path, lockPath string) *InUseError {
	e := &InUseError{Path: path}
	for i := 0; i < 10; i++ {
		if b, err := os.ReadFile(lockPath); err == nil {
			if parseLockInfo(string(b), e); e.PID != 0 {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return e
}

// describe writes the holder's line into the lock file.
func (l *writerLock) describe(command string) error {
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	_, err := l.f.WriteAt([]byte(lockInfo(command)), 0)
	return err
}

// stillNamed reports whether path names the open file f.
func stillNamed(f *os.File, path string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	pi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, pi)
}

// release removes the lock file, if it is still ours, and lets go of the
// lock. The file is removed while the lock is held, so that no other
// writer can be holding a lock on it (see acquireWriterLock).
func (l *writerLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	if removeLockFileOnRelease && stillNamed(l.f, l.path) {
		os.Remove(l.path)
	}
	err := l.f.Close() // closing the descriptor releases the lock
	l.f = nil
	return err
}
