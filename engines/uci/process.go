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
)

const (
	maxLine      = 64 << 10 // longer engine lines are truncated
	stderrTail   = 4 << 10  // bytes of stderr kept for crash reports
	stderrLines  = 5        // lines of stderr quoted in a crash report
	reapTimeout  = 5 * time.Second
	linesBacklog = 256
)

// proc is one running engine process. Its stdout is read line by line by a
// single goroutine into lines; another goroutine reaps the process.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	stderr *tailWriter

	lines  chan string   // closed when stdout ends (or the process is abandoned)
	exited chan struct{} // closed once cmd.Wait has returned
	quit   chan struct{} // closed by kill: the reader stops delivering lines

	waitErr error // valid after exited is closed

	wmu      sync.Mutex // serialises writes to stdin
	killOnce sync.Once
}

// startProc starts the engine process in a process group of its own.
func startProc(cfg *Config, log io.Writer) (*proc, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cfg.Dir
	setProcAttr(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	cmd.Stdout = pw
	tail := &tailWriter{w: log}
	cmd.Stderr = tail
	// Wait returns this long after the process exits even if a descendant
	// still holds stderr open.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return nil, err
	}
	pw.Close() // the child has its copy
	p := &proc{
		cmd:    cmd,
		stdin:  stdin,
		stdout: pr,
		stderr: tail,
		lines:  make(chan string, linesBacklog),
		exited: make(chan struct{}),
		quit:   make(chan struct{}),
	}
	go p.read()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// read delivers stdout lines until EOF or until the process is abandoned.
func (p *proc) read() {
	defer close(p.lines)
	r := bufio.NewReaderSize(p.stdout, 4096)
	for {
		line, err := readLine(r)
		if line != "" || err == nil {
			select {
			case p.lines <- line:
			case <-p.quit:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line without its end of line, truncated to maxLine bytes.
func readLine(r *bufio.Reader) (string, error) {
	var buf []byte
	for {
		frag, err := r.ReadSlice('\n')
		if room := maxLine - len(buf); room > 0 {
			buf = append(buf, frag[:min(len(frag), room)]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return strings.TrimRight(string(buf), "\r\n"), err
	}
}

// send writes one command line to the engine.
func (p *proc) send(line string) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err := io.WriteString(p.stdin, line+"\n")
	return err
}

// alive reports whether the process has not exited (yet: it may have
// closed stdout already, which the reader reports by closing lines).
func (p *proc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// drain discards the lines already received; false if stdout has ended.
func (p *proc) drain() bool {
	for {
		select {
		case _, ok := <-p.lines:
			if !ok {
				return false
			}
		default:
			return true
		}
	}
}

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
		close(p.quit)
		p.stdout.Close()
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
	t.buf = append(t.buf, b...)
	if len(t.buf) > stderrTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-stderrTail:]...)
	}
	t.mu.Unlock()
	return len(b), nil
}

// last returns the last n non-empty lines written.
func (t *tailWriter) last(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, l := range strings.Split(string(t.buf), "\n") {
		if l = strings.TrimSpace(l); l != "" {
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
