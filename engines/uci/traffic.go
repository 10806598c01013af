package uci

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"selfplay/engines"
)

// Directions of a traffic line, as cutechess-cli's debug output has them.
const (
	toEngine   = '>'
	fromEngine = '<'
)

// Traffic log buffering: lines are kept in a buffer of trafficBuffer bytes
// and written when it is full, when a game starts or ends (ucinewgame,
// quit), and with the first line that comes trafficFlushEvery or more
// after the last write, so the log follows the games closely without a
// write per line (a quiet engine's last lines wait for its next line).
const (
	trafficBuffer     = 64 << 10
	trafficFlushEvery = time.Second
)

// TrafficLog is the log of every line sent to and received from external
// engines (Config.Traffic), shared by all of them: one line per UCI line,
//
//	2026-11-26T01:32:05.123456Z tournament=T game=3 engine=sf > go nodes 5000
//
// with the time in UTC, the tournament (left out when none), the game's
// place in the schedule ("-" before the first), the engine's name (quoted
// as Go quotes strings when it holds a space, a quote or is empty), the
// direction ('>' to the engine, '<' from it) and the line as the adapter
// saw it (sanitized, cut at the reader's bound). The file only ever gets
// whole lines: each write to it ends at the end of a line, so a run that
// is killed loses at most the buffered lines, never half of one. A
// failing log never fails an engine: its first error is returned by
// Close.
type TrafficLog struct {
	mu        sync.Mutex
	f         *os.File
	w         *bufio.Writer
	lastFlush time.Time
	err       error
	buf       []byte // the line being formatted, reused
	now       func() time.Time
}

// OpenTrafficLog opens the traffic log at path for appending (-log's
// append=false empties it before, in cmd/selfplay).
func OpenTrafficLog(path string) (*TrafficLog, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &TrafficLog{f: f, w: bufio.NewWriterSize(f, trafficBuffer), now: time.Now, lastFlush: time.Now()}, nil
}

// record logs one line of the engine's traffic.
func (l *TrafficLog) record(g engines.Game, engine string, dir byte, text string) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return // closed: a late line of an engine still shutting down
	}
	b := now.UTC().AppendFormat(l.buf[:0], "2006-01-02T15:04:05.000000Z")
	if g.Tournament != "" {
		b = append(b, " tournament="...)
		b = appendName(b, g.Tournament)
	}
	b = append(b, " game="...)
	if g.Number > 0 {
		b = strconv.AppendInt(b, int64(g.Number), 10)
	} else {
		b = append(b, '-')
	}
	b = append(b, " engine="...)
	b = appendName(b, engine)
	b = append(b, ' ', dir, ' ')
	b = append(b, text...)
	b = append(b, '\n')
	l.buf = b
	// Only whole lines reach the file: a line that does not fit what is
	// left of the buffer goes after a flush (a line longer than the whole
	// buffer is written by itself, in one write).
	if l.w.Buffered() > 0 && len(b) > l.w.Available() {
		l.flushLocked(now)
	}
	if _, err := l.w.Write(b); err != nil && l.err == nil {
		l.err = err
	}
	if dir == toEngine && (text == "ucinewgame" || text == "quit") || now.Sub(l.lastFlush) >= trafficFlushEvery {
		l.flushLocked(now)
	}
}

func (l *TrafficLog) flushLocked(now time.Time) {
	l.lastFlush = now
	if err := l.w.Flush(); err != nil && l.err == nil {
		l.err = err
	}
}

// appendName appends a name, quoted when it would not read as one word.
func appendName(b []byte, name string) []byte {
	if name == "" || strings.ContainsAny(name, " \t\"\\") {
		return strconv.AppendQuote(b, name)
	}
	return append(b, name...)
}

// Flush writes the buffered lines.
func (l *TrafficLog) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return l.err
	}
	l.flushLocked(l.now())
	return l.err
}

// Close writes the buffered lines and closes the file; later lines are
// dropped. It returns the log's first error.
func (l *TrafficLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return l.err
	}
	l.flushLocked(l.now())
	l.err = errors.Join(l.err, l.f.Close())
	l.f = nil
	return l.err
}
