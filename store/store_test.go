package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/store/record"
)

func open(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.db")
	s, err := OpenWriter(context.Background(), path, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestSchemaVersionAndWAL(t *testing.T) {
	s, path := open(t)
	var v int
	var mode string
	s.db.QueryRow("PRAGMA user_version").Scan(&v)
	s.db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	if v != schemaVersion() || mode != "wal" {
		t.Fatalf("user_version %d (want %d), journal_mode %s", v, schemaVersion(), mode)
	}
	s.Close()
	// Reopening an up-to-date database migrates nothing and works.
	s2, err := OpenWriter(context.Background(), path, "test")
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
	// A database from a newer selfplay is refused.
	db, _ := sql.Open("sqlite", path)
	db.Exec("PRAGMA user_version = 99")
	db.Close()
	if _, err := OpenWriter(context.Background(), path, "test"); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("OpenWriter of a newer schema = %v", err)
	}
	if _, err := OpenReader(context.Background(), path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("OpenReader of a newer schema = %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{filepath.Join(dir, "missing", "x.db"), dir} {
		if _, err := OpenWriter(context.Background(), p, "test"); err == nil {
			t.Errorf("OpenWriter(%s) succeeded", p)
		}
		if _, err := OpenReader(context.Background(), p); err == nil {
			t.Errorf("OpenReader(%s) succeeded", p)
		}
	}
}

func TestGamesRoundTripAndUniqueness(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	id, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h", TotalGames: 2,
		Engines: []record.Engine{{Name: "a", Options: "x"}, {Name: "b", Options: "y"}}})
	if err != nil {
		t.Fatal(err)
	}
	g := &record.Game{TournamentID: id, Pair: 0, Index: 1, OpeningID: "o", OpeningMoves: []string{"e2e4", "e7e5"},
		White: "b", Black: "a", Result: "1/2-1/2", Termination: "time forfeit", Reason: "Black (a) loses on time", Culprit: "a", Plies: 3, PGN: "pgn",
		Started: time.Now(), Finished: time.Now(),
		Moves: []record.Move{{Ply: 1, UCI: "e2e4", SAN: "e4", Book: true}, {Ply: 3, UCI: "g1f3", SAN: "Nf3", Score: 31, Depth: 7, Nodes: 100, Time: 1500 * time.Microsecond}}}
	if err := s.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	// Refused, and named as its PGN's Round does (pair 0, game 1 is 1.2).
	if err := s.SaveGame(ctx, g); err == nil || !strings.Contains(err.Error(), "saving game 1.2: ") {
		t.Fatalf("SaveGame of the same game again = %v, want a refusal naming game 1.2", err)
	}
	games, err := s.Games(ctx, GameFilter{TournamentID: id, WithMoves: true, Engine: "a"})
	if err != nil || len(games) != 1 {
		t.Fatalf("Games = %v, %v", games, err)
	}
	got := games[0]
	if got.OpeningMoves[1] != "e7e5" || got.PGN != "pgn" || len(got.Moves) != 2 || got.Moves[1].Time != 1500*time.Microsecond || !got.Moves[0].Book || got.Moves[1].Score != 31 {
		t.Fatalf("round trip: %+v", got)
	}
	if got.Culprit != "a" || got.Result != "1/2-1/2" || got.Termination != "time forfeit" || got.Reason != g.Reason {
		t.Fatalf("round trip of the ending: culprit %q result %q termination %q reason %q", got.Culprit, got.Result, got.Termination, got.Reason)
	}
	// A game without a fault has no culprit.
	clean := &record.Game{TournamentID: id, Pair: 1, Index: 0, OpeningID: "o", White: "a", Black: "b", Result: "1-0", Termination: "checkmate"}
	if err := s.SaveGame(ctx, clean); err != nil {
		t.Fatal(err)
	}
	if n, err := s.CountGames(ctx, id); err != nil || n != 2 {
		t.Fatalf("CountGames = %d, %v; want 2", n, err)
	}
	all, err := s.Games(ctx, GameFilter{TournamentID: id})
	if err != nil || len(all) != 2 || all[0].Culprit != "a" || all[1].Culprit != "" || all[1].Pair != 1 || len(all[0].Moves) != 0 {
		t.Fatalf("Games = %+v, %v", all, err)
	}
	tour, err := s.TournamentByName(ctx, "t")
	if err != nil || len(tour.Engines) != 2 || tour.Engines[1].Options != "y" {
		t.Fatalf("TournamentByName = %+v, %v", tour, err)
	}
	if err := s.DeleteTournament(ctx, id); err != nil {
		t.Fatal(err)
	}
	var n, pgns int
	s.db.QueryRow("SELECT count(*) FROM moves").Scan(&n)
	s.db.QueryRow("SELECT count(*) FROM pgns").Scan(&pgns)
	if n != 0 || pgns != 0 {
		t.Fatalf("%d moves and %d PGNs left after deleting the tournament", n, pgns)
	}
}

