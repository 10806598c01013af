package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"selfplay/store/record"
)

// Tournament and game ids are never reused: a tournament deleted by
// -restart leaves its ids behind (SQLite reuses the largest rowid of a
// plain INTEGER PRIMARY KEY after it is deleted).
func TestIDsAreNeverReused(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	id1, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h", TotalGames: 2})
	if err != nil {
		t.Fatal(err)
	}
	g := &record.Game{TournamentID: id1, White: "a", Black: "b", Result: "1-0", Termination: record.Checkmate}
	if err := s.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	game1 := g.ID
	if err := s.DeleteTournament(ctx, id1); err != nil {
		t.Fatal(err)
	}
	id2, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h", TotalGames: 2})
	if err != nil {
		t.Fatal(err)
	}
	g = &record.Game{TournamentID: id2, White: "a", Black: "b", Result: "1-0", Termination: record.Checkmate}
	if err := s.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if id2 <= id1 || g.ID <= game1 {
		t.Errorf("after deleting tournament %d (game %d), the new one got id %d (game %d)", id1, game1, id2, g.ID)
	}
}

// oldDatabase builds a database of schema version v at path with the
// migrations of that time.
func oldDatabase(t *testing.T, path string, v int) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, m := range migrations[:v] {
		if _, err := db.Exec(m.sql); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		t.Fatal(err)
	}
	return db
}

