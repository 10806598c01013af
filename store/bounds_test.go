package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"selfplay/store/record"
)

// A reader for display (OpenReader) reads every text field of a game, a
// tournament, its engines and a suite run bounded, whatever the database
// holds: a value within its bound whole, a longer one cut and marked with
// "…", one too long to be read even to be cut as its length. The writer
// reads the same values whole (it writes them back: a live file, a
// resume's comparison). A config snapshot over record.MaxConfigSnapshot is
// left out, and saying so is the error of reading it (Snapshot).
func TestReaderBoundsText(t *testing.T) {
	ctx := context.Background()
	s, path := open(t)
	id, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h", TotalGames: 2,
		Engines: []record.Engine{{Name: "a", Options: "x"}, {Name: "b", Options: "y"}}})
	if err != nil {
		t.Fatal(err)
	}
	g := &record.Game{TournamentID: id, White: "a", Black: "b", Result: "1-0", OpeningID: "o", OpeningName: "o",
		PGN: "pgn", Moves: []record.Move{{Ply: 1, UCI: "e2e4", SAN: "e4", PV: "e2e4"}}}
	if err := s.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSuiteRun(ctx, &record.SuiteRun{Suite: "s.epd", LimitKind: "nodes", Settings: "x",
		Rows:      []record.SuiteRow{{Variant: "v", Limit: 1}},
		Positions: []record.SuitePosition{{Variant: "v", Limit: 1, Position: "p", Move: "e2e4"}}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		chars int    // the stored value: "é" (2 bytes) repeated
		want  string // what a reader for display reads of a short field ("": the value)
	}{
		{"within the bound", boundShort, ""},
		{"over it", boundShort + 1, strings.Repeat("é", boundShort) + "…"},
		{"too long to cut", maxCutSource/2 + 1, fmt.Sprintf("… (%d bytes, not read)", maxCutSource+2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := strings.Repeat("é", c.chars)
			want := c.want
			if want == "" {
				want = v
			}
			for _, stmt := range []string{
				`UPDATE games SET opening_id = ?1, opening_name = ?1, white = ?1, black = ?1, reason = ?1, final_fen = ?1`,
				`UPDATE tournaments SET name = ?1, sprt_state = ?1`,
				`UPDATE engines SET name = ?1 WHERE rowid = (SELECT min(rowid) FROM engines)`,
				`UPDATE moves SET san = ?1`,
				`UPDATE suite_positions SET position = ?1`,
			} {
				if _, err := s.db.ExecContext(ctx, stmt, v); err != nil {
					t.Fatal(err)
				}
			}
			r, err := OpenReader(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			check := func(what, got string) {
				t.Helper()
				if got != want {
					t.Errorf("%s: %d bytes %.20q…, want %d bytes %.20q…", what, len(got), got, len(want), want)
				}
			}
			games, err := r.TournamentGames(ctx, id)
			if err != nil || len(games) != 1 {
				t.Fatalf("TournamentGames: %v, %d games", err, len(games))
			}
			check("TournamentGames opening name", games[0].OpeningName)
			check("TournamentGames opening id", games[0].OpeningID)
			check("TournamentGames white", games[0].White)
			list, _, err := r.ListGames(ctx, GameFilter{TournamentID: id}, 0, 10)
			if err != nil || len(list) != 1 {
				t.Fatalf("ListGames: %v, %d games", err, len(list))
			}
			check("ListGames opening name", list[0].OpeningName)
			check("ListGames black", list[0].Black)
			full, err := r.GameByID(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			check("GameByID reason", full.Reason)
			check("GameByID final FEN", full.FinalFEN)
			check("GameByID move SAN", full.Moves[0].SAN)
			sums, err := r.SearchSums(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			for name := range sums {
				check("SearchSums engine", name)
			}
			ts, err := r.Tournaments(ctx)
			if err != nil || len(ts) != 1 {
				t.Fatalf("Tournaments: %v", err)
			}
			check("tournament name", ts[0].Name)
			check("SPRT state", ts[0].SPRTState)
			check("engine name", ts[0].Engines[0].Name)
			runs, err := r.SuiteRuns(ctx)
			if err != nil || len(runs) != 1 {
				t.Fatalf("SuiteRuns: %v", err)
			}
			check("suite position", runs[0].Positions[0].Position)

			// The writer reads what is stored.
			mine, err := s.GameByID(ctx, g.ID)
			if err != nil || mine.OpeningName != v || mine.Moves[0].SAN != v {
				t.Errorf("the writer's GameByID: %v, opening name %d bytes, want %d", err, len(mine.OpeningName), len(v))
			}
		})
	}

	// The PGN and the config snapshot.
	for _, c := range []struct {
		name      string
		pgn, conf int // bytes stored
		wantPGN   string
		leftOut   bool
	}{
		{"within the bounds", boundPGN, record.MaxConfigSnapshot, "", false},
		{"over them", boundPGN + 1, record.MaxConfigSnapshot + 1, fmt.Sprintf("… (%d bytes, not read)", boundPGN+1), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			pgn, conf := strings.Repeat("p", c.pgn), `{"x":"`+strings.Repeat("c", c.conf-8)+`"}`
			if _, err := s.db.ExecContext(ctx, `UPDATE pgns SET pgn = ?`, pgn); err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.ExecContext(ctx, `UPDATE tournaments SET config = ?`, conf); err != nil {
				t.Fatal(err)
			}
			r, err := OpenReader(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			want := c.wantPGN
			if want == "" {
				want = pgn
			}
			full, err := r.GameByID(ctx, g.ID)
			if err != nil || full.PGN != want {
				t.Errorf("GameByID's PGN: %v, %d bytes, want %d", err, len(full.PGN), len(want))
			}
			ts, err := r.Tournaments(ctx)
			if err != nil {
				t.Fatal(err)
			}
			text, err := ts[0].Snapshot()
			switch {
			case c.leftOut && (err == nil || text != "" || ts[0].ConfigLeftOut != int64(len(conf)) ||
				!strings.Contains(err.Error(), fmt.Sprintf("its config snapshot is %d bytes, more than the %d", len(conf), record.MaxConfigSnapshot))):
				t.Errorf("an over-long config: %q, %v, left out %d", text[:min(len(text), 20)], err, ts[0].ConfigLeftOut)
			case !c.leftOut && (err != nil || text != conf):
				t.Errorf("config: %d bytes, %v, want %d", len(text), err, len(conf))
			}
			mine, err := s.TournamentByID(ctx, id)
			if err != nil || mine.Config != conf || mine.ConfigLeftOut != 0 {
				t.Errorf("the writer's config: %v, %d bytes, want %d", err, len(mine.Config), len(conf))
			}
		})
	}
}
