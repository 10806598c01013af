//go:build unix

package uci

import (
	"errors"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// stdoutReader reads an engine's stdout in the goroutine that waits for
// its lines, with read(2) and poll(2) on a descriptor that is not in the
// runtime's poller, as a thread per game does in fastchess
// (app/src/engine/process/process_posix.hpp, readOutput). A line then wakes
// the thread that waits in poll, the one that acts on it, instead of a
// reader goroutine, the netpoller and the scheduler: fewer preemptions of
// the engines and fewer migrations of them between CPUs
// (docs/architecture.md, Performance). Cancellation, a kill and the process's exit reach a blocked
// reader through a wake descriptor that poll watches too.
type stdoutReader struct {
	mu    sync.Mutex // held while reading, and to close
	fd    int        // our end of stdout, non-blocking; -1 once closed
	wakeR int        // the wake descriptor's read end; -1 once closed
	split lineSplitter
	eof   bool
	tap   func(dir byte, text string) // logs each line read; nil: none

	wakeMu sync.Mutex // guards wakeW against close
	wakeW  int        // the wake descriptor's write end; -1 once closed

	woken  atomic.Bool // wake was called and next has not returned woken since
	closed atomic.Bool // close was called
	// With the process gone: when its output counts as ended, as time since
	// born plus 1 (0: not yet). Monotonic, so a clock step cannot stretch it.
	endBy atomic.Int64
	born  time.Time

	lastYield time.Time // when wait last yielded to the scheduler
}

// drainBudget bounds what drain discards in one call: an engine that
// writes without end while idle cannot hold up the next search.
const drainBudget = 32 << 10

// maxPollWait bounds one poll's timeout (the loop waits again): a far
// deadline must not overflow poll's int milliseconds on 32-bit systems.
const maxPollWait = time.Hour

// yieldEvery is how often a reader that keeps waiting yields to the Go
// scheduler: under the runtime's 10 ms preemption period.
const yieldEvery = 5 * time.Millisecond

// newStdoutReader returns the reader and the pipe's write end for the
// engine (close it once the engine has started).
func newStdoutReader(tap func(byte, string)) (*stdoutReader, *os.File, error) {
	r, w, err := rawPipe()
	if err != nil {
		return nil, nil, err
	}
	wr, ww, err := newWaker()
	if err == nil {
		err = unix.SetNonblock(r, true)
	}
	if err != nil {
		unix.Close(r)
		unix.Close(w)
		if wr >= 0 {
			closeWaker(wr, ww)
		}
		return nil, nil, err
	}
	s := &stdoutReader{fd: r, wakeR: wr, wakeW: ww, tap: tap, born: time.Now()}
	return s, os.NewFile(uintptr(w), "|1"), nil
}

func closeWaker(r, w int) {
	unix.Close(r)
	if w != r {
		unix.Close(w)
	}
}

// next returns the next line of the engine's output, waiting for it until
// deadline (zero: no limit); or outputEnded (EOF, a read error, the
// process gone and its exitDrain over, or close called), deadlineReached,
// or woken (wake was called since the last woken).
func (s *stdoutReader) next(deadline time.Time) (line, readResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		switch {
		case s.closed.Load():
			return line{}, outputEnded
		case s.woken.Swap(false):
			return line{}, woken
		case !deadline.IsZero() && !time.Now().Before(deadline):
			// Checked before each line: an engine that writes without
			// end cannot hold off a time limit.
			return line{}, deadlineReached
		}
		if !s.eof && s.drainedAfterExit() {
			// Nothing more is read (a helper may keep writing); what was
			// read, an unfinished last line too, is still delivered.
			s.eof = true
		}
		if l, ok := s.split.next(); ok {
			return s.tapped(l), gotLine
		}
		if s.eof {
			if l, ok := s.split.end(); ok {
				return s.tapped(l), gotLine
			}
			return line{}, outputEnded
		}
		if !s.fill() {
			continue
		}
		if res, over := s.wait(deadline); over {
			return line{}, res
		}
	}
}

// drain discards the lines already written, without waiting; false if the
// output has ended.
func (s *stdoutReader) drain() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for read := 0; !s.closed.Load(); {
		if read >= drainBudget {
			return true // still writing: the next read goes on
		}
		if l, ok := s.split.next(); ok {
			s.tapped(l)
			continue
		}
		if s.eof {
			if l, ok := s.split.end(); ok {
				s.tapped(l)
			}
			return false
		}
		if s.fill() {
			return true
		}
		read += s.split.w
	}
	return false
}

