package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"selfplay/outcome"
	"selfplay/store"
	"selfplay/store/record"
	"selfplay/store/storetest"
)

// gameWriter stores games into the synthetic tournament with the store's
// own writer (one transaction per game, the writer lock held, as a run
// does) until stop is closed: legal games of random moves with their
// search figures, a pair after the synthetic ones at a time.
type gameWriter struct {
	stop    chan struct{}
	done    chan struct{}
	mu      sync.Mutex
	written int
	errs    []error
}

// startWriter opens the writer, stores a first game (returned, for the
// game page) and then a game every interval in the background.
func startWriter(tb testing.TB, path string, firstPair int, every time.Duration) (*gameWriter, int64) {
	tb.Helper()
	ctx := context.Background()
	st, err := store.OpenWriter(ctx, path, "test-writer")
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// A few games' moves, reused: notnil/chess takes longer to play them
	// than the store to save them.
	type moves struct {
		moves []record.Move
		final string
	}
	var pool []moves
	for i := range 4 {
		m, f := randomGame(tb, uint64(i), 80+40*i)
		pool = append(pool, moves{m, f})
	}
	game := func(n int) *record.Game {
		pair, idx := firstPair+n/2, n%2
		white, black := "fhr", "plain"
		if idx == 1 {
			white, black = black, white
		}
		g := &record.Game{TournamentID: 1, Pair: pair, Index: idx, Round: pair/25 + 1, OpeningID: fmt.Sprintf("fhr-%02d", pair%25+1),
			OpeningName: fmt.Sprintf("Opening %d", pair%25+1), StartFEN: startFEN, White: white, Black: black,
			Result: outcome.Final()[rng.IntN(3)], Termination: record.Adjudication, Reason: "adjudicated",
			Started: time.Now().Add(-time.Second), Finished: time.Now()}
		m := pool[n%len(pool)]
		g.Moves, g.FinalFEN = m.moves, m.final
		g.Plies = len(g.Moves)
		g.PGN = fmt.Sprintf("[White %q]\n[Black %q]\n[Result %q]\n\n%s\n\n", white, black, g.Result, g.Result)
		return g
	}
	first := game(0)
	if err := st.SaveGame(ctx, first); err != nil {
		tb.Fatal(err)
	}
	w := &gameWriter{stop: make(chan struct{}), done: make(chan struct{}), written: 1}
	go func() {
		defer close(w.done)
		defer st.Close()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
			err := st.SaveGame(ctx, game(n))
			w.mu.Lock()
			if err != nil {
				w.errs = append(w.errs, err)
			} else {
				w.written++
			}
			w.mu.Unlock()
		}
	}()
	return w, first.ID
}

// finish stops the writer and returns how many games it stored and its
// errors.
func (w *gameWriter) finish() (int, []error) {
	close(w.stop)
	<-w.done
	return w.written, w.errs
}

// syncLog is a log destination safe for concurrent requests.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// loggedServer serves r over HTTP and keeps the site's log for the test to
// check; the caller closes the server.
func loggedServer(tb testing.TB, r *store.Reader) (*httptest.Server, *syncLog) {
	tb.Helper()
	logs := &syncLog{}
	h, err := newReaderServer(r, Options{Log: log.New(logs, "", 0)})
	if err != nil {
		tb.Fatal(err)
	}
	return httptest.NewServer(h), logs
}

// fetch GETs url and returns the time it took; a status other than 200 is
// an error with the body.
func fetch(c *http.Client, url string) (time.Duration, error) {
	t0 := time.Now()
	res, err := c.Get(url)
	if err != nil {
		return 0, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	d := time.Since(t0)
	if err != nil {
		return d, err
	}
	if res.StatusCode != 200 {
		return d, fmt.Errorf("GET %s: %s: %s", url, res.Status, body)
	}
	return d, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// BenchmarkServeWhileWriting serves every page (the tournament page and
// its JSON, a page of results by opening, a page of the game list, a game
// page and its JSON, and the tournaments poll /api/tournaments) of a
// synthetic database of
// 10,000 (100,000) games over HTTP while a writer stores games into the
// same tournament with the store's writer as fast as it can (hundreds a
// second, on the cores the server uses: far more often than a run at
// real node budgets), so that every request finds new games. It reports each page's median and 95th percentile latency
// (the goal: median under 200 ms) and fails on any error on
// either side ("database is locked" among them).
func BenchmarkServeWhileWriting(b *testing.B) {
	for _, games := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", games/1000), func(b *testing.B) {
			ctx := context.Background()
			path := filepath.Join(b.TempDir(), "load.db")
			// 100,000 games with every move would take minutes to write:
			// their search sums and PGN only (the report reads no move).
			if err := storetest.Generate(ctx, path, storetest.Options{Games: games, NoMoves: games > 10_000}); err != nil {
				b.Fatal(err)
			}
			r, err := store.OpenReader(ctx, path)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			srv, logs := loggedServer(b, r)
			defer srv.Close()
			c := srv.Client()
			w, gameID := startWriter(b, path, games/2, time.Millisecond)
			pages := []struct{ name, url string }{
				{"tournament", srv.URL + "/tournaments/1"},
				{"tournament-json", srv.URL + "/api/tournaments/1"},
				{"openings", srv.URL + "/tournaments/1/openings?page=2"},
				{"games", srv.URL + "/tournaments/1/games?engine=fhr&page=3"},
				{"game", fmt.Sprintf("%s/games/%d", srv.URL, gameID)},
				{"game-json", fmt.Sprintf("%s/api/games/%d", srv.URL, gameID)},
				{"poll", srv.URL + "/api/tournaments"},
			}
			// A first visit to the game list, before anything counted the
			// games (one sample).
			first, err := fetch(c, pages[3].url)
			if err != nil {
				b.Fatal(err)
			}
			// The first request of the tournament page counts every game:
			// not what a reader meets once the page is open.
			if _, err := fetch(c, pages[0].url); err != nil {
				b.Fatal(err)
			}
			lat := make([][]time.Duration, len(pages))
			for b.Loop() {
				for i, p := range pages {
					d, err := fetch(c, p.url)
					if err != nil {
						b.Fatal(err)
					}
					lat[i] = append(lat[i], d)
				}
			}
			written, errs := w.finish()
			if len(errs) > 0 {
				b.Fatalf("the writer failed %d times: %v", len(errs), errs[0])
			}
			if l := logs.String(); l != "" {
				b.Fatalf("the server logged errors:\n%s", l)
			}
			for i, p := range pages {
				b.ReportMetric(float64(median(lat[i]).Microseconds())/1000, p.name+"-median-ms")
				b.ReportMetric(float64(percentile(lat[i], 0.95).Microseconds())/1000, p.name+"-p95-ms")
			}
			b.ReportMetric(float64(first.Microseconds())/1000, "games-first-visit-ms")
			b.ReportMetric(float64(written), "games-written")
		})
	}
}

