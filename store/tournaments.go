package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"selfplay/store/record"
)

// ErrNotFound is returned for a missing tournament.
var ErrNotFound = errors.New("not found")

// TournamentByName returns the tournament and its engines, or ErrNotFound.
func (r *Reader) TournamentByName(ctx context.Context, name string) (record.Tournament, error) {
	ts, err := r.tournaments(ctx, "WHERE name = ?", name)
	if err != nil {
		return record.Tournament{}, err
	}
	if len(ts) == 0 {
		return record.Tournament{}, fmt.Errorf("tournament %q: %w", name, ErrNotFound)
	}
	return ts[0], nil
}

// Tournaments returns every tournament in creation order.
func (r *Reader) Tournaments(ctx context.Context) ([]record.Tournament, error) {
	return r.tournaments(ctx, "")
}

func (r *Reader) tournaments(ctx context.Context, where string, args ...any) ([]record.Tournament, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+r.tournamentList()+` FROM tournaments `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading tournaments: %w", err)
	}
	out, err := scanTournaments(rows)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Engines, err = r.engines(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tournamentColumns are the tournaments columns that scanTournaments reads,
// then the size of a config snapshot left out (0: none, as here).
const tournamentColumns = `id, name, config, config_hash, status, total_games, sprt_state, sprt_llr,
	created_at, updated_at, finished_at, shard_index, shard_count, shard_pairs, 0`

// tournamentList is tournamentColumns as r reads them: for a reader for
// display, the text bounded (Reader.text) and a config snapshot longer
// than record.MaxConfigSnapshot left out, with its size (ConfigLeftOut).
func (r *Reader) tournamentList() string {
	if !r.bounded {
		return tournamentColumns
	}
	fits := fmt.Sprintf("octet_length(config) <= %d", record.MaxConfigSnapshot)
	return `id, ` + r.text("name", boundShort) + `, CASE WHEN ` + fits + ` THEN config ELSE '' END, ` +
		r.boundList("config_hash, status", map[string]int{"config_hash": boundShort, "status": boundShort}) +
		`, total_games, ` + r.text("sprt_state", boundShort) + `, sprt_llr, ` +
		r.boundList("created_at, updated_at, finished_at", map[string]int{"created_at": boundShort,
			"updated_at": boundShort, "finished_at": boundShort}) +
		`, shard_index, shard_count, shard_pairs, CASE WHEN ` + fits + ` THEN 0 ELSE octet_length(config) END`
}

// scanTournaments reads and closes rows of tournamentColumns (without the
// engines, which are rows of their own table).
func scanTournaments(rows *sql.Rows) ([]record.Tournament, error) {
	defer rows.Close()
	var out []record.Tournament
	for rows.Next() {
		var t record.Tournament
		var created, updated, finished string
		if err := rows.Scan(&t.ID, &t.Name, &t.Config, &t.ConfigHash, &t.Status, &t.TotalGames, &t.SPRTState, &t.SPRTLLR,
			&created, &updated, &finished, &t.Shard.Index, &t.Shard.Count, &t.Shard.Pairs, &t.ConfigLeftOut); err != nil {
			return nil, fmt.Errorf("reading tournaments: %w", err)
		}
		t.CreatedAt, t.UpdatedAt, t.FinishedAt = parseTime(created), parseTime(updated), parseTime(finished)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading tournaments: %w", err)
	}
	return out, nil
}

func (r *Reader) engines(ctx context.Context, tid int64) ([]record.Engine, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+r.text("name", boundShort)+`, `+r.text("options", boundLong)+
		` FROM engines WHERE tournament_id = ? ORDER BY rowid`, tid)
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

// CreateTournament inserts a tournament (with its Shard) and its engines; t.ID is ignored and
// the new ID returned. IDs are never reused, also not those of deleted
// tournaments.
func (s *Store) CreateTournament(ctx context.Context, t record.Tournament) (int64, error) {
	if err := s.checkFiles(); err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	defer tx.Rollback()
	now := formatTime(time.Now())
	res, err := tx.ExecContext(ctx, `INSERT INTO tournaments (name, config, config_hash, status, total_games, created_at, updated_at,
		shard_index, shard_count, shard_pairs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.Name, t.Config, t.ConfigHash, record.StatusRunning, t.TotalGames, now, now, t.Shard.Index, max(t.Shard.Count, 1), t.Shard.Pairs)
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
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("creating tournament %s: %w", t.Name, err)
	}
	return id, nil
}

// DeleteTournament removes a tournament with its games and moves (restart).
func (s *Store) DeleteTournament(ctx context.Context, id int64) error {
	if err := s.checkFiles(); err != nil {
		return fmt.Errorf("deleting tournament %d: %w", id, err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM tournaments WHERE id = ?`, id); err != nil {
		return fmt.Errorf("deleting tournament %d: %w", id, err)
	}
	return nil
}

// UpdateStatus records a tournament's status and SPRT state; complete sets
// finished_at.
func (s *Store) UpdateStatus(ctx context.Context, id int64, status record.Status, sprtState string, sprtLLR float64) error {
	if err := s.checkFiles(); err != nil {
		return fmt.Errorf("updating tournament %d: %w", id, err)
	}
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

// TournamentByID returns the tournament with its engines, or an error
// wrapping ErrNotFound.
func (r *Reader) TournamentByID(ctx context.Context, id int64) (record.Tournament, error) {
	ts, err := r.tournaments(ctx, "WHERE id = ?", id)
	if err != nil {
		return record.Tournament{}, err
	}
	if len(ts) == 0 {
		return record.Tournament{}, fmt.Errorf("tournament %d: %w", id, ErrNotFound)
	}
	return ts[0], nil
}

// SetShard records the share of the schedule a tournament's database
// plays (selfplay run -shard I/N -pairs K): the runner widens -pairs from
// wave to wave, and gives a tournament without games the share of the run
// that resumes it.
func (s *Store) SetShard(ctx context.Context, id int64, sh record.Shard) error {
	if err := sh.Validate(); err != nil {
		return fmt.Errorf("tournament %d: %w", id, err)
	}
	if err := s.checkFiles(); err != nil {
		return fmt.Errorf("updating tournament %d: %w", id, err)
	}
	_, err := s.db.ExecContext(ctx, `UPDATE tournaments SET shard_index = ?, shard_count = ?, shard_pairs = ?, updated_at = ?
		WHERE id = ?`, sh.Index, max(sh.Count, 1), sh.Pairs, formatTime(time.Now()), id)
	if err != nil {
		return fmt.Errorf("updating tournament %d: %w", id, err)
	}
	return nil
}
