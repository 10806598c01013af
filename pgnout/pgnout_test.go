package pgnout

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// games are three games as the runner writes them (a Reason comment that
// starts a line with "[" included: it must not read as a tag).
var games = []string{
	"[Event \"t \\\"1\\\"\"]\n[Site \"selfplay\"]\n[Round \"1.1\"]\n[Result \"1-0\"]\n\n1. e4 {book} 1... e5 {+0.10/3 10N 0.001s}\n1-0 {White wins}\n\n",
	"[Event \"t \\\"1\\\"\"]\n[Round \"1.2\"]\n[Result \"1/2-1/2\"]\n\n1. d4 {book}\n[not a tag] 1/2-1/2\n\n",
	"[Event \"other\"]\n[Round \"1.1\"]\n[Result \"0-1\"]\n\n1. c4 {book} 0-1\n\n",
}

var keys = []Key{{Event: `t "1"`, Round: "1.1"}, {Event: `t "1"`, Round: "1.2"}, {Event: "other", Round: "1.1"}}

// A PGN game's key has its players too (fastchess's dialect tells the
// games of tournaments without an event apart by them), unescaped.
func TestOpenReadsPlayers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.pgn")
	text := "[Event \"Fastchess Tournament\"]\n[Round \"1\"]\n[White \"a \\\\ \\\"b\\\"\"]\n[Black \"c\"]\n\n1. e4 {book} 1-0\n\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path, PGN)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []Key{{Event: "Fastchess Tournament", Round: "1", White: `a \ "b"`, Black: "c"}}
	if got := f.Written(); !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
}

