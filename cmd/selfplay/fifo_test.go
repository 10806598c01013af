//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitFor polls cond until it holds, failing the test after 30 seconds (a
// safety net: the conditions hold within milliseconds) or when the process
// has exited.
func waitFor(t *testing.T, cmd *exec.Cmd, out *lineWriter, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) || syscall.Kill(cmd.Process.Pid, 0) != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%s: not within 30 s; output %q", what, out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// writerOpens opens the FIFO for writing without waiting: it succeeds once
// a reader has it open or is in open(2) on it (ENXIO before), which lets
// that reader's open return. The writer is closed with the test.
func writerOpens(t *testing.T, path string) func() bool {
	return func() bool {
		w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return false
		}
		t.Cleanup(func() { w.Close() })
		return true
	}
}

// waitingOnPipe reports whether a thread of process pid sleeps in the
// kernel's FIFO open or pipe read (its wchan), where a signal used to go
// unheard.
func waitingOnPipe(pid int) bool {
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "wchan"))
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		if w := string(b); strings.Contains(w, "wait_for_partner") || strings.Contains(w, "fifo") || strings.Contains(w, "pipe") {
			return true
		}
	}
	return false
}

// wchanNamed reports whether this kernel names the functions threads sleep
// in (/proc/PID/task/TID/wchan; "0" where it hides them).
func wchanNamed() bool {
	tasks, _ := filepath.Glob("/proc/self/task/*/wchan")
	for _, f := range tasks {
		if b, err := os.ReadFile(f); err == nil && len(b) > 0 && string(b) != "0" {
			return true
		}
	}
	return false
}

// A signal while a command waits for an input ends it as a signal does
// elsewhere (exit 130, "interrupted"), whether it waits in open(2) for a
// FIFO's writer or in read(2) for data from a FIFO or a pipe: the first
// SIGINT or SIGTERM used to be ignored there, and the process stayed up.
func TestSignalWhileWaitingForInput(t *testing.T) {
	bin := selfplayBinary(t)
	cases := []struct {
		name string
		fifo string // created in the test's directory; "" for none
		args []string
		sig  syscall.Signal
		// opened: the test opens the FIFO's write end and writes nothing,
		// so the command waits in read; else it waits in open, seen in
		// its wchan.
		opened bool
		stdin  bool // standard input is a pipe nobody writes to
		want   string
	}{
		{"run, config FIFO, waiting in open, SIGINT", "f.toml", []string{"run", "-config", "f.toml"}, syscall.SIGINT, false, false,
			"selfplay run: interrupted while reading f.toml"},
		{"run, config FIFO, waiting for data, SIGTERM", "f.toml", []string{"run", "-config", "f.toml"}, syscall.SIGTERM, true, false,
			"selfplay run: interrupted while reading f.toml"},
		{"match, openings FIFO, waiting for data, SIGINT", "book.epd", []string{"match", "plain", "fhr", "-nodes", "1", "-openings", "book.epd"}, syscall.SIGINT, true, false,
			"selfplay match: interrupted while reading the openings"},
		{"suite, EPD FIFO, waiting in open, SIGTERM", "s.epd", []string{"suite", "-epd", "s.epd", "-nodes", "1"}, syscall.SIGTERM, false, false,
			"selfplay suite: interrupted while reading s.epd"},
		{"ratings, PGN FIFO, waiting in open, SIGINT", "g.pgn", []string{"ratings", "g.pgn"}, syscall.SIGINT, false, false,
			"selfplay ratings: interrupted while reading g.pgn"},
		{"ratings, PGN FIFO, waiting for data, SIGINT", "g.pgn", []string{"ratings", "g.pgn"}, syscall.SIGINT, true, false,
			"selfplay ratings: interrupted while reading g.pgn"},
		{"ratings, standard input, waiting for data, SIGTERM", "", []string{"ratings", "-"}, syscall.SIGTERM, false, true,
			"selfplay ratings: interrupted while reading -"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !c.opened && !wchanNamed() {
				t.Skip("this kernel does not show where a thread sleeps (/proc/PID/task/TID/wchan)")
			}
			dir := t.TempDir()
			fifo := filepath.Join(dir, c.fifo)
			if c.fifo != "" {
				if err := syscall.Mkfifo(fifo, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(bin, c.args...)
			cmd.Dir = dir
			out := &lineWriter{first: make(chan struct{})}
			cmd.Stdout, cmd.Stderr = out, out
			if c.stdin {
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				defer r.Close()
				cmd.Stdin = r
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if c.opened {
				waitFor(t, cmd, out, "a reader of the FIFO", writerOpens(t, fifo))
			} else {
				waitFor(t, cmd, out, "waiting on the FIFO or pipe", func() bool { return waitingOnPipe(cmd.Process.Pid) })
			}
			cmd.Process.Signal(c.sig)
			ee := waitExit(t, cmd, 30*time.Second)
			if ee.ExitCode() != exitInterrupted || !strings.Contains(out.String(), c.want) {
				t.Errorf("%v: %v, output %q; want exit %d and %q", c.sig, ee, out.String(), exitInterrupted, c.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 1 || len(entries) == 1 && c.fifo == "" {
				t.Errorf("files written: %v", entries)
			}
		})
	}
}
