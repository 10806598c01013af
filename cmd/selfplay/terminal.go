package main

import (
	"os"
	"strconv"
	"strings"
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
