package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"selfplay/stats"
	"selfplay/store/record"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// pinAllocator holds one block of each small size class of the C
// allocator until the returned function is called. That allocator maps
// 64 KiB regions for small blocks and unmaps a region when its last block
// is freed: B-tree page splits allocate and free a scratch block each, and
// without a block held beside it every split mapped and unmapped a region
// (two system calls; a third of a merge's time).
func pinAllocator() func() {
	tls := libc.NewTLS()
	var held []uintptr
	for log := 10; log <= 14; log++ {
		if p := sqlite3.Xsqlite3_malloc64(tls, uint64(3<<(log-2))); p != 0 {
			held = append(held, p)
		}
	}
	return func() {
		for _, p := range held {
			sqlite3.Xsqlite3_free(tls, p)
		}
		tls.Close()
	}
}

// GameKey identifies a game in its tournament's schedule.
type GameKey struct{ Pair, Index int }

// String names the game as its PGN's Round tag does (pair.game, counted
// from 1), not by the 0-based Pair and Index.
func (k GameKey) String() string { return record.PGNRound(k.Pair, k.Index) }

// GameDigest is what decides whether two stored games with the same key
// are the same game: a hash of the players, the opening, every move, the
// result and the termination (not the times, which differ between two
// plays of the same game), with a few facts to name the game by.
type GameDigest struct {
	Key         GameKey
	Sum         [sha256.Size]byte
	Result      string
	Termination record.Termination
	Plies       int
}

// Describe names the game's outcome for a message.
func (d GameDigest) Describe() string {
	return fmt.Sprintf("%s (%s) after %d plies past the opening", d.Result, d.Termination, d.Plies)
}

// digestQuery selects the games of a tournament with what GameDigest
// hashes, in schedule order: all of them, or (keyed) those whose keys
// the JSON array of [pair, index] in the second argument lists. The moves
// are concatenated inside SQLite: one row per game.
func digestQuery(keyed bool) string {
	from := `FROM games g WHERE g.tournament_id = ?`
	if keyed {
		// CROSS JOIN: the keys drive, each one a lookup in the games'
		// unique index (the other way round scans the keys per game).
		from = `FROM json_each(?2) k CROSS JOIN games g ON g.tournament_id = ?1 AND g.pair_index = k.value->>0
			AND g.game_index = k.value->>1`
	}
	return `SELECT ` + (&digestRow{}).fields().list("g.") + `,
		coalesce((SELECT group_concat(m.uci, ' ' ORDER BY m.ply) FROM moves m WHERE m.game_id = g.id), '')
		` + from + ` ORDER BY g.pair_index, g.game_index`
}

// digestRow is a row of digestQuery, before scanDigest hashes it.
type digestRow struct {
	d                                                     GameDigest
	white, black, opening, fen, openingMoves, term, moves string
	round                                                 int
}

// fields binds the games columns of digestQuery to the row (the moves
// come after them).
func (r *digestRow) fields() fields {
	return fields{{colPair, &r.d.Key.Pair}, {colIndex, &r.d.Key.Index}, {colWhite, &r.white}, {colBlack, &r.black},
		{colRound, &r.round}, {colOpeningID, &r.opening}, {colStartFEN, &r.fen}, {colOpeningMoves, &r.openingMoves},
		{colResult, &r.d.Result}, {colTermination, &r.term}, {colPlies, &r.d.Plies}}
}

// scanDigest reads a row of digestQuery.
func scanDigest(rows *sql.Rows) (GameDigest, error) {
	var r digestRow
	if err := rows.Scan(append(r.fields().values(), &r.moves)...); err != nil {
		return r.d, err
	}
	d := r.d
	d.Termination = record.Termination(r.term)
	h := sha256.New()
	for _, f := range []string{r.white, r.black, strconv.Itoa(r.round), r.opening, r.fen, r.openingMoves, r.moves, d.Result, r.term} {
		fmt.Fprintf(h, "%d:%s;", len(f), f) // length-prefixed: no two field lists hash alike
	}
	h.Sum(d.Sum[:0])
	return d, nil
}

// keysJSON is keys as a JSON array of [pair, index].
func keysJSON(keys []GameKey) string {
	b := make([]byte, 0, 16*len(keys)+2)
	b = append(b, '[')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "[%d,%d]", k.Pair, k.Index)
	}
	return string(append(b, ']'))
}

