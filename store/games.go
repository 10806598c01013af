package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"selfplay/outcome"
	"selfplay/store/record"
)

// ErrNoGame is returned by GameByID for an id that is not stored.
var ErrNoGame = errors.New("no such game")

// CountGames returns the number of stored games of a tournament.
func (r *Reader) CountGames(ctx context.Context, tid int64) (int, error) {
	var n int
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE tournament_id = ?`, tid).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting games: %w", err)
	}
	return n, nil
}

// SaveGame stores a finished game and its moves in one transaction. Storing
// the same game twice is an error (the UNIQUE key), never a duplicate row.
// A database file deleted or replaced since OpenWriter is an error
// wrapping ErrDatabaseGone, before anything is written; a full disk one
// wrapping ErrDiskFull.
func (s *Store) SaveGame(ctx context.Context, g *record.Game) (err error) {
	defer func() { err = s.writeError(err) }()
	round := record.PGNRound(g.Pair, g.Index) // messages name the game as its PGN does
	if err := s.checkFiles(); err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	defer tx.Rollback()
	fs := gameFields(g)
	res, err := tx.ExecContext(ctx, `INSERT INTO games (`+fs.list("")+`) VALUES (?`+strings.Repeat(", ?", len(fs)-1)+`)`,
		fs.values()...)
	if err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO pgns (game_id, pgn) VALUES (?, ?)`, id, g.PGN); err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	if w, b := g.Identity[0], g.Identity[1]; w != (record.EngineID{}) || b != (record.EngineID{}) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO engine_ids (game_id, `+engineIDColumns+`) VALUES (?, ?, ?, ?, ?)`,
			id, w.Name, w.Author, b.Name, b.Author); err != nil {
			return fmt.Errorf("saving game %s: %w", round, err)
		}
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO moves (game_id, `+moveBaseColumns+`, `+moveFieldColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	defer stmt.Close()
	for _, m := range g.Moves {
		if _, err := stmt.ExecContext(ctx, id, m.Ply, m.UCI, m.SAN, m.Book, m.Score, m.Depth, m.SelDepth, m.Nodes, ms(m.Time),
			m.HashFull, m.TBHits, m.PV, ms(m.TimeLeft), ms(m.Latency), m.NPS); err != nil {
			return fmt.Errorf("saving game %s move %d: %w", round, m.Ply, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET updated_at = ? WHERE id = ?`, formatTime(time.Now()), g.TournamentID); err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("saving game %s: %w", round, err)
	}
	g.ID = id
	return nil
}

// GameFilter selects games; zero fields select everything. It is the one
// filter of games: the export's, the tests' and the web site's game list.
type GameFilter struct {
	TournamentID int64
	Engine       string // games where this engine played either color
	Result       string // 1-0, 0-1 or 1/2-1/2
	Termination  string
	Opening      string // opening id
	WithMoves    bool   // Games: with the moves and the engines' identities
}

// where is the filter's WHERE clause (empty for none) with its arguments.
func (f GameFilter) where() (string, []any) {
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
	for _, c := range []struct {
		col gameColumn
		v   string
	}{{colResult, f.Result}, {colTermination, f.Termination}, {colOpeningID, f.Opening}} {
		if c.v != "" {
			where = append(where, string(c.col)+" = ?")
			args = append(args, c.v)
		}
	}
	if len(where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

// gameOrder is the order of games everywhere: tournament, then schedule
// (the UNIQUE index's order, so SQLite reads it without sorting).
const gameOrder = " ORDER BY tournament_id, pair_index, game_index"

// Games returns games in (tournament, pair, index) order, with their PGN
// and, if f.WithMoves, their moves. It holds them all in memory: readers of
// many games use TournamentGames or WritePGN.
func (r *Reader) Games(ctx context.Context, f GameFilter) ([]record.Game, error) {
	where, args := f.where()
	var g record.Game
	var t gameText
	fs := recordFields(&g, &t)
	rows, err := r.q.QueryContext(ctx, `SELECT `+r.selectList(fs)+`, `+r.text("coalesce(pgn, '')", boundPGN)+
		` FROM games LEFT JOIN pgns ON game_id = id`+where+gameOrder, args...)
	if err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	out, err := scanGames(rows, append(fs.values(), &g.PGN), &g, &t)
	if err != nil {
		return nil, err
	}
	rows.Close()
	if f.WithMoves {
		for i := range out {
			if out[i].Moves, err = r.moves(ctx, out[i].ID); err != nil {
				return nil, err
			}
			if out[i].Identity, err = r.identity(ctx, out[i].ID); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// GameByID returns one game with its moves and PGN; an id that is not
// stored is an error wrapping ErrNoGame.
func (r *Reader) GameByID(ctx context.Context, id int64) (record.Game, error) {
	var g record.Game
	var t gameText
	fs := recordFields(&g, &t)
	err := r.q.QueryRowContext(ctx, `SELECT `+r.selectList(fs)+`, `+r.text("coalesce(pgn, '')", boundPGN)+
		` FROM games LEFT JOIN pgns ON game_id = id WHERE id = ?`, id).Scan(append(fs.values(), &g.PGN)...)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("game %d: %w", id, ErrNoGame)
	}
	if err != nil {
		return g, fmt.Errorf("reading game %d: %w", id, err)
	}
	t.setGame(&g)
	if g.Moves, err = r.moves(ctx, id); err != nil {
		return g, fmt.Errorf("reading game %d: %w", id, err)
	}
	if g.Identity, err = r.identity(ctx, id); err != nil {
		return g, fmt.Errorf("reading game %d: %w", id, err)
	}
	return g, nil
}

// identity reads a game's engine identities; none for a game stored
// without (no row) or a database older than them.
func (r *Reader) identity(ctx context.Context, gameID int64) ([2]record.EngineID, error) {
	var ids [2]record.EngineID
	if r.lacks.engineIDs {
		return ids, nil
	}
	err := r.q.QueryRowContext(ctx, `SELECT `+r.engineIDList()+` FROM engine_ids WHERE game_id = ?`, gameID).
		Scan(&ids[0].Name, &ids[0].Author, &ids[1].Name, &ids[1].Author)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return ids, fmt.Errorf("reading engine identities: %w", err)
	}
	return ids, nil
}

// LastIdentities returns, for each of the engines named, what it said of
// itself in the last stored game of the tournament that has its identity;
// an engine without one is absent (no games, games stored before
// identities, an engine that said nothing).
func (r *Reader) LastIdentities(ctx context.Context, tournamentID int64, engines []string) (map[string]record.EngineID, error) {
	ids := map[string]record.EngineID{}
	if r.lacks.engineIDs {
		return ids, nil
	}
	rows, err := r.q.QueryContext(ctx, `SELECT `+r.text("g."+string(colWhite), boundShort)+`, `+
		r.text("g."+string(colBlack), boundShort)+`, `+r.engineIDList()+`
		FROM games g JOIN engine_ids e ON e.game_id = g.id WHERE g.tournament_id = ? ORDER BY g.id DESC`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("reading engine identities: %w", err)
	}
	defer rows.Close()
	for rows.Next() && len(ids) < len(engines) {
		var white, black string
		var w, b record.EngineID
		if err := rows.Scan(&white, &black, &w.Name, &w.Author, &b.Name, &b.Author); err != nil {
			return nil, fmt.Errorf("reading engine identities: %w", err)
		}
		for _, side := range []struct {
			name string
			id   record.EngineID
		}{{white, w}, {black, b}} {
			if _, seen := ids[side.name]; !seen && side.id != (record.EngineID{}) && slices.Contains(engines, side.name) {
				ids[side.name] = side.id
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading engine identities: %w", err)
	}
	return ids, nil
}

// WritePGN writes the stored PGN of the selected games, in tournament and
// schedule order, and returns how many it wrote. It streams: one game is
// in memory at a time, and the games are one snapshot of the database.
func (r *Reader) WritePGN(ctx context.Context, w io.Writer, f GameFilter) (int, error) {
	where, args := f.where()
	rows, err := r.q.QueryContext(ctx, `SELECT pgn FROM games JOIN pgns ON game_id = id`+where+gameOrder, args...)
	if err != nil {
		return 0, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	n := 0
	var pgn sql.RawBytes // valid until the next row: no copy per game
	for rows.Next() {
		if err := rows.Scan(&pgn); err != nil {
			return n, fmt.Errorf("reading games: %w", err)
		}
		if _, err := w.Write(pgn); err != nil {
			return n, fmt.Errorf("writing PGN: %w", err)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("reading games: %w", err)
	}
	return n, nil
}

// TournamentGames returns a tournament's games in schedule order with what
// a report reads of them (standings.Source): id, pair and index, opening,
// players, result, termination, culprit and times. Everything else is left
// out (the database has it: Games); the search figures come added up
// (SearchSums).
func (r *Reader) TournamentGames(ctx context.Context, tournamentID int64) ([]record.Game, error) {
	// Sized up front: growing a slice of 100,000 games by doubling leaves
	// as much garbage as it keeps.
	n, err := r.CountGames(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return r.reportGames(ctx, make([]record.Game, 0, n), `WHERE tournament_id = ?`+gameOrder, tournamentID)
}

// GamesAfter returns the tournament's games whose id is above afterID, in
// id order (the order they were stored: ids are never reused and grow with
// every game stored), with the columns TournamentGames reads: what a
// reader that has seen the games up to afterID is missing. It reads only
// those games (a range of the table's primary key), whatever the size of
// the tournament.
func (r *Reader) GamesAfter(ctx context.Context, tournamentID, afterID int64) ([]record.Game, error) {
	return r.reportGames(ctx, nil, afterWhere(afterID)+` ORDER BY id`, tournamentID, afterID)
}

// afterWhere selects a tournament's games with an id above afterID (the
// arguments: tournament id, afterID). Past some id, "+tournament_id" keeps
// SQLite off the tournament's index (every game of it) and on the id
// range; from the start, the id range would be every game of every
// tournament, and the tournament's index is the short way.
func afterWhere(afterID int64) string {
	if afterID <= 0 {
		return `WHERE tournament_id = ? AND id > ?`
	}
	return `WHERE +tournament_id = ? AND id > ?`
}

// reportGames appends the games that the query's WHERE clause (and
// order) selects, with the columns TournamentGames reads.
func (r *Reader) reportGames(ctx context.Context, out []record.Game, where string, args ...any) ([]record.Game, error) {
	var g record.Game
	// Names repeat in every row: read as bytes, one copy of each.
	var openingID, openingName, white, black, result, term, culprit, started, finished sql.RawBytes
	// Few columns: the driver's cost is per column and row.
	fs := fields{{colID, &g.ID}, {colTournamentID, &g.TournamentID}, {colPair, &g.Pair}, {colIndex, &g.Index},
		{colOpeningID, &openingID}, {colOpeningName, &openingName}, {colWhite, &white}, {colBlack, &black},
		{colResult, &result}, {colTermination, &term}, {colCulprit, &culprit}, {colStarted, &started},
		{colFinished, &finished}}
	rows, err := r.q.QueryContext(ctx, `SELECT `+r.selectList(fs)+` FROM games `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	dest := fs.values()
	var in interner
	for rows.Next() {
		g = record.Game{}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("reading games: %w", err)
		}
		g.OpeningID, g.OpeningName = in.str(openingID), in.str(openingName)
		g.White, g.Black, g.Result = in.str(white), in.str(black), outcome.Result(in.str(result))
		g.Termination, g.Culprit = record.Termination(in.str(term)), in.str(culprit)
		g.Started, g.Finished = parseTime(string(started)), parseTime(string(finished))
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	return out, nil
}

// interner keeps one string per distinct byte sequence.
type interner map[string]string

func (in *interner) str(b []byte) string {
	if *in == nil {
		*in = interner{}
	}
	if s, ok := (*in)[string(b)]; ok { // no allocation for the lookup
		return s
	}
	s := string(b)
	(*in)[s] = s
	return s
}

// SearchSums returns, per engine, the sums of its search figures over the
// moves it chose in the tournament's games (standings.Source), added up in
// SQL from each game's per-side sums: one row per colour pairing, one pass
// over the games.
func (r *Reader) SearchSums(ctx context.Context, tournamentID int64) (map[string]record.SearchSums, error) {
	return r.searchSums(ctx, `WHERE tournament_id = ?`, tournamentID)
}

// SearchSumsAfter is SearchSums over the games whose id is above afterID
// (GamesAfter's games).
func (r *Reader) SearchSumsAfter(ctx context.Context, tournamentID, afterID int64) (map[string]record.SearchSums, error) {
	return r.searchSums(ctx, afterWhere(afterID), tournamentID, afterID)
}

func (r *Reader) searchSums(ctx context.Context, where string, args ...any) (map[string]record.SearchSums, error) {
	var white, black string
	var w, b record.SearchSums
	var wt, bt int64
	fs := fields{{colWhite, &white}, {colBlack, &black}}
	for _, side := range []struct {
		name string
		sums *record.SearchSums
		time *int64
	}{{"white", &w, &wt}, {"black", &b, &bt}} {
		s, cols := side.sums, searchSumColumns(side.name)
		for i, v := range []any{&s.Moves, &s.Depth, &s.SelDepth, &s.DepthSkipped, &s.Nodes, side.time} {
			fs = append(fs, field{cols[i], v})
		}
	}
	sums := make([]string, len(fs)-2)
	for i, c := range fs[2:].columns() {
		sums[i] = "sum(" + string(c) + ")"
	}
	rows, err := r.q.QueryContext(ctx, `SELECT `+r.text("white", boundShort)+`, `+r.text("black", boundShort)+`, `+
		strings.Join(sums, ", ")+` FROM games `+where+` GROUP BY white, black`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading search figures: %w", err)
	}
	defer rows.Close()
	dest := fs.values()
	out := map[string]record.SearchSums{}
	for rows.Next() {
		w, b = record.SearchSums{}, record.SearchSums{}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("reading search figures: %w", err)
		}
		w.Time, b.Time = time.Duration(wt), time.Duration(bt)
		for _, side := range []struct {
			engine string
			sums   record.SearchSums
		}{{white, w}, {black, b}} {
			s := out[side.engine]
			s.Add(side.sums)
			out[side.engine] = s
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading search figures: %w", err)
	}
	return out, nil
}

func (r *Reader) moves(ctx context.Context, gameID int64) ([]record.Move, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+r.moveList()+` FROM moves WHERE game_id = ? ORDER BY ply`, gameID)
	if err != nil {
		return nil, fmt.Errorf("reading moves: %w", err)
	}
	defer rows.Close()
	var out []record.Move
	for rows.Next() {
		var m record.Move
		var t, left, latency float64
		if err := rows.Scan(&m.Ply, &m.UCI, &m.SAN, &m.Book, &m.Score, &m.Depth, &m.SelDepth, &m.Nodes, &t,
			&m.HashFull, &m.TBHits, &m.PV, &left, &latency, &m.NPS); err != nil {
			return nil, fmt.Errorf("reading moves: %w", err)
		}
		m.Time, m.TimeLeft, m.Latency = fromMS(t), fromMS(left), fromMS(latency)
		out = append(out, m)
	}
	return out, rows.Err()
}

// maxGamePage is the most games ListGames and ListGamesByID return.
const maxGamePage = 500

// ListGames returns one page of the games f selects, in schedule order,
// with the columns the web site's game list shows (the id, pair and
// index, round, opening, players, result, termination, culprit, plies and
// finish), and how many games f selects in all. The page is read through
// the (tournament, pair, index) index with LIMIT/OFFSET, so its cost
// grows with the offset, not with the database; limit is capped at 500.
func (r *Reader) ListGames(ctx context.Context, f GameFilter, offset, limit int) ([]record.Game, int, error) {
	if limit <= 0 || limit > maxGamePage {
		limit = maxGamePage
	}
	where, args := f.where()
	var total int
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM games`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("counting games: %w", err)
	}
	out, err := r.listGames(ctx, where+gameOrder+` LIMIT ? OFFSET ?`, append(args, limit, max(offset, 0))...)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// ListGamesByID returns the games of ids as ListGames does, in the order
// of ids; ids that are not stored are left out, and more than 500 ids are
// an error. A reader that selected a page of games itself (selfplay
// serve, from the games it keeps in memory) reads only those rows.
func (r *Reader) ListGamesByID(ctx context.Context, ids []int64) ([]record.Game, error) {
	out := []record.Game{}
	if len(ids) == 0 {
		return out, nil
	}
	if len(ids) > maxGamePage {
		return nil, fmt.Errorf("reading games: %d ids, at most %d", len(ids), maxGamePage)
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	games, err := r.listGames(ctx, ` WHERE id IN (?`+strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]record.Game, len(games))
	for _, g := range games {
		byID[g.ID] = g
	}
	for _, id := range ids {
		if g, ok := byID[id]; ok {
			out = append(out, g)
		}
	}
	return out, nil
}

// listGames reads the games that the SQL after "FROM games" selects, with
// ListGames's columns, in the order it gives.
func (r *Reader) listGames(ctx context.Context, selection string, args ...any) ([]record.Game, error) {
	var g record.Game
	var t gameText
	fs := listFields(&g, &t)
	rows, err := r.q.QueryContext(ctx, `SELECT `+r.selectList(fs)+` FROM games`+selection, args...)
	if err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	out, err := scanGames(rows, fs.values(), &g, &t)
	if out == nil && err == nil {
		out = []record.Game{} // the site's JSON lists no games as []
	}
	return out, err
}

// scanGames reads the rows into games through dest, the scan targets of
// the fields of g and t (nil when there are none).
func scanGames(rows *sql.Rows, dest []any, g *record.Game, t *gameText) ([]record.Game, error) {
	var out []record.Game
	for rows.Next() {
		*g, *t = record.Game{}, gameText{}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("reading games: %w", err)
		}
		t.setGame(g)
		out = append(out, *g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	return out, nil
}
