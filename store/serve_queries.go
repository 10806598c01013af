package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"selfplay/store/record"
)

// ErrNoGame is returned by GameByID for an id that is not stored.
var ErrNoGame = errors.New("no such game")

// GameQuery selects a page of a tournament's games (selfplay serve's game
// list); empty filters select everything.
type GameQuery struct {
	TournamentID int64
	Engine       string // either color
	Result       string // 1-0, 0-1 or 1/2-1/2
	Termination  string
	Opening      string // opening id
	// Offset and Limit bound the page; Limit is capped at MaxGamePage.
	Offset, Limit int
}

// MaxGamePage is the most games one GameQuery returns.
const MaxGamePage = 500

// GameSummary is a game as the game list shows it.
type GameSummary struct {
	ID          int64              `json:"id"`
	Pair        int                `json:"pair"`  // game pair in schedule order, from 0
	Index       int                `json:"index"` // 0: the pairing's first engine has White
	Round       int                `json:"round"`
	OpeningID   string             `json:"opening_id"`
	OpeningName string             `json:"opening_name"`
	White       string             `json:"white"`
	Black       string             `json:"black"`
	Result      string             `json:"result"`
	Termination record.Termination `json:"termination"`
	Culprit     string             `json:"culprit"`
	Plies       int                `json:"plies"`    // after the opening
	Finished    string             `json:"finished"` // as stored (RFC 3339)
}

func (q GameQuery) where() (string, []any) {
	where := []string{"tournament_id = ?"}
	args := []any{q.TournamentID}
	if q.Engine != "" {
		where = append(where, "(white = ? OR black = ?)")
		args = append(args, q.Engine, q.Engine)
	}
	for _, f := range []struct{ col, v string }{{"result", q.Result}, {"termination", q.Termination}, {"opening_id", q.Opening}} {
		if f.v != "" {
			where = append(where, f.col+" = ?")
			args = append(args, f.v)
		}
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

// ListGames returns one page of the selected games in schedule order and
// how many games the filter selects in all. The page is read through the
// (tournament, pair, index) index with LIMIT/OFFSET, so its cost grows
// with the offset, not with the database.
func (r *Reader) ListGames(ctx context.Context, q GameQuery) ([]GameSummary, int, error) {
	if q.Limit <= 0 || q.Limit > MaxGamePage {
		q.Limit = MaxGamePage
	}
	q.Offset = max(q.Offset, 0)
	where, args := q.where()
	var total int
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM games`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("counting games: %w", err)
	}
	out, err := r.gameSummaries(ctx, where+gameOrder+` LIMIT ? OFFSET ?`, append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// gameSummaries reads the games that the SQL after "FROM games" selects,
// as the game list shows them, in the order it gives.
func (r *Reader) gameSummaries(ctx context.Context, selection string, args ...any) ([]GameSummary, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT id, pair_index, game_index, round, opening_id, opening_name, white, black,
		result, termination, culprit, plies, finished_at FROM games`+selection, args...)
	if err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	defer rows.Close()
	out := []GameSummary{}
	for rows.Next() {
		var g GameSummary
		if err := rows.Scan(&g.ID, &g.Pair, &g.Index, &g.Round, &g.OpeningID, &g.OpeningName, &g.White, &g.Black,
			&g.Result, &g.Termination, &g.Culprit, &g.Plies, &g.Finished); err != nil {
			return nil, fmt.Errorf("reading games: %w", err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading games: %w", err)
	}
	return out, nil
}

// GameSummaries returns the games of ids as the game list shows them, in
// the order of ids; ids that are not stored are left out. A reader that
// selected a page of games itself (selfplay serve, from the games it
// keeps in memory) reads only those rows.
func (r *Reader) GameSummaries(ctx context.Context, ids []int64) ([]GameSummary, error) {
	out := []GameSummary{}
	if len(ids) == 0 {
		return out, nil
	}
	if len(ids) > MaxGamePage {
		return nil, fmt.Errorf("reading games: %d ids, at most %d", len(ids), MaxGamePage)
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	games, err := r.gameSummaries(ctx, ` WHERE id IN (?`+strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]GameSummary, len(games))
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

// GameOpenings returns the distinct openings (id, name) of a tournament's
// games, for the game list's filter.
func (r *Reader) GameOpenings(ctx context.Context, tournamentID int64) ([][2]string, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT opening_id, min(opening_name) FROM games WHERE tournament_id = ?
		GROUP BY opening_id ORDER BY min(id)`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("reading openings: %w", err)
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var o [2]string
		if err := rows.Scan(&o[0], &o[1]); err != nil {
			return nil, fmt.Errorf("reading openings: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// GameByID returns one game with its moves and PGN; an id that is not
// stored is an error wrapping ErrNoGame.
func (r *Reader) GameByID(ctx context.Context, id int64) (record.Game, error) {
	var g record.Game
	var moves, started, finished string
	err := r.q.QueryRowContext(ctx, `SELECT id, tournament_id, pair_index, game_index, round, opening_id, opening_name,
		start_fen, opening_moves, white, black, result, termination, reason, culprit, plies, final_fen, started_at,
		finished_at, coalesce(pgn, '') FROM games LEFT JOIN pgns ON game_id = id WHERE id = ?`, id).Scan(
		&g.ID, &g.TournamentID, &g.Pair, &g.Index, &g.Round, &g.OpeningID, &g.OpeningName, &g.StartFEN,
		&moves, &g.White, &g.Black, &g.Result, &g.Termination, &g.Reason, &g.Culprit, &g.Plies, &g.FinalFEN, &started, &finished, &g.PGN)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("game %d: %w", id, ErrNoGame)
	}
	if err != nil {
		return g, fmt.Errorf("reading game %d: %w", id, err)
	}
	g.OpeningMoves = strings.Fields(moves)
	g.Started, g.Finished = parseTime(started), parseTime(finished)
	if g.Moves, err = r.moves(ctx, id); err != nil {
		return g, fmt.Errorf("reading game %d: %w", id, err)
	}
	return g, nil
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

// SearchSumsAfter is SearchSums over the games whose id is above afterID
// (GamesAfter's games).
func (r *Reader) SearchSumsAfter(ctx context.Context, tournamentID, afterID int64) (map[string]record.SearchSums, error) {
	return r.searchSums(ctx, afterWhere(afterID), tournamentID, afterID)
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
