package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"selfplay/internal/tooltest"
)

// The 20-game Stockfish match of issue 20, played by fastchess and
// committed in testdata/fastchess-sf20: fastchess.pgn (the Date,
// GameDuration, GameStartTime and GameEndTime tags left out and each move's
// time masked as "Ts") and fastchess-stdout.txt (Total Time masked). It was
// made by fastchess alpha 1.8.2 261126 (v1.8.2-alpha, f618e345, built from
// source) with Debian's Stockfish 15.1, in that directory:
//
//	fastchess -engine cmd=/usr/games/stockfish name=sf1 \
//	  -engine cmd=/usr/games/stockfish name=sf2 option.MultiPV=2 \
//	  -each proto=uci nodes=5000 option.Hash=16 option.Threads=1 \
//	  -openings file=book.epd format=epd order=sequential -repeat -rounds 10 -games 2 \
//	  -concurrency 1 -draw movenumber=15 movecount=3 score=25 -resign movecount=3 score=400 \
//	  -pgnout file=fastchess.pgn -output format=fastchess > stdout.txt
//
// (fastchess's log showed "go nodes 5000" for every move; sf2's MultiPV=2
// makes it the weaker engine, so that the pairs are not mirror images).
// Every game ends by adjudication: 13 by resign, 7 by the draw rule.
//
// The same match through selfplay match, once with that command line
// (concurrency 1) and once with selfplay's own flags (-adjudication-rules
// fastchess, concurrency 2), must play the same games: each game's moves,
// each move's score and depth, result, Termination tag and termination
// text as in fastchess's PGN, and the same final statistics block, to the
// digit; with fastchess's command line the live PGN is fastchess.pgn byte
// for byte but for the times, ECO and Opening tags (openings/eco) included. Stockfish at fixed nodes with Threads=1 is deterministic given
// the same commands (ucinewgame, position, go nodes).
func TestFastchessStockfish20(t *testing.T) {
	sf := tooltest.Find(t, "stockfish", "stockfish")
	data := filepath.Join("testdata", "fastchess-sf20")
	book, err := filepath.Abs(filepath.Join(data, "book.epd"))
	if err != nil {
		t.Fatal(err)
	}
	wantPGN := readText(t, filepath.Join(data, "fastchess.pgn"))
	wantOut := readText(t, filepath.Join(data, "fastchess-stdout.txt"))
	want := parseTestPGN(t, wantPGN)
	if len(want) != 20 {
		t.Fatalf("testdata: %d games, want 20", len(want))
	}
	fastchess := []string{"-engine", "cmd=" + sf, "name=sf1", "-engine", "cmd=" + sf, "name=sf2", "option.MultiPV=2",
		"-each", "proto=uci", "nodes=5000", "option.Hash=16", "option.Threads=1",
		"-openings", "file=" + book, "format=epd", "order=sequential", "-repeat", "-rounds", "10", "-games", "2",
		"-concurrency", "1", "-draw", "movenumber=15", "movecount=3", "score=25", "-resign", "movecount=3", "score=400",
		"-output", "format=fastchess"}
	own := []string{"cmd=" + sf, "name=sf1", "option.Hash=16", "option.Threads=1",
		"cmd=" + sf, "name=sf2", "option.MultiPV=2", "option.Hash=16", "option.Threads=1",
		"-nodes", "5000", "-openings", book, "-order", "sequential", "-rounds", "1", "-concurrency", "2",
		"-adjudication-rules", "fastchess", "-draw-from", "15", "-draw-moves", "3", "-draw-score", "25",
		"-resign-moves", "3", "-resign-score", "400", "-resign-two-sided", "false", "-output", "fastchess"}
	for _, c := range []struct {
		name      string
		args      []string
		gameLines bool // concurrency 1: the per-game lines in fastchess's order
	}{{"fastchess syntax", fastchess, true}, {"selfplay syntax", own, false}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			pgn := filepath.Join(dir, "games.pgn")
			pgnOut := []string{"-pgnout", pgn}
			if c.gameLines {
				pgnOut = []string{"-pgnout", "file=" + pgn} // fastchess's dialect
			}
			args := append(append([]string{"match", "-db", filepath.Join(dir, "games.db")}, pgnOut...), c.args...)
			code, stdout, stderr := run(t, args...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			gotPGN := readText(t, pgn)
			if c.gameLines {
				if g, w := maskFastchessPGN(gotPGN), wantPGN; g != w {
					t.Errorf("the PGN differs from fastchess's at line %d:\n%s", firstDiffLine(g, w), lineDiff(g, w))
				}
			}
			got := parseTestPGN(t, gotPGN)
			if len(got) != len(want) {
				t.Fatalf("%d games, want %d", len(got), len(want))
			}
			for i := range want {
				if d := want[i].diff(got[i]); d != "" {
					t.Errorf("game %d: %s", i+1, d)
				}
			}
			if g, w := resultBlockOf(stdout), resultBlockOf(wantOut); g != w || w == "" {
				t.Errorf("statistics block\n%s\nwant fastchess's\n%s", g, w)
			}
			if g, w := finishedLines(stdout), finishedLines(wantOut); c.gameLines && g != w {
				t.Errorf("per-game lines\n%s\nwant fastchess's\n%s", g, w)
			}
			if c.gameLines {
				checkMinimalPGN(t, dir, args, filepath.Join(data, "fastchess-min.pgn"))
			}
		})
	}
}

