package config

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The pre-scan refuses nesting past maxNesting, with the line, and counts
// nothing inside comments and the four kinds of strings; the TOML decoder
// never sees a refused text.
func TestPrescan(t *testing.T) {
	deep := func(open, close string, n int) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	dotted := func(n int) string { return strings.Repeat("a.", n-1) + "a" }
	cases := []struct {
		name, text string
		want       string // "" for no problem
	}{
		{"arrays at the limit", "x = " + deep("[", "]", maxNesting) + "\n", ""},
		{"arrays past it", "\n\nx = " + deep("[", "]", maxNesting+1) + "\n", ":3: refused before parsing: arrays and inline tables nested deeper than 32 levels"},
		{"inline tables past it", "x = " + strings.Repeat("{a=", maxNesting+1) + "1" + strings.Repeat("}", maxNesting+1), ":1: refused before parsing: arrays and inline tables nested deeper than 32 levels"},
		{"mixed, closed and reopened", strings.Repeat("x = "+deep("[{a=", "}]", 10)+"\n", 50), ""},
		{"dotted key at the limit", dotted(maxNesting) + " = 1\n", ""},
		{"dotted key past it", dotted(maxNesting+1) + " = 1\n", ":1: refused before parsing: a dotted key of more than 32 parts"},
		{"dotted table header past it", "[" + dotted(maxNesting+1) + "]\n", "a dotted key of more than 32 parts"},
		{"dotted key with spaces and quotes", strings.Repeat(`"a" . 'b' . `, 20) + "c = 1\n", "a dotted key of more than 32 parts"},
		{"floats, dates, versions in strings", "x = [1.5, 2.5e3, 1979-05-27T07:32:00.999Z]\ny = \"" + dotted(100) + "\"\nz = 1.0\n" + strings.Repeat("w = 3.25\n", 40), ""},
		{"brackets in a basic string", `x = "` + deep("[", "]", 100) + `\" [[[["` + "\n", ""},
		{"brackets in a literal string", `x = '` + deep("{", "}", 100) + `'` + "\n", ""},
		{"brackets in a multi-line basic string", "x = \"\"\"\n" + deep("[", "]", 100) + "\n\\\"\"\"[[[\n\"\"\"\"\"\ny = " + deep("[", "]", maxNesting+1), ":5: refused"},
		{"brackets in a multi-line literal string", "x = '''\n" + deep("[", "]", 100) + "\n'''''\ny = " + deep("[", "]", maxNesting+1), ":4: refused"},
		{"brackets in a comment", "# " + deep("[", "]", 100) + "\nx = 1 # " + dotted(100) + "\n", ""},
		{"NUL byte", "x = 1\ny = \"\x00\"\n", ":2: refused before parsing: a NUL byte"},
		{"too large", strings.Repeat("# padding\n", maxSize/10+1), "refused before parsing: larger than 1 MiB (1048576 bytes), the limit for a config file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := prescan([]byte(c.text), "t.toml")
			switch {
			case c.want == "" && e != nil:
				t.Errorf("refused: %v", e)
			case c.want != "" && e == nil:
				t.Errorf("passed; want %q", c.want)
			case c.want != "" && !strings.Contains(e.Error(), c.want):
				t.Errorf("got %q, want %q", e, c.want)
			}
		})
	}
}

// Hostile configs within the size limit are refused quickly and with one
// clear problem, before the TOML decoder spends quadratic time on them;
// the one of the issue (5,000 nested inline tables) took 4 s and 1.1 GB.
func TestLoadRefusesHostile(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"nested inline tables", "x = " + strings.Repeat("{a=", 5000) + "1" + strings.Repeat("}", 5000) + "\n", "nested deeper than 32 levels"},
		{"nested arrays", "x = " + strings.Repeat("[", 400000) + strings.Repeat("]", 400000) + "\n", "nested deeper than 32 levels"},
		{"dotted key", strings.Repeat("a.", 50000) + "a = 1\n", "a dotted key of more than 32 parts"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, path, err := load(t, c.text, nil)
			var es Errors
			if !errors.As(err, &es) || len(es) != 1 || !strings.Contains(err.Error(), path+":1: refused before parsing: ") ||
				!strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v; want one problem at %s:1 mentioning %q", err, path, c.want)
			}
		})
	}
}

