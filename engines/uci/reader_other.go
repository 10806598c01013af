//go:build !unix

package uci

import (
	"bufio"
	"os"
	"time"

	"selfplay/engines/internal/pipeio"
)

// stdoutReader reads an engine's stdout in a goroutine of its own, into a
// channel that next reads (the direct reads of the unix version need
// poll(2)).
type stdoutReader struct {
	f     *os.File
	tap   func(dir byte, text string)
	lines chan line     // closed when stdout ends (or the reader is closed)
	quit  chan struct{} // closed by close: the reader stops delivering lines
	wakes chan struct{} // a wake not yet returned by next
}

// newStdoutReader returns the reader and the pipe's write end for the
// engine (close it once the engine has started).
func newStdoutReader(tap func(byte, string)) (*stdoutReader, *os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	s := &stdoutReader{
		f:     r,
		tap:   tap,
		lines: make(chan line, linesBacklog),
		quit:  make(chan struct{}),
		wakes: make(chan struct{}, 1),
	}
	go s.read()
	return s, w, nil
}

// read delivers stdout lines until EOF (or a read error, such as the
// deadline that endAfter sets) or until the reader is closed.
func (s *stdoutReader) read() {
	defer close(s.lines)
	r := bufio.NewReaderSize(pipeio.Reader(s.f), 4096)
	var buf []byte
	for {
		var l line
		var err error
		l, buf, err = readLine(r, buf)
		if l.text != "" || l.tooLong || err == nil {
			if s.tap != nil {
				s.tap(fromEngine, l.text)
			}
			select {
			case s.lines <- l:
			case <-s.quit:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// next is the unix version's: the next line, outputEnded, deadlineReached
// or woken.
func (s *stdoutReader) next(deadline time.Time) (line, readResult) {
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case l, ok := <-s.lines:
		if !ok {
			return line{}, outputEnded
		}
		return l, gotLine
	case <-timeout:
		return line{}, deadlineReached
	case <-s.wakes:
		return line{}, woken
	}
}

// drain discards the lines already received; false if stdout has ended.
func (s *stdoutReader) drain() bool {
	for {
		select {
		case _, ok := <-s.lines:
			if !ok {
				return false
			}
		default:
			return true
		}
	}
}

func (s *stdoutReader) wake() {
	select {
	case s.wakes <- struct{}{}:
	default:
	}
}

// endAfter ends the reads d from now.
func (s *stdoutReader) endAfter(d time.Duration) { _ = s.f.SetReadDeadline(time.Now().Add(d)) }

// close stops the reader and closes the pipe. Call it once.
func (s *stdoutReader) close() {
	close(s.quit)
	s.f.Close()
}
