package uci

import (
	"strings"
	"unicode/utf8"

	"selfplay/internal/termtext"
)

// sanitize makes text that an engine wrote safe to store in the database,
// print on a terminal and put in a PGN comment: a tab becomes a space;
// control characters (C0 such as NUL, BEL and ESC, DEL, and C1), the
// Unicode line and paragraph separators and the bidirectional formatting
// characters become visible escapes such as \x1b and \u202e; bytes that
// are not UTF-8 become U+FFFD. Everything else, non-ASCII letters included,
// is kept. Every string the adapter takes from an engine passes through it
// where it enters (stdout lines, stderr lines), so names, reasons and info
// strings derived from them are clean.
func sanitize(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s // printable ASCII: the common case
	}
	// What is stored is UTF-8 and has no tabs; the escapes are termtext's,
	// as for every text printed.
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
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return termtext.Escape(b.String())
}

// maxExcerpt is how many bytes of an engine's line an error message quotes.
const maxExcerpt = 200

// excerpt quotes the start of a sanitized line for an error message, with
// an ellipsis when it is cut. The text is quoted as it is, not with %q:
// it is escaped already, and %q would escape its escapes again (\\x1b).
func excerpt(s string) string {
	if len(s) <= maxExcerpt {
		return quote(s)
	}
	cut := maxExcerpt
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return quote(s[:cut]) + "..."
}

// quote puts sanitized text in double quotes for a message.
func quote(s string) string { return `"` + s + `"` }