// Schema 3 to 4: ids and rows are kept, tables become AUTOINCREMENT, and
// each game gets its per-side search sums from its moves, equal to what
// the records add up to (also when Black moves first and with book moves).
func TestMigrationToSearchSums(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	db := oldDatabase(t, path, 3)
	const blackFirst = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	games := []record.Game{
		{ID: 7, Pair: 0, Index: 0, White: "a", Black: "b", StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			Moves: []record.Move{{Ply: 1, Book: true}, {Ply: 2, Book: true},
				{Ply: 3, Depth: 7, SelDepth: 12, Nodes: 1000, Time: 1234567 * time.Nanosecond},
				{Ply: 4, Depth: 6, SelDepth: 10, Nodes: 900, Time: 3 * time.Millisecond},
				{Ply: 5, Depth: 8, SelDepth: 14, Nodes: 1100, Time: 2100 * time.Microsecond},
				{Ply: 6, Depth: 245, SelDepth: 246, Nodes: 12, Time: time.Millisecond}, // Stockfish's mate sentinel
				{Ply: 7, Depth: 9, SelDepth: 15, Nodes: 1200, Time: 2 * time.Millisecond}}},
		{ID: 9, Pair: 0, Index: 1, White: "b", Black: "a", StartFEN: blackFirst,
			Moves: []record.Move{{Ply: 1, Book: true},
				{Ply: 2, Depth: 5, SelDepth: 9, Nodes: 500, Time: 999999 * time.Nanosecond},
				{Ply: 3, Depth: 4, SelDepth: 8, Nodes: 400, Time: 7 * time.Millisecond}}},
		{ID: 12, Pair: 1, Index: 0, White: "a", Black: "b", StartFEN: ""}, // no moves at all
	}
	mustExec(t, db, `INSERT INTO tournaments (id, name, config, config_hash, status, total_games, created_at, updated_at)
		VALUES (5, 't', '{}', 'h', 'running', 4, '', '')`)
	mustExec(t, db, `INSERT INTO engines (tournament_id, name, options) VALUES (5, 'a', ''), (5, 'b', '')`)
	for _, g := range games {
		mustExec(t, db, `INSERT INTO games (id, tournament_id, pair_index, game_index, round, opening_id, opening_name, start_fen,
			opening_moves, white, black, result, termination, reason, culprit, plies, final_fen, started_at, finished_at, pgn)
			VALUES (?, 5, ?, ?, 0, 'o', 'O', ?, '', ?, ?, '1-0', 'checkmate', 'r', '', 3, '', '', '', 'pgn')`,
			g.ID, g.Pair, g.Index, g.StartFEN, g.White, g.Black)
		insertMoves(t, db, g)
	}
	db.Close()

	s, err := OpenWriter(context.Background(), path, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	got, err := s.SearchSums(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := record.SumSearch(games)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("search sums after migration:\n got %+v\nwant %+v", got, want)
	}
	if want["a"].Moves != 4 || want["b"].Moves != 3 || want["b"].DepthSkipped != 1 || want["b"].Depth != 6+5 {
		t.Fatalf("fixture: %+v", want)
	}
	stored, err := s.Games(ctx, GameFilter{WithMoves: true})
	if err != nil || len(stored) != 3 || stored[0].ID != 7 || stored[2].ID != 12 || stored[0].Moves[2].Time != 1234567*time.Nanosecond ||
		stored[1].PGN != "pgn" || stored[1].Reason != "r" {
		t.Fatalf("games after migration: %+v, %v", stored, err)
	}
	// The migrated schema is the one a new database gets.
	have, err := readTables(ctx, s.db)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := expectedTables()
	if err := sameTables(all[schemaVersion()], have); err != nil || len(have) != len(all[schemaVersion()]) {
		t.Errorf("migrated schema differs from a new one: %v", err)
	}
	id, err := s.CreateTournament(ctx, record.Tournament{Name: "u", Config: "{}", ConfigHash: "h"})
	if err != nil || id != 6 {
		t.Errorf("new tournament after migration: id %d, %v; want 6", id, err)
	}
}

// Schema 5 to 6: games stored with a sentinel depth in their depth sums
// (what selfplay wrote before) lose it from the sums and count it as
// skipped, per side; other games are left as they were.
func TestMigrationSkipsSentinelDepths(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v5.db")
	db := oldDatabase(t, path, 5)
	games := []record.Game{
		{ID: 1, Pair: 0, Index: 0, White: "sf", Black: "x", StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			Moves: []record.Move{{Ply: 1, Book: true, Depth: 0}, {Ply: 2, Book: true},
				{Ply: 3, Depth: 20, SelDepth: 30, Nodes: 100, Time: time.Millisecond},
				{Ply: 4, Depth: 7, SelDepth: 12, Nodes: 50, Time: time.Millisecond},
				{Ply: 5, Depth: 245, SelDepth: 246, Nodes: 10, Time: time.Millisecond},
				{Ply: 6, Depth: 8, SelDepth: 300, Nodes: 50, Time: time.Millisecond}}},
		{ID: 2, Pair: 0, Index: 1, White: "x", Black: "sf", StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			Moves: []record.Move{{Ply: 1, Depth: 6, SelDepth: 10, Nodes: 40, Time: time.Millisecond},
				{Ply: 2, Depth: 22, SelDepth: 33, Nodes: 120, Time: time.Millisecond}}},
	}
	mustExec(t, db, `INSERT INTO tournaments (id, name, config, config_hash, status, total_games, created_at, updated_at)
		VALUES (1, 't', '{}', 'h', 'running', 2, '', '')`)
	mustExec(t, db, `INSERT INTO engines (tournament_id, name, options) VALUES (1, 'sf', ''), (1, 'x', '')`)
	for _, g := range games {
		// The sums as schema 5 stored them: every engine move's depths.
		var w, b record.SearchSums
		for _, m := range g.Moves {
			if m.Book {
				continue
			}
			s := &b
			if m.Ply%2 == 1 {
				s = &w
			}
			s.Moves++
			s.Depth += int64(m.Depth)
			s.SelDepth += int64(m.SelDepth)
			s.Nodes += m.Nodes
			s.Time += m.Time
		}
		mustExec(t, db, `INSERT INTO games (id, tournament_id, pair_index, game_index, round, opening_id, opening_name, start_fen,
			opening_moves, white, black, result, termination, reason, culprit, plies, final_fen, started_at, finished_at,
			white_moves, white_depth, white_seldepth, white_nodes, white_time_ns,
			black_moves, black_depth, black_seldepth, black_nodes, black_time_ns)
			VALUES (?, 1, ?, ?, 0, 'o', 'O', ?, '', ?, ?, '1-0', 'checkmate', 'r', '', 4, '', '', '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ID, g.Pair, g.Index, g.StartFEN, g.White, g.Black, w.Moves, w.Depth, w.SelDepth, w.Nodes, int64(w.Time),
			b.Moves, b.Depth, b.SelDepth, b.Nodes, int64(b.Time))
		mustExec(t, db, `INSERT INTO pgns (game_id, pgn) VALUES (?, 'pgn')`, g.ID)
		insertMoves(t, db, g)
	}
	db.Close()

	s, err := OpenWriter(context.Background(), path, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.SearchSums(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]record.SearchSums{
		// sf: 20/30 and 22/33 counted, 245/246 skipped; x: 7/12 and
		// 6/10 counted, the seldepth 300 skipped.
		"sf": {Moves: 3, Depth: 42, SelDepth: 63, DepthSkipped: 1, Nodes: 230, Time: 3 * time.Millisecond},
		"x":  {Moves: 3, Depth: 13, SelDepth: 22, DepthSkipped: 1, Nodes: 140, Time: 3 * time.Millisecond},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("search sums after migration:\n got %+v\nwant %+v", got, want)
	}
	if sides := record.SumSearch(games); !reflect.DeepEqual(sides, want) {
		t.Errorf("the migration and SideSums disagree:\nSideSums %+v\nmigrated %+v", sides, got)
	}
}

// insertMoves stores g's moves in an old database's moves table (its
// columns are the same in schemas 3 and 5, the ones these tests build).
func insertMoves(t *testing.T, db *sql.DB, g record.Game) {
	t.Helper()
	for _, m := range g.Moves {
		mustExec(t, db, `INSERT INTO moves (game_id, ply, uci, san, book, score, depth, seldepth, nodes, time_ms)
			VALUES (?, ?, 'a2a3', 'a3', ?, 0, ?, ?, ?, ?)`, g.ID, m.Ply, m.Book, m.Depth, m.SelDepth, m.Nodes, ms(m.Time))
	}
}

// queryPlan returns the details of EXPLAIN QUERY PLAN for query, one
// line each.
func queryPlan(t *testing.T, q queryer, query string, args ...any) string {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// Schema 6 to 7: the games get the game list's filter index, and every
// filter's count reads only that index (not every game of the tournament),
// while the search sums keep reading the games in schedule order. Readers
// refuse schema 6 and leave it as it was; the writer upgrades it with the
// games unchanged.
func TestMigrationToFilterIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v6.db")
	db := oldDatabase(t, path, 6)
	mustExec(t, db, `PRAGMA journal_mode = WAL`)
	mustExec(t, db, `INSERT INTO tournaments (id, name, config, config_hash, status, total_games, created_at, updated_at)
		VALUES (1, 't', '{}', 'h', 'running', 8, '', '')`)
	mustExec(t, db, `INSERT INTO engines (tournament_id, name, options) VALUES (1, 'a', ''), (1, 'b', '')`)
	results := []string{"1-0", "0-1", "1/2-1/2", "1-0"}
	for i := range 8 {
		white, black := "a", "b"
		if i%2 == 1 {
			white, black = black, white
		}
		mustExec(t, db, `INSERT INTO games (tournament_id, pair_index, game_index, round, opening_id, opening_name, start_fen,
			opening_moves, white, black, result, termination, reason, plies, final_fen, started_at, finished_at)
			VALUES (1, ?, ?, 0, ?, 'O', '', '', ?, ?, ?, ?, '', 3, '', '', '')`,
			i/2, i%2, fmt.Sprintf("o%d", i/4), white, black, results[i%4], []string{"checkmate", "stalemate"}[i/4])
	}
	db.Close()

	before := stateOf(t, path)
	if _, err := OpenReader(ctx, path); err == nil || !strings.Contains(err.Error(), "schema version 6 is older") {
		t.Errorf("reader of schema 6: %v", err)
	}
	if after := stateOf(t, path); after.sum != before.sum || after.userVersion != 6 {
		t.Errorf("the reader changed the schema 6 database: before %+v, after %+v", before, after)
	}

	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != schemaVersion() {
		t.Fatalf("user_version %d (%v) after the upgrade; want %d", v, err, schemaVersion())
	}
	for _, tc := range []struct {
		q    GameFilter
		want int
	}{
		{GameFilter{}, 8},
		{GameFilter{Engine: "a"}, 8},
		{GameFilter{Engine: "c"}, 0},
		{GameFilter{Result: "1-0"}, 4},
		{GameFilter{Termination: "stalemate", Result: "0-1"}, 1},
		{GameFilter{Opening: "o1", Engine: "b"}, 4},
	} {
		tc.q.TournamentID = 1
		where, args := tc.q.where()
		// Unfiltered, the narrower (tournament, pair, index) index does.
		plan := queryPlan(t, s.db, "SELECT count(*) FROM games"+where, args...)
		if !strings.HasPrefix(plan, "SEARCH games USING COVERING INDEX ") || strings.Contains(plan, "\n") ||
			(len(args) > 1 && !strings.Contains(plan, " games_filter ")) {
			t.Errorf("count of %+v: plan %q, not an index alone", tc.q, plan)
		}
		games, total, err := s.ListGames(ctx, tc.q, 0, 0)
		if err != nil || total != tc.want || len(games) != tc.want {
			t.Errorf("ListGames(%+v) = %d games of %d, %v; want %d", tc.q, len(games), total, err, tc.want)
		}
	}
	// An index led by white and black would be taken for the GROUP BY
	// and read the table out of order.
	if plan := queryPlan(t, s.db, `SELECT white, black, sum(white_nodes) FROM games WHERE tournament_id = ? GROUP BY white, black`, 1); strings.Contains(plan, "games_filter") {
		t.Errorf("the search sums read through the filter index:\n%s", plan)
	}
	if _, err := OpenReader(ctx, path); err != nil {
		t.Errorf("reader after the upgrade: %v", err)
	}
}

// Saved games carry their search sums; SearchSums adds them up per engine
// as SideSums does over the moves.
func TestSearchSumsOfSavedGames(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	id, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h"})
	if err != nil {
		t.Fatal(err)
	}
	g := &record.Game{TournamentID: id, White: "x", Black: "y", Result: "0-1", StartFEN: "8/8/8/8/8/8/8/K6k b - - 0 1",
		Moves: []record.Move{{Ply: 1, Depth: 3, Nodes: 10, Time: time.Millisecond}, {Ply: 2, Depth: 5, SelDepth: 9, Nodes: 20, Time: 1500 * time.Nanosecond},
			{Ply: 3, Depth: 245, SelDepth: 246, Nodes: 5, Time: time.Millisecond}}}
	if err := s.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, err := s.SearchSums(ctx, id)
	want := map[string]record.SearchSums{
		"y": {Moves: 2, Depth: 3, DepthSkipped: 1, Nodes: 15, Time: 2 * time.Millisecond},
		"x": {Moves: 1, Depth: 5, SelDepth: 9, Nodes: 20, Time: 1500 * time.Nanosecond},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("SearchSums = %+v, %v; want %+v", got, err, want)
	}
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// fileState is what must not change when a reader (or a refusing writer)
// opens a file: its bytes, user_version and journal mode, and the files
// beside it.
type fileState struct {
	sum         [32]byte
	userVersion int
	journalMode string
	siblings    string
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fileState{sum: sha256.Sum256(b)}
	// Read-only, so that looking does not change what is looked at.
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow("PRAGMA user_version").Scan(&st.userVersion); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&st.journalMode); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	st.siblings = strings.Join(names, " ")
	return st
}

// A foreign SQLite file, whatever its user_version, is refused by readers
// and writers with a message naming it, and is left exactly as it was:
// same bytes, user_version, journal mode, no files beside it.
func TestForeignDatabaseUntouched(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, setup string
		version     int
	}{
		{"user_version 2", `CREATE TABLE tournaments (id INTEGER PRIMARY KEY, title TEXT); CREATE TABLE games (x);
			INSERT INTO games VALUES (1); PRAGMA user_version = 2`, 2},
		{"user_version 0", `CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')`, 0},
		{"our tables but a column less", migrations[0].sql + `; ALTER TABLE moves DROP COLUMN seldepth; PRAGMA user_version = 1`, 1},
		{"WAL with a log", `PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1)`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "foreign.db")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			mustExec(t, db, tc.setup)
			wal := strings.Contains(tc.setup, "WAL")
			if wal {
				// The process that wrote it was killed: its log is not
				// checkpointed into the file.
				copyDatabase(t, path, path+".copy")
				db.Close()
				path += ".copy"
			} else {
				db.Close()
			}
			before := stateOf(t, path)
			if before.userVersion != tc.version || (before.journalMode != "delete") != wal {
				t.Fatalf("fixture: %+v", before)
			}
			_, rerr := OpenReader(ctx, path)
			_, werr := OpenWriter(ctx, path, "run")
			for _, err := range []error{rerr, werr} {
				if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a selfplay database") {
					t.Errorf("open of a foreign file: %v", err)
				}
			}
			after := stateOf(t, path)
			if wal { // a reader of a WAL file sets up -shm beside it
				after.siblings, before.siblings = "", ""
			}
			if after != before {
				t.Errorf("the foreign file changed:\nbefore %+v\nafter  %+v", before, after)
			}
			if wal {
				if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
					t.Errorf("the foreign file's log was checkpointed: %v", err)
				}
			}
		})
	}
}

