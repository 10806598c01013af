// Package store keeps tournaments, games and moves in an SQLite file
// (modernc.org/sqlite, no cgo). The schema is versioned with PRAGMA
// user_version; the database runs in WAL mode and every finished game is
// written in one transaction, so a killed process loses at most the games
// that were still being played.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // database/sql driver "sqlite"

	"selfplay/store/record"
)

// Store is an open database.
type Store struct {
	db *sql.DB
}

// Open opens (creating if needed) the database file and brings its schema up
// to date. It fails with a clear message when the directory does not exist
// or is not writable.
func Open(ctx context.Context, path string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	dir := filepath.Dir(abs)
	if st, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("database %s: directory %s: %w", path, dir, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("database %s: %s is not a directory", path, dir)
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return nil, fmt.Errorf("database %s: is a directory", path)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	dsn := (&url.URL{Scheme: "file", Path: abs, RawQuery: q.Encode()}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	// One connection: SQLite has one writer anyway, and a single connection
	// serialises the workers' transactions without SQLITE_BUSY retries.
	db.SetMaxOpenConns(1)
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database (checkpointing the WAL).
func (s *Store) Close() error { return s.db.Close() }

// migrations[i] brings the schema from user_version i to i+1.
var migrations = []string{
	`CREATE TABLE tournaments (
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
	);`,
	`CREATE TABLE suite_runs (
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
	);`,
	// The engine charged with a game's fault (illegal move, time forfeit,
	// engine timeout, crash or error), so that a drawn time forfeit is
	// charged without reading the reason text; '' for other endings.
	`ALTER TABLE games ADD COLUMN culprit TEXT NOT NULL DEFAULT '';`,
}

// schemaVersion is the user_version of an up-to-date database.
func schemaVersion() int { return len(migrations) }

func (s *Store) migrate(ctx context.Context) error {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("reading schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this selfplay (%d): use a newer selfplay", v, len(migrations))
	}
	for ; v < len(migrations); v++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
	}
	return nil
}

const timeLayout = time.RFC3339Nano

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeLayout)
}

