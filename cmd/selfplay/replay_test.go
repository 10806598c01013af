package main

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The published games replay: the first pair of the FALCON SPRT
// (results/falcon-sprt), played again from its committed config, gives the
// same moves with the same score, depth and nodes at every move as the
// committed PGN. Texts that later commits changed on purpose (result
// comments, the sign of a zero score, the count in a mate score) and times
// are not compared.
func TestCommittedGamesReplay(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join("..", "..", "results", "falcon-sprt")
	db := filepath.Join(dir, "replay.db")
	if code, _, stderr := run(t, "run", "-config", filepath.Join(results, "sprt.toml"), "-db", db, "-pairs", "1"); code != exitOK {
		t.Fatalf("run: exit %d, stderr %q", code, stderr)
	}
	code, replayed, stderr := run(t, "export", "-db", db)
	if code != exitOK {
		t.Fatalf("export: exit %d, stderr %q", code, stderr)
	}
	committedPath := filepath.Join(dir, "committed.pgn")
	e2eGunzip(t, filepath.Join(results, "falcon-sprt.pgn.gz"), committedPath)
	committed, err := os.ReadFile(committedPath)
	if err != nil {
		t.Fatal(err)
	}
	got, want := searchedMoves(replayed), searchedMoves(string(committed))
	if len(got) != 2 || len(want) < 2 {
		t.Fatalf("replayed %d games, committed %d; want 2 and at least 2", len(got), len(want))
	}
	for g := range got {
		if len(got[g]) < 40 {
			t.Errorf("game %d: only %d searched moves", g+1, len(got[g]))
		}
		if len(got[g]) != len(want[g]) {
			t.Errorf("game %d: %d searched moves, committed %d", g+1, len(got[g]), len(want[g]))
		}
		for i := range min(len(got[g]), len(want[g])) {
			if got[g][i] != want[g][i] {
				t.Errorf("game %d, move %d: replayed %+v, committed %+v", g+1, i+1, got[g][i], want[g][i])
				break
			}
		}
	}
}

// searchedMove is what a replay must reproduce of one engine move.
type searchedMove struct {
	san   string
	score string // centipawns, or M and -M for a mate for and against
	depth int
	nodes int64
}

var searchedMoveRE = regexp.MustCompile(`(\S+) \{([+-]?)(M?[0-9.]+)/(\d+) (\d+)N[^}]*\}`)

// searchedMoves returns, game by game, the engine moves of a PGN export
// (book moves have no search and are skipped).
func searchedMoves(pgn string) [][]searchedMove {
	var games [][]searchedMove
	for _, game := range strings.Split(pgn, "[Event ")[1:] {
		text := strings.Join(strings.Fields(game), " ")
		var moves []searchedMove
		for _, m := range searchedMoveRE.FindAllStringSubmatch(text, -1) {
			score := m[2] + "M"
			if cp, err := strconv.ParseFloat(m[3], 64); err == nil {
				if m[2] == "-" {
					cp = -cp
				}
				score = strconv.Itoa(int(math.Round(cp * 100)))
			}
			depth, _ := strconv.Atoi(m[4])
			nodes, _ := strconv.ParseInt(m[5], 10, 64)
			moves = append(moves, searchedMove{san: m[1], score: score, depth: depth, nodes: nodes})
		}
		games = append(games, moves)
	}
	return games
}
