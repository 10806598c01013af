package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// migration brings the schema from one user_version to the next.
type migration struct {
	sql string
	// rebuild: the migration recreates tables that others reference. SQLite
	// does that with foreign keys off (the documented 12-step procedure),
	// and they cannot be switched inside a transaction.
	rebuild bool
}

// migrations[i] brings the schema from user_version i to i+1.
var migrations = []migration{
	{sql: `CREATE TABLE tournaments (
		id           INTEGER PRIMARY KEY,
		name         TEXT NOT NULL UNIQUE,
		config       TEXT NOT NULL,   -- snapshot of everything that defines the games (JSON)
		config_hash  TEXT NOT NULL,   -- sha256 of config
		status       TEXT NOT NULL,   -- running | complete
		total_games  INTEGER NOT NULL,
		sprt_state   TEXT NOT NULL DEFAULT '',  -- '' (no SPRT) | continue | H0 | H1
		sprt_llr     REAL NOT NULL DEFAULT 0,
		created_at   TEXT NOT NULL,
		updated_at   TEXT NOT NULL,
		finished_at  TEXT NOT NULL DEFAULT ''
	);
	CREATE TABLE engines (
		tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
		name          TEXT NOT NULL,
		options       TEXT NOT NULL,  -- resolved options (variant switches, or command line and UCI options)
		PRIMARY KEY (tournament_id, name)
	);
	CREATE TABLE games (
		id            INTEGER PRIMARY KEY,
		tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
		pair_index    INTEGER NOT NULL,  -- game pair in schedule order, from 0
		game_index    INTEGER NOT NULL,  -- 0: the pairing's first engine has White; 1: colors swapped
		round         INTEGER NOT NULL,
		opening_id    TEXT NOT NULL,
		opening_name  TEXT NOT NULL,
		start_fen     TEXT NOT NULL,     -- position the opening moves start from
		opening_moves TEXT NOT NULL,     -- UCI, space separated
		white         TEXT NOT NULL,
		black         TEXT NOT NULL,
		result        TEXT NOT NULL,     -- 1-0 | 0-1 | 1/2-1/2
		termination   TEXT NOT NULL,     -- checkmate, stalemate, threefold repetition, ..., adjudication, illegal move, time forfeit, engine error
		reason        TEXT NOT NULL,     -- human-readable detail
		plies         INTEGER NOT NULL,  -- plies played after the opening
		final_fen     TEXT NOT NULL,
		started_at    TEXT NOT NULL,
		finished_at   TEXT NOT NULL,
		pgn           TEXT NOT NULL,
		UNIQUE (tournament_id, pair_index, game_index)
	);
	CREATE TABLE moves (
		game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
		ply       INTEGER NOT NULL,  -- from 1, opening moves included
		uci       TEXT NOT NULL,
		san       TEXT NOT NULL,
		book      INTEGER NOT NULL,  -- 1: opening move
		score     INTEGER NOT NULL,  -- mover's view; centipawns, or ±(32000 - plies to mate)
		depth     INTEGER NOT NULL,
		seldepth  INTEGER NOT NULL,
		nodes     INTEGER NOT NULL,
		time_ms   REAL NOT NULL,
		PRIMARY KEY (game_id, ply)
	);`},
	{sql: `CREATE TABLE suite_runs (
		id          INTEGER PRIMARY KEY,
		suite       TEXT NOT NULL,     -- EPD file as given
		limit_kind  TEXT NOT NULL,     -- nodes | depth | movetime
		settings    TEXT NOT NULL,     -- the command's settings, for the record
		created_at  TEXT NOT NULL
	);
	CREATE TABLE suite_rows (
		run_id      INTEGER NOT NULL REFERENCES suite_runs(id) ON DELETE CASCADE,
		variant     TEXT NOT NULL,
		limit_value INTEGER NOT NULL,  -- nodes, depth, or movetime in ms
		positions   INTEGER NOT NULL,
		solved      INTEGER NOT NULL,
		nodes       INTEGER NOT NULL,
		main_nodes  INTEGER NOT NULL,
		q_nodes     INTEGER NOT NULL,
		time_ms     REAL NOT NULL,
		PRIMARY KEY (run_id, variant, limit_value)
	);
	CREATE TABLE suite_positions (
		run_id      INTEGER NOT NULL REFERENCES suite_runs(id) ON DELETE CASCADE,
		variant     TEXT NOT NULL,
		limit_value INTEGER NOT NULL,
		position    TEXT NOT NULL,     -- EPD id
		solved      INTEGER NOT NULL,
		move        TEXT NOT NULL,     -- move chosen at the end (UCI)
		first_found INTEGER NOT NULL,  -- first iteration depth at which the final move was best (-1: none)
		depth       INTEGER NOT NULL,
		score       INTEGER NOT NULL,
		nodes       INTEGER NOT NULL,
		time_ms     REAL NOT NULL,
		PRIMARY KEY (run_id, variant, limit_value, position)
	);`},
	// The engine charged with a game's fault (illegal move, time forfeit,
	// engine timeout, crash or error), so that a drawn time forfeit is
	// charged without reading the reason text; '' for other endings.
	{sql: `ALTER TABLE games ADD COLUMN culprit TEXT NOT NULL DEFAULT '';`},
	// Tournament and game ids are never reused (AUTOINCREMENT): a
	// tournament deleted by -restart, and its games, leave their ids
	// behind, so an id seen once (in a report, a merged shard, a web page)
	// never names something else. Readers of many games read small rows:
	// each game keeps the sums of its engine moves' search figures per
	// side, so that the report's search averages add up one row per game
	// instead of every move (filled here from the moves; time in whole
	// nanoseconds, so sums are exact in any order), and the PGN, ten times
	// the rest of the row, moves to its own table.
	{rebuild: true, sql: `CREATE TABLE tournaments_v4 (
		id           INTEGER PRIMARY KEY AUTOINCREMENT,
		name         TEXT NOT NULL UNIQUE,
		config       TEXT NOT NULL,
		config_hash  TEXT NOT NULL,
		status       TEXT NOT NULL,
		total_games  INTEGER NOT NULL,
		sprt_state   TEXT NOT NULL DEFAULT '',
		sprt_llr     REAL NOT NULL DEFAULT 0,
		created_at   TEXT NOT NULL,
		updated_at   TEXT NOT NULL,
		finished_at  TEXT NOT NULL DEFAULT ''
	);
	INSERT INTO tournaments_v4 (id, name, config, config_hash, status, total_games, sprt_state, sprt_llr,
		created_at, updated_at, finished_at)
		SELECT id, name, config, config_hash, status, total_games, sprt_state, sprt_llr,
		created_at, updated_at, finished_at FROM tournaments ORDER BY id;
	DROP TABLE tournaments;
	ALTER TABLE tournaments_v4 RENAME TO tournaments;
	CREATE TABLE games_v4 (
		id            INTEGER PRIMARY KEY AUTOINCREMENT,
		tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
		pair_index    INTEGER NOT NULL,
		game_index    INTEGER NOT NULL,
		round         INTEGER NOT NULL,
		opening_id    TEXT NOT NULL,
		opening_name  TEXT NOT NULL,
		start_fen     TEXT NOT NULL,
		opening_moves TEXT NOT NULL,
		white         TEXT NOT NULL,
		black         TEXT NOT NULL,
		result        TEXT NOT NULL,
		termination   TEXT NOT NULL,
		reason        TEXT NOT NULL,
		culprit       TEXT NOT NULL DEFAULT '',
		plies         INTEGER NOT NULL,
		final_fen     TEXT NOT NULL,
		started_at    TEXT NOT NULL,
		finished_at   TEXT NOT NULL,
		white_moves    INTEGER NOT NULL DEFAULT 0,  -- White's engine moves (book moves excluded)
		white_depth    INTEGER NOT NULL DEFAULT 0,  -- sums over those moves
		white_seldepth INTEGER NOT NULL DEFAULT 0,
		white_nodes    INTEGER NOT NULL DEFAULT 0,
		white_time_ns  INTEGER NOT NULL DEFAULT 0,
		black_moves    INTEGER NOT NULL DEFAULT 0,
		black_depth    INTEGER NOT NULL DEFAULT 0,
		black_seldepth INTEGER NOT NULL DEFAULT 0,
		black_nodes    INTEGER NOT NULL DEFAULT 0,
		black_time_ns  INTEGER NOT NULL DEFAULT 0,
		UNIQUE (tournament_id, pair_index, game_index)
	);
	WITH mover AS (
		SELECT m.game_id AS game_id, m.depth AS depth, m.seldepth AS seldepth, m.nodes AS nodes,
			CAST(round(m.time_ms * 1000000) AS INTEGER) AS ns,
			-- ply 1 is played by the side to move in the start position
			(m.ply % 2 = 1) <> (instr(g.start_fen, ' ') > 0
				AND substr(g.start_fen, instr(g.start_fen, ' ') + 1, 1) = 'b') AS white
		FROM moves m JOIN games g ON g.id = m.game_id
		WHERE m.book = 0
	), sums AS (
		SELECT game_id,
			sum(white) AS wm, sum(CASE WHEN white THEN depth END) AS wd, sum(CASE WHEN white THEN seldepth END) AS ws,
			sum(CASE WHEN white THEN nodes END) AS wn, sum(CASE WHEN white THEN ns END) AS wt,
			sum(NOT white) AS bm, sum(CASE WHEN white THEN NULL ELSE depth END) AS bd,
			sum(CASE WHEN white THEN NULL ELSE seldepth END) AS bs,
			sum(CASE WHEN white THEN NULL ELSE nodes END) AS bn, sum(CASE WHEN white THEN NULL ELSE ns END) AS bt
		FROM mover GROUP BY game_id
	)
	INSERT INTO games_v4 (id, tournament_id, pair_index, game_index, round, opening_id, opening_name, start_fen,
		opening_moves, white, black, result, termination, reason, culprit, plies, final_fen, started_at, finished_at,
		white_moves, white_depth, white_seldepth, white_nodes, white_time_ns,
		black_moves, black_depth, black_seldepth, black_nodes, black_time_ns)
		SELECT g.id, g.tournament_id, g.pair_index, g.game_index, g.round, g.opening_id, g.opening_name, g.start_fen,
		g.opening_moves, g.white, g.black, g.result, g.termination, g.reason, g.culprit, g.plies, g.final_fen,
		g.started_at, g.finished_at,
		coalesce(s.wm, 0), coalesce(s.wd, 0), coalesce(s.ws, 0), coalesce(s.wn, 0), coalesce(s.wt, 0),
		coalesce(s.bm, 0), coalesce(s.bd, 0), coalesce(s.bs, 0), coalesce(s.bn, 0), coalesce(s.bt, 0)
		FROM games g LEFT JOIN sums s ON s.game_id = g.id ORDER BY g.id;
	CREATE TABLE pgns (
		game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
		pgn     TEXT NOT NULL  -- the game as exported
	);
	INSERT INTO pgns (game_id, pgn) SELECT id, pgn FROM games ORDER BY id;
	DROP TABLE games;
	ALTER TABLE games_v4 RENAME TO games;`},
	// The share of the schedule a database plays (selfplay run -shard I/N
	// -pairs K): a shard's database is not the whole tournament, and must
	// not be taken for it by a report, a resume or a merge.
	{sql: `ALTER TABLE tournaments ADD COLUMN shard_index INTEGER NOT NULL DEFAULT 0;  -- I of -shard I/N
	ALTER TABLE tournaments ADD COLUMN shard_count INTEGER NOT NULL DEFAULT 1;  -- N; 1: not sharded
	ALTER TABLE tournaments ADD COLUMN shard_pairs INTEGER NOT NULL DEFAULT 0;  -- -pairs K; 0: no limit`},
	// Per side, the engine moves whose depth or seldepth is a sentinel
	// (beyond record's maxPlausibleDepth, such as Stockfish's 245) are left
	// out of the depth sums and counted, so average depths divide by the
	// moves they add up; games stored before are corrected from their moves
	// (127 is record's maxPlausibleDepth, written out: a migration is history).
	{sql: `ALTER TABLE games ADD COLUMN white_depth_skipped INTEGER NOT NULL DEFAULT 0;  -- moves left out of white_depth, white_seldepth
	ALTER TABLE games ADD COLUMN black_depth_skipped INTEGER NOT NULL DEFAULT 0;
	WITH skipped AS (
		SELECT m.game_id AS game_id, m.depth AS depth, m.seldepth AS seldepth,
			(m.ply % 2 = 1) <> (instr(g.start_fen, ' ') > 0
				AND substr(g.start_fen, instr(g.start_fen, ' ') + 1, 1) = 'b') AS white
		FROM moves m JOIN games g ON g.id = m.game_id
		WHERE m.book = 0 AND NOT (m.depth BETWEEN 0 AND 127 AND m.seldepth BETWEEN 0 AND 127)
	), sums AS (
		SELECT game_id,
			sum(white) AS wk, coalesce(sum(CASE WHEN white THEN depth END), 0) AS wd,
			coalesce(sum(CASE WHEN white THEN seldepth END), 0) AS ws,
			sum(NOT white) AS bk, coalesce(sum(CASE WHEN white THEN NULL ELSE depth END), 0) AS bd,
			coalesce(sum(CASE WHEN white THEN NULL ELSE seldepth END), 0) AS bs
		FROM skipped GROUP BY game_id
	)
	UPDATE games SET white_depth = white_depth - s.wd, white_seldepth = white_seldepth - s.ws, white_depth_skipped = s.wk,
		black_depth = black_depth - s.bd, black_seldepth = black_seldepth - s.bs, black_depth_skipped = s.bk
		FROM sums s WHERE games.id = s.game_id;`},
	// The game list's filters (selfplay serve: engine of either color,
	// result, termination, opening) count a tournament's games: one narrow
	// index with every filtered column lets the count read the index, a
	// sixth of the table's pages, instead of every game. White and black
	// come last: an index led by them would be taken for the search sums'
	// GROUP BY white, black, reading the table out of schedule order
	// (twice as slow as the sort it saves).
	{sql: `CREATE INDEX games_filter ON games (tournament_id, result, termination, opening_id, white, black);`},
	// fastchess's per-move PGN fields that an engine's info lines and the
	// runner's clock give (pgn_out hashfull=, tbhits=, pv=, timeleft=,
	// latency=): stored with the move, so that a resumed run writes the
	// live file's games from the database as the uninterrupted run wrote
	// them. Moves stored before have none (zero, empty).
	{sql: `ALTER TABLE moves ADD COLUMN hashfull INTEGER NOT NULL DEFAULT 0;  -- per mille, from the engine's last exact info line
	ALTER TABLE moves ADD COLUMN tbhits INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE moves ADD COLUMN pv TEXT NOT NULL DEFAULT '';  -- UCI, space separated
	ALTER TABLE moves ADD COLUMN timeleft_ms REAL NOT NULL DEFAULT 0;  -- the mover's clock after the move (0: no clock)
	ALTER TABLE moves ADD COLUMN latency_ms REAL NOT NULL DEFAULT 0;  -- the move's time less the engine's last reported time`},
	// The engines' identities as each game's players named themselves
	// (UCI id name and id author: fastchess's EngineWhiteName ... tags),
	// so that a resumed run writes the live file's games from the database
	// as the uninterrupted run wrote them. Per game, as fastchess records
	// the process that played it: a tournament resumed with a new binary
	// keeps each game's own. A table of its own keeps the games rows that
	// reports read small; a game whose engines said nothing has no row, and
	// games stored before have none.
	{sql: `CREATE TABLE engine_ids (
		game_id      INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
		white_name   TEXT NOT NULL,
		white_author TEXT NOT NULL,
		black_name   TEXT NOT NULL,
		black_author TEXT NOT NULL
	);`},
	// The nps an external engine reported on the move's info line, which
	// fastchess's pgn_out nps= writes (before, selfplay wrote the move's
	// nodes over its time, which it still writes where this is 0).
	{sql: `ALTER TABLE moves ADD COLUMN nps INTEGER NOT NULL DEFAULT 0;  -- from the engine's last exact info line (0: none, or an in-process engine)`},
}

