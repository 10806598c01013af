package uci

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"selfplay/engines/internal/pipeio"
)

const (
	// maxLine is the longest line an engine may write to stdout; a longer
	// one is a protocol error. UCI lines are short (a long PV is a few KiB).
	maxLine     = 64 << 10
	stderrTail  = 4 << 10 // bytes of stderr kept for crash reports
	stderrLines = 5       // lines of stderr quoted in a crash report
	reapTimeout = 5 * time.Second
	// exitDrain is how long the output an engine wrote before it exited
	// is read after the exit when something else (a helper that left the
	// engine's process group) still holds its pipes open.
	exitDrain    = 200 * time.Millisecond
	linesBacklog = 64 // lines read ahead (!unix): at most linesBacklog*maxLine bytes per process
)

var errSpawnerStopped = errors.New("engine closed")

// readResult says what next returned.
type readResult int

const (
	gotLine         readResult = iota
	outputEnded                // EOF or a read error, the process gone and its exitDrain over, or killed
	deadlineReached            // the deadline passed first
	woken                      // wake was called
)

// line is one line of the engine's stdout, sanitized, without its end of
// line. A line longer than maxLine is cut to its first maxLine bytes and
// marked tooLong (the rest is read and dropped).
type line struct {
	text    string
	tooLong bool
}

// proc is one running engine process. Its stdout is read line by line by
// the goroutine that waits for its lines (next; see stdoutReader), its
// stderr by a goroutine into the log; another watches the process itself,
// so that its exit is seen even when a helper it started keeps the pipes
// open (see watch).
type proc struct {
	cmd          *exec.Cmd
	stdinFile    *os.File  // our end of the engine's stdin: deadlines, close
	stdin        io.Writer // stdinFile, written raw where possible (pipeio)
	out          *stdoutReader
	stderrFile   *os.File // our end of the engine's stderr
	stderr       *tailWriter
	writeTimeout time.Duration
	tap          func(dir byte, text string) // logs the traffic; nil: none

	stderrDone chan struct{} // closed when stderr ends
	exited     chan struct{} // closed once the process is reaped and its stderr read

	waitErr error // valid after exited is closed

	wmu      sync.Mutex // serialises writes to stdin
	killOnce sync.Once
}

// startProc starts the engine process through sp (see spawner), in a
// process group of its own.
func startProc(cfg *Config, log io.Writer, tap func(byte, string), sp *spawner) (*proc, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cfg.Dir
	setProcAttr(cmd)
	// Pipes of our own rather than exec's StdinPipe: stdin and stderr are
	// in the runtime's poller and are written and read raw (pipeio), and
	// writes to stdin get a deadline; stdout is read by the caller of next
	// (stdoutReader).
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	out, outW, err := newStdoutReader(tap)
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	// stderr too: with files only, cmd.Wait returns when the process
	// exits, not when every holder of a pipe has closed it.
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		out.close()
		outW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err = sp.start(cmd)
	inR.Close() // the child has its copies
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		out.close()
		errR.Close()
		return nil, err
	}
	p := &proc{
		cmd:          cmd,
		stdinFile:    inW,
		stdin:        pipeio.Writer(inW),
		out:          out,
		stderrFile:   errR,
		stderr:       &tailWriter{w: log},
		writeTimeout: cfg.InitTimeout,
		tap:          tap,
		stderrDone:   make(chan struct{}),
		exited:       make(chan struct{}),
	}
	// The reader is made here, before watch can set a deadline on the
	// file: making it clears the file's deadlines (pipeio's pollability
	// check), and a copier that started after a fast crash would then
	// never see watch's exitDrain deadline while a helper holds stderr.
	go p.copyStderr(pipeio.Reader(errR))
	go p.watch()
	return p, nil
}

// watch waits for the process to exit. An engine that has exited has
// crashed (or quit), whoever still holds its pipes: the helpers it started
// are killed with its process group (while its pid, the group's id, is
// still reserved by the unreaped process where the system allows), and
// what it wrote before it exited is read for at most exitDrain more, so
// that the readers end and a search waiting for a line sees the crash at
// once, not at its time limit.
func (p *proc) watch() {
	awaitExit(p.cmd.Process)
	killTree(p.cmd.Process)
	err := p.cmd.Wait()
	p.out.endAfter(exitDrain)
	_ = p.stderrFile.SetReadDeadline(time.Now().Add(exitDrain))
	<-p.stderrDone // the crash report quotes the end of stderr
	p.waitErr = err
	close(p.exited)
}