// GameDigests returns the digests of a tournament's games in schedule
// order: of all of them when keys is nil, else of those with these keys
// (a key without a game is left out).
func (r *Reader) GameDigests(ctx context.Context, tournamentID int64, keys []GameKey) ([]GameDigest, error) {
	args := []any{tournamentID}
	if keys != nil {
		args = append(args, keysJSON(keys))
	}
	rows, err := r.q.QueryContext(ctx, digestQuery(keys != nil), args...)
	if err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	var out []GameDigest
	for rows.Next() {
		d, err := scanDigest(rows)
		if err != nil {
			return nil, fmt.Errorf("reading games: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	return out, nil
}

// GameKeys returns the keys of a tournament's games in schedule order.
func (r *Reader) GameKeys(ctx context.Context, tournamentID int64) ([]GameKey, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT pair_index, game_index FROM games WHERE tournament_id = ?
		ORDER BY pair_index, game_index`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	var out []GameKey
	for rows.Next() {
		var k GameKey
		if err := rows.Scan(&k.Pair, &k.Index); err != nil {
			return nil, fmt.Errorf("reading games: %w", err)
		}
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	return out, nil
}

// MergePlan is what Merge copies from an input.
type MergePlan struct {
	// Games lists, per tournament name, the keys of the input's games to
	// copy: games the output does not have, checked against every other
	// input. The input's other games are left out.
	Games map[string][]GameKey
	// Settle returns the status and SPRT state (state, LLR) of a
	// tournament after the copy, from the merged games as r reads them
	// (inside the merge's transaction). Nil: the status stays.
	Settle func(ctx context.Context, r *Reader, t record.Tournament) (record.Status, string, float64, error)
}

// MergeResult counts what a Merge did.
type MergeResult struct {
	Tournaments []mergedTournament // the input's tournaments, in its order
	SuiteRuns   int                // suite runs copied
	SuiteKnown  int                // suite runs the output already had
}

// mergedTournament counts a tournament's games in a Merge.
type mergedTournament struct {
	Name   string
	Added  int           // games copied
	Status record.Status // after the merge
}

// Merge copies the tournaments, the planned games (with their moves and
// PGN) and the suite runs of the selfplay database at path into the
// Store, in one transaction: a merge that fails or is killed leaves the
// output as it was before this input. A tournament is matched by name and
// must have the same config snapshot (config hash) in both. A tournament
// created in the output is one of the whole schedule (no shard); a
// decision of its SPRT stored in a database of the whole tournament (by a
// runner) comes along, as it is final. Every tournament of the input gets
// the status plan.Settle gives it. Suite runs are matched by suite,
// settings and time. The output's tournament rows change only when
// something does, so merging the same input again changes nothing.
//
// The caller checks the input first: OpenReader (its schema),
// CheckIntegrity, and the plan (which games are new, and that no two
// differ under the same key). The input is read read-only: it is attached
// to the writer's connection (mode=ro), so that rows go from file to file
// inside SQLite, values exact, with no round trip per row.
func (s *Store) Merge(ctx context.Context, path string, plan MergePlan) (MergeResult, error) {
	res, err := s.merge(ctx, path, plan)
	if err != nil {
		return MergeResult{}, fmt.Errorf("merging %s into %s: %w", path, s.path, err)
	}
	return res, nil
}

func (s *Store) merge(ctx context.Context, path string, plan MergePlan) (res MergeResult, err error) {
	if err := s.checkFiles(); err != nil {
		return res, err
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close()
	lacks, err := attachReadOnly(ctx, conn, path)
	if err != nil {
		return res, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "DETACH DATABASE src")
	// The input is read through a memory map rather than a read call per
	// page. (A larger page cache for the output does not pay: pages are
	// allocated and freed one by one by the C allocator, which costs more
	// than the spills it saves.)
	if _, err := conn.ExecContext(ctx, "PRAGMA src.mmap_size = 1073741824"); err != nil {
		return res, err
	}
	defer pinAllocator()()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return res, err
	}
	defer tx.Rollback()
	srcTs, err := attachedTournaments(ctx, tx)
	if err != nil {
		return res, err
	}
	if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE merge_keys (pair_index INTEGER NOT NULL, game_index INTEGER NOT NULL,
		PRIMARY KEY (pair_index, game_index)) WITHOUT ROWID`); err != nil {
		return res, err
	}
	out := &Reader{db: s.db, q: tx, path: s.path}
	for _, st := range srcTs {
		mt, err := mergeTournament(ctx, tx, out, st, plan, lacks)
		if err != nil {
			return res, fmt.Errorf("tournament %s: %w", st.Name, err)
		}
		res.Tournaments = append(res.Tournaments, mt)
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE temp.merge_keys`); err != nil {
		return res, err
	}
	if res.SuiteRuns, res.SuiteKnown, err = mergeSuiteRuns(ctx, tx); err != nil {
		return res, err
	}
	if err := tx.Commit(); err != nil {
		return res, err
	}
	return res, nil
}

// attachedTournaments reads the tournaments of the attached database.
func attachedTournaments(ctx context.Context, tx *sql.Tx) ([]record.Tournament, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM src.tournaments ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("reading tournaments: %w", err)
	}
	return scanTournaments(rows)
}

// decided reports whether a stored SPRT state is a decision.
func decided(state string) bool {
	s, ok := stats.ParseSPRTState(state)
	return ok && s.Decided()
}

// mergeTournament copies the planned games of the attached tournament st.
func mergeTournament(ctx context.Context, tx *sql.Tx, out *Reader, st record.Tournament, plan MergePlan, lacks olderSchema) (mergedTournament, error) {
	mt := mergedTournament{Name: st.Name}
	changed := false // the output's tournament row must be updated
	ot, err := out.TournamentByName(ctx, st.Name)
	switch {
	case errors.Is(err, ErrNotFound):
		r, err := tx.ExecContext(ctx, `INSERT INTO tournaments (name, config, config_hash, status, total_games,
			created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, st.Name, st.Config, st.ConfigHash,
			record.StatusRunning, st.TotalGames, formatTime(st.CreatedAt), formatTime(time.Now()))
		if err != nil {
			return mt, fmt.Errorf("creating it: %w", err)
		}
		id, err := r.LastInsertId()
		if err != nil {
			return mt, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO engines (tournament_id, name, options)
			SELECT ?, name, options FROM src.engines WHERE tournament_id = ? ORDER BY rowid`, id, st.ID); err != nil {
			return mt, fmt.Errorf("creating it: %w", err)
		}
		if ot, err = out.TournamentByName(ctx, st.Name); err != nil {
			return mt, err
		}
		changed = true
	case err != nil:
		return mt, err
	case ot.ConfigHash != st.ConfigHash:
		return mt, errors.New("it has another configuration in the output")
	case ot.Shard.Sharded():
		return mt, fmt.Errorf("the output holds %s of it: merge into a database of the whole tournament", ot.Shard)
	}
	if st.Shard.Whole() && decided(st.SPRTState) && !decided(ot.SPRTState) {
		if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET sprt_state = ?, sprt_llr = ? WHERE id = ?`,
			st.SPRTState, st.SPRTLLR, ot.ID); err != nil {
			return mt, err
		}
		ot.SPRTState, ot.SPRTLLR, changed = st.SPRTState, st.SPRTLLR, true
	}
	if keys := plan.Games[st.Name]; len(keys) > 0 {
		if err := copyGames(ctx, tx, st.ID, ot.ID, keys, lacks); err != nil {
			return mt, err
		}
		mt.Added, changed = len(keys), true
	}
	mt.Status = ot.Status
	if plan.Settle == nil {
		return mt, nil
	}
	status, state, llr, err := plan.Settle(ctx, out, ot)
	if err != nil {
		return mt, err
	}
	mt.Status = status
	if !changed && status == ot.Status && state == ot.SPRTState && llr == ot.SPRTLLR {
		return mt, nil // nothing new: the row stays as it is, updated_at too
	}
	now := time.Now()
	finished := time.Time{}
	switch {
	case status == record.StatusComplete && ot.Status == record.StatusComplete:
		finished = ot.FinishedAt
	case status == record.StatusComplete:
		finished = now
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = ?, sprt_state = ?, sprt_llr = ?, updated_at = ?,
		finished_at = ? WHERE id = ?`, status, state, llr, formatTime(now), formatTime(finished), ot.ID); err != nil {
		return mt, err
	}
	return mt, nil
}

// copyGames copies the games with the given keys of the attached
// tournament srcID, with their PGN and moves, into tournament outID of
// the output, where they get new ids: one statement per table, the keys
// in a temporary table.
func copyGames(ctx context.Context, tx *sql.Tx, srcID, outID int64, keys []GameKey, lacks olderSchema) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM temp.merge_keys`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO temp.merge_keys (pair_index, game_index)
		SELECT value->>0, value->>1 FROM json_each(?)`, keysJSON(keys)); err != nil {
		return err
	}
	// Every column as it is, but the tournament's id in the output (the
	// first of gameColumns).
	r, err := tx.ExecContext(ctx, `INSERT INTO games (`+columnList("", gameColumns)+`)
		SELECT ?1, `+columnList("g.", gameColumns[1:])+`
		FROM temp.merge_keys k JOIN src.games g ON g.tournament_id = ?2 AND g.pair_index = k.pair_index
		AND g.game_index = k.game_index ORDER BY k.pair_index, k.game_index`, outID, srcID)
	if err != nil {
		return fmt.Errorf("copying games: %w", err)
	}
	if n, err := r.RowsAffected(); err != nil {
		return err
	} else if n != int64(len(keys)) {
		return fmt.Errorf("%d of the %d games to copy are there: the input changed since it was checked", n, len(keys))
	}
	// The copied games, by key: their ids in the input and in the output.
	// SQLite walks them in the input's schedule order, which is the order
	// of their new ids: rows come out in the order of the output's keys,
	// without a sort.
	const both = `FROM temp.merge_keys k
		JOIN src.games g ON g.tournament_id = ?2 AND g.pair_index = k.pair_index AND g.game_index = k.game_index
		JOIN main.games o ON o.tournament_id = ?1 AND o.pair_index = k.pair_index AND o.game_index = k.game_index`
	if _, err := tx.ExecContext(ctx, `INSERT INTO pgns (game_id, pgn) SELECT o.id, p.pgn `+both+`
		JOIN src.pgns p ON p.game_id = g.id`, outID, srcID); err != nil {
		return fmt.Errorf("copying PGN: %w", err)
	}
	// An input of the schema before the moves' fastchess fields (a shard
	// played by an older selfplay) has none.
	if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, `+moveBaseColumns+`, `+moveFieldColumns+`)
		SELECT o.id, `+moveSelect("m.", lacks)+` `+both+`
		JOIN src.moves m ON m.game_id = g.id`, outID, srcID); err != nil {
		return fmt.Errorf("copying moves: %w", err)
	}
	if lacks.engineIDs {
		return nil // an input of the schema before them has no identities
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO engine_ids (game_id, `+engineIDColumns+`)
		SELECT o.id, `+prefixed("e.", engineIDColumns)+` `+both+`
		JOIN src.engine_ids e ON e.game_id = g.id`, outID, srcID); err != nil {
		return fmt.Errorf("copying engine identities: %w", err)
	}
	return nil
}

// mergeSuiteRuns copies the attached suite runs that the output does not
// have (the same suite, limit kind, settings and creation time), with
// their rows and positions.
func mergeSuiteRuns(ctx context.Context, tx *sql.Tx) (copied, known int, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT s.id, EXISTS (SELECT 1 FROM main.suite_runs o WHERE o.suite = s.suite
		AND o.limit_kind = s.limit_kind AND o.settings = s.settings AND o.created_at = s.created_at)
		FROM src.suite_runs s ORDER BY s.id`)
	if err != nil {
		return 0, 0, fmt.Errorf("reading suite runs: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		var exists bool
		if err := rows.Scan(&id, &exists); err != nil {
			rows.Close()
			return 0, 0, err
		}
		if exists {
			known++
		} else {
			ids = append(ids, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	for _, id := range ids {
		r, err := tx.ExecContext(ctx, `INSERT INTO suite_runs (suite, limit_kind, settings, created_at)
			SELECT suite, limit_kind, settings, created_at FROM src.suite_runs WHERE id = ?`, id)
		if err != nil {
			return 0, 0, fmt.Errorf("copying suite run %d: %w", id, err)
		}
		newID, err := r.LastInsertId()
		if err != nil {
			return 0, 0, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO suite_rows (run_id, variant, limit_value, positions, solved, nodes,
			main_nodes, q_nodes, time_ms) SELECT ?, variant, limit_value, positions, solved, nodes, main_nodes, q_nodes, time_ms
			FROM src.suite_rows WHERE run_id = ?`, newID, id); err != nil {
			return 0, 0, fmt.Errorf("copying suite run %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO suite_positions (run_id, variant, limit_value, position, solved, move,
			first_found, depth, score, nodes, time_ms) SELECT ?, variant, limit_value, position, solved, move, first_found,
			depth, score, nodes, time_ms FROM src.suite_positions WHERE run_id = ?`, newID, id); err != nil {
			return 0, 0, fmt.Errorf("copying suite run %d: %w", id, err)
		}
		copied++
	}
	return copied, known, nil
}