// While the store's writer stores games as fast as it can, concurrent
// readers of every page get only complete answers: no "database is
// locked" (nor any other error) on either side, and the tournaments page
// sees the games grow.
func TestNoLockErrorsWhileWriting(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "load.db")
	if err := storetest.Generate(ctx, path, storetest.Options{Games: 2000, NoMoves: true}); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenReader(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv, logs := loggedServer(t, r)
	defer srv.Close()
	// storedOn checks that the tournaments page shows the games stored now.
	storedOn := func(when string) int {
		t.Helper()
		_, body := get(t, srv.Config.Handler, "GET", "/api/tournaments")
		n, err := r.CountGames(ctx, 1)
		if err != nil || !strings.Contains(body, fmt.Sprintf(`"games_stored": %d,`, n)) {
			t.Errorf("%s: the tournaments page does not show the %d games stored (%v):\n%s", when, n, err, body)
		}
		return n
	}
	initial := storedOn("before the writer")
	w, gameID := startWriter(t, path, 1000, time.Millisecond)
	urls := []string{"/", "/api/tournaments", "/tournaments/1", "/api/tournaments/1", "/tournaments/1/games?page=3",
		"/api/tournaments/1/games?engine=fhr", fmt.Sprintf("/games/%d", gameID), fmt.Sprintf("/api/games/%d", gameID)}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	requests := 0
	deadline := time.Now().Add(3 * time.Second)
	for reader := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := srv.Client()
			for i := reader; time.Now().Before(deadline); i++ {
				_, err := fetch(c, srv.URL+urls[i%len(urls)])
				mu.Lock()
				requests++
				if err != nil {
					failures = append(failures, err.Error())
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	written, errs := w.finish()
	for _, err := range errs {
		t.Errorf("writer: %v", err)
	}
	for _, f := range failures {
		t.Errorf("reader: %s", f)
	}
	if l := logs.String(); l != "" {
		t.Errorf("the server logged errors:\n%s", l)
	}
	t.Logf("%d requests, %d games stored meanwhile", requests, written)
	if written < 20 {
		t.Errorf("the writer stored only %d games in 3 s", written)
	}
	if after := storedOn("after the writer"); after <= initial {
		t.Errorf("the tournaments page went from %d to %d games while %d were stored", initial, after, written)
	}
}

// BenchmarkPageAfterNewGame is what one new game costs the server: the
// writer stores a game (not timed), then the tournaments poll or the
// tournament page is served, from standings counted up to the game before
// (the first request, which counts every game, is not timed). Nothing else
// runs meanwhile, unlike in BenchmarkServeWhileWriting.
func BenchmarkPageAfterNewGame(b *testing.B) {
	for _, games := range []int{10_000, 100_000} {
		ctx := context.Background()
		path := filepath.Join(b.TempDir(), "new-game.db")
		if err := storetest.Generate(ctx, path, storetest.Options{Games: games, NoMoves: true}); err != nil {
			b.Fatal(err)
		}
		r, err := store.OpenReader(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		st, err := store.OpenWriter(ctx, path, "test-writer")
		if err != nil {
			b.Fatal(err)
		}
		moves, final := randomGame(b, 1, 100)
		n := 0
		for _, url := range []string{"/api/tournaments", "/tournaments/1", "/api/tournaments/1"} {
			b.Run(fmt.Sprintf("%dk%s", games/1000, url), func(b *testing.B) {
				h, err := newReaderServer(r, Options{Log: log.New(io.Discard, "", 0)})
				if err != nil {
					b.Fatal(err)
				}
				serve := func() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
					if rec.Code != 200 {
						b.Fatalf("GET %s: %d %s", url, rec.Code, rec.Body)
					}
				}
				serve()
				for b.Loop() {
					b.StopTimer()
					g := &record.Game{TournamentID: 1, Pair: games/2 + n/2, Index: n % 2, White: "fhr", Black: "plain",
						Result: "1/2-1/2", Termination: record.Adjudication, StartFEN: startFEN, Moves: moves, FinalFEN: final,
						Started: time.Now(), Finished: time.Now(), PGN: "*\n"}
					if g.Index == 1 {
						g.White, g.Black = g.Black, g.White
					}
					n++
					if err := st.SaveGame(ctx, g); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					serve()
				}
			})
		}
		st.Close()
		r.Close()
	}
}