// moveFieldsVersion is the schema that added the moves' hashfull, tbhits,
// pv, timeleft_ms and latency_ms, engineIDsVersion the one that added the
// games' engine identities (engine_ids), moveNPSVersion the moves' nps. A reader opens the schemas before
// them too (read-only, it cannot migrate): their moves read with those
// fields zero and their games without identities, which is what a
// migration would give them, so a report or an export of an older
// database is what it was.
const (
	moveFieldsVersion = 8
	engineIDsVersion  = 9
	moveNPSVersion    = 10
)

// oldestReadable is the oldest schema a reader opens: the one before
// moveFieldsVersion. Every schema since added only columns with defaults
// or tables that a reader can do without; a schema that changes what is
// there needs its own thought.
const oldestReadable = moveFieldsVersion - 1

// lacking is what schema v lacks.
func lacking(v int) olderSchema {
	return olderSchema{moveFields: v < moveFieldsVersion, engineIDs: v < engineIDsVersion, moveNPS: v < moveNPSVersion}
}

// schemaVersion is the user_version of an up-to-date database.
func schemaVersion() int { return len(migrations) }

// migrate brings the schema of the database on conn (already checked by
// checkSchema) up to date, one transaction per step.
func migrate(ctx context.Context, conn *sql.Conn, from int) error {
	for v := from; v < len(migrations); v++ {
		if err := migrateStep(ctx, conn, v); err != nil {
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
	}
	return nil
}

func migrateStep(ctx context.Context, conn *sql.Conn, v int) (err error) {
	m := migrations[v]
	if m.rebuild {
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
			return err
		}
		defer func() {
			if _, ferr := conn.ExecContext(ctx, "PRAGMA foreign_keys = ON"); err == nil {
				err = ferr
			}
		}()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	if m.rebuild {
		// The rebuilt tables must still satisfy every reference to them.
		rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
		if err != nil {
			return err
		}
		bad := rows.Next()
		rows.Close()
		if bad {
			return errors.New("foreign key check failed after rebuilding the tables")
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
		return err
	}
	return tx.Commit()
}

// column is a table column as PRAGMA table_info describes it.
type column struct {
	name, typ string
	notNull   bool
	dflt      sql.NullString
	pk        int
}

// tables is a schema: each table's columns in order.
type tables map[string][]column

// readTables reads the schema of q's main database, SQLite's own tables
// left out.
func readTables(ctx context.Context, q queryer) (tables, error) {
	rows, err := q.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`)
	if err != nil {
		return nil, err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	t := tables{}
	for _, n := range names {
		cols, err := q.QueryContext(ctx, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`, n)
		if err != nil {
			return nil, err
		}
		for cols.Next() {
			var c column
			if err := cols.Scan(&c.name, &c.typ, &c.notNull, &c.dflt, &c.pk); err != nil {
				cols.Close()
				return nil, err
			}
			t[n] = append(t[n], c)
		}
		cols.Close()
		if err := cols.Err(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// expectedTables[v] is the schema that migrations build up to user_version
// v, read from an in-memory database once: the migrations are the only
// description of the schema.
var expectedTables = sync.OnceValues(func() ([]tables, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	out := []tables{{}}
	for v := range migrations {
		if err := migrateStep(ctx, conn, v); err != nil {
			return nil, fmt.Errorf("building schema %d in memory: %w", v+1, err)
		}
		t, err := readTables(ctx, conn)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
})

// errForeign marks a file that is an SQLite database but not selfplay's.
var errForeign = errors.New("not a selfplay database")

// checkSchema reads the user_version of the database on q and checks that
// its tables are those the migrations build up to that version: a foreign
// SQLite file (whatever its user_version) is refused before anything
// touches it. It returns the version; 0 means an empty database.
func checkSchema(ctx context.Context, q queryer) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, err
	}
	if v > schemaVersion() {
		return v, fmt.Errorf("schema version %d is newer than this selfplay's (%d): use a newer selfplay", v, schemaVersion())
	}
	if v < 0 {
		return v, fmt.Errorf("%w (user_version %d)", errForeign, v)
	}
	have, err := readTables(ctx, q)
	if err != nil {
		return v, err
	}
	all, err := expectedTables()
	if err != nil {
		return v, err
	}
	if err := sameTables(all[v], have); err != nil {
		if v == 0 {
			return v, fmt.Errorf("%w (it has tables %s and no selfplay schema version)", errForeign, tableNames(have))
		}
		return v, fmt.Errorf("%w (user_version %d, but %v)", errForeign, v, err)
	}
	return v, nil
}

// sameTables checks that have holds every table of want with the same
// columns; other tables (a user's own additions) are allowed.
func sameTables(want, have tables) error {
	for _, name := range slices.Sorted(maps.Keys(want)) {
		got, ok := have[name]
		if !ok {
			return fmt.Errorf("no table %s", name)
		}
		if !slices.Equal(got, want[name]) {
			return fmt.Errorf("table %s has columns %s, not %s", name, columnNames(got), columnNames(want[name]))
		}
	}
	if len(want) == 0 && len(have) > 0 {
		return fmt.Errorf("tables %s", tableNames(have))
	}
	return nil
}

func tableNames(t tables) string {
	names := slices.Sorted(maps.Keys(t))
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func columnNames(cols []column) string {
	var names []string
	for _, c := range cols {
		names = append(names, c.name+" "+c.typ)
	}
	return "(" + strings.Join(names, ", ") + ")"
}