// Readers do not migrate: an old schema is an error that says `selfplay
// run` upgrades it, and the file stays as it was. A file that is not
// SQLite at all, and an empty one, are errors that say so.
func TestReaderNeverMigrates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "v2.db")
	db := oldDatabase(t, path, 2)
	mustExec(t, db, `PRAGMA journal_mode = WAL`)
	mustExec(t, db, `INSERT INTO tournaments (id, name, config, config_hash, status, total_games, created_at, updated_at)
		VALUES (1, 't', '{}', 'h', 'running', 2, '', '')`)
	db.Close()
	before := stateOf(t, path)
	_, err := OpenReader(ctx, path)
	if err == nil || !strings.Contains(err.Error(), "schema version 2 is older") || !strings.Contains(err.Error(), "selfplay run -db "+path) {
		t.Errorf("reader of schema 2: %v", err)
	}
	if after := stateOf(t, path); after.sum != before.sum || after.userVersion != 2 {
		t.Errorf("the old database changed: before %+v, after %+v", before, after)
	}
	// The writer upgrades it.
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	r, err := OpenReader(ctx, path)
	if err != nil {
		t.Fatalf("reader after the upgrade: %v", err)
	}
	r.Close()

	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte(strings.Repeat("not a database\n", 100)), 0o644)
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	for file, want := range map[string]string{text: "not an SQLite database", empty: "empty"} {
		if _, err := OpenReader(ctx, file); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), file) {
			t.Errorf("reader of %s: %v, want %q", file, err, want)
		}
	}
	if _, err := OpenWriter(ctx, text, "run"); err == nil || !strings.Contains(err.Error(), "not an SQLite database") {
		t.Errorf("writer of a text file: %v", err)
	}
	if b, _ := os.ReadFile(text); string(b) != strings.Repeat("not a database\n", 100) {
		t.Error("the text file changed")
	}
}