// checkMinimalPGN runs the match again with -pgnout min=true: the games are
// stored, so the resume writes them all from the database into a new live
// file, which must be fastchess's minimal PGN of the same match byte for
// byte: testdata/fastchess-sf20/fastchess-min.pgn, made by fastchess alpha
// 1.8.2 261127 (v1.8.2-alpha, f618e345, built from source) with the
// command above, "-pgnout file=fastchess-min.pgn min=true" in place of
// "-pgnout file=fastchess.pgn", its Date tags left out.
func checkMinimalPGN(t *testing.T, dir string, args []string, want string) {
	t.Helper()
	pgn := filepath.Join(dir, "min.pgn")
	minArgs := append([]string{}, args...)
	for i, a := range minArgs {
		if a == "-pgnout" {
			minArgs = append(append(minArgs[:i+1:i+1], "file="+pgn, "min=true"), minArgs[i+2:]...)
			break
		}
	}
	code, stdout, stderr := run(t, minArgs...)
	if code != exitOK {
		t.Fatalf("with min=true: exit %d\n%s%s", code, stdout, stderr)
	}
	if g, w := timeTags.ReplaceAllString(readText(t, pgn), ""), readText(t, want); g != w {
		t.Errorf("the minimal PGN differs from fastchess's at line %d:\n%s", firstDiffLine(g, w), lineDiff(g, w))
	}
}

// maskFastchessPGN masks what is a time in a PGN in fastchess's dialect,
// as the committed fastchess.pgn is: the Date, GameDuration, GameStartTime
// and GameEndTime tags go, each move's time becomes "Ts" (the line breaks
// stay where the times' own lengths put them, "0.012s").
func maskFastchessPGN(text string) string {
	text = timeTags.ReplaceAllString(text, "")
	return moveTime.ReplaceAllString(text, "/$1 Ts")
}

var (
	timeTags = regexp.MustCompile(`(?m)^\[(Date|GameDuration|GameStartTime|GameEndTime) "[^"]*"\]\n`)
	moveTime = regexp.MustCompile(`/(\d+) \d+\.\d{3}s\b`)
)

