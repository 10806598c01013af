package uci

import (
	"fmt"
	"os"
	"sync"
)

// DefaultLogLimit is the size at which an engine's stderr log stops
// growing (OpenLog).
const DefaultLogLimit = 10 << 20

// Log is an engine's stderr log file, shared by every process of the engine
// and by other Engines (and selfplay runs) that append to the same file. It
// grows up to a limit; the write that reaches it is cut there and followed
// by one marker line, and later output is dropped. On Unix the check of the
// size and the write hold an advisory lock on the file, so concurrent
// writers never pass the limit nor repeat the marker. Use it as
// Config.StderrLog.
type Log struct {
	f     *os.File
	limit int64

	mu   sync.Mutex
	full bool // the limit was reached: drop without looking at the file
}

// OpenLog opens (creating it if needed) the log file at path for
// appending, with a size limit in bytes (DefaultLogLimit if limit <= 0).
func OpenLog(path string, limit int64) (*Log, error) {
	if limit <= 0 {
		limit = DefaultLogLimit
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &Log{f: f, limit: limit}, nil
}

// logFullMarker ends a log that reached its limit.
func logFullMarker(limit int64) string {
	return fmt.Sprintf("\n[selfplay: this log reached its limit of %s; later stderr output of the engine is dropped]\n", byteSize(limit))
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Write appends b, or as much of it as the limit allows. It reports all of
// b as written: a full log must not look like a failing engine.
func (l *Log) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.full {
		return len(b), nil
	}
	unlock := lockFile(l.f)
	defer unlock()
	st, err := l.f.Stat()
	if err != nil {
		return 0, err
	}
	room := l.limit - st.Size()
	if room <= 0 {
		l.full = true
		return len(b), nil
	}
	if int64(len(b)) < room {
		return l.f.Write(b)
	}
	// This write reaches the limit: it is cut there and the marker written.
	// (A file that is over the limit already, such as one of an older
	// version, gets no marker.)
	l.full = true
	if _, err := l.f.Write(b[:room]); err != nil {
		return 0, err
	}
	if _, err := l.f.WriteString(logFullMarker(l.limit)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Close closes the file.
func (l *Log) Close() error { return l.f.Close() }
