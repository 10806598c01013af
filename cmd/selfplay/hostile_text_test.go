package main

import (
	"fmt"
	"log"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"selfplay/internal/testkit"
)

// Hostile text in input files and from engines: a terminal title (OSC),
// a screen clear (CSI), BEL, a right-to-left override, DEL, a C1 CSI and
// bytes that are not UTF-8. (A NUL byte in a file ends its reading: the
// files are binary, and the last case checks that message.)
const (
	hostileName = "\x1b]0;PWNED\x07\x1b[2JEvil\u202e"
	hostileMore = "del\x7f c1\u009b2J bad\xff\u2066"
)

// checkTerminalSafe fails when out has a byte below 0x20 other than
// newline and tab, DEL, a C1 control, a bidirectional or line separator
// character or bytes that are not UTF-8.
func checkTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s is not UTF-8: %q", what, out)
	}
	for i, r := range out {
		switch {
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r == 0x200e, r == 0x200f, r == 0x061c, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r == 0x2028, r == 0x2029:
			from := max(0, i-60)
			t.Errorf("%s has %U at byte %d: ...%q...", what, r, i, out[from:min(len(out), i+20)])
			return
		}
	}
}

// Every command prints text from files and engines escaped: no control
// byte, bidirectional character or bad UTF-8 reaches the terminal (issue
// 23 item 6).
func TestHostileTextIsEscaped(t *testing.T) {
	dir := t.TempDir()
	name := hostileName + " " + hostileMore
	pgn := fmt.Sprintf("[Event \"%s\"]\n[Site \"?\"]\n[Round \"1\"]\n[White \"%s\"]\n[Black \"Good %s\"]\n[Result \"1-0\"]\n\n"+
		"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"+
		"[Event \"e\"]\n[Site \"?\"]\n[Round \"2\"]\n[White \"Good %s\"]\n[Black \"%s\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n"+
		"[Event \"e\"]\n[White \"%s\"]\n[Black \"x\"]\n[Result \"1-0\"]\n\n1. e4 %s 1-0\n",
		name, name, hostileMore, hostileMore, name, name, hostileName)
	pgnPath := writeFile(t, dir, "hostile.pgn", pgn)
	// An EPD opening whose id is hostile, and a book whose game has a
	// hostile move.
	epdPath := writeFile(t, dir, "book.epd", fmt.Sprintf(
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"%s\";\n"+
			"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - id \"fhr-01\";\n", name))
	badBook := writeFile(t, dir, "bad.pgn", fmt.Sprintf("[Event \"x\"]\n[White \"%s\"]\n\n1. e4 e5 2. Nf3 %s Nc6 3. Bb5 a6 *\n", name, hostileName))
	badEPD := writeFile(t, dir, "bad.epd", fmt.Sprintf("not a fen %s\n", name))
	suiteEPD := writeFile(t, dir, "suite.epd", fmt.Sprintf(
		"4k3/8/8/3q4/8/4N3/8/4K3 w - - bm Nxd5; id \"%s\";\n"+
			"4k3/8/8/8/8/8/8/4K2R w K - id \"nobm %s\";\n"+
			"7k/5Q2/6K1/8/8/8/8/8 b - - bm Kg8; id \"mated %s\";\n"+
			"4k3/8/8/3q4/8/4N3/8/4K3 w - - bm Nxd5 %s;\n", name, name, name, hostileName))
	nulPGN := writeFile(t, dir, "nul.pgn", "[White \""+hostileName+"\x00\"]\n")
	config := func(openings testkit.Table) string {
		c := withOpenings(tinyConfig(), openings)
		c.Database = filepath.Join(t.TempDir(), "games.db")
		return c.Write(t, t.TempDir(), "t.toml")
	}
	db := filepath.Join(dir, "hostile.db")
	// An external engine that calls itself "fake\x1b[2Jengine\x07" and
	// crashes with control bytes on its stderr.
	control := config(testkit.Table{"set": "fhr25"})
	c := tinyConfig()
	c.Engines[1] = testkit.Engine{Name: "b", Body: fakeEngineTOML(t, "-mode", "control")}
	c.Write(t, filepath.Dir(control), "t.toml")

	cases := []struct {
		name string
		args []string
		// want is a part of the output that shows the text escaped, so the
		// case cannot pass by printing nothing.
		want string
	}{
		{"ratings", []string{"ratings", pgnPath}, `\x1b]0;PWNED\x07\x1b[2JEvil\u202e`},
		{"ratings from standard input", []string{"ratings", "-"}, `\x1b]0;PWNED\x07\x1b[2JEvil\u202e`},
		{"match with a hostile EPD id", []string{"match", "plain", "fhr", "-nodes", "200", "-move", "10", "-openings", epdPath, "-db", db, "-log", "games"},
			`\x1b]0;PWNED\x07\x1b[2JEvil\u202e del\x7f c1\u009b2J bad\xff\u2066`},
		{"report of it", []string{"report", "-db", db}, `\x1b]0;PWNED\x07\x1b[2JEvil\u202e`},
		// PGN escapes the escapes' backslashes.
		{"export of it", []string{"export", "-db", db}, `[Opening "\\x1b]0;PWNED\\x07\\x1b[2JEvil\\u202e`},
		{"run with a hostile PGN book", []string{"run", "-config", config(testkit.Table{"file": badBook})}, "bad.pgn"},
		{"run with a hostile EPD book", []string{"run", "-config", config(testkit.Table{"file": badEPD})}, "bad.epd:1"},
		{"run with an engine that writes control bytes", []string{"run", "-config", control, "-pairs", "1", "-log", "games"}, `\x1b[31mred`},
		{"suite", []string{"suite", "-epd", suiteEPD, "-variant", "plain", "-nodes", "100", "-positions"}, `\x1b]0;PWNED\x07\x1b[2JEvil\u202e`},
		{"bench", []string{"bench", "-epd", suiteEPD, "-depth", "1"}, "suite.epd"},
		{"ratings of a file with a NUL byte", []string{"ratings", nulPGN}, "a NUL byte"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdin := ""
			if c.args[len(c.args)-1] == "-" {
				stdin = pgn
			}
			_, stdout, stderr := runStdin(t, stdin, c.args...)
			checkTerminalSafe(t, "stdout", stdout)
			checkTerminalSafe(t, "stderr", stderr)
			if !strings.Contains(stdout+stderr, c.want) {
				t.Errorf("the output does not show %q:\nstdout:\n%s\nstderr:\n%s", c.want, stdout, stderr)
			}
		})
	}
}

// The site's log (serve, run -serve) escapes what clients chose: a request
// path quoted in an error entry reaches the terminal escaped.
func TestSiteLogIsEscaped(t *testing.T) {
	var b strings.Builder
	logger := log.New(escapedWriter{&b}, "", 0)
	logger.Printf("selfplay serve: GET %s: %v", "/games/"+hostileName, "database is locked")
	checkTerminalSafe(t, "the log", b.String())
	if want := `GET /games/\x1b]0;PWNED\x07\x1b[2JEvil\u202e: database is locked` + "\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("log %q, want it to end %q", b.String(), want)
	}
}