// LoadContext reads at most maxSize+1 bytes of a file: an endless one is
// refused, naming the limit.
func TestLoadEndlessFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	_, err := Load("/dev/zero")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: refused before parsing: larger than 1 MiB (1048576 bytes)") {
		t.Fatalf("got %v", err)
	}
}

// A cancelled context ends LoadContext with the context's error.
func TestLoadContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := filepath.Join(writeFiles(t, map[string]string{"t.toml": minimal}), "t.toml")
	if _, err := LoadContext(ctx, path); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want %v", err, context.Canceled)
	}
}

// engineTables defines n in-process engines e0..e(n-1).
func engineTables(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[engines.e%d]\npreset = \"plain\"\nhash = 1\n", i)
	}
	return b.String()
}

// quoted lists "prefix0", "prefix1", ... (n names).
func quoted(prefix string, n int) string {
	q := make([]string, n)
	for i := range q {
		q[i] = fmt.Sprintf("%q", fmt.Sprint(prefix, i))
	}
	return strings.Join(q, ", ")
}

// Engines past maxEngines are one problem, whether defined or listed; a
// round robin of maxEngines is fine (its pairings are counted, not made).
func TestEngineBounds(t *testing.T) {
	tournament := func(names string) string {
		return "[[tournament]]\nname = \"t\"\nengines = [" + names + "]\nformat = \"round-robin\"\nconcurrency = 1\n[tournament.limits]\nnodes = 1\n"
	}
	_, _, err := load(t, engineTables(maxEngines+1)+tournament(`"e0", "e1"`), nil)
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 || !strings.Contains(err.Error(), "engines: 1001 engines defined, more than 1000") {
		t.Errorf("too many defined: %v", err)
	}
	_, _, err = load(t, engineTables(2)+tournament(quoted("x", maxEngines+1)), nil)
	if !errors.As(err, &es) || len(es) != 1 || !strings.Contains(err.Error(), "tournament[0].engines: 1001 engines listed, more than 1000") {
		t.Errorf("too many listed: %v", err)
	}
	f, _, err := load(t, engineTables(maxEngines)+tournament(quoted("e", maxEngines)), nil)
	if err != nil {
		t.Fatalf("round robin of %d: %v", maxEngines, err)
	}
	if n := f.Tournaments[0].Games(1); n != maxEngines*(maxEngines-1) {
		t.Errorf("Games(1) = %d", n)
	}
}

// The check stops after maxErrors problems, with a last one that says so:
// a file cannot make a message per name of a huge list (each "not
// defined" lists the defined engines).
func TestErrorsCapped(t *testing.T) {
	text := engineTables(maxEngines) +
		"[[tournament]]\nname = \"t\"\nengines = [" + quoted("x", maxEngines) + "]\n[tournament.limits]\nnodes = 1\n" +
		strings.Repeat("[[tournament]]\nname = \"u\"\nengines = [\"nope1\", \"nope2\"]\n[tournament.limits]\nnodes = 1\n", 200)
	_, path, err := load(t, text, nil)
	var es Errors
	if !errors.As(err, &es) || len(es) != maxErrors+1 {
		t.Fatalf("got %d problems, want %d", len(es), maxErrors+1)
	}
	if last := es[len(es)-1].Error(); last != path+": more than 100 problems: the rest of the file is not checked" {
		t.Errorf("last problem %q", last)
	}
	if !strings.Contains(err.Error(), "... and 76 more problems") {
		t.Errorf("message:\n%v", err)
	}
}

// pairingCount is the length of Pairings for every format and size.
func TestPairingCount(t *testing.T) {
	for _, format := range []Format{FormatMatch, FormatGauntlet, FormatRoundRobin, ""} {
		for n := range 8 {
			names := make([]string, n)
			for i := range names {
				names[i] = fmt.Sprint("e", i)
			}
			for seeds := range 9 {
				if got, want := pairingCount(format, n, seeds), len(Pairings(format, names, seeds)); got != want {
					t.Errorf("pairingCount(%q, %d, %d) = %d, want %d", format, n, seeds, got, want)
				}
			}
		}
	}
}
