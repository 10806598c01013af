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
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			playFastchessSchedule(t, tt.name, "fhr name=A plain name=B", tt.args, false)
		})
	}
}

// With 3 or more engines fastchess 1.8.2 plays -rounds N as N rounds of
// one game pair per pairing, in its pairings' order
// (matchmaking/tournament/schedule/base_scheduler.hpp:36-78: a round
// robin's (i, j), i < j; a gauntlet's (0, j)), each pair taking the next
// opening of the book cut to its first N openings, wrapping around
// (base_scheduler.hpp:43-45, game/book/opening_book.cpp:50 and :70-76):
// N x pairings x 2 games. It played them as
//
//	fastchess -engine cmd=/usr/games/stockfish name=A -engine cmd=/usr/games/stockfish name=B \
//	  [-engine cmd=/usr/games/stockfish name=C [... name=D [... name=E]]] \
//	  -each proto=uci nodes=1 -maxmoves 1 -concurrency 1 -pgnout file=NAME.pgn ARGS
//
// with each case's engines (A, B, C, D) and ARGS below. Its PGN's Round
// tag is the game pair's number (the pairing counter plus one), which
// selfplay's Round tag ("pair.game") has before its dot, so the rounds
// are compared too.
func TestFastchessManyEngineScheduleMatchesFastchess(t *testing.T) {
	tests := []struct{ name, engines, args string }{
		{"rr3random", "ABC", "-openings file=book50.epd format=epd order=random start=17 -srand 42 -games 2 -rounds 20 -repeat"},
		{"rr3seq", "ABC", "-openings file=book50.epd format=epd order=sequential start=5 -rounds 55 -repeat"},
		{"rr4random", "ABCD", "-openings file=book50.epd format=epd order=random start=3 -srand 7 -rounds 10 -repeat"},
		{"gauntlet3random", "ABC", "-tournament gauntlet -openings file=book50.epd format=epd order=random start=250 -srand 42 -rounds 20 -repeat"},
		{"gauntlet4seq", "ABCD", "-tournament gauntlet -openings file=book50.epd format=epd order=sequential -rounds 30 -repeat -reverse"},
		// -seeds N: each of the first N engines plays every engine after
		// it, the other seeds included (base_scheduler.hpp:64-74 with
		// gauntlet/scheduler.hpp:18 and :26: player1 runs up to the seeds,
		// player2 from player1+1), in that order; cutechess-cli's seeds do
		// not meet (gauntlettournament.cpp:57). gauntlet4seeds2.pgn is
		// fastchess's PGN of the first case.
		{"gauntlet4seeds2", "ABCD", "-tournament gauntlet -seeds 2 -openings file=book50.epd format=epd order=random start=17 -srand 42 -rounds 6 -repeat"},
		// No -rounds: fastchess's default, 2 rounds (types/tournament.hpp:56).
		{"rr3norounds", "ABC", "-openings file=book50.epd format=epd order=random start=17 -srand 42 -repeat"},
		{"gauntlet3norounds", "ABC", "-tournament gauntlet"},
		{"gauntlet5seeds3", "ABCDE", "-tournament gauntlet -seeds 3 -openings file=book50.epd format=epd order=sequential start=5 -rounds 4 -repeat -reverse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var engines []string
			for i, name := range tt.engines {
				engines = append(engines, []string{"fhr", "plain"}[i%2]+" name="+string(name))
			}
			playFastchessSchedule(t, tt.name, strings.Join(engines, " "), tt.args, true)
		})
	}
}

// playFastchessSchedule plays the command line with in-process engines
// (the openings and colours do not depend on the engines) and compares its
// -pgnout with testdata/fastchess-schedule/NAME.txt, game by game; with
// rounds, the Round tags too.
func playFastchessSchedule(t *testing.T, name, engines, args string, rounds bool) {
	t.Helper()
	dir := filepath.Join("testdata", "fastchess-schedule")
	book, err := os.ReadFile(filepath.Join(dir, "book50.epd"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("book50.epd", book, 0o644); err != nil {
		t.Fatal(err)
	}
	line := "match " + engines + " -each proto=uci nodes=1 -maxmoves 1 -concurrency 1 -pgnout file=out.pgn " + args
	if code, _, stderr := run(t, strings.Fields(line)...); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	pgn, err := os.ReadFile("out.pgn")
	if err != nil {
		t.Fatal(err)
	}
	compareSchedule(t, pgnSchedule(string(pgn), rounds), fastchessSchedule(string(want), rounds))
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

// fastchessSchedule reads a NAME.txt file: "white black fen" per game,
// with rounds "round white black fen".
func fastchessSchedule(text string, rounds bool) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(line)
		if !rounds {
			f = f[1:]
		}
		out = append(out, strings.Join(f, " "))
	}
	return out
}

// pgnSchedule is "white black fen" per game of a PGN, the FEN's first
// four fields, "startpos" for the initial position; with rounds, "pair
// white black fen", pair the Round tag's part before its dot.
func pgnSchedule(pgn string, rounds bool) []string {
	var out []string
	var round, white, black, fen string
	flush := func() {
		if white == "" {
			return
		}
		if fen == "" || fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -" {
			fen = "startpos"
		}
		game := white + " " + black + " " + fen
		if rounds {
			game = round + " " + game
		}
		out = append(out, game)
		round, white, black, fen = "", "", "", ""
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
		case "Round":
			round, _, _ = strings.Cut(value, ".")
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
	compareSchedule(t, pgnSchedule(string(pgn), false), fastchessSchedule(string(want), false))
}
