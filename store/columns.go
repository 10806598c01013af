package store

import (
	"strings"

	"selfplay/store/record"
)

// A gameColumn is a column of the games table. The constants and
// gameColumns below are the one place the table's columns are spelled out
// (the migrations aside, which are history): every statement that writes,
// copies or reads games names its columns from here, and binds each to a
// value or a Scan destination beside its name (fields).
type gameColumn string

const (
	colID           gameColumn = "id"
	colTournamentID gameColumn = "tournament_id"
	colPair         gameColumn = "pair_index"
	colIndex        gameColumn = "game_index"
	colRound        gameColumn = "round"
	colOpeningID    gameColumn = "opening_id"
	colOpeningName  gameColumn = "opening_name"
	colStartFEN     gameColumn = "start_fen"
	colOpeningMoves gameColumn = "opening_moves"
	colWhite        gameColumn = "white"
	colBlack        gameColumn = "black"
	colResult       gameColumn = "result"
	colTermination  gameColumn = "termination"
	colReason       gameColumn = "reason"
	colCulprit      gameColumn = "culprit"
	colPlies        gameColumn = "plies"
	colFinalFEN     gameColumn = "final_fen"
	colStarted      gameColumn = "started_at"
	colFinished     gameColumn = "finished_at"
)

// searchSumColumns are one side's sums of its engine moves' search
// figures (record.SearchSums), side "white" or "black", in the order of
// its fields: Moves, Depth, SelDepth, DepthSkipped, Nodes, Time (ns).
func searchSumColumns(side string) []gameColumn {
	return []gameColumn{
		gameColumn(side + "_moves"), gameColumn(side + "_depth"), gameColumn(side + "_seldepth"),
		gameColumn(side + "_depth_skipped"), gameColumn(side + "_nodes"), gameColumn(side + "_time_ns"),
	}
}

// gameColumns are the games table's columns after id: what SaveGame
// writes (gameFields) and Merge copies.
var gameColumns = append([]gameColumn{colTournamentID, colPair, colIndex, colRound, colOpeningID, colOpeningName,
	colStartFEN, colOpeningMoves, colWhite, colBlack, colResult, colTermination, colReason, colCulprit, colPlies,
	colFinalFEN, colStarted, colFinished}, append(searchSumColumns("white"), searchSumColumns("black")...)...)

// columnList joins columns for a statement, each after prefix (a table
// alias with its dot, or "").
func columnList(prefix string, cols []gameColumn) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(prefix)
		b.WriteString(string(c))
	}
	return b.String()
}

// A field binds a games column to a value that a statement writes or to
// the Scan destination of what a query reads.
type field struct {
	col gameColumn
	v   any
}

// fields are a statement's columns with their values or destinations.
type fields []field

// columns are the fields' columns in order.
func (fs fields) columns() []gameColumn {
	out := make([]gameColumn, len(fs))
	for i, f := range fs {
		out[i] = f.col
	}
	return out
}

// list is the fields' column list (columnList).
func (fs fields) list(prefix string) string { return columnList(prefix, fs.columns()) }

// textBounds are the bounds of the games table's text columns for a
// reader for display (Reader.text); the others are numbers.
var textBounds = map[gameColumn]int{
	colOpeningID: boundShort, colOpeningName: boundShort, colStartFEN: boundShort, colOpeningMoves: boundLong,
	colWhite: boundShort, colBlack: boundShort, colResult: boundShort, colTermination: boundShort,
	colReason: boundShort, colCulprit: boundShort, colFinalFEN: boundShort, colStarted: boundShort,
	colFinished: boundShort,
}

// selectList is the fields' column list as r reads them (Reader.text:
// text bounded for a reader for display).
func (r *Reader) selectList(fs fields) string {
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteString(", ")
		}
		if bound, ok := textBounds[f.col]; ok {
			b.WriteString(r.text(string(f.col), bound))
		} else {
			b.WriteString(string(f.col))
		}
	}
	return b.String()
}

// values are the fields' values or destinations in order, for Exec or Scan.
func (fs fields) values() []any {
	out := make([]any, len(fs))
	for i, f := range fs {
		out[i] = f.v
	}
	return out
}

// gameFields are the values SaveGame stores in gameColumns, in that
// order, for the game g (its search sums added up from its moves).
func gameFields(g *record.Game) fields {
	w, b := g.SideSums()
	fs := fields{{colTournamentID, g.TournamentID}, {colPair, g.Pair}, {colIndex, g.Index}, {colRound, g.Round},
		{colOpeningID, g.OpeningID}, {colOpeningName, g.OpeningName}, {colStartFEN, g.StartFEN},
		{colOpeningMoves, strings.Join(g.OpeningMoves, " ")}, {colWhite, g.White}, {colBlack, g.Black},
		{colResult, g.Result}, {colTermination, g.Termination}, {colReason, g.Reason}, {colCulprit, g.Culprit},
		{colPlies, g.Plies}, {colFinalFEN, g.FinalFEN}, {colStarted, formatTime(g.Started)},
		{colFinished, formatTime(g.Finished)}}
	for _, side := range []struct {
		name string
		sums record.SearchSums
	}{{"white", w}, {"black", b}} {
		s, cols := side.sums, searchSumColumns(side.name)
		for i, v := range []any{s.Moves, s.Depth, s.SelDepth, s.DepthSkipped, s.Nodes, int64(s.Time)} {
			fs = append(fs, field{cols[i], v})
		}
	}
	return fs
}