// Every cut of the file, as a crash mid-write leaves it, reads as the
// games wholly before the cut and a last game that is whole but for its
// end (a PGN game's movetext ended by its termination marker, no comment
// open; an EPD line ended by its ";"): the rest is cut off, and the
// missing end written.
func TestOpenCutsTornTail(t *testing.T) {
	for _, c := range []struct {
		format Format
		lines  []string
		// whole reports whether the first n bytes of a game's text make
		// it whole but for its end.
		whole func(game string, n int) bool
	}{
		{PGN, games, func(g string, n int) bool {
			_, result, _ := strings.Cut(g, "[Result \"")
			result, _, _ = strings.Cut(result, "\"")
			marker := strings.LastIndex(g, result) + len(result)
			return n >= marker && strings.Count(g[marker:n], "{") == strings.Count(g[marker:n], "}")
		}},
		{EPD, []string{
			"8/8/8/8/8/8/8/K6k w - - hmvc 0; fmvn 1; c0 \"t \\\"1\\\"\"; id \"1.1\";\n",
			"8/8/8/8/8/8/8/K6k b - - hmvc 3; fmvn 9; c0 \"t \\\"1\\\"\"; id \"1.2\";\n",
			"8/8/8/8/8/8/8/K6k w - - hmvc 0; fmvn 1; c0 \"other\"; id \"1.1\";\n",
		}, func(l string, n int) bool { return n >= len(l)-1 }},
	} {
		text := strings.Join(c.lines, "")
		for cut := 0; cut <= len(text); cut++ {
			path := filepath.Join(t.TempDir(), "live")
			if err := os.WriteFile(path, []byte(text[:cut]), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := Open(path, c.format)
			if err != nil {
				t.Fatalf("%s cut at %d: %v", c.format, cut, err)
			}
			whole, end := 0, 0
			for whole < len(c.lines) && end+len(c.lines[whole]) <= cut {
				end += len(c.lines[whole])
				whole++
			}
			kept, cutOff := text[:end], int64(cut-end)
			if whole < len(c.lines) && c.whole(c.lines[whole], cut-end) {
				// Whole but for (some of) its end, which is written.
				kept, cutOff = text[:cut], 0
				switch {
				case c.format == EPD, strings.HasSuffix(kept, "\n"):
					kept += "\n"
				default:
					kept += "\n\n"
				}
				whole++
			}
			if got := f.Written(); !slices.Equal(got, keys[:whole]) {
				t.Fatalf("%s cut at %d: keys %q, want %q", c.format, cut, got, keys[:whole])
			}
			if got := f.Cut(); got != cutOff {
				t.Fatalf("%s cut at %d: Cut() %d, want %d", c.format, cut, got, cutOff)
			}
			// Appending continues right after the last whole game.
			if err := f.Append(c.lines[0]); err != nil {
				t.Fatal(err)
			}
			f.Close()
			b, _ := os.ReadFile(path)
			if want := kept + c.lines[0]; string(b) != want {
				t.Fatalf("%s cut at %d: file %q, want %q", c.format, cut, b, want)
			}
		}
	}
}

// Files of other tools and editors end their last game otherwise than
// selfplay does; their games are kept.
func TestOpenKeepsOtherEndings(t *testing.T) {
	first := "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
	for _, c := range []struct {
		name, last string
		games      int
		cut        int64
	}{
		{"no blank line", "[Round \"2\"]\n\n1. e4 e5 0-1\n", 2, 0},
		{"no line break", "[Round \"2\"]\n\n1. e4 e5 0-1", 2, 0},
		{"CRLF", "[Round \"2\"]\r\n\r\n1. e4 e5 0-1\r\n", 2, 0},
		{"a ; comment after the result", "[Round \"2\"]\n\n1. e4 e5 0-1 ; lost on time\n", 2, 0},
		{"a comment on its own line", "[Round \"2\"]\n\n1. e4 e5 1/2-1/2\n{agreed}\n", 2, 0},
		{"an unfinished game", "[Round \"2\"]\n\n1. e4 e5 *\n", 2, 0},
		{"no result: torn", "[Round \"2\"]\n\n1. e4 e5\n", 1, int64(len("[Round \"2\"]\n\n1. e4 e5\n"))},
		{"a result in an open comment: torn", "[Round \"2\"]\n\n1. e4 e5 {1-0\n", 1, int64(len("[Round \"2\"]\n\n1. e4 e5 {1-0\n"))},
	} {
		path := filepath.Join(t.TempDir(), "live.pgn")
		os.WriteFile(path, []byte(first+c.last), 0o644)
		f, err := Open(path, PGN)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(f.Written()) != c.games || f.Cut() != c.cut {
			t.Errorf("%s: %d games, %d bytes cut; want %d, %d", c.name, len(f.Written()), f.Cut(), c.games, c.cut)
		}
		if err := f.Append(first); err != nil {
			t.Fatal(err)
		}
		f.Close()
		// The file still reads whole, its games separated by blank lines.
		g, err := Open(path, PGN)
		if err != nil {
			t.Fatalf("%s: reopened: %v", c.name, err)
		}
		if len(g.Written()) != c.games+1 || g.Cut() != 0 {
			b, _ := os.ReadFile(path)
			t.Errorf("%s: reopened with %d games, %d bytes cut: %q", c.name, len(g.Written()), g.Cut(), b)
		}
		g.Close()
	}
}

// A file that is not a live file's damage but something else is refused,
// not cut.
func TestOpenRefusesOtherText(t *testing.T) {
	for _, c := range []struct {
		format Format
		text   string
	}{
		{PGN, "hello\n"},
		{PGN, games[0] + "1. e4 e5 1-0\n\n"},
		{PGN, "[Event \"x\"]\n\n\n"},
		{EPD, "8/8/8/8/8/8/8/K6k w - -\n"},
		// A file without line breaks is refused, not read whole.
		{PGN, strings.Repeat("x", maxLine+1)},
		{EPD, "8/8/8/8/8/8/8/K6k w - - hmvc 0; fmvn 1; c0 \"t\"; id \"1.1\";\n" + strings.Repeat("x", maxLine+1)},
	} {
		path := filepath.Join(t.TempDir(), "live")
		os.WriteFile(path, []byte(c.text), 0o644)
		if f, err := Open(path, c.format); err == nil || !errors.Is(err, ErrNotLiveFile) {
			if err == nil {
				f.Close()
			}
			t.Errorf("%s %.80q: opened, or not as a file that is not a live file: %v", c.format, c.text, err)
		}
		if b, _ := os.ReadFile(path); string(b) != c.text {
			t.Errorf("%s %q: file changed to %q", c.format, c.text, b)
		}
	}
}

func TestEPDLine(t *testing.T) {
	got, err := EPDLine("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", Key{Event: "a \"b\"\n", Round: "3.2"})
	want := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 hmvc 0; fmvn 1; c0 \"a \\\"b\\\" \"; id \"3.2\";\n"
	if err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
	if k, ok := epdKey(got); !ok || k != (Key{Event: "a \"b\" ", Round: "3.2"}) {
		t.Fatalf("key %q %v", k, ok)
	}
	if _, err := EPDLine("8/8 w", Key{}); err == nil {
		t.Fatal("a short FEN gave a line")
	}
}

// BenchmarkAppend is the cost of one game in a live file: a write and an
// fsync, on the test's temporary folder's disk.
func BenchmarkAppend(b *testing.B) {
	f, err := Open(filepath.Join(b.TempDir(), "live.pgn"), PGN)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	game := games[0] + strings.Repeat("x", 2000-len(games[0]))
	b.SetBytes(int64(len(game)))
	for b.Loop() {
		if err := f.Append(game); err != nil {
			b.Fatal(err)
		}
	}
}
