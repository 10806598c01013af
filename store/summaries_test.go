package store_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"selfplay/store"
	"selfplay/store/storetest"
)

// GameSummaries reads the games of the ids given, in their order, as
// ListGames shows them, and leaves out ids that are not stored.
func TestGameSummaries(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	if err := storetest.Generate(ctx, path, storetest.Options{Games: 40, NoMoves: true}); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenReader(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	all, _, err := r.ListGames(ctx, store.GameQuery{TournamentID: 1, Limit: 40})
	if err != nil || len(all) != 40 {
		t.Fatal(len(all), err)
	}
	ids := []int64{all[30].ID, all[2].ID, 999999, all[17].ID}
	got, err := r.GameSummaries(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if want := []store.GameSummary{all[30], all[2], all[17]}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if got, err := r.GameSummaries(ctx, nil); err != nil || len(got) != 0 || got == nil {
		t.Errorf("no ids: %v %v", got, err)
	}
	if _, err := r.GameSummaries(ctx, make([]int64, store.MaxGamePage+1)); err == nil {
		t.Errorf("more ids than a page: no error")
	}
}
