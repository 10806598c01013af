package store

import (
	"context"
	"fmt"
	"time"

	"selfplay/store/record"
)

// SaveSuiteRun stores a run with its rows and positions in one transaction.
func (s *Store) SaveSuiteRun(ctx context.Context, r *record.SuiteRun) error {
	if err := s.checkFiles(); err != nil {
		return fmt.Errorf("saving suite run: %w", err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("saving suite run: %w", err)
	}
	defer tx.Rollback()
	if r.Created.IsZero() {
		r.Created = time.Now()
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO suite_runs (suite, limit_kind, settings, created_at) VALUES (?, ?, ?, ?)`,
		r.Suite, r.LimitKind, r.Settings, formatTime(r.Created))
	if err != nil {
		return fmt.Errorf("saving suite run: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("saving suite run: %w", err)
	}
	for _, row := range r.Rows {
		if _, err := tx.ExecContext(ctx, `INSERT INTO suite_rows (run_id, variant, limit_value, positions, solved, nodes,
			main_nodes, q_nodes, time_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, row.Variant, row.Limit, row.Positions,
			row.Solved, row.Nodes, row.MainNodes, row.QNodes, ms(row.Time)); err != nil {
			return fmt.Errorf("saving suite run: %w", err)
		}
	}
	for _, p := range r.Positions {
		if _, err := tx.ExecContext(ctx, `INSERT INTO suite_positions (run_id, variant, limit_value, position, solved, move,
			first_found, depth, score, nodes, time_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, p.Variant, p.Limit,
			p.Position, p.Solved, p.Move, p.FirstFound, p.Depth, p.Score, p.Nodes, ms(p.Time)); err != nil {
			return fmt.Errorf("saving suite run: position %s: %w", p.Position, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("saving suite run: %w", err)
	}
	r.ID = id
	return nil
}

// SuiteRuns returns every stored suite run, oldest first, with rows and
// positions.
func (rd *Reader) SuiteRuns(ctx context.Context) ([]record.SuiteRun, error) {
	rows, err := rd.q.QueryContext(ctx, `SELECT id, `+rd.boundList("suite, limit_kind, settings, created_at",
		map[string]int{"suite": boundLong, "limit_kind": boundShort, "settings": boundLong, "created_at": boundShort})+
		` FROM suite_runs ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("reading suite runs: %w", err)
	}
	var runs []record.SuiteRun
	for rows.Next() {
		var r record.SuiteRun
		var created string
		if err := rows.Scan(&r.ID, &r.Suite, &r.LimitKind, &r.Settings, &created); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reading suite runs: %w", err)
		}
		r.Created = parseTime(created)
		runs = append(runs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading suite runs: %w", err)
	}
	for i := range runs {
		if err := rd.suiteDetails(ctx, &runs[i]); err != nil {
			return nil, err
		}
	}
	return runs, nil
}

func (rd *Reader) suiteDetails(ctx context.Context, r *record.SuiteRun) error {
	rows, err := rd.q.QueryContext(ctx, `SELECT `+rd.text("variant", boundShort)+`, limit_value, positions, solved, nodes,
		main_nodes, q_nodes, time_ms FROM suite_rows WHERE run_id = ? ORDER BY rowid`, r.ID)
	if err != nil {
		return fmt.Errorf("reading suite run %d: %w", r.ID, err)
	}
	for rows.Next() {
		var row record.SuiteRow
		var t float64
		if err := rows.Scan(&row.Variant, &row.Limit, &row.Positions, &row.Solved, &row.Nodes, &row.MainNodes, &row.QNodes, &t); err != nil {
			rows.Close()
			return fmt.Errorf("reading suite run %d: %w", r.ID, err)
		}
		row.Time = fromMS(t)
		r.Rows = append(r.Rows, row)
	}
	rows.Close()
	prow, err := rd.q.QueryContext(ctx, `SELECT `+rd.boundList("variant, limit_value, position, solved, move",
		map[string]int{"variant": boundShort, "position": boundShort, "move": boundShort})+
		`, first_found, depth, score, nodes, time_ms FROM suite_positions WHERE run_id = ? ORDER BY rowid`, r.ID)
	if err != nil {
		return fmt.Errorf("reading suite run %d: %w", r.ID, err)
	}
	defer prow.Close()
	for prow.Next() {
		var p record.SuitePosition
		var t float64
		if err := prow.Scan(&p.Variant, &p.Limit, &p.Position, &p.Solved, &p.Move, &p.FirstFound, &p.Depth, &p.Score, &p.Nodes, &t); err != nil {
			return fmt.Errorf("reading suite run %d: %w", r.ID, err)
		}
		p.Time = fromMS(t)
		r.Positions = append(r.Positions, p)
	}
	return prow.Err()
}
