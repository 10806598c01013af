package merge

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"selfplay/store"
	"selfplay/store/record"
	"selfplay/store/storetest"
)

// dump is a database's content without its ids (which a merge renumbers):
// every column of every table, games by key, moves and PGN by their
// game's key, in a canonical order.
func dump(t *testing.T, path string) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	queries := map[string]string{
		"tournaments": `SELECT name, config, config_hash, status, total_games, sprt_state, sprt_llr, created_at,
			shard_index, shard_count, shard_pairs FROM tournaments ORDER BY name`,
		"engines": `SELECT t.name, e.name, e.options FROM engines e JOIN tournaments t ON t.id = e.tournament_id ORDER BY 1, 2`,
		"games": `SELECT t.name, g.pair_index, g.game_index, g.round, g.opening_id, g.opening_name, g.start_fen,
			g.opening_moves, g.white, g.black, g.result, g.termination, g.reason, g.culprit, g.plies, g.final_fen,
			g.started_at, g.finished_at, g.white_moves, g.white_depth, g.white_seldepth, g.white_depth_skipped, g.white_nodes,
			g.white_time_ns, g.black_moves, g.black_depth, g.black_seldepth, g.black_depth_skipped, g.black_nodes, g.black_time_ns
			FROM games g JOIN tournaments t ON t.id = g.tournament_id ORDER BY 1, 2, 3`,
		"moves": `SELECT t.name, g.pair_index, g.game_index, m.ply, m.uci, m.san, m.book, m.score, m.depth, m.seldepth,
			m.nodes, quote(m.time_ms) FROM moves m JOIN games g ON g.id = m.game_id JOIN tournaments t ON t.id = g.tournament_id
			ORDER BY 1, 2, 3, 4`,
		"pgns": `SELECT t.name, g.pair_index, g.game_index, p.pgn FROM pgns p JOIN games g ON g.id = p.game_id
			JOIN tournaments t ON t.id = g.tournament_id ORDER BY 1, 2, 3`,
		"engine_ids": `SELECT t.name, g.pair_index, g.game_index, e.white_name, e.white_author, e.black_name, e.black_author
			FROM engine_ids e JOIN games g ON g.id = e.game_id JOIN tournaments t ON t.id = g.tournament_id ORDER BY 1, 2, 3`,
		"suite_runs": `SELECT suite, limit_kind, settings, created_at FROM suite_runs ORDER BY 1, 2, 3, 4`,
		"suite_rows": `SELECT r.created_at, s.variant, s.limit_value, s.positions, s.solved, s.nodes, s.main_nodes,
			s.q_nodes, quote(s.time_ms) FROM suite_rows s JOIN suite_runs r ON r.id = s.run_id ORDER BY 1, 2, 3`,
		"suite_positions": `SELECT r.created_at, p.variant, p.limit_value, p.position, p.solved, p.move, p.first_found,
			p.depth, p.score, p.nodes, quote(p.time_ms) FROM suite_positions p JOIN suite_runs r ON r.id = p.run_id
			ORDER BY 1, 2, 3, 4`,
	}
	out := map[string][]string{}
	for table, q := range queries {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out[table] = append(out[table], fmt.Sprintf("%#v", vals))
		}
		rows.Close()
	}
	return out
}

// withoutRows drops the tournament rows (whose status a merge sets) from
// a dump.
func withoutRows(d map[string][]string, tables ...string) map[string][]string {
	out := map[string][]string{}
	for k, v := range d {
		if !containsString(tables, k) {
			out[k] = v
		}
	}
	return out
}

