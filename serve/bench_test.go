package serve

import (
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"selfplay/store"
	"selfplay/store/record"
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
	warm, err := newReaderServer(r, quiet)
	if err != nil {
		b.Fatal(err)
	}
	gs, _, err := r.ListGames(ctx, store.GameFilter{TournamentID: 1}, 5000, 1)
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
		{"board-svg", fmt.Sprintf("/games/%d/board.svg?ply=2", game), false}, // synthetic moves: only the first plies are legal
	} {
		b.Run(bc.name, func(b *testing.B) {
			h := http.Handler(warm)
			serve(b, h, bc.url) // fill the cache
			for b.Loop() {
				if bc.cold {
					b.StopTimer()
					h, err = newReaderServer(r, quiet)
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

// BenchmarkLongGame serves the page of a game of 300 legal plies (the
// synthetic database's moves are not legal chess past the opening, so its
// game page replays only a few): the board replays every move.
func BenchmarkLongGame(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "long.db")
	w, err := store.OpenWriter(ctx, path, "bench")
	if err != nil {
		b.Fatal(err)
	}
	tid, err := w.CreateTournament(ctx, record.Tournament{Name: "long", Config: `{"format":"match","players":["a","b"]}`,
		ConfigHash: "x", TotalGames: 2, Engines: []record.Engine{{Name: "a"}, {Name: "b"}}})
	if err != nil {
		b.Fatal(err)
	}
	g := record.Game{TournamentID: tid, StartFEN: startFEN, White: "a", Black: "b", Result: "1/2-1/2",
		Termination: record.Adjudication, PGN: "[Result \"1/2-1/2\"]\n\n1/2-1/2\n"}
	g.Moves, g.FinalFEN = randomGame(b, 1, 300)
	g.Plies = len(g.Moves)
	if err := w.SaveGame(ctx, &g); err != nil {
		b.Fatal(err)
	}
	w.Close()
	r, err := store.OpenReader(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	h, err := newReaderServer(r, Options{Log: log.New(io.Discard, "", 0)})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d plies", len(g.Moves))
	for _, url := range []string{fmt.Sprintf("/games/%d", g.ID), fmt.Sprintf("/games/%d/board.svg?ply=%d", g.ID, len(g.Moves)/2)} {
		b.Run(url, func(b *testing.B) {
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
				if rec.Code != 200 || strings.Contains(rec.Body.String(), "board stops early") {
					b.Fatalf("GET %s: %d", url, rec.Code)
				}
			}
		})
	}
}

// randomGame plays up to plies random legal moves from the start position
// with notnil/chess and returns them with the final FEN.
func randomGame(tb testing.TB, seed uint64, plies int) ([]record.Move, string) {
	rng := rand.New(rand.NewPCG(seed, 2))
	cg := chess.NewGame()
	var out []record.Move
	for ply := 1; ply <= plies; ply++ {
		moves := cg.ValidMoves()
		if len(moves) == 0 || cg.Outcome() != chess.NoOutcome {
			break
		}
		m := moves[rng.IntN(len(moves))]
		out = append(out, record.Move{Ply: ply, UCI: chess.UCINotation{}.Encode(cg.Position(), m),
			SAN: chess.AlgebraicNotation{}.Encode(cg.Position(), m), Score: rng.IntN(200) - 100, Depth: 10, SelDepth: 20,
			Nodes: 100000, Time: 50 * time.Millisecond})
		if err := cg.Move(m); err != nil {
			tb.Fatal(err)
		}
	}
	return out, cg.Position().String()
}