func TestSuiteRunRoundTrip(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	r := &record.SuiteRun{Suite: "wac.epd", LimitKind: "nodes", Settings: "-nodes 5400",
		Rows:      []record.SuiteRow{{Variant: "fhr", Limit: 5400, Positions: 2, Solved: 1, Nodes: 10000, Time: time.Second}},
		Positions: []record.SuitePosition{{Variant: "fhr", Limit: 5400, Position: "WAC.001", Solved: true, Move: "g3g6", FirstFound: 3}}}
	if err := s.SaveSuiteRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	runs, err := s.SuiteRuns(ctx)
	if err != nil || len(runs) != 1 || runs[0].Rows[0].Solved != 1 || runs[0].Positions[0].FirstFound != 3 || runs[0].Rows[0].Time != time.Second {
		t.Fatalf("SuiteRuns = %+v, %v", runs, err)
	}
}

// A database of schema 2 gets the culprit column, ” for its games.
func TestMigrationAddsCulprit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:2] {
		if _, err := db.Exec(m.sql); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		"PRAGMA user_version = 2",
		`INSERT INTO tournaments (id, name, config, config_hash, status, total_games, created_at, updated_at) VALUES (1, 't', '{}', 'h', 'running', 2, '', '')`,
		`INSERT INTO games (tournament_id, pair_index, game_index, round, opening_id, opening_name, start_fen, opening_moves, white, black,
			result, termination, reason, plies, final_fen, started_at, finished_at, pgn)
			VALUES (1, 0, 0, 0, 'o', '', '', '', 'a', 'b', '0-1', 'engine crash', 'White (a) crashed', 9, '', '', '', '')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := OpenWriter(context.Background(), path, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	games, err := s.Games(context.Background(), GameFilter{})
	if err != nil || len(games) != 1 || games[0].Culprit != "" || games[0].Reason != "White (a) crashed" {
		t.Fatalf("after migration: %+v, %v", games, err)
	}
	var v int
	s.db.QueryRow("PRAGMA user_version").Scan(&v)
	if v != schemaVersion() {
		t.Fatalf("user_version %d, want %d", v, schemaVersion())
	}
}

// CloseRemovingIfEmpty removes a database that its Store created and
// stored nothing in, with its side files, and nothing else: not a
// database that existed before, not one that holds a tournament.
func TestCloseRemovingIfEmpty(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tests := []struct {
		name        string
		existed     bool
		tournament  bool
		wantRemoved bool
	}{
		{"created, nothing stored", false, false, true},
		{"created, a tournament stored", false, true, false},
		{"existed before", true, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".db")
			if tc.existed {
				s, err := OpenWriter(ctx, path, "test")
				if err != nil {
					t.Fatal(err)
				}
				s.Close()
			}
			s, err := OpenWriter(ctx, path, "run")
			if err != nil {
				t.Fatal(err)
			}
			if tc.tournament {
				if _, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h"}); err != nil {
					t.Fatal(err)
				}
			}
			removed, err := s.CloseRemovingIfEmpty(ctx)
			if err != nil || removed != tc.wantRemoved {
				t.Fatalf("CloseRemovingIfEmpty = %v, %v; want %v", removed, err, tc.wantRemoved)
			}
			for _, f := range Files(path) {
				_, err := os.Stat(f)
				switch {
				case f == path && !tc.wantRemoved:
					if err != nil {
						t.Errorf("%s: %v", f, err)
					}
				case !errors.Is(err, os.ErrNotExist):
					t.Errorf("%s left behind (%v)", f, err)
				}
			}
			// The lock is free again.
			s2, err := OpenWriter(ctx, path, "run")
			if err != nil {
				t.Fatal(err)
			}
			s2.Close()
		})
	}
}