func containsString(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// synthetic writes a database of games with moves and PGN, the engines'
// identities of most games (every fifth has none, as a game whose engines
// said nothing), plus a suite run.
func synthetic(t testing.TB, path string, games int, seed uint64) {
	t.Helper()
	ctx := context.Background()
	if err := storetest.Generate(ctx, path, storetest.Options{Games: games, Plies: 20, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO engine_ids (game_id, white_name, white_author, black_name, black_author)
		SELECT id, 'Engine ' || white, 'the authors of ' || white || ' ' || id, 'Engine ' || black, ''
		FROM games WHERE id % 5 != 0`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.OpenWriter(ctx, path, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run := &record.SuiteRun{Suite: "wac.epd", LimitKind: "nodes", Settings: "nodes=1000", Created: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC),
		Rows:      []record.SuiteRow{{Variant: "plain", Limit: 1000, Positions: 2, Solved: 1, Nodes: 2000, Time: 1234567 * time.Nanosecond}},
		Positions: []record.SuitePosition{{Variant: "plain", Limit: 1000, Position: "WAC.001", Solved: true, Move: "g1f3", Nodes: 1000, Time: 7654321}}}
	if err := s.SaveSuiteRun(ctx, run); err != nil {
		t.Fatal(err)
	}
}

func merge(t *testing.T, out string, inputs ...string) error {
	t.Helper()
	_, err := Run(context.Background(), out, inputs, Options{})
	return err
}

// A merge copies every column of every row exactly (also REAL times to
// the bit), and a second merge of the same input changes nothing.
func TestMergeCopiesEverythingAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.db")
	synthetic(t, in, 40, 1)
	out := filepath.Join(dir, "out.db")
	if err := merge(t, out, in); err != nil {
		t.Fatal(err)
	}
	want, got := dump(t, in), dump(t, out)
	if !reflect.DeepEqual(withoutRows(want, "tournaments"), withoutRows(got, "tournaments")) {
		for k := range want {
			if !reflect.DeepEqual(want[k], got[k]) {
				t.Errorf("table %s differs after the merge: %d rows, want %d", k, len(got[k]), len(want[k]))
			}
		}
	}
	if len(got["moves"]) == 0 || len(got["suite_positions"]) == 0 {
		t.Fatal("the fixture has no moves or suite positions")
	}
	before := fileState(t, out)
	if err := merge(t, out, in); err != nil {
		t.Fatal(err)
	}
	if after := fileState(t, out); after != before {
		t.Errorf("merging the same input again touched the output file: %+v, was %+v", after, before)
	}
	if again := dump(t, out); !reflect.DeepEqual(again, got) {
		t.Error("merging the same input again changed the output")
	}
}

// state is what tells whether a database file was written: its bytes,
// modification time, and the size of its write-ahead log (-1: none or
// empty, which a reader may leave).
type state struct {
	sum     [32]byte
	mtime   time.Time
	walSize int64
}

func fileState(t *testing.T, path string) state {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := state{sum: sha256.Sum256(b), mtime: fi.ModTime(), walSize: -1}
	if wi, err := os.Stat(path + "-wal"); err == nil && wi.Size() > 0 {
		st.walSize = wi.Size()
	}
	return st
}

// shardsOf splits a whole database into n shard databases (as n `run
// -shard I/N` would leave them).
func shardsOf(t *testing.T, whole string, n int) []string {
	t.Helper()
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := 0; i < n; i++ {
		p := strings.TrimSuffix(whole, ".db") + fmt.Sprintf(".shard-%02d-of-%02d.db", i, n)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		exec(t, p, fmt.Sprintf("DELETE FROM games WHERE pair_index %% %d != %d", n, i),
			fmt.Sprintf("UPDATE tournaments SET shard_index = %d, shard_count = %d, status = 'share complete', sprt_state = ''", i, n))
		out = append(out, p)
	}
	return out
}

func exec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// Shards merge into the whole tournament: the same games, moves and PGN as
// the database they were split from, complete; merging them again, or with
// the whole database, changes nothing.
func TestMergeShards(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	synthetic(t, whole, 60, 2)
	shards := shardsOf(t, whole, 4)
	out := filepath.Join(dir, "merged.db")
	res, err := Run(context.Background(), out, shards, Options{})
	if err != nil {
		t.Fatal(err)
	}
	added := 0
	for _, in := range res.Inputs {
		added += in.Tournaments[0].Added
	}
	if added != 60 {
		t.Errorf("%d games added, want 60", added)
	}
	want, got := dump(t, whole), dump(t, out)
	for _, table := range []string{"games", "moves", "pgns", "engines"} {
		if !reflect.DeepEqual(want[table], got[table]) {
			t.Errorf("table %s differs from the whole database's", table)
		}
	}
	r, err := store.OpenReader(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := r.TournamentByName(context.Background(), storetest.Tournament)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status != record.StatusComplete || tr.Shard.Sharded() {
		t.Errorf("merged tournament: status %q, shard %v; want complete, whole", tr.Status, tr.Shard)
	}
	if err := merge(t, out, append([]string{whole}, shards...)...); err != nil {
		t.Fatal(err)
	}
	if again := dump(t, out); !reflect.DeepEqual(again, got) {
		t.Error("merging again (with the whole database) changed the output")
	}
}

// Refusals write nothing: conflicting games (named), another config
// (the differing keys), overlapping shards, shards of another split, an
// input given twice or that is the output, a truncated or foreign file
// (named); an output that did not exist is not created.
func TestMergeRefusesAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	synthetic(t, whole, 20, 3)
	shards := shardsOf(t, whole, 2)

	conflicting := filepath.Join(dir, "conflicting.db")
	copyFile(t, shards[1], conflicting)
	exec(t, conflicting, `UPDATE moves SET uci = 'b1c3' WHERE ply = 5 AND game_id IN
		(SELECT id FROM games WHERE pair_index = 3 AND game_index = 1)`,
		`UPDATE tournaments SET shard_index = 0, shard_count = 1`)
	resultDiffers := filepath.Join(dir, "result.db")
	copyFile(t, shards[1], resultDiffers)
	exec(t, resultDiffers, `UPDATE games SET result = '1/2-1/2', termination = 'adjudication' WHERE pair_index = 5 AND game_index = 0`,
		`UPDATE tournaments SET shard_index = 0, shard_count = 1`)
	otherConfig := filepath.Join(dir, "config.db")
	copyFile(t, shards[1], otherConfig)
	exec(t, otherConfig, `UPDATE tournaments SET config = replace(config, '"elo1":5', '"elo1":3'), config_hash = 'other'`)
	otherSplit := filepath.Join(dir, "split.db")
	copyFile(t, shards[1], otherSplit)
	exec(t, otherSplit, `UPDATE tournaments SET shard_index = 1, shard_count = 3`)
	truncated := filepath.Join(dir, "truncated.db")
	b, _ := os.ReadFile(shards[0])
	if err := os.WriteFile(truncated, b[:len(b)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.db")
	exec(t, foreign, `CREATE TABLE notes (body TEXT)`, `INSERT INTO notes VALUES ('mine')`)
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 300)), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		inputs []string
		want   []string // in the error
	}{
		{"conflicting moves", []string{shards[1], conflicting},
			[]string{"conflicting games", `"synthetic" game 4.2 (stored as pair_index 3, game_index 1)`, shards[1], conflicting, "other moves"}},
		{"conflicting results", []string{shards[1], resultDiffers},
			[]string{"conflicting games", "game 6.1", "1/2-1/2 (adjudication)", resultDiffers}},
		{"another config", []string{shards[0], otherConfig},
			[]string{"another configuration", otherConfig, "sprt.elo1: 5 -> 3"}},
		{"overlapping shards", []string{shards[1], copyOf(t, shards[1])}, []string{"both shard 1 of 2", "overlapping shard numbers"}},
		{"another split", []string{shards[0], otherSplit}, []string{"shard of 2", "shard of 3", "number of shards changed"}},
		{"given twice", []string{shards[0], shards[0]}, []string{"given twice"}},
		{"truncated", []string{shards[1], truncated}, []string{truncated}},
		{"foreign", []string{shards[1], foreign}, []string{foreign, "not a selfplay database"}},
		{"not sqlite", []string{shards[1], garbage}, []string{garbage, "not an SQLite database"}},
		{"missing", []string{shards[1], filepath.Join(dir, "missing.db")}, []string{"missing.db", "no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Into a new output: none is created.
			fresh := filepath.Join(t.TempDir(), "new.db")
			err := merge(t, fresh, tt.inputs...)
			checkRefusal(t, err, tt.want)
			if _, serr := os.Stat(fresh); serr == nil {
				t.Error("a refused merge created the output")
			}
			// Into an existing output: its content stays.
			out := filepath.Join(t.TempDir(), "out.db")
			if err := merge(t, out, shards[0]); err != nil {
				t.Fatal(err)
			}
			before, beforeFile := dump(t, out), fileState(t, out)
			err = merge(t, out, tt.inputs...)
			checkRefusal(t, err, tt.want)
			if after := fileState(t, out); after != beforeFile {
				t.Errorf("a refused merge touched the output file: %+v, was %+v", after, beforeFile)
			}
			if after := dump(t, out); !reflect.DeepEqual(before, after) {
				t.Error("a refused merge changed the output")
			}
		})
	}
	// The output itself as an input.
	out := filepath.Join(dir, "out.db")
	if err := merge(t, out, shards[0]); err != nil {
		t.Fatal(err)
	}
	checkRefusal(t, merge(t, out, shards[1], out), []string{"is the output"})
}

// A conflict names the game as the Round tag of its PGN does (pair.game,
// counted from 1), so the game the message names is the one a reader finds
// in the exported PGN; not by the 0-based pair and index (game 0.0 was
// PGN Round 1.1).
func TestMergeConflictNamesThePGNRound(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	synthetic(t, whole, 20, 3)
	for _, k := range []store.GameKey{{Pair: 0, Index: 0}, {Pair: 0, Index: 1}, {Pair: 7, Index: 0}, {Pair: 9, Index: 1}} {
		t.Run(fmt.Sprintf("pair %d index %d", k.Pair, k.Index), func(t *testing.T) {
			other := filepath.Join(t.TempDir(), "other.db")
			copyFile(t, whole, other)
			exec(t, other, fmt.Sprintf(`UPDATE games SET result = '1/2-1/2', termination = 'adjudication'
				WHERE pair_index = %d AND game_index = %d`, k.Pair, k.Index))
			round := pgnRound(t, whole, k)
			err := merge(t, filepath.Join(t.TempDir(), "out.db"), whole, other)
			var refused *RefusedError
			if !errors.As(err, &refused) || len(refused.Problems) != 1 {
				t.Fatalf("merge = %v, want one conflict", err)
			}
			want := fmt.Sprintf(`conflicting games: tournament "synthetic" game %s (stored as pair_index %d, game_index %d):`,
				round, k.Pair, k.Index)
			if !strings.HasPrefix(refused.Problems[0], want) {
				t.Errorf("conflict %q\ndoes not begin %q (the PGN's Round is %s)", refused.Problems[0], want, round)
			}
		})
	}
}

// pgnRound is the Round tag of a stored game's PGN.
func pgnRound(t *testing.T, path string, k store.GameKey) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pgn string
	if err := db.QueryRow(`SELECT p.pgn FROM pgns p JOIN games g ON g.id = p.game_id WHERE g.pair_index = ? AND g.game_index = ?`,
		k.Pair, k.Index).Scan(&pgn); err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(pgn, `[Round "`)
	round, _, ok2 := strings.Cut(rest, `"]`)
	if !ok || !ok2 || round == "" {
		t.Fatalf("no Round tag in the PGN of game %+v: %q", k, pgn)
	}
	return round
}

func checkRefusal(t *testing.T, err error, want []string) {
	t.Helper()
	var inputErr *InputError
	var refused *RefusedError
	if err == nil || !(errors.As(err, &inputErr) || errors.As(err, &refused)) {
		t.Fatalf("err = %v, want an InputError or RefusedError", err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyOf(t *testing.T, path string) string {
	p := filepath.Join(t.TempDir(), "copy-"+filepath.Base(path))
	copyFile(t, path, p)
	return p
}

// An output that holds a shard is refused: a merge makes a database of the
// whole tournament.
func TestMergeIntoShardRefused(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	synthetic(t, whole, 20, 4)
	shards := shardsOf(t, whole, 2)
	err := merge(t, shards[0], shards[1])
	checkRefusal(t, err, []string{"the output holds shard 0 of 2", "new database"})
}

// An input of an older schema (a shard played by an older selfplay)
// merges like a current one, beside a current one: schema 7, before the
// moves' fastchess fields (its moves get their defaults), schema 8,
// before the engines' identities (its games get none, the current
// shard's keep theirs), and schema 9, before the moves' nps (0).
func TestMergeOlderSchema(t *testing.T) {
	noIDs, noNPS := "DROP TABLE engine_ids", "ALTER TABLE moves DROP COLUMN nps"
	for _, tc := range []struct {
		version int
		stmts   []string
	}{
		{7, []string{noIDs, noNPS, "ALTER TABLE moves DROP COLUMN hashfull", "ALTER TABLE moves DROP COLUMN tbhits",
			"ALTER TABLE moves DROP COLUMN pv", "ALTER TABLE moves DROP COLUMN timeleft_ms",
			"ALTER TABLE moves DROP COLUMN latency_ms", "PRAGMA user_version = 7"}},
		{8, []string{noIDs, noNPS, "PRAGMA user_version = 8"}},
		{9, []string{noNPS, "PRAGMA user_version = 9"}},
	} {
		t.Run(fmt.Sprintf("schema %d", tc.version), func(t *testing.T) {
			dir := t.TempDir()
			whole := filepath.Join(dir, "whole.db")
			synthetic(t, whole, 40, 1)
			shards := shardsOf(t, whole, 2)
			newer := dump(t, shards[1])["engine_ids"]
			if len(newer) == 0 {
				t.Fatal("the current shard has no engine identities to copy")
			}
			exec(t, shards[0], tc.stmts...)
			out := filepath.Join(dir, "out.db")
			if err := merge(t, out, shards...); err != nil {
				t.Fatalf("merging a schema %d shard with a current one: %v", tc.version, err)
			}
			want, got := dump(t, whole), dump(t, out)
			for _, k := range []string{"games", "moves", "pgns"} {
				if !reflect.DeepEqual(want[k], got[k]) {
					t.Errorf("table %s differs from the whole database's: %d rows, want %d", k, len(got[k]), len(want[k]))
				}
			}
			if tc.version >= 9 {
				newer = want["engine_ids"] // both shards have them
			}
			if !reflect.DeepEqual(got["engine_ids"], newer) {
				t.Errorf("engine identities: got %d rows, want %d", len(got["engine_ids"]), len(newer))
			}
			exec(t, shards[1], "PRAGMA user_version = 99")
			if err := merge(t, filepath.Join(dir, "out2.db"), shards[1]); err == nil {
				t.Error("an input of a newer schema merged")
			}
		})
	}
}