// gameText holds the columns of a game that are stored as text and read
// into other types (scanned, then converted by setGame).
type gameText struct {
	openingMoves, started, finished string
}

// recordFields binds the columns of a game as Games and GameByID read it
// (every column but the search sums) to g and t.
func recordFields(g *record.Game, t *gameText) fields {
	return fields{{colID, &g.ID}, {colTournamentID, &g.TournamentID}, {colPair, &g.Pair}, {colIndex, &g.Index},
		{colRound, &g.Round}, {colOpeningID, &g.OpeningID}, {colOpeningName, &g.OpeningName},
		{colStartFEN, &g.StartFEN}, {colOpeningMoves, &t.openingMoves}, {colWhite, &g.White}, {colBlack, &g.Black},
		{colResult, &g.Result}, {colTermination, &g.Termination}, {colReason, &g.Reason}, {colCulprit, &g.Culprit},
		{colPlies, &g.Plies}, {colFinalFEN, &g.FinalFEN}, {colStarted, &t.started}, {colFinished, &t.finished}}
}

// setGame converts the text columns t read into g.
func (t *gameText) setGame(g *record.Game) {
	g.OpeningMoves = strings.Fields(t.openingMoves)
	g.Started, g.Finished = parseTime(t.started), parseTime(t.finished)
}

// listFields binds the columns of a game as the web site's game list
// shows it (ListGames) to g and t.
func listFields(g *record.Game, t *gameText) fields {
	return fields{{colID, &g.ID}, {colPair, &g.Pair}, {colIndex, &g.Index}, {colRound, &g.Round},
		{colOpeningID, &g.OpeningID}, {colOpeningName, &g.OpeningName}, {colWhite, &g.White}, {colBlack, &g.Black},
		{colResult, &g.Result}, {colTermination, &g.Termination}, {colCulprit, &g.Culprit}, {colPlies, &g.Plies},
		{colFinished, &t.finished}}
}

// The moves table's columns after game_id, in the order of record.Move's
// stored fields: those of every schema, the fastchess fields that schema 8
// added (moveFieldsVersion) and the nps that schema 10 added
// (moveNPSVersion).
const (
	moveBaseColumns      = "ply, uci, san, book, score, depth, seldepth, nodes, time_ms"
	moveFastchessColumns = "hashfull, tbhits, pv, timeleft_ms, latency_ms" // schema 8
	moveNPSColumn        = "nps"                                           // schema 10
	moveFieldColumns     = moveFastchessColumns + ", " + moveNPSColumn
)

// moveSelect is the moves' columns to SELECT, each after alias (such as
// "m."), in moveBaseColumns' and moveFieldColumns' order; the columns a
// database's older schema lacks read as their defaults, as its migration
// would give them.
func moveSelect(alias string, lacks olderSchema) string {
	fields := prefixed(alias, moveFastchessColumns)
	if lacks.moveFields {
		fields = "0, 0, '', 0, 0"
	}
	nps := prefixed(alias, moveNPSColumn)
	if lacks.moveNPS {
		nps = "0"
	}
	return prefixed(alias, moveBaseColumns) + ", " + fields + ", " + nps
}

// moveTextBounds are the bounds of the moves table's text columns for a
// reader for display (Reader.text).
var moveTextBounds = map[string]int{"uci": boundShort, "san": boundShort, "pv": boundLong}

// moveList is moveSelect("", ...) as r reads it: its text bounded for a
// reader for display (Reader.text).
func (r *Reader) moveList() string {
	return r.boundList(moveSelect("", r.lacks), moveTextBounds)
}

// engineIDList is engineIDColumns as r reads them (Reader.text).
func (r *Reader) engineIDList() string {
	return r.boundList(engineIDColumns, map[string]int{"white_name": boundShort, "white_author": boundShort,
		"black_name": boundShort, "black_author": boundShort})
}

// boundList is a list of columns (joined by ", ") as r reads them: those
// in bounds (by name) bounded for a reader for display (Reader.text).
func (r *Reader) boundList(cols string, bounds map[string]int) string {
	list := strings.Split(cols, ", ")
	for i, c := range list {
		if bound, ok := bounds[c]; ok {
			list[i] = r.text(c, bound)
		}
	}
	return strings.Join(list, ", ")
}

// prefixed is a list of columns (joined by ", ") with alias before each.
func prefixed(alias, cols string) string {
	return alias + strings.ReplaceAll(cols, ", ", ", "+alias)
}

// engineIDColumns are the engine_ids table's columns after game_id, in the
// order of record.Game.Identity's fields.
const engineIDColumns = "white_name, white_author, black_name, black_author"
