package termtext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	cases := []struct{ in, want, lines string }{
		{"", "", ""},
		{"plain ASCII: fhr vs plain 1-0", "plain ASCII: fhr vs plain 1-0", ""},
		{"Küchenmeister ♞ 象棋 — ±", "Küchenmeister ♞ 象棋 — ±", ""},
		{"\x1b]0;PWNED\x07\x1b[2JEvil\u202e", `\x1b]0;PWNED\x07\x1b[2JEvil\u202e`, ""},
		{"nul\x00 del\x7f cr\r", `nul\x00 del\x7f cr\x0d`, ""},
		{"two\nlines\tand a tab", `two\x0alines\x09and a tab`, "two\nlines\tand a tab"},
		{"bad \xff\xfe utf-8, cut \xe2\x82", `bad \xff\xfe utf-8, cut \xe2\x82`, ""},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`, ""},
		{"bidi \u202aa\u202bb\u202cc\u202dd\u202ee \u2066x\u2067\u2068\u2069 \u200e\u200f\u061c", `bidi \u202aa\u202bb\u202cc\u202dd\u202ee \u2066x\u2067\u2068\u2069 \u200e\u200f\u061c`, ""},
		{"separators \u2028\u2029", `separators \u2028\u2029`, ""},
		{`escaped once: \x1b`, `escaped once: \x1b`, ""},
	}
	for _, c := range cases {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		wantLines := c.lines
		if wantLines == "" {
			wantLines = c.want
		}
		if got := EscapeLines(c.in); got != wantLines {
			t.Errorf("EscapeLines(%q) = %q, want %q", c.in, got, wantLines)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Escape("== Tournament fhr-vs-plain ==") }); n != 0 {
		t.Errorf("Escape of printable ASCII allocates %v times", n)
	}
}

// checkSafe fails unless out has no byte below 0x20 but newline and tab,
// no DEL, no C1 control, no bidirectional or line separator character and
// is valid UTF-8.
func checkSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("EscapeLines(%q) = %q is not UTF-8", in, out)
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || unsafe(r) {
			t.Errorf("EscapeLines(%q) = %q keeps %U", in, out, r)
			return
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "fhr-01", "\x1b[2J\x07", "a\nb\tc\r", "\xff\xe2\x82", "\u202e\u2066\u0085", "\\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := EscapeLines(s)
		checkSafe(t, s, out)
		if strings.ContainsAny(Escape(s), "\n\t") {
			t.Errorf("Escape(%q) = %q keeps a newline or tab", s, Escape(s))
		}
		if EscapeLines(out) != out || Escape(Escape(s)) != Escape(s) {
			t.Errorf("escaping %q twice changes it", s)
		}
	})
}

// The committed text reports print unchanged: escaping is a no-op on
// ordinary text.
func TestCommittedReportsUnchanged(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*.txt", "*/*.txt"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "results", pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 2 {
		t.Fatalf("found %d committed reports under results/", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if EscapeLines(string(b)) != string(b) {
			t.Errorf("%s: EscapeLines changes it", f)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if Escape(line) != line {
				t.Errorf("%s:%d: Escape changes %q", f, i+1, line)
			}
		}
	}
}