// firstDiffLine is the number of the first line where a and b differ.
func firstDiffLine(a, b string) int {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// lineDiff shows a few lines of a and b from their first difference.
func lineDiff(a, b string) string {
	i := firstDiffLine(a, b) - 1
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	part := func(l []string) string { return strings.Join(l[min(i, len(l)):min(i+4, len(l))], "\n") }
	return "selfplay:\n" + part(la) + "\nfastchess:\n" + part(lb)
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// testGame is what the comparison takes of a PGN game.
type testGame struct {
	tags   map[string]string
	moves  []string // SAN
	scores []string // each move's "score/depth", the first word of its comment
	reason string   // the termination text after the last move
}

// diff says how g differs from fastchess's game w, or "".
func (w testGame) diff(g testGame) string {
	for _, tag := range []string{"White", "Black", "FEN", "Result", "Termination", "PlyCount"} {
		if g.tags[tag] != w.tags[tag] {
			return tag + " " + g.tags[tag] + ", fastchess " + w.tags[tag]
		}
	}
	for i := range min(len(w.moves), len(g.moves)) {
		if g.moves[i] != w.moves[i] {
			return "ply " + g.moves[i] + " where fastchess played " + w.moves[i] + " (move list from there: " + strings.Join(g.moves[i:min(i+6, len(g.moves))], " ") + ")"
		}
	}
	if len(g.moves) != len(w.moves) {
		return "the games' lengths differ"
	}
	if g, w := strings.Join(g.scores, " "), strings.Join(w.scores, " "); g != w {
		return "scores\n" + g + "\nfastchess's\n" + w
	}
	if g.reason != w.reason {
		return "termination " + g.reason + ", fastchess " + w.reason
	}
	return ""
}

var (
	pgnTag     = regexp.MustCompile(`(?m)^\[(\w+) "(.*)"\]$`)
	pgnComment = regexp.MustCompile(`\{([^}]*)\}`)
	pgnNumber  = regexp.MustCompile(`^\d+\.+`)
	pgnScore   = regexp.MustCompile(`^[+-]?(\d+\.\d\d|M\d+)/\d+$`)
)

// parseTestPGN reads the games of fastchess's and selfplay's PGN files,
// which carry one comment per engine move.
func parseTestPGN(t *testing.T, text string) []testGame {
	t.Helper()
	var games []testGame
	for i, g := range strings.Split(strings.TrimSpace(text), "\n[Event ") {
		if i > 0 {
			g = "[Event " + g
		}
		_, body, ok := strings.Cut(g, "\n\n")
		if !ok {
			t.Fatalf("a game without moves:\n%s", g)
		}
		tg := testGame{tags: map[string]string{}}
		for _, m := range pgnTag.FindAllStringSubmatch(g, -1) {
			tg.tags[m[1]] = m[2]
		}
		for _, c := range pgnComment.FindAllStringSubmatch(body, -1) {
			text := strings.Join(strings.Fields(c[1]), " ")
			s, _, _ := strings.Cut(text, " ")
			if !pgnScore.MatchString(s) {
				tg.reason = text // selfplay's comment after the result
				continue
			}
			tg.scores = append(tg.scores, s)
			if _, reason, ok := strings.Cut(text, ", "); ok {
				tg.reason = reason // fastchess's, in the last move's comment
			}
		}
		for _, w := range strings.Fields(pgnComment.ReplaceAllString(body, " ")) {
			w = pgnNumber.ReplaceAllString(w, "")
			switch w {
			case "", "1-0", "0-1", "1/2-1/2", "*":
				continue
			}
			tg.moves = append(tg.moves, w)
		}
		games = append(games, tg)
	}
	return games
}

// resultBlockOf is the last statistics block of a match's output: from
// "Results of" to the dashes that close it.
func resultBlockOf(out string) string {
	i := strings.LastIndex(out, "\nResults of ")
	if i < 0 {
		return ""
	}
	block, _, _ := strings.Cut(out[i+1:], "\n----")
	return block
}

// finishedLines are the "Finished game" lines of a match's output.
func finishedLines(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Finished game ") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