// copyStderr copies the engine's stderr to the log and the tail kept for
// crash reports, until it ends.
func (p *proc) copyStderr(r io.Reader) {
	defer close(p.stderrDone)
	defer p.stderrFile.Close()
	_, _ = io.Copy(p.stderr, r)
}

// readLine reads one line: its first maxLine bytes are kept (in buf, which
// it returns for reuse), the rest skipped, so memory stays bounded whatever
// the engine writes. The end of line is dropped and the text sanitized.
// err is set at the end of the input (the line may still hold text).
// The goroutine reader (!unix) reads with it; the direct one (unix) splits
// lines by the same rules (lineSplitter), tested against it.
func readLine(r *bufio.Reader, buf []byte) (line, []byte, error) {
	text, long, err := pipeio.ReadLine(r, maxLine, buf)
	return makeLine(text, long), text, err
}

// makeLine is readLine's line of text: one string, trimmed and sanitized.
func makeLine(text []byte, long bool) line {
	return line{text: sanitize(strings.TrimRight(string(text), "\r")), tooLong: long}
}

// send writes command lines to the engine, in one write. An engine that
// does not read its input for writeTimeout (the pipe stays full) makes it
// fail.
func (p *proc) send(lines ...string) error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.tap != nil {
		for _, l := range lines {
			p.tap(toEngine, l)
		}
	}
	_ = p.stdinFile.SetWriteDeadline(time.Now().Add(p.writeTimeout))
	_, err := io.WriteString(p.stdin, b.String())
	return err
}

// alive reports whether the process has not exited (yet: it may have
// closed stdout already, which next reports as outputEnded).
func (p *proc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// next returns the engine's next line, waiting until deadline (zero: no
// limit), or says why there is none: outputEnded, deadlineReached, or
// woken (by wake: the caller checks what it waits for besides lines).
// Call it from one goroutine at a time.
func (p *proc) next(deadline time.Time) (line, readResult) { return p.out.next(deadline) }

// wake makes a next under way (or the next one) return woken; safe to call
// from any goroutine, at any time.
func (p *proc) wake() { p.out.wake() }

// drain discards the lines already written; false if stdout has ended.
func (p *proc) drain() bool { return p.out.drain() }

// kill ends the process and its process group, reaps it and releases the
// pipes. Safe to call many times and concurrently; returns once done.
func (p *proc) kill() {
	p.killOnce.Do(func() {
		killTree(p.cmd.Process)
		select {
		case <-p.exited:
		case <-time.After(reapTimeout):
			// Unkillable for now (e.g. stuck in the kernel); the reaper
			// goroutine still collects it when it goes.
		}
		p.out.close()
		p.stderrFile.Close()
		p.stdinFile.Close() // also ends a send blocked on a full pipe
	})
}

// shutdown asks the engine to quit, gives it grace to do so, then kills
// whatever is left of its process group.
func (p *proc) shutdown(grace time.Duration) {
	if p.alive() {
		_ = p.send("quit")
		select {
		case <-p.exited:
		case <-time.After(grace):
		}
	}
	p.kill()
}

// exitStatus describes how the process ended, after a short wait for it.
func (p *proc) exitStatus(wait time.Duration) string {
	select {
	case <-p.exited:
	case <-time.After(wait):
		return "process still running, stdout closed"
	}
	if p.waitErr == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		return ee.ProcessState.String()
	}
	return p.waitErr.Error()
}

// tailWriter forwards the engine's stderr to the log and keeps its end for
// crash reports.
type tailWriter struct {
	w   io.Writer // the shared, locked log writer; may be nil
	mu  sync.Mutex
	buf []byte
}

func (t *tailWriter) Write(b []byte) (int, error) {
	if t.w != nil {
		_, _ = t.w.Write(b) // a failing log must not break the engine
	}
	t.mu.Lock()
	if len(b) >= stderrTail {
		t.buf = append(t.buf[:0], b[len(b)-stderrTail:]...)
	} else {
		t.buf = append(t.buf, b...)
		if len(t.buf) > stderrTail {
			t.buf = append(t.buf[:0], t.buf[len(t.buf)-stderrTail:]...)
		}
	}
	t.mu.Unlock()
	return len(b), nil
}

// last returns the last n non-empty lines written, sanitized.
func (t *tailWriter) last(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, l := range strings.Split(string(t.buf), "\n") {
		if l = sanitize(strings.TrimSpace(l)); l != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

// lockedWriter serialises writes of the processes of one engine (an old
// process may still be flushing stderr while its replacement starts).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