// copyDatabase copies a database's file and write-ahead log as they are.
func copyDatabase(t *testing.T, from, to string) {
	t.Helper()
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(from + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A reader catching up on a tournament reads past the last game it saw
// through the id range, and from the start through the tournament's index
// (the id range would then be every game of every tournament).
func TestGamesAfterPlans(t *testing.T) {
	s, err := OpenWriter(context.Background(), filepath.Join(t.TempDir(), "p.db"), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct {
		after int64
		want  string
	}{
		{0, "(tournament_id=?"},
		{5, "USING INTEGER PRIMARY KEY (rowid>?)"},
	} {
		for _, q := range []string{
			"SELECT * FROM games " + afterWhere(tc.after) + " ORDER BY id",
			"SELECT white, sum(white_nodes) FROM games " + afterWhere(tc.after) + " GROUP BY white",
		} {
			if plan := queryPlan(t, s.db, q, 1, tc.after); !strings.Contains(plan, tc.want) {
				t.Errorf("after %d: %s\nplan %q, want %q", tc.after, q, plan, tc.want)
			}
		}
	}
}

// oneGame puts tournament 1 and its game 1 (with its PGN, no moves) into
// an old database, in WAL mode as selfplay keeps it.
func oneGame(t *testing.T, db *sql.DB) {
	t.Helper()
	mustExec(t, db, `PRAGMA journal_mode = WAL`)
	mustExec(t, db, `INSERT INTO tournaments (id, name, config, config_hash, status, total_games, created_at, updated_at)
		VALUES (1, 't', '{}', 'h', 'running', 4, '', '')`)
	mustExec(t, db, `INSERT INTO games (id, tournament_id, pair_index, game_index, round, opening_id, opening_name, start_fen,
		opening_moves, white, black, result, termination, reason, plies, final_fen, started_at, finished_at)
		VALUES (1, 1, 0, 0, 0, 'o', 'O', '', '', 'a', 'b', '1-0', 'checkmate', '', 1, '', '', '')`)
	mustExec(t, db, `INSERT INTO pgns (game_id, pgn) VALUES (1, 'pgn')`)
}

// upgradeOneMove checks a database of schema v whose game 1 has one move,
// want: a reader opens it without changing it and reads the move, and a
// writer, returned, upgrades it and reads the same move.
func upgradeOneMove(t *testing.T, path string, v int, want record.Move) *Store {
	t.Helper()
	ctx := context.Background()
	before := stateOf(t, path)
	r, err := OpenReader(ctx, path)
	if err != nil {
		t.Fatalf("reader of schema %d: %v", v, err)
	}
	g, err := r.GameByID(ctx, 1)
	r.Close()
	if err != nil || len(g.Moves) != 1 || !reflect.DeepEqual(g.Moves[0], want) {
		t.Fatalf("schema %d's move read as %+v (%v), want %+v", v, g.Moves, err, want)
	}
	if after := stateOf(t, path); after.sum != before.sum || after.userVersion != v {
		t.Errorf("the reader changed the schema %d database: before %+v, after %+v", v, before, after)
	}
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	if g, err := s.GameByID(ctx, 1); err != nil || !reflect.DeepEqual(g.Moves, []record.Move{want}) {
		s.Close()
		t.Fatalf("after the upgrade the move reads %+v (%v), want %+v", g.Moves, err, want)
	}
	return s
}

// Schema 7 to 8: the moves get fastchess's per-move fields (hashfull,
// tbhits, pv, timeleft, latency). A reader opens schema 7 without
// changing it and reads its moves with the fields zero; the writer
// upgrades it, keeps the moves, and a move saved then keeps its fields.
func TestMigrationToMoveFields(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v7.db")
	db := oldDatabase(t, path, 7)
	mustExec(t, db, `PRAGMA journal_mode = WAL`)
	mustExec(t, db, `INSERT INTO tournaments (id, name, config, config_hash, status, total_games, created_at, updated_at)
		VALUES (1, 't', '{}', 'h', 'running', 4, '', '')`)
	mustExec(t, db, `INSERT INTO engines (tournament_id, name, options) VALUES (1, 'a', ''), (1, 'b', '')`)
	mustExec(t, db, `INSERT INTO games (id, tournament_id, pair_index, game_index, round, opening_id, opening_name, start_fen,
		opening_moves, white, black, result, termination, reason, plies, final_fen, started_at, finished_at)
		VALUES (1, 1, 0, 0, 0, 'o', 'O', '', '', 'a', 'b', '1-0', 'checkmate', '', 1, '', '', '')`)
	mustExec(t, db, `INSERT INTO pgns (game_id, pgn) VALUES (1, 'pgn')`)
	mustExec(t, db, `INSERT INTO moves (game_id, ply, uci, san, book, score, depth, seldepth, nodes, time_ms)
		VALUES (1, 1, 'e2e4', 'e4', 0, 31, 7, 9, 100, 1.5)`)
	db.Close()
	old := record.Move{Ply: 1, UCI: "e2e4", SAN: "e4", Score: 31, Depth: 7, SelDepth: 9, Nodes: 100, Time: 1500 * time.Microsecond}

	s := upgradeOneMove(t, path, 7, old)
	defer s.Close()
	fields := record.Move{Ply: 2, UCI: "e7e5", SAN: "e5", Score: -20, Depth: 8, SelDepth: 11, Nodes: 2000,
		Time: 12 * time.Millisecond, HashFull: 137, TBHits: 5, PV: "e7e5 g1f3 b8c6",
		TimeLeft: 9876 * time.Millisecond, Latency: -2 * time.Millisecond}
	saved := &record.Game{TournamentID: 1, Pair: 1, Index: 0, OpeningID: "o", White: "a", Black: "b",
		Result: "1-0", Termination: "checkmate", Moves: []record.Move{fields}}
	if err := s.SaveGame(ctx, saved); err != nil {
		t.Fatal(err)
	}
	if g, err := s.GameByID(ctx, saved.ID); err != nil || !reflect.DeepEqual(g.Moves, []record.Move{fields}) {
		t.Fatalf("saved move reads %+v (%v), want %+v", g.Moves, err, fields)
	}
}

// Schema 8 to 9: the engines' identities get a table of their own. A
// reader opens schema 8 without changing it and reads its games without
// identities; the writer upgrades it, the old game still has none, a game
// saved then keeps its own (an empty author too), a game whose engines
// said nothing has no row, and deleting the tournament (-restart) takes
// the rows with it.
func TestMigrationToEngineIDs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v8.db")
	db := oldDatabase(t, path, 8)
	oneGame(t, db)
	db.Close()

	before := stateOf(t, path)
	r, err := OpenReader(ctx, path)
	if err != nil {
		t.Fatalf("reader of schema 8: %v", err)
	}
	g, err := r.GameByID(ctx, 1)
	r.Close()
	if err != nil || g.PGN != "pgn" || g.Identity != [2]record.EngineID{} {
		t.Fatalf("schema 8's game read as PGN %q, identity %+v (%v)", g.PGN, g.Identity, err)
	}
	if after := stateOf(t, path); after.sum != before.sum || after.userVersion != 8 {
		t.Errorf("the reader changed the schema 8 database: before %+v, after %+v", before, after)
	}

	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if g, err := s.GameByID(ctx, 1); err != nil || g.Identity != [2]record.EngineID{} {
		t.Fatalf("after the upgrade the old game's identity reads %+v (%v), want none", g.Identity, err)
	}
	ids := [2]record.EngineID{{Name: "Stockfish 17.1", Author: "the Stockfish developers (see AUTHORS file)"}, {Name: "fake engine"}}
	for i, id := range [][2]record.EngineID{ids, {}} {
		saved := &record.Game{TournamentID: 1, Pair: 1, Index: i, OpeningID: "o", White: "a", Black: "b",
			Result: "1-0", Termination: "checkmate", Identity: id}
		if err := s.SaveGame(ctx, saved); err != nil {
			t.Fatal(err)
		}
		if g, err := s.GameByID(ctx, saved.ID); err != nil || g.Identity != id {
			t.Errorf("saved identity reads %+v (%v), want %+v", g.Identity, err, id)
		}
	}
	all, err := s.Games(ctx, GameFilter{TournamentID: 1, WithMoves: true})
	if err != nil || len(all) != 3 || all[1].Identity != ids || all[2].Identity != [2]record.EngineID{} {
		t.Errorf("Games with moves: %d games (%v), want the saved identities", len(all), err)
	}
	rows := func() (n int) {
		if err := s.db.QueryRow(`SELECT count(*) FROM engine_ids`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := rows(); n != 1 {
		t.Errorf("%d engine_ids rows, want 1 (none for the games whose engines said nothing)", n)
	}
	if err := s.DeleteTournament(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != 0 {
		t.Errorf("%d engine_ids rows after deleting the tournament, want 0", n)
	}
}

// Schema 9 to 10: the moves get the engine's nps. A reader opens schema 9
// without changing it and reads its moves with nps 0 (the fastchess fields
// as stored); the writer upgrades it, keeps the moves, and a move saved
// then keeps its nps.
func TestMigrationToMoveNPS(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v9.db")
	db := oldDatabase(t, path, 9)
	oneGame(t, db)
	mustExec(t, db, `INSERT INTO moves (game_id, ply, uci, san, book, score, depth, seldepth, nodes, time_ms,
		hashfull, tbhits, pv, timeleft_ms, latency_ms) VALUES (1, 1, 'e2e4', 'e4', 0, 31, 7, 9, 100, 1.5, 12, 3, 'e2e4 e7e5', 900, 2)`)
	db.Close()
	old := record.Move{Ply: 1, UCI: "e2e4", SAN: "e4", Score: 31, Depth: 7, SelDepth: 9, Nodes: 100, Time: 1500 * time.Microsecond,
		HashFull: 12, TBHits: 3, PV: "e2e4 e7e5", TimeLeft: 900 * time.Millisecond, Latency: 2 * time.Millisecond}

	s := upgradeOneMove(t, path, 9, old)
	defer s.Close()
	withNPS := old
	withNPS.NPS = 1_251_213
	saved := &record.Game{TournamentID: 1, Pair: 1, Index: 0, OpeningID: "o", White: "a", Black: "b",
		Result: "1-0", Termination: "checkmate", Moves: []record.Move{withNPS}}
	if err := s.SaveGame(ctx, saved); err != nil {
		t.Fatal(err)
	}
	if g, err := s.GameByID(ctx, saved.ID); err != nil || !reflect.DeepEqual(g.Moves, []record.Move{withNPS}) {
		t.Fatalf("saved move reads %+v (%v), want %+v", g.Moves, err, withNPS)
	}
}
