package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fastchess 1.8.2 (v1.8.2-alpha, f618e345, built from source) played
// testdata/fastchess-schedule/book50.epd (50 two-ply positions) as
//
//	fastchess -engine cmd=/usr/games/stockfish name=A -engine cmd=/usr/games/stockfish name=B \
//	  -each proto=uci nodes=1 -maxmoves 1 -concurrency 1 -pgnout file=NAME.pgn ARGS
//
// with each case's ARGS below; NAME.txt is its PGN's games in order, one
// line each: Round, White, Black and the FEN tag's first four fields
// ("startpos" without one). selfplay plays the same command line with
// in-process engines named A and B (the openings and colours do not depend
// on the engines), and its -pgnout must hold the same games in the same
// order. -rounds past 50 wrap around the book; start=250 is 249 mod 50.
func TestFastchessScheduleMatchesFastchess(t *testing.T) {
	tests := []struct{ name, args string }{
		{"random1", "-openings file=book50.epd format=epd order=random start=1 -srand 42 -games 2 -rounds 60 -repeat"},
		{"random17", "-openings file=book50.epd format=epd order=random start=17 -srand 42 -games 2 -rounds 60 -repeat"},
		{"random250", "-openings file=book50.epd format=epd order=random start=250 -srand 42 -games 2 -rounds 60 -repeat"},
		{"seq5", "-openings file=book50.epd format=epd order=sequential start=5 -rounds 60 -repeat"},
		{"noswap", "-openings file=book50.epd format=epd order=random start=1 -srand 42 -rounds 10 -repeat -noswap"},
		{"reverse", "-openings file=book50.epd format=epd order=random start=1 -srand 42 -rounds 10 -repeat -reverse"},
		{"noswapreverse", "-openings file=book50.epd format=epd order=sequential -rounds 6 -noswap -reverse"},
		{"games1", "-openings file=book50.epd format=epd order=random start=3 -srand 42 -games 1 -rounds 60"},
		{"games1reverse", "-openings file=book50.epd format=epd order=sequential -games 1 -rounds 8 -reverse"},
		{"nobook", "-rounds 3 -repeat"},
	}
	dir := filepath.Join("testdata", "fastchess-schedule")
	book, err := os.ReadFile(filepath.Join(dir, "book50.epd"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		want, err := os.ReadFile(filepath.Join(dir, tt.name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if err := os.WriteFile("book50.epd", book, 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(strings.Fields("match fhr name=A plain name=B -each proto=uci nodes=1 -maxmoves 1 -concurrency 1 -pgnout file=out.pgn"),
				strings.Fields(tt.args)...)
			if code, _, stderr := run(t, args...); code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			pgn, err := os.ReadFile("out.pgn")
			if err != nil {
				t.Fatal(err)
			}
			compareSchedule(t, pgnSchedule(string(pgn)), fastchessSchedule(string(want)))
		})
	}
}

// compareSchedule compares the games' White, Black and FEN, game by game.
func compareSchedule(t *testing.T, got, want []string) {
	t.Helper()
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("game %d: selfplay %q, fastchess %q", i+1, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		t.Errorf("selfplay played %d games, fastchess %d", len(got), len(want))
	}
}

// fastchessSchedule reads a NAME.txt file: "white black fen" per game.
func fastchessSchedule(text string) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(line)
		out = append(out, strings.Join(f[1:], " "))
	}
	return out
}

// pgnSchedule is "white black fen" per game of a PGN, the FEN's first
// four fields, "startpos" for the initial position.
func pgnSchedule(pgn string) []string {
	var out []string
	var white, black, fen string
	flush := func() {
		if white == "" {
			return
		}
		if fen == "" || fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -" {
			fen = "startpos"
		}
		out = append(out, white+" "+black+" "+fen)
		white, black, fen = "", "", ""
	}
	for _, line := range strings.Split(pgn, "\n") {
		tag, value, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(line, "["), "]"), " ")
		if !ok || !strings.HasPrefix(line, "[") {
			continue
		}
		value = strings.Trim(value, `"`)
		switch tag {
		case "Event":
			flush()
		case "White":
			white = value
		case "Black":
			black = value
		case "FEN":
			fen = strings.Join(strings.Fields(value)[:4], " ")
		}
	}
	flush()
	return out
}

// OpenBench's worker command line (Client/worker.py at 9906bad,
// build_runner_command; see TestFastchessSameConfigAsOwnSyntax), with a
// worker's start= past the end of the book and its two -srand, plays two
// `selfplay uci` engines in the games fastchess 1.8.2 played for
//
//	fastchess -engine cmd=/usr/games/stockfish name=A -engine cmd=/usr/games/stockfish name=B \
//	  -each proto=uci nodes=1 -maxmoves 1 -concurrency 1 -pgnout file=openbench.pgn \
//	  -openings file=book50.epd format=epd order=random start=2461 -srand 936 -games 2 -rounds 3 -repeat
//
// (testdata/fastchess-schedule/openbench.txt). Only the time control is
// shorter than a worker's.
func TestFastchessOpenBenchWorkerSchedule(t *testing.T) {
	bin := selfplayBinary(t)
	want, err := os.ReadFile(filepath.Join("testdata", "fastchess-schedule", "openbench.txt"))
	if err != nil {
		t.Fatal(err)
	}
	book, err := os.ReadFile(filepath.Join("testdata", "fastchess-schedule", "book50.epd"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, dir := range []string{"Engines", "Books"} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, variant := range map[string]string{"dev": "fhr", "base": "plain"} {
		script := "#!/bin/sh\nexec '" + bin + "' uci -variant " + variant + "\n"
		if err := os.WriteFile(filepath.Join("Engines", name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join("Books", "book50.epd"), book, 0o644); err != nil {
		t.Fatal(err)
	}
	args := strings.Fields("match -repeat -recover -srand 1764131234 -variant standard -testEnv -concurrency 2 -rounds 3 -games 2 " +
		"-resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10 " +
		"-engine dir=Engines/ cmd=./dev proto=uci tc=0.5+0.01 option.Hash=16 name=A " +
		"-engine dir=Engines/ cmd=./base proto=uci tc=0.5+0.01 option.Hash=16 name=B " +
		"-openings file=Books/book50.epd format=epd order=random start=2461 -srand 936 -pgnout file=out.pgn")
	code, stdout, stderr := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if n := strings.Count(stdout, "Finished game"); n != 6 {
		t.Errorf("%d games, want 6 (3 pairs):\n%s", n, stdout)
	}
	pgn, err := os.ReadFile("out.pgn")
	if err != nil {
		t.Fatal(err)
	}
	compareSchedule(t, pgnSchedule(string(pgn)), fastchessSchedule(string(want)))
}
