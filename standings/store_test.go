package standings_test

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"reflect"
	"testing"

	"selfplay/report"
	"selfplay/standings"
	"selfplay/store"
	"selfplay/store/record"
	"selfplay/store/storetest"
)

// records is a standings.Source over whole records in memory: games with
// their moves, search sums added up from the moves.
type records struct {
	tournaments []record.Tournament
	games       map[int64][]record.Game
}

func (r *records) Tournaments(context.Context) ([]record.Tournament, error) {
	return r.tournaments, nil
}

func (r *records) TournamentGames(_ context.Context, id int64) ([]record.Game, error) {
	return r.games[id], nil
}

func (r *records) SearchSums(_ context.Context, id int64) (map[string]record.SearchSums, error) {
	return record.SumSearch(r.games[id]), nil
}

func (r *records) SuiteRuns(context.Context) ([]record.SuiteRun, error) { return nil, nil }

// The report from the store (games without moves, search figures added up
// in SQL from each game's stored sums) is byte for byte the report of the
// same records with every move in memory, in every format.
func TestStoreReportEqualsRecordsReport(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	if err := storetest.Generate(ctx, path, storetest.Options{Games: 301, Plies: 20, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenReader(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mem := &records{games: map[int64][]record.Game{}}
	if mem.tournaments, err = st.Tournaments(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tr := range mem.tournaments {
		if mem.games[tr.ID], err = st.Games(ctx, store.GameFilter{TournamentID: tr.ID, WithMoves: true}); err != nil {
			t.Fatal(err)
		}
		if len(mem.games[tr.ID]) != 301 || len(mem.games[tr.ID][0].Moves) < 10 {
			t.Fatalf("fixture: %d games, %d moves in the first", len(mem.games[tr.ID]), len(mem.games[tr.ID][0].Moves))
		}
		sums, err := st.SearchSums(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := record.SumSearch(mem.games[tr.ID]); !reflect.DeepEqual(sums, want) {
			t.Errorf("search sums: store %+v, moves %+v", sums, want)
		}
	}
	for name, write := range map[string]func(io.Writer, report.Report) error{
		"text": report.WriteText, "json": report.WriteJSON, "html": report.WriteHTML,
	} {
		var fromStore, fromRecords bytes.Buffer
		var rs report.Report
		err := st.ReadTx(ctx, func(r *store.Reader) error {
			var err error
			rs, err = standings.Load(ctx, r, standings.Options{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		rm, err := standings.Load(ctx, mem, standings.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := write(&fromStore, rs); err != nil {
			t.Fatal(err)
		}
		if err := write(&fromRecords, rm); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fromStore.Bytes(), fromRecords.Bytes()) {
			t.Errorf("%s report from the store differs from the records' report", name)
		}
		if rs.Tournaments[0].Search[0].Moves == 0 {
			t.Errorf("%s: no search figures", name)
		}
	}
}
