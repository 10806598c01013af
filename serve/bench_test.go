package serve

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"selfplay/store"
	"selfplay/store/storetest"
)

// BenchmarkPages10k serves the pages of a synthetic 10,000-game database
// (with every move). Cold: a new server, so the report is built from the
// database; warm: the cached report, as the 2-second polling finds it
// while no game was stored. The goal is < 200 ms per page.
func BenchmarkPages10k(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "synthetic-10k.db")
	if err := storetest.Generate(ctx, path, storetest.Options{Games: 10000}); err != nil {
		b.Fatal(err)
	}
	r, err := store.OpenReader(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	quiet := Options{Log: log.New(io.Discard, "", 0)}
	warm, err := New(r, quiet)
	if err != nil {
		b.Fatal(err)
	}
	gs, _, err := r.ListGames(ctx, store.GameQuery{TournamentID: 1, Offset: 5000, Limit: 1})
	if err != nil || len(gs) != 1 {
		b.Fatal(gs, err)
	}
	game := gs[0].ID
	serve := func(b *testing.B, h http.Handler, url string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
		if rec.Code != 200 {
			b.Fatalf("GET %s: %d %s", url, rec.Code, rec.Body)
		}
	}
	for _, bc := range []struct {
		name, url string
		cold      bool
	}{
		{"tournament-cold", "/tournaments/1", true},
		{"tournament-warm", "/tournaments/1", false},
		{"tournaments-json-warm", "/api/tournaments", false},
		{"games-page-1", "/tournaments/1/games", false},
		{"games-page-100-filtered", "/tournaments/1/games?engine=fhr&page=100", false},
		{"game", fmt.Sprintf("/games/%d", game), false},
		{"game-json", fmt.Sprintf("/api/games/%d", game), false},
		{"board-svg", fmt.Sprintf("/games/%d/board.svg?ply=40", game), false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h := http.Handler(warm)
			serve(b, h, bc.url) // fill the cache
			for b.Loop() {
				if bc.cold {
					b.StopTimer()
					h, err = New(r, quiet)
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				serve(b, h, bc.url)
			}
		})
	}
}