func (s *stdoutReader) tapped(l line) line {
	if s.tap != nil {
		s.tap(fromEngine, l.text)
	}
	return l
}

// fill reads once into the splitter (which has split all it had); true
// when there is nothing to read now. The end of the output or a read
// error sets eof.
func (s *stdoutReader) fill() (wouldBlock bool) {
	n, err := unix.Read(s.fd, s.split.space())
	switch {
	case n > 0:
		s.split.filled(n)
	case err == nil || (err != unix.EINTR && err != unix.EAGAIN):
		s.eof = true
	}
	return errors.Is(err, unix.EAGAIN)
}

// wait blocks in poll until the output or the wake descriptor is
// readable, deadline passes (over is set, with deadlineReached) or the
// process's exitDrain is over (the loop then ends the output).
func (s *stdoutReader) wait(deadline time.Time) (res readResult, over bool) {
	now := time.Now()
	limit, atDeadline := deadline, true
	if end, ok := s.exitEnd(); ok && (limit.IsZero() || end.Before(limit)) {
		limit, atDeadline = end, false
	}
	timeout := -1 // milliseconds, rounded up: poll never returns early
	if !limit.IsZero() {
		left := limit.Sub(now)
		if left <= 0 {
			if atDeadline {
				return deadlineReached, true
			}
			return 0, false
		}
		timeout = int((min(left, maxPollWait) + time.Millisecond - 1) / time.Millisecond)
	}
	if now.Sub(s.lastYield) >= yieldEvery {
		// The game's goroutine otherwise never passes through the
		// scheduler: it waits in poll(2), not in the runtime. Every 10
		// ms the runtime's monitor would then preempt it with a signal
		// and take its P in the syscall, and after each such take the
		// monitor wakes every 20 µs for a millisecond or more
		// (docs/architecture.md, Performance).
		s.lastYield = now
		runtime.Gosched()
	}
	fds := [2]unix.PollFd{{Fd: int32(s.fd), Events: unix.POLLIN}, {Fd: int32(s.wakeR), Events: unix.POLLIN}}
	if _, err := unix.Poll(fds[:], timeout); err != nil {
		if err != unix.EINTR {
			s.eof = true // the output cannot be waited for: it has ended for us
		}
		return 0, false
	}
	if fds[1].Revents != 0 {
		s.clearWake()
	}
	return 0, false
}

// exitEnd is when the output counts as ended, once endAfter was called.
func (s *stdoutReader) exitEnd() (time.Time, bool) {
	e := s.endBy.Load()
	if e == 0 {
		return time.Time{}, false
	}
	return s.born.Add(time.Duration(e - 1)), true
}

// drainedAfterExit says whether the process is gone and its exitDrain over.
func (s *stdoutReader) drainedAfterExit() bool {
	end, ok := s.exitEnd()
	return ok && !time.Now().Before(end)
}

// clearWake empties the wake descriptor (the woken flag, set before each
// write to it, says whether a wake is still to be returned).
func (s *stdoutReader) clearWake() {
	var b [64]byte
	for {
		if n, err := unix.Read(s.wakeR, b[:]); n <= 0 && err != unix.EINTR {
			return
		}
	}
}

// wake makes next return woken (now, or at its next call): a context's
// cancellation, seen by the caller of next.
func (s *stdoutReader) wake() {
	s.woken.Store(true)
	s.nudge()
}

// nudge makes a next blocked in poll look again at what it waits for.
func (s *stdoutReader) nudge() {
	s.wakeMu.Lock()
	defer s.wakeMu.Unlock()
	if s.wakeW >= 0 {
		_, _ = unix.Write(s.wakeW, wakeWord())
	}
}

// endAfter makes the output count as ended d from now (the process is
// gone, but a helper it started may still hold the pipe): what is written
// until then is still read.
func (s *stdoutReader) endAfter(d time.Duration) {
	s.endBy.Store(int64(time.Since(s.born)+d) + 1)
	s.nudge()
}

// close ends the output for next (at once, even for a next blocked now)
// and closes the descriptors. Call it once.
func (s *stdoutReader) close() {
	s.closed.Store(true)
	s.nudge()
	s.mu.Lock()
	defer s.mu.Unlock()
	unix.Close(s.fd)
	s.fd = -1
	s.wakeMu.Lock()
	closeWaker(s.wakeR, s.wakeW)
	s.wakeR, s.wakeW = -1, -1
	s.wakeMu.Unlock()
}
