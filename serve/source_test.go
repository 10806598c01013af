package serve

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/outcome"
	"selfplay/store"
	"selfplay/store/record"
)

// smallDB writes a database at path with one tournament of the given name
// and number of drawn games; the writer is closed, its log checkpointed.
func smallDB(t *testing.T, path, name string, games int) {
	t.Helper()
	resultsDB(t, path, name, games, "1/2-1/2")
}

// resultsDB is smallDB with games of the given result.
func resultsDB(t *testing.T, path, name string, games int, result string) {
	t.Helper()
	ctx := context.Background()
	w, err := store.OpenWriter(ctx, path, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	engines := []record.Engine{{Name: name + "-a", Options: "preset=plain"}, {Name: name + "-b", Options: "preset=plain"}}
	snap := fmt.Sprintf(`{"format":"match","players":[%q,%q]}`, engines[0].Name, engines[1].Name)
	tid, err := w.CreateTournament(ctx, record.Tournament{Name: name, Config: snap, ConfigHash: name, TotalGames: 2 * games, Engines: engines})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range games {
		white, black := engines[i%2].Name, engines[1-i%2].Name
		g := record.Game{TournamentID: tid, Pair: i / 2, Index: i % 2, Round: i/2 + 1, OpeningID: "op", OpeningName: "Italian",
			StartFEN: startFEN, White: white, Black: black, Result: outcome.Result(result), Termination: record.Adjudication, Plies: 2,
			Started: start.Add(time.Duration(i) * time.Minute), Finished: start.Add(time.Duration(i+1) * time.Minute),
			FinalFEN: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
			Moves:    []record.Move{{Ply: 1, UCI: "e2e4", SAN: "e4", Depth: 3}, {Ply: 2, UCI: "e7e5", SAN: "e5", Depth: 3}},
			PGN:      "[Event \"" + name + "\"]\n\n1. e4 e5 1/2-1/2\n\n"}
		if err := w.SaveGame(ctx, &g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// openWatched serves the database at path with Open; every request looks
// at the file (no interval), and the site's clock stands still at the
// time of the call until the test moves it (watched.wait).
func openWatched(t *testing.T, path string) (*Server, *syncLog) {
	t.Helper()
	logs := &syncLog{}
	s, err := Open(context.Background(), path, Options{Log: log.New(logs, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.checkEvery = 0
	now := time.Now()
	s.now = func() time.Time { return now }
	return s, logs
}

// later moves the site's clock on by d.
func later(s *Server, d time.Duration) {
	now := s.now().Add(d)
	s.now = func() time.Time { return now }
}

// removeDB removes a database file with its write-ahead log and index.
func removeDB(t *testing.T, path string) {
	t.Helper()
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// aged sets the file's modification time a minute back: a file that is no
// longer being written.
func aged(t *testing.T, path string) {
	t.Helper()
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// wantGone checks that every kind of page answers 503 naming the path:
// an HTML page that reloads itself, JSON under /api/; /static/ works.
func wantGone(t *testing.T, h http.Handler, path, says string) {
	t.Helper()
	for _, u := range []string{"/", "/tournaments/1", "/tournaments/1/games", "/games/1", "/games/1/board.svg"} {
		res, body := get(t, h, "GET", u)
		if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, path) || !strings.Contains(body, says) ||
			!strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, `<meta http-equiv="refresh"`) ||
			res.Header.Get("Retry-After") == "" {
			t.Fatalf("GET %s: %d %v\n%s", u, res.StatusCode, res.Header, body)
		}
	}
	for _, u := range []string{"/api/tournaments", "/api/tournaments/1", "/api/games/1"} {
		res, body := get(t, h, "GET", u)
		var v struct{ Error string }
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Content-Type") != "application/json" ||
			json.Unmarshal([]byte(body), &v) != nil || !strings.Contains(v.Error, path) || !strings.Contains(v.Error, says) {
			t.Fatalf("GET %s: %d %v\n%s", u, res.StatusCode, res.Header, body)
		}
	}
	if res, _ := get(t, h, "GET", "/static/serve.css"); res.StatusCode != 200 {
		t.Fatalf("GET /static/serve.css: %d", res.StatusCode)
	}
}

// wantShown checks that the site shows the tournament name (and not
// notName) on its pages.
func wantShown(t *testing.T, h http.Handler, name, notName string, games int) {
	t.Helper()
	for _, u := range []string{"/", "/api/tournaments", "/tournaments/1", "/api/tournaments/1", "/tournaments/1/games", "/api/tournaments/1/games"} {
		res, body := get(t, h, "GET", u)
		if res.StatusCode != 200 || !strings.Contains(body, name) || strings.Contains(body, notName) {
			t.Fatalf("GET %s: %d, want %q without %q:\n%s", u, res.StatusCode, name, notName, body)
		}
	}
	var v tournamentsView
	if _, body := get(t, h, "GET", "/api/tournaments"); json.Unmarshal([]byte(body), &v) != nil || len(v.Tournaments) != 1 ||
		v.Tournaments[0].GamesStored != games {
		t.Fatalf("/api/tournaments: %s, want %d games", body, games)
	}
}

// A database deleted under the site makes every page a 503 that names the
// path; the site shows the database again when it is back.
func TestDeletedDatabaseIs503(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sv.db")
	smallDB(t, path, "oldtour", 6)
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, logs := openWatched(t, path)
	wantShown(t, h, "oldtour", "\x00", 6)

	removeDB(t, path)
	wantGone(t, h, path, "is gone: it was deleted or moved")
	if !strings.Contains(logs.String(), path+" is gone") {
		t.Errorf("the log says %q", logs.String())
	}

	// Back (a backup restored): shown again.
	if err := os.WriteFile(path, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	aged(t, path)
	wantShown(t, h, "oldtour", "\x00", 6)
}

// A database moved away and back is the same file: the site goes on with
// what it has counted.
func TestDatabaseMovedBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sv.db")
	smallDB(t, path, "oldtour", 6)
	h, _ := openWatched(t, path)
	wantShown(t, h, "oldtour", "\x00", 6)
	if err := os.Rename(path, path+".away"); err != nil {
		t.Fatal(err)
	}
	wantGone(t, h, path, "is gone")
	if err := os.Rename(path+".away", path); err != nil {
		t.Fatal(err)
	}
	wantShown(t, h, "oldtour", "\x00", 6)
	if n := h.cur.states.byID[1].counts; n != 1 {
		t.Errorf("the games were counted %d times, want once", n)
	}
}

// Another database written in place over the one shown, with the same
// tournament id, config and number of games but other results, is counted
// afresh: its tournament was created at another time.
func TestRewrittenInPlaceWithSameShape(t *testing.T) {
	dir := t.TempDir()
	path, otherPath := filepath.Join(dir, "sv.db"), filepath.Join(dir, "other.db")
	resultsDB(t, path, "tour", 6, "1/2-1/2")
	resultsDB(t, otherPath, "tour", 6, "1-0")
	other, err := os.ReadFile(otherPath)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := openWatched(t, path)
	if _, body := get(t, h, "GET", "/api/tournaments/1"); !strings.Contains(body, `"draws": 6`) {
		t.Fatalf("/api/tournaments/1 before:\n%s", body)
	}
	if err := os.WriteFile(path, other, 0o644); err != nil {
		t.Fatal(err)
	}
	get(t, h, "GET", "/api/tournaments/1")
	later(h, settleAfter)
	if _, body := get(t, h, "GET", "/api/tournaments/1"); strings.Contains(body, `"draws": 6`) || !strings.Contains(body, `"wins": 3`) {
		t.Fatalf("/api/tournaments/1 after the other database was written over it:\n%s", body)
	}
}

// A run writing the database (its checkpoints grow the file) is followed
// with new connections that carry the states counted: the games are
// counted once, and those stored later are added to them.
func TestWriterCheckpointsKeepCounts(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sv.db")
	smallDB(t, path, "oldtour", 6)
	h, _ := openWatched(t, path)
	wantShown(t, h, "oldtour", "\x00", 6)
	first := h.cur
	for round, games := range []int{8, 10} {
		w, err := store.OpenWriter(ctx, path, "test")
		if err != nil {
			t.Fatal(err)
		}
		for i := games - 2; i < games; i++ {
			g := record.Game{TournamentID: 1, Pair: i / 2, Index: i % 2, Round: i/2 + 1, OpeningID: "op", StartFEN: startFEN,
				White: "oldtour-a", Black: "oldtour-b", Result: "1-0", Termination: record.Adjudication, Plies: 1,
				Moves: []record.Move{{Ply: 1, UCI: "e2e4", SAN: "e4"}}}
			if err := w.SaveGame(ctx, &g); err != nil {
				t.Fatal(err)
			}
		}
		wantShown(t, h, "oldtour", "\x00", games)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		// What a run's automatic checkpoints do: the log's pages are
		// written into the file.
		before, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if after, err := os.Stat(path); err != nil || sameStat(before, after) {
			t.Fatalf("the checkpoint left the file as it was (%v)", err)
		}
		wantShown(t, h, "oldtour", "\x00", games)
		later(h, settleAfter)
		wantShown(t, h, "oldtour", "\x00", games)
		if h.cur == first {
			t.Fatalf("round %d: the file written is read with the connection that read it before", round)
		}
		if n := h.cur.states.byID[1].counts; n != 1 {
			t.Errorf("round %d: the games were counted %d times, want once", round, n)
		}
	}
}

// Another database put in place of the one shown (deleted and copied,
// renamed over it, or written over it in place) is what the site shows
// from then on, every page and count of the old one gone.
func TestReplacedDatabaseIsFollowed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replace func(t *testing.T, path string, other []byte)
	}{
		{"deleted, then copied", func(t *testing.T, path string, other []byte) {
			removeDB(t, path)
			if err := os.WriteFile(path, other, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"renamed over it", func(t *testing.T, path string, other []byte) {
			if err := os.WriteFile(path+".new", other, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+".new", path); err != nil {
				t.Fatal(err)
			}
		}},
		{"copied over it in place", func(t *testing.T, path string, other []byte) {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Write(other); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		for _, bigger := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, larger %v", tc.name, bigger), func(t *testing.T) {
				dir := t.TempDir()
				path, otherPath := filepath.Join(dir, "sv.db"), filepath.Join(dir, "other.db")
				firstGames, secondGames := 40, 4
				if bigger {
					firstGames, secondGames = 4, 400
				}
				smallDB(t, path, "oldtour", firstGames)
				smallDB(t, otherPath, "newtour", secondGames)
				other, err := os.ReadFile(otherPath)
				if err != nil {
					t.Fatal(err)
				}
				h, logs := openWatched(t, path)
				wantShown(t, h, "oldtour", "newtour", firstGames)
				get(t, h, "GET", "/games/1")

				tc.replace(t, path, other)
				// Just written: a copy may still be going on. It is
				// read once it has been left unchanged for a while.
				// Meanwhile a file that grew in place is read as it
				// was (a run's checkpoint grows it too); any other is
				// a 503.
				grown := tc.name == "copied over it in place" && bigger
				for _, wait := range []time.Duration{0, settleAfter - time.Millisecond} {
					later(h, wait)
					if grown {
						if res, body := get(t, h, "GET", "/"); res.StatusCode != 200 {
							t.Fatalf("GET / while the file is written: %d\n%s", res.StatusCode, body)
						}
					} else {
						wantGone(t, h, path, "was replaced by another file, which is still being written")
					}
				}
				later(h, time.Millisecond)
				wantShown(t, h, "newtour", "oldtour", secondGames)
				if !grown && !strings.Contains(logs.String(), path+" was replaced by another file") {
					t.Errorf("the log says %q", logs.String())
				}
			})
		}
	}
}

// A file that has not changed for a while is opened at first sight.
func TestReplacedBySettledFile(t *testing.T) {
	dir := t.TempDir()
	path, otherPath := filepath.Join(dir, "sv.db"), filepath.Join(dir, "other.db")
	smallDB(t, path, "oldtour", 6)
	smallDB(t, otherPath, "newtour", 8)
	h, _ := openWatched(t, path)
	wantShown(t, h, "oldtour", "newtour", 6)
	aged(t, otherPath)
	if err := os.Rename(otherPath, path); err != nil {
		t.Fatal(err)
	}
	wantShown(t, h, "newtour", "oldtour", 8)
}

// The same database restored in place over itself (a backup copied back)
// goes on being shown.
func TestSameDatabaseRestoredInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sv.db")
	smallDB(t, path, "oldtour", 6)
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := openWatched(t, path)
	wantShown(t, h, "oldtour", "\x00", 6)
	src := h.cur
	if err := os.WriteFile(path, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	wantShown(t, h, "oldtour", "\x00", 6)
	later(h, settleAfter)
	wantShown(t, h, "oldtour", "\x00", 6)
	if h.cur == src {
		t.Error("the file written in place is read with the connection that read it before")
	}
	if n := h.cur.states.byID[1].counts; n != 1 {
		t.Errorf("the games were counted %d times, want once", n)
	}
}

// A file at the path that is no selfplay database is a 503 saying so,
// until a database is there.
func TestReplacedByNonDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sv.db")
	smallDB(t, path, "oldtour", 6)
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := openWatched(t, path)
	wantShown(t, h, "oldtour", "\x00", 6)
	removeDB(t, path)
	if err := os.WriteFile(path, []byte("not a database, not at all, no\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aged(t, path)
	wantGone(t, h, path, "cannot be read as a selfplay database")
	removeDB(t, path)
	if err := os.WriteFile(path, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	aged(t, path)
	wantShown(t, h, "oldtour", "\x00", 6)
}

// The path is looked at no more than once per CheckInterval: between
// looks a deleted database is still read from the open file.
func TestLooksOncePerInterval(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sv.db")
	smallDB(t, path, "oldtour", 6)
	h, _ := openWatched(t, path)
	h.checkEvery = CheckInterval
	wantShown(t, h, "oldtour", "\x00", 6)
	removeDB(t, path)
	later(h, CheckInterval-time.Millisecond)
	wantShown(t, h, "oldtour", "\x00", 6)
	later(h, time.Millisecond)
	wantGone(t, h, path, "is gone")
}

// Requests in flight keep the file they started with: a replaced
// database's connection is closed when the last of them ends.
func TestRetiredSourceClosedAfterLastRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sv.db")
	smallDB(t, path, "oldtour", 6)
	h, _ := openWatched(t, path)
	ctx := context.Background()
	src, err := h.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	removeDB(t, path)
	if _, err := h.acquire(ctx); err == nil {
		t.Fatal("acquired a deleted database")
	}
	if _, err := src.db.Tournaments(ctx); err != nil {
		t.Fatalf("a request in flight lost its database: %v", err)
	}
	h.release(src)
	if _, err := src.db.Tournaments(ctx); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("the retired database is still open (%v)", err)
	}
}

// Close closes the database; later requests are a 503.
func TestCloseOpened(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sv.db")
	smallDB(t, path, "oldtour", 2)
	h, err := Open(context.Background(), path, Options{Log: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	src := h.cur
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := src.db.Tournaments(context.Background()); err == nil {
		t.Fatal("the database is still open after Close")
	}
	if res, _ := get(t, h, "GET", "/"); res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("GET / after Close: %d", res.StatusCode)
	}
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "missing.db"), Options{}); err == nil ||
		!strings.Contains(err.Error(), "missing.db") {
		t.Fatalf("Open of a missing file: %v", err)
	}
}

// Requests served while the database is deleted, brought back and
// replaced, over and over, answer 200 or 503, never an error: a request
// keeps the connection it started with until it ends, and one whose
// reading fails because the file changed under it (the pool opened a new
// connection on the path meanwhile) is a 503 too.
func TestRequestsWhileReplaced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sv.db")
	smallDB(t, path, "oldtour", 6)
	var copies [2][]byte
	for i, name := range []string{"oldtour", "newtour"} {
		p := filepath.Join(dir, name+".db")
		smallDB(t, p, name, 6+2*i)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		copies[i] = b
	}
	h, logs := openWatched(t, path)
	done := make(chan struct{})
	errs := make(chan error, 4)
	for w := range 4 {
		go func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				u := []string{"/", "/api/tournaments", "/tournaments/1", "/tournaments/1/games", "/games/1"}[(i+w)%5]
				if res, body := get(t, h, "GET", u); res.StatusCode != 200 && res.StatusCode != http.StatusServiceUnavailable {
					errs <- fmt.Errorf("GET %s: %d %s", u, res.StatusCode, body)
					return
				}
			}
		}()
	}
	for i := range 20 {
		removeDB(t, path)
		get(t, h, "GET", "/")
		tmp := path + ".new"
		if err := os.WriteFile(tmp, copies[i%2], 0o644); err != nil {
			t.Fatal(err)
		}
		aged(t, tmp)
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
		get(t, h, "GET", "/")
	}
	close(done)
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if !strings.Contains(line, " is gone (") && !strings.Contains(line, " was replaced by another file") &&
			!strings.Contains(line, " changed while it was read: ") {
			t.Errorf("the site logged %q", line)
		}
	}
}
