// Package termtext makes text that came from outside (files, databases,
// engines) safe to print on a terminal. Every command passes names, tags,
// ids and quoted input through Escape (or EscapeLines) before they reach
// standard output or standard error as text; JSON and HTML have escapes of
// their own.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every character that could act on a terminal or
// change the order in which text is displayed written as a visible escape:
// C0 control characters (newline and tab included), DEL and bytes that are
// not UTF-8 as \xNN (ESC is \x1b); C1 control characters, the Unicode line
// and paragraph separators and the bidirectional marks, embeddings,
// overrides and isolates as \uNNNN (RIGHT-TO-LEFT OVERRIDE is \u202e).
// Everything else, non-ASCII letters included, is kept, so ordinary text
// (and text escaped once already) comes back unchanged.
func Escape(s string) string { return escape(s, false) }

// EscapeLines is Escape for text of several lines (a message that quotes a
// block of input): newlines and tabs are kept.
func EscapeLines(s string) string { return escape(s, true) }

func escape(s string, lines bool) string {
	i := 0
	for i < len(s) && (s[i] >= 0x20 && s[i] < 0x7f || lines && (s[i] == '\n' || s[i] == '\t')) {
		i++
	}
	if i == len(s) {
		return s // printable ASCII: the common case, no copy
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case lines && (r == '\n' || r == '\t'):
			b.WriteByte(s[i])
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafe reports the non-ASCII characters that Escape escapes: C1
// controls, line and paragraph separators, and the bidirectional marks,
// embeddings, overrides and isolates that can make text display in
// another order than it is stored ("Trojan Source").
func unsafe(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
