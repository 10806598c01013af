package uci

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sanitize makes text that an engine wrote safe to store in the database,
// print on a terminal and put in a PGN comment: a tab becomes a space;
// control characters (C0 such as NUL, BEL and ESC, DEL, and C1), the
// Unicode line and paragraph separators and the bidirectional formatting
// characters become visible escapes such as \x1b and \u202e; bytes that
// are not UTF-8 become U+FFFD. Everything else, non-ASCII letters included,
// is kept. Every string the adapter takes from an engine passes through it
// where it enters (stdout lines, stderr lines), so names, reasons and info
// strings derived from them are clean.
func Sanitize(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s // printable ASCII: the common case
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafeRune reports the non-ASCII characters that Sanitize escapes: C1
// controls, line and paragraph separators, and the bidirectional marks,
// embeddings, overrides and isolates that can make text display in
// another order than it is stored ("Trojan Source").
func unsafeRune(r rune) bool {
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

// maxExcerpt is how many bytes of an engine's line an error message quotes.
const maxExcerpt = 200

// excerpt quotes the start of a (sanitized) line for an error message,
// with an ellipsis when it is cut.
func excerpt(s string) string {
	if len(s) <= maxExcerpt {
		return fmt.Sprintf("%q", s)
	}
	cut := maxExcerpt
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q...", s[:cut])
}