func parseTime(s string) time.Time {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// ErrNotFound is returned for a missing tournament.
var ErrNotFound = errors.New("not found")

// TournamentByName returns the tournament and its engines, or ErrNotFound.
func (s *Store) TournamentByName(ctx context.Context, name string) (record.Tournament, error) {
	ts, err := s.tournaments(ctx, "WHERE name = ?", name)
	if err != nil {
		return record.Tournament{}, err
	}
	if len(ts) == 0 {
		return record.Tournament{}, fmt.Errorf("tournament %q: %w", name, ErrNotFound)
	}
	return ts[0], nil
}

// Tournaments returns every tournament in creation order.
func (s *Store) Tournaments(ctx context.Context) ([]record.Tournament, error) {
	return s.tournaments(ctx, "")
}

func (s *Store) tournaments(ctx context.Context, where string, args ...any) ([]record.Tournament, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, config, config_hash, status, total_games, sprt_state, sprt_llr,
		created_at, updated_at, finished_at FROM tournaments `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading tournaments: %w", err)
	}
	defer rows.Close()
	var out []record.Tournament
	for rows.Next() {
		var t record.Tournament
		var created, updated, finished string
		if err := rows.Scan(&t.ID, &t.Name, &t.Config, &t.ConfigHash, &t.Status, &t.TotalGames, &t.SPRTState, &t.SPRTLLR,
			&created, &updated, &finished); err != nil {
			return nil, fmt.Errorf("reading tournaments: %w", err)
		}
		t.CreatedAt, t.UpdatedAt, t.FinishedAt = parseTime(created), parseTime(updated), parseTime(finished)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading tournaments: %w", err)
	}
	rows.Close()
	for i := range out {
		if out[i].Engines, err = s.engines(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) engines(ctx context.Context, tid int64) ([]record.Engine, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, options FROM engines WHERE tournament_id = ? ORDER BY rowid`, tid)
	if err != nil {
		return nil, fmt.Errorf("reading engines: %w", err)
	}
	defer rows.Close()
	var out []record.Engine
	for rows.Next() {
		var e record.Engine
		if err := rows.Scan(&e.Name, &e.Options); err != nil {
			return nil, fmt.Errorf("reading engines: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// CreateTournament inserts a tournament and its engines; t.ID is ignored and
// the new ID returned.
func (s *Store) CreateTournament(ctx context.Context, t record.Tournament) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	defer tx.Rollback()
	now := formatTime(time.Now())
	res, err := tx.ExecContext(ctx, `INSERT INTO tournaments (name, config, config_hash, status, total_games, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, t.Name, t.Config, t.ConfigHash, record.StatusRunning, t.TotalGames, now, now)
	if err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	for _, e := range t.Engines {
		if _, err := tx.ExecContext(ctx, `INSERT INTO engines (tournament_id, name, options) VALUES (?, ?, ?)`, id, e.Name, e.Options); err != nil {
			return 0, fmt.Errorf("creating tournament %s: engine %s: %w", t.Name, e.Name, err)
		}
	}
	return id, tx.Commit()
}

// DeleteTournament removes a tournament with its games and moves (restart).
func (s *Store) DeleteTournament(ctx context.Context, id int64) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM tournaments WHERE id = ?`, id); err != nil {
		return fmt.Errorf("deleting tournament %d: %w", id, err)
	}
	return nil
}

// UpdateStatus records a tournament's status and SPRT state; complete sets
// finished_at.
func (s *Store) UpdateStatus(ctx context.Context, id int64, status record.Status, sprtState string, sprtLLR float64) error {
	now := time.Now()
	finished := ""
	if status == record.StatusComplete {
		finished = formatTime(now)
	}
	_, err := s.db.ExecContext(ctx, `UPDATE tournaments SET status = ?, sprt_state = ?, sprt_llr = ?, updated_at = ?,
		finished_at = CASE WHEN ? = '' THEN finished_at ELSE ? END WHERE id = ?`,
		status, sprtState, sprtLLR, formatTime(now), finished, finished, id)
	if err != nil {
		return fmt.Errorf("updating tournament %d: %w", id, err)
	}
	return nil
}

// CountGames returns the number of stored games of a tournament.
func (s *Store) CountGames(ctx context.Context, tid int64) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE tournament_id = ?`, tid).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting games: %w", err)
	}
	return n, nil
}

// SaveGame stores a finished game and its moves in one transaction. Storing
// the same game twice is an error (the UNIQUE key), never a duplicate row.
func (s *Store) SaveGame(ctx context.Context, g *record.Game) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("saving game %d.%d: %w", g.Pair, g.Index, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO games (tournament_id, pair_index, game_index, round, opening_id, opening_name,
		start_fen, opening_moves, white, black, result, termination, reason, culprit, plies, final_fen, started_at, finished_at, pgn)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.TournamentID, g.Pair, g.Index, g.Round, g.OpeningID, g.OpeningName, g.StartFEN, strings.Join(g.OpeningMoves, " "),
		g.White, g.Black, g.Result, g.Termination, g.Reason, g.Culprit, g.Plies, g.FinalFEN, formatTime(g.Started), formatTime(g.Finished), g.PGN)
	if err != nil {
		return fmt.Errorf("saving game %d.%d: %w", g.Pair, g.Index, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("saving game %d.%d: %w", g.Pair, g.Index, err)
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO moves (game_id, ply, uci, san, book, score, depth, seldepth, nodes, time_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("saving game %d.%d: %w", g.Pair, g.Index, err)
	}
	defer stmt.Close()
	for _, m := range g.Moves {
		if _, err := stmt.ExecContext(ctx, id, m.Ply, m.UCI, m.SAN, m.Book, m.Score, m.Depth, m.SelDepth, m.Nodes, ms(m.Time)); err != nil {
			return fmt.Errorf("saving game %d.%d move %d: %w", g.Pair, g.Index, m.Ply, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET updated_at = ? WHERE id = ?`, formatTime(time.Now()), g.TournamentID); err != nil {
		return fmt.Errorf("saving game %d.%d: %w", g.Pair, g.Index, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("saving game %d.%d: %w", g.Pair, g.Index, err)
	}
	g.ID = id
	return nil
}

// GameFilter selects games; zero fields select everything.
type GameFilter struct {
	TournamentID int64
	Engine       string // games where this engine played either color
	WithMoves    bool
}

// Games returns games in (tournament, pair, index) order.
func (s *Store) Games(ctx context.Context, f GameFilter) ([]record.Game, error) {
	var where []string
	var args []any
	if f.TournamentID != 0 {
		where = append(where, "tournament_id = ?")
		args = append(args, f.TournamentID)
	}
	if f.Engine != "" {
		where = append(where, "(white = ? OR black = ?)")
		args = append(args, f.Engine, f.Engine)
	}
	q := `SELECT id, tournament_id, pair_index, game_index, round, opening_id, opening_name, start_fen, opening_moves,
		white, black, result, termination, reason, culprit, plies, final_fen, started_at, finished_at, pgn FROM games`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY tournament_id, pair_index, game_index"
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	var out []record.Game
	for rows.Next() {
		var g record.Game
		var moves, started, finished string
		if err := rows.Scan(&g.ID, &g.TournamentID, &g.Pair, &g.Index, &g.Round, &g.OpeningID, &g.OpeningName, &g.StartFEN,
			&moves, &g.White, &g.Black, &g.Result, &g.Termination, &g.Reason, &g.Culprit, &g.Plies, &g.FinalFEN, &started, &finished, &g.PGN); err != nil {
			return nil, fmt.Errorf("reading games: %w", err)
		}
		g.OpeningMoves = strings.Fields(moves)
		g.Started, g.Finished = parseTime(started), parseTime(finished)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	rows.Close()
	if f.WithMoves {
		for i := range out {
			if out[i].Moves, err = s.moves(ctx, out[i].ID); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// WritePGN writes the stored PGN of the selected games, in tournament and
// schedule order, and returns how many it wrote.
func (s *Store) WritePGN(ctx context.Context, w io.Writer, f GameFilter) (int, error) {
	games, err := s.Games(ctx, f)
	if err != nil {
		return 0, err
	}
	for i, g := range games {
		if _, err := io.WriteString(w, g.PGN); err != nil {
			return i, fmt.Errorf("writing PGN: %w", err)
		}
	}
	return len(games), nil
}

// TournamentGames returns a tournament's games in schedule order, with
// their moves (standings.Source).
func (s *Store) TournamentGames(ctx context.Context, tournamentID int64) ([]record.Game, error) {
	return s.Games(ctx, GameFilter{TournamentID: tournamentID, WithMoves: true})
}

func (s *Store) moves(ctx context.Context, gameID int64) ([]record.Move, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT ply, uci, san, book, score, depth, seldepth, nodes, time_ms
		FROM moves WHERE game_id = ? ORDER BY ply`, gameID)
	if err != nil {
		return nil, fmt.Errorf("reading moves: %w", err)
	}
	defer rows.Close()
	var out []record.Move
	for rows.Next() {
		var m record.Move
		var t float64
		if err := rows.Scan(&m.Ply, &m.UCI, &m.SAN, &m.Book, &m.Score, &m.Depth, &m.SelDepth, &m.Nodes, &t); err != nil {
			return nil, fmt.Errorf("reading moves: %w", err)
		}
		m.Time = fromMS(t)
		out = append(out, m)
	}
	return out, rows.Err()
}
