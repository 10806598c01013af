package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"selfplay/store/record"
)

// gameColumns are the games table as the migrations build it: every
// column after id, each once.
func TestGameColumnsAreTheTable(t *testing.T) {
	all, err := expectedTables()
	if err != nil {
		t.Fatal(err)
	}
	var table []gameColumn
	for _, c := range all[schemaVersion()]["games"] {
		table = append(table, gameColumn(c.name))
	}
	want := append([]gameColumn{colID}, gameColumns...)
	slices.Sort(table)
	slices.Sort(want)
	if !slices.Equal(table, want) {
		t.Errorf("the games table has columns\n%v\ngameColumns and id are\n%v", table, want)
	}
	if got := (gameFields(&record.Game{})).columns(); !slices.Equal(got, gameColumns) {
		t.Errorf("SaveGame writes columns\n%v\nnot gameColumns\n%v", got, gameColumns)
	}
}

// Each column holds the value of its own field: a game whose fields all
// differ is stored (SaveGame), read back column by column by name, and
// read by the readers (Games, GameByID, ListGames, TournamentGames,
// SearchSums) with every field in its place.
func TestGameColumnsBindByName(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	tid, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h", TotalGames: 2,
		Engines: []record.Engine{{Name: "w", Options: ""}, {Name: "b", Options: ""}}})
	if err != nil {
		t.Fatal(err)
	}
	started := time.Date(2026, 2, 3, 4, 5, 6, 7, time.UTC)
	g := record.Game{TournamentID: tid, Pair: 3, Index: 1, Round: 5, OpeningID: "oid", OpeningName: "oname",
		StartFEN: "fen w", OpeningMoves: []string{"e2e4", "e7e5"}, White: "w", Black: "b", Result: "0-1",
		Termination: record.TimeForfeit, Reason: "reason", Culprit: "w", Plies: 7, FinalFEN: "final",
		Started: started, Finished: started.Add(time.Second), PGN: "pgn",
		Moves: []record.Move{{Ply: 1, UCI: "e2e4", Book: true}, {Ply: 2, UCI: "e7e5", Book: true},
			{Ply: 3, UCI: "g1f3", Depth: 11, SelDepth: 13, Nodes: 17, Time: 19 * time.Millisecond},
			{Ply: 4, UCI: "g8f6", Depth: 23, SelDepth: 300, Nodes: 29, Time: 31 * time.Millisecond}}}
	if err := s.SaveGame(ctx, &g); err != nil {
		t.Fatal(err)
	}
	want := map[gameColumn]string{colID: fmt.Sprint(g.ID), colTournamentID: fmt.Sprint(tid), colPair: "3", colIndex: "1",
		colRound: "5", colOpeningID: "oid", colOpeningName: "oname", colStartFEN: "fen w", colOpeningMoves: "e2e4 e7e5",
		colWhite: "w", colBlack: "b", colResult: "0-1", colTermination: "time forfeit", colReason: "reason",
		colCulprit: "w", colPlies: "7", colFinalFEN: "final", colStarted: "2026-02-03T04:05:06.000000007Z",
		colFinished:   "2026-02-03T04:05:07.000000007Z",
		"white_moves": "1", "white_depth": "11", "white_seldepth": "13", "white_depth_skipped": "0", "white_nodes": "17",
		"white_time_ns": "19000000",
		"black_moves":   "1", "black_depth": "0", "black_seldepth": "0", "black_depth_skipped": "1", "black_nodes": "29",
		"black_time_ns": "31000000"}
	for _, c := range append([]gameColumn{colID}, gameColumns...) {
		var v string
		if err := s.db.QueryRowContext(ctx, `SELECT CAST(`+string(c)+` AS TEXT) FROM games`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != want[c] {
			t.Errorf("column %s holds %q, want %q", c, v, want[c])
		}
	}
	full := g
	full.Moves = nil
	games, err := s.Games(ctx, GameFilter{})
	if err != nil || len(games) != 1 || fmt.Sprint(games[0]) != fmt.Sprint(full) {
		t.Errorf("Games: %+v, %v\nwant %+v", games, err, full)
	}
	byID, err := s.GameByID(ctx, g.ID)
	if byID.Moves = nil; err != nil || fmt.Sprint(byID) != fmt.Sprint(full) {
		t.Errorf("GameByID: %+v, %v\nwant %+v", byID, err, full)
	}
	listed := record.Game{ID: g.ID, Pair: 3, Index: 1, Round: 5, OpeningID: "oid", OpeningName: "oname", White: "w",
		Black: "b", Result: "0-1", Termination: record.TimeForfeit, Culprit: "w", Plies: 7, Finished: g.Finished}
	list, _, err := s.ListGames(ctx, GameFilter{}, 0, 0)
	if err != nil || len(list) != 1 || fmt.Sprint(list[0]) != fmt.Sprint(listed) {
		t.Errorf("ListGames: %+v, %v\nwant %+v", list, err, listed)
	}
	report := record.Game{ID: g.ID, TournamentID: tid, Pair: 3, Index: 1, OpeningID: "oid", OpeningName: "oname",
		White: "w", Black: "b", Result: "0-1", Termination: record.TimeForfeit, Culprit: "w", Started: g.Started,
		Finished: g.Finished}
	rep, err := s.TournamentGames(ctx, tid)
	if err != nil || len(rep) != 1 || fmt.Sprint(rep[0]) != fmt.Sprint(report) {
		t.Errorf("TournamentGames: %+v, %v\nwant %+v", rep, err, report)
	}
	w, b := g.SideSums()
	if sums, err := s.SearchSums(ctx, tid); err != nil || sums["w"] != w || sums["b"] != b {
		t.Errorf("SearchSums: %+v, %v; want w %+v, b %+v", sums, err, w, b)
	}
}
