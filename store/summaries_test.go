package store_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"selfplay/store"
	"selfplay/store/record"
	"selfplay/store/storetest"
)

// ListGamesByID reads the games of the ids given, in their order, as
// ListGames reads them, and leaves out ids that are not stored.
func TestListGamesByID(t *testing.T) {
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
	all, _, err := r.ListGames(ctx, store.GameFilter{TournamentID: 1}, 0, 40)
	if err != nil || len(all) != 40 {
		t.Fatal(len(all), err)
	}
	ids := []int64{all[30].ID, all[2].ID, 999999, all[17].ID}
	got, err := r.ListGamesByID(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if want := []record.Game{all[30], all[2], all[17]}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if got, err := r.ListGamesByID(ctx, nil); err != nil || len(got) != 0 || got == nil {
		t.Errorf("no ids: %v %v", got, err)
	}
	if _, err := r.ListGamesByID(ctx, make([]int64, 501)); err == nil {
		t.Errorf("more ids than a page: no error")
	}
}
