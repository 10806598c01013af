package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// The single-writer lock is two OS locks (flock on Unix, LockFileEx on
// Windows), both taken without waiting and both released by the kernel
// when the process exits, however it exits, so a killed writer never
// leaves a stale lock:
//
//   - one on the file PATH.lock beside the database, by name: it guards
//     the creation of a new database at PATH, and its content (who holds
//     it, for the message a second writer prints) is information only;
//     its presence means nothing;
//   - one on the database file itself, by identity: whatever name reaches
//     the file (a hard link, a symbolic link, a bind mount, a rename), a
//     second writer finds it locked.
//
// The database file's lock is a flock (an open file description's lock),
// never fcntl: SQLite locks the same file with fcntl, and the kernel keeps
// the two kinds apart on local file systems. A POSIX (fcntl) lock belongs
// to the process and is dropped when any descriptor of the file is closed
// in it, so the descriptor that holds the flock is closed only after the
// Store's connections (Close), or at once when another writer holds the
// lock (a process never writes one file through two Stores).

// lockSuffix is appended to the database path to name its lock file.
const lockSuffix = ".lock"

// errLockBusy is returned by tryLock when another open file holds the lock.
var errLockBusy = errors.New("lock held by another process")

// InUseError is returned by OpenWriter when another process writes the
// database.
type InUseError struct {
	Path string // the database as given to OpenWriter
	// Other is the name under which the holder writes the file, when it
	// reached it by another name (a hard link, a bind mount) and that name
	// is known; "" otherwise.
	Other   string
	Command string    // the holder's command ("run", "suite", ...); "" if unknown
	PID     int       // 0 if unknown
	Host    string    // "" if unknown
	Since   time.Time // zero if unknown
	// sameFileElsewhere: the database file itself is locked, not PATH.lock
	// (the holder reached the file by another name, Other if known).
	sameFileElsewhere bool
}

func (e *InUseError) Error() string {
	who := "selfplay " + e.Command
	if e.Command == "" {
		who = "selfplay process"
	}
	var holder string
	switch {
	case e.PID != 0 && e.Command == "":
		holder = fmt.Sprintf(" (pid %d)", e.PID)
	case e.PID != 0:
		holder = fmt.Sprintf(" (pid %d on %s since %s)", e.PID, e.Host, e.Since.Local().Format("2006-01-02 15:04:05 -0700"))
	}
	switch {
	case e.Other != "":
		holder += fmt.Sprintf(" that writes it as %s (the same file under another name)", e.Other)
	case e.sameFileElsewhere && e.PID == 0:
		holder += " through another name of the same file (a hard link or a bind mount)"
	}
	return fmt.Sprintf("%s is in use by another %s%s", e.Path, who, holder)
}

// writerLock is a held single-writer lock.
type writerLock struct {
	f    *os.File // PATH.lock
	path string   // PATH.lock's path
	db   *os.File // the database file, locked (lockDatabase); nil before
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

// lockDatabase takes the lock of the database file at abs itself (path is
// as given, for messages), or returns an *InUseError naming the holder.
// The file must exist; it is opened for writing (a file that cannot be
// written fails here, before SQLite would fall back to a read-only
// connection), and the lock is held until release.
func (l *writerLock) lockDatabase(path, abs string) error {
	return l.lockFile(path, abs, func() (*os.File, error) {
		f, err := os.OpenFile(abs, os.O_RDWR, 0)
		if err != nil {
			return nil, fmt.Errorf("not writable: %w", err)
		}
		return f, nil
	})
}

// lockFile locks the file that open opens (abs, path as given for
// messages), or returns an *InUseError naming the holder; a file replaced
// (renamed over) between the open and the lock is opened again.
func (l *writerLock) lockFile(path, abs string, open func() (*os.File, error)) error {
	for attempt := 0; attempt < 20; attempt++ {
		f, err := open()
		if err != nil {
			return err
		}
		if err := tryLock(f); err != nil {
			fi, serr := f.Stat()
			f.Close() // another writer's file: this process has no connection to it
			if errors.Is(err, errLockBusy) && serr == nil {
				return fileHolderOf(path, abs, fi)
			}
			return fmt.Errorf("locking %s: %w", path, err)
		}
		if !stillNamed(f, abs) {
			f.Close()
			continue
		}
		l.db = f
		return nil
	}
	return fmt.Errorf("locking %s: the file keeps being replaced", path)
}

// lockedFile reports whether fi is the database file whose lock is held.
func (l *writerLock) lockedFile(fi os.FileInfo) bool {
	if l.db == nil {
		return false
	}
	li, err := l.db.Stat()
	return err == nil && os.SameFile(li, fi)
}

// fileHolderOf describes the writer that holds the lock of the database
// file at abs (fi), reached by this process as path: where the system
// tells (fileLockHolder), its pid, the name it writes the file by, and
// from its lock file its command and start.
func fileHolderOf(path, abs string, fi os.FileInfo) *InUseError {
	e := &InUseError{Path: path, sameFileElsewhere: true}
	h := fileLockHolder(fi)
	if h.pid == 0 {
		return e
	}
	e.PID = h.pid
	if h.name != abs {
		e.Other = h.name
	}
	for _, f := range h.lockFiles {
		if b, err := os.ReadFile(f); err == nil {
			var info InUseError
			if parseLockInfo(string(b), &info); info.PID == h.pid {
				e.Command, e.Host, e.Since = info.Command, info.Host, info.Since
				break
			}
		}
	}
	return e
}

// lockHolder is what the system tells of the process that holds a file's
// lock (fileLockHolder).
type lockHolder struct {
	pid       int      // 0: unknown
	name      string   // the name it opened the file by; "" if unknown
	lockFiles []string // paths that open its open PATH.lock files
}

// release removes the lock file, if it is still ours, and lets go of the
// locks. The file is removed while the lock is held, so that no other
// writer can be holding a lock on it (see acquireWriterLock).
func (l *writerLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	var err error
	if l.db != nil {
		err = l.db.Close() // after the Store's connections (Close)
		l.db = nil
	}
	if removeLockFileOnRelease && stillNamed(l.f, l.path) {
		os.Remove(l.path)
	}
	if cerr := l.f.Close(); err == nil { // closing the descriptor releases the lock
		err = cerr
	}
	l.f = nil
	return err
}
