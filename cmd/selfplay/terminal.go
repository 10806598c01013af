package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// isTerminal reports whether w is a character device (a live progress line
// makes sense there, not in a log file or pipe).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// terminalColumns returns a function that reads the width of the terminal
// w is (asked again at every call, so a resized window is followed): from
// the operating system, else from $COLUMNS, else 80. It returns nil when w
// is not a terminal.
func terminalColumns(e env, w any) func() int {
	if !isTerminal(w) {
		return nil
	}
	f := w.(*os.File)
	return func() int {
		if c, ok := windowColumns(f); ok && c > 0 {
			return c
		}
		if v, ok := e.getenv("COLUMNS"); ok {
			if c, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && c > 0 {
				return c
			}
		}
		return 80
	}
}

// progressOutput is where a command shows how far it has come: on a
// terminal a live line rewritten in place (run and match draw theirs in
// the runner, fitted to columns; suite draws a progressBar), elsewhere
// (a log file, a pipe) plain lines or nothing.
type progressOutput struct {
	w       io.Writer
	columns func() int // the terminal's width; nil unless w is a terminal
}

// progressTo is the progress output on w.
func progressTo(e env, w io.Writer) progressOutput {
	return progressOutput{w: w, columns: terminalColumns(e, w)}
}

// live reports whether the output is a terminal.
func (p progressOutput) live() bool { return p.columns != nil }

// bar returns a progress bar counting units (searches) on the output, or
// nil when it is not a terminal.
func (p progressOutput) bar(unit string) *progressBar {
	if !p.live() {
		return nil
	}
	return &progressBar{w: p.w, unit: unit, start: time.Now()}
}

// progressBar is a line on a terminal rewritten in place: a bar, the
// count, the elapsed time and an estimate of the time left. Its methods
// do nothing on a nil bar.
type progressBar struct {
	w     io.Writer
	unit  string
	start time.Time
	last  time.Time
	drawn bool
}

// update draws done of total, at most every 200 ms but the last.
func (p *progressBar) update(done, total int) {
	if p == nil {
		return
	}
	now := time.Now()
	if done < total && now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	const width = 30
	fill := width * done / total
	elapsed := now.Sub(p.start)
	eta := "?"
	if done > 0 {
		eta = (time.Duration(float64(elapsed) / float64(done) * float64(total-done))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d %s, elapsed %s, ETA %s ", strings.Repeat("#", fill),
		strings.Repeat(".", width-fill), done, total, p.unit, elapsed.Round(time.Second), eta)
	p.drawn = true
}

// finish ends the line, if one was drawn.
func (p *progressBar) finish() {
	if p != nil && p.drawn {
		fmt.Fprintln(p.w)
	}
}
