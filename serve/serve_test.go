package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"selfplay/report"
	"selfplay/store"
	"selfplay/store/record"
	"selfplay/store/storetest"
)

// Hostile engine names: markup, quotes and ampersands must come out
// escaped on every page.
const (
	evil   = `<script>alert("x")</script>`
	quoted = `Tom's "engine" & co`
	plain  = "plain"
)

// scholar is a checkmate in 7 plies from the start position.
var scholar = []struct{ uci, san string }{
	{"e2e4", "e4"}, {"e7e5", "e5"}, {"f1c4", "Bc4"}, {"b8c6", "Nc6"}, {"d1h5", "Qh5"}, {"g8f6", "Nf6"}, {"h5f7", "Qxf7#"},
}

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// fixture writes a round robin of the three engines (10 pairs per
// pairing, 60 games) with store.OpenWriter and returns the database,
// opened read-only, and the server over it.
func fixture(t *testing.T) (*store.Reader, http.Handler) {
	t.Helper()
	r, h, _ := fixtureAt(t)
	return r, h
}

func fixtureAt(t *testing.T) (*store.Reader, http.Handler, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "serve.db")
	w, err := store.OpenWriter(ctx, path, "test")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{evil, quoted, plain}
	players, _ := json.Marshal(names)
	snap := `{"format":"round-robin","players":` + string(players) + `}`
	var engines []record.Engine
	for _, n := range names {
		engines = append(engines, record.Engine{Name: n, Options: "preset=plain"})
	}
	tid, err := w.CreateTournament(ctx, record.Tournament{Name: `rr <b>"&"</b>`, Config: snap, ConfigHash: "x", TotalGames: 90, Engines: engines})
	if err != nil {
		t.Fatal(err)
	}
	pairings := [][2]string{{evil, quoted}, {evil, plain}, {quoted, plain}}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	pair := 0
	for round := range 10 {
		for _, p := range pairings {
			for idx := range 2 {
				white, black := p[0], p[1]
				if idx == 1 {
					white, black = black, white
				}
				g := record.Game{TournamentID: tid, Pair: pair, Index: idx, Round: round + 1, OpeningID: fmt.Sprintf("op%d", round%3),
					OpeningName: `Italian <i>&</i>`, StartFEN: startFEN, OpeningMoves: []string{"e2e4"}, White: white, Black: black,
					Started: start.Add(time.Duration(pair*2+idx) * time.Minute), Finished: start.Add(time.Duration(pair*2+idx+1) * time.Minute),
					FinalFEN: "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"}
				if (round+idx)%2 == 0 {
					g.Result, g.Termination, g.Plies = "1-0", record.Checkmate, 6
					for i, m := range scholar {
						g.Moves = append(g.Moves, record.Move{Ply: i + 1, UCI: m.uci, SAN: m.san, Book: i == 0, Score: 30 + 10*i,
							Depth: 5 + i, SelDepth: 9 + i, Nodes: int64(1000 * (i + 1)), Time: time.Duration(i+1) * time.Millisecond})
					}
					g.Moves[6].Score = 31999 // mate in 1 for the mover
				} else {
					g.Result, g.Termination, g.Reason, g.Plies = "1/2-1/2", record.Adjudication, `draw rule: <10 cp & "quiet"`, 1
					g.Moves = []record.Move{{Ply: 1, UCI: "e2e4", SAN: "e4", Book: true}, {Ply: 2, UCI: "e7e5", SAN: "e5", Score: -20, Depth: 7, Nodes: 5000, Time: 3 * time.Millisecond}}
					g.FinalFEN = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
				}
				g.PGN = fmt.Sprintf("[Event \"rr\"]\n[White %q]\n[Black %q]\n[Result %q]\n\n1. e4 %s\n\n", white, black, g.Result, g.Result)
				if err := w.SaveGame(ctx, &g); err != nil {
					t.Fatal(err)
				}
			}
			pair++
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenReader(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	h, err := newReaderServer(r, Options{Log: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	return r, h, path
}

func get(t *testing.T, h http.Handler, method, url string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, url, nil))
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// firstGameID is the id of the first stored game.
func firstGameID(t *testing.T, r *store.Reader) int64 {
	t.Helper()
	gs, _, err := r.ListGames(context.Background(), store.GameFilter{TournamentID: 1}, 0, 1)
	if err != nil || len(gs) != 1 {
		t.Fatalf("ListGames: %v %v", gs, err)
	}
	return gs[0].ID
}

func TestRoutes(t *testing.T) {
	r, h := fixture(t)
	gid := firstGameID(t, r)
	html, js, svg := "text/html; charset=utf-8", "application/json", "image/svg+xml"
	tests := []struct {
		url      string
		status   int
		ctype    string
		contains []string
	}{
		{"/", 200, html, []string{`data-poll="/api/tournaments"`, "/static/serve.js", "60/90", "ETA", `<a href="/tournaments/1">`}},
		{"/api/tournaments", 200, js, []string{`"games_stored": 60`}},
		{"/tournaments/1", 200, html, []string{"<svg", "Crosstable", "Terminations", "polyline", "/tournaments/1/games"}},
		{"/api/tournaments/1", 200, js, []string{`"format": "selfplay-report"`, `"games_stored": 60`}},
		{"/tournaments/1/openings", 200, html, []string{"page 1 of 1", "Games 1.1 to 30.2", "1-0 1/2-1/2"}},
		{"/api/tournaments/1/openings", 200, js, []string{`"pages": 1`, `"first_white": [`, `"first_pair": 1`, `"last_pair": 30`}},
		{"/tournaments/1/games", 200, html, []string{"60 games; page 1 of 2", `rel="next" href="?page=2"`, "/games/", "plies played"}},
		{"/api/tournaments/1/games", 200, js, []string{`"total": 60`, `"pages": 2`}},
		{fmt.Sprintf("/games/%d", gid), 200, html, []string{`<svg class="board"`, "Qxf7#", "#1", `id="copy-pgn"`, `data-last="7"`, `class="eval"`}},
		{fmt.Sprintf("/games/%d?ply=0", gid), 200, html, []string{`data-ply="0"`}},
		{fmt.Sprintf("/games/%d/board.svg?ply=3", gid), 200, svg, []string{`<svg class="board"`, `class="light last"`}},
		{fmt.Sprintf("/games/%d/pgn", gid), 200, "application/x-chess-pgn; charset=utf-8", []string{`[Result "1-0"]`}},
		{fmt.Sprintf("/api/games/%d", gid), 200, js, []string{`"san": "Qxf7#"`, `"score_text": "#1"`}},
		{"/static/serve.js", 200, "text/javascript; charset=utf-8", []string{"ArrowLeft", "textContent"}},
		{"/static/serve.css", 200, "text/css; charset=utf-8", []string{"svg.board"}},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			res, body := get(t, h, "GET", tc.url)
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tc.status, body)
			}
			if ct := res.Header.Get("Content-Type"); ct != tc.ctype {
				t.Errorf("Content-Type %q, want %q", ct, tc.ctype)
			}
			for _, s := range tc.contains {
				if !strings.Contains(body, s) {
					t.Errorf("body lacks %q", s)
				}
			}
			if tc.ctype == js && !json.Valid([]byte(body)) {
				t.Errorf("invalid JSON: %s", body)
			}
			// Nothing from elsewhere, and no other site may frame the
			// pages (clickjacking).
			if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") ||
				!strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			if xfo := res.Header.Get("X-Frame-Options"); xfo != "DENY" {
				t.Errorf("X-Frame-Options %q", xfo)
			}
		})
	}
}

// TestFixtureInProgress: the fixture's tournament is running with 30 of 90
// games, and every in-progress figure is shown.
func TestTournamentsJSON(t *testing.T) {
	_, h := fixture(t)
	_, body := get(t, h, "GET", "/api/tournaments")
	var v tournamentsView
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Tournaments) != 1 {
		t.Fatalf("%d tournaments", len(v.Tournaments))
	}
	ts := v.Tournaments[0]
	if ts.Name != `rr <b>"&"</b>` || ts.GamesStored != 60 || ts.GamesScheduled != 90 || ts.Status != "running" {
		t.Errorf("summary %+v", ts)
	}
	// 60 games in 60 minutes: 30 more take half an hour.
	if ts.ETASeconds == nil || *ts.ETASeconds != 1800 {
		t.Errorf("ETA %v, want 1800 s", ts.ETASeconds)
	}
	if len(ts.Pairings) != 3 {
		t.Fatalf("%d pairings", len(ts.Pairings))
	}
	for _, p := range ts.Pairings {
		if p.Games != 20 || p.Estimate == nil || !strings.Contains(p.Verdict, " vs ") || p.SPRT != nil {
			t.Errorf("pairing %+v", p)
		}
	}
	if v.PollSeconds != 2 || time.Since(v.Updated) > time.Minute {
		t.Errorf("poll %v, updated %v", v.PollSeconds, v.Updated)
	}
}

// TestHostileNamesEscaped: engine, tournament and opening names and the
// termination reason appear only escaped in HTML.
func TestHostileNamesEscaped(t *testing.T) {
	r, h := fixture(t)
	gid := firstGameID(t, r)
	drawID := gid + 1 // the first pair's second game is a draw with a reason
	for _, url := range []string{"/", "/tournaments/1", "/tournaments/1/openings", "/tournaments/1/games", fmt.Sprintf("/games/%d", gid), fmt.Sprintf("/games/%d", drawID),
		"/tournaments/1/games?engine=" + strings.NewReplacer("<", "%3C", ">", "%3E", `"`, "%22", " ", "+", "(", "%28", ")", "%29").Replace(evil)} {
		t.Run(url, func(t *testing.T) {
			res, body := get(t, h, "GET", url)
			if res.StatusCode != 200 {
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}
			for _, raw := range []string{"<script>alert", `"engine" &`, "<b>", "<i>&</i>", `<10 cp & "quiet"`} {
				if strings.Contains(body, raw) {
					t.Errorf("unescaped %q in the page", raw)
				}
			}
			if strings.Count(body, "<script") != 1 { // the page's own /static/serve.js
				t.Errorf("%d <script elements", strings.Count(body, "<script"))
			}
			if !strings.Contains(body, "&lt;script&gt;alert(") {
				t.Errorf("the escaped engine name is missing")
			}
		})
	}
	// The JSON keeps the names as they are.
	_, body := get(t, h, "GET", "/api/tournaments/1/games")
	var v gamesView
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	if v.Games[0].White != evil || v.Games[0].Black != quoted {
		t.Errorf("names %q %q", v.Games[0].White, v.Games[0].Black)
	}
}

func TestNotFoundAndBadRequests(t *testing.T) {
	r, h := fixture(t)
	gid := firstGameID(t, r)
	for _, tc := range []struct {
		url    string
		status int
		says   string // in the message, if not ""
	}{
		{"/nope", 404, ""},
		{"/tournaments/2", 404, ""},
		{"/tournaments/x", 404, ""},
		{"/tournaments/-1", 404, ""},
		{"/api/tournaments/9", 404, ""},
		{"/tournaments/9/games", 404, ""},
		{"/api/tournaments/9/games", 404, ""},
		{"/games/999999", 404, ""},
		{"/api/games/999999", 404, ""},
		{"/games/999999/pgn", 404, ""},
		{"/games/999999/board.svg", 404, ""},
		{"/static/nope.js", 404, ""},
		{"/tournaments/1/games?page=3", 404, ""}, // 60 games: two pages
		{"/tournaments/1/games?page=0", 400, ""},
		{"/tournaments/1/games?page=x", 400, ""},
		{"/tournaments/1/games?result=2-0", 400, ""},
		{fmt.Sprintf("/games/%d?ply=8", gid), 400, ""},
		{fmt.Sprintf("/games/%d?ply=-1", gid), 400, ""},
		{fmt.Sprintf("/games/%d/board.svg?ply=99", gid), 400, ""},
		// No folder listings.
		{"/static/", 404, ""},
		// One address per page: numbers only as the site writes them.
		{"/games/+1", 404, `no such id "+1"`},
		{"/games/01", 404, `no such id "01"`},
		{fmt.Sprintf("/games/0%d", gid), 404, ""},
		{fmt.Sprintf("/api/games/+%d", gid), 404, ""},
		{fmt.Sprintf("/games/%d/pgn", gid) + "%20", 404, ""},
		{"/tournaments/01", 404, ""},
		{"/tournaments/1.0/games", 404, ""},
		{"/api/tournaments/+1", 404, ""},
		{"/tournaments/99999999999999999999", 404, ""},
		{"/tournaments/1/games?page=01", 400, `page "01"`},
		{"/tournaments/1/games?page=%2B2", 400, `page "+2"`},
		{fmt.Sprintf("/games/%d?ply=01", gid), 400, `ply "01" is not in 0..7`},
		{fmt.Sprintf("/games/%d?ply=%%2B1", gid), 400, ""},
		{fmt.Sprintf("/games/%d?ply=00", gid), 400, ""},
		// A filter's value that no game can have, listing those it may.
		{"/tournaments/1/games?result=2-0", 400, `result "2-0" is not one of "1-0", "0-1", "1/2-1/2"`},
		{"/api/tournaments/1/games?termination=junk", 400, `termination "junk" is not one of "checkmate", "stalemate", `},
		{"/tournaments/1/games?termination=Checkmate", 400, ""},
		{"/tournaments/1/games?engine=nobody", 400, `engine "nobody" is not one of "<script>alert(\"x\")</script>", "Tom's \"engine\" & co", "plain"`},
		{"/api/tournaments/1/games?engine=plain&result=1-1", 400, ""},
	} {
		res, body := get(t, h, "GET", tc.url)
		if res.StatusCode != tc.status || !strings.Contains(body, tc.says) {
			t.Errorf("GET %s: status %d, want %d with %q: %s", tc.url, res.StatusCode, tc.status, tc.says, body)
		}
	}
	// The canonical forms are served.
	for _, u := range []string{"/tournaments/1/games?page=2", fmt.Sprintf("/games/%d?ply=0", gid), fmt.Sprintf("/games/%d?ply=7", gid),
		"/tournaments/1/games?termination=adjudication", "/tournaments/1/games?engine=plain"} {
		if res, body := get(t, h, "GET", u); res.StatusCode != 200 {
			t.Errorf("GET %s: status %d: %s", u, res.StatusCode, body)
		}
	}
}

func TestOnlyGET(t *testing.T) {
	r, h := fixture(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	gid := firstGameID(t, r)
	for _, url := range []string{"/", "/api/tournaments", "/tournaments/1", "/tournaments/1/openings", "/api/tournaments/1/openings", "/tournaments/1/games", fmt.Sprintf("/games/%d", gid),
		fmt.Sprintf("/games/%d/pgn", gid), "/static/serve.js"} {
		for _, m := range []string{"POST", "PUT", "DELETE", "PATCH"} {
			res, _ := get(t, h, m, url)
			if res.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: status %d, want 405", m, url, res.StatusCode)
			}
			if allow := res.Header.Get("Allow"); !strings.Contains(allow, "GET") {
				t.Errorf("%s %s: Allow %q", m, url, allow)
			}
		}
		res, err := http.Head(srv.URL + url)
		if err != nil || res.StatusCode != 200 {
			t.Errorf("HEAD %s: %v %v", url, res, err)
		} else {
			res.Body.Close()
		}
	}
}

func TestGameListFiltersAndPages(t *testing.T) {
	_, h := fixture(t)
	list := func(query string) gamesView {
		t.Helper()
		res, body := get(t, h, "GET", "/api/tournaments/1/games"+query)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", query, res.StatusCode, body)
		}
		var v gamesView
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		query string
		total int
		check func(gameSummary) bool
	}{
		{"?page=2", 10, func(gameSummary) bool { return true }},
		{"?result=1-0", 30, func(g gameSummary) bool { return g.Result == "1-0" }},
		{"?result=1%2F2-1%2F2", 30, func(g gameSummary) bool { return g.Result == "1/2-1/2" }},
		{"?termination=checkmate", 30, func(g gameSummary) bool { return g.Termination == record.Checkmate }},
		{"?engine=plain", 40, func(g gameSummary) bool { return g.White == plain || g.Black == plain }},
		{"?engine=plain&result=1-0&opening=op0", 8, func(g gameSummary) bool {
			return (g.White == plain || g.Black == plain) && g.Result == "1-0" && g.OpeningID == "op0"
		}},
	} {
		v := list(tc.query)
		want := tc.total
		if tc.query == "?page=2" {
			want = 60 // in all; 10 on the last page
		}
		if v.Total != want || len(v.Games) != tc.total {
			t.Errorf("%q: total %d, %d games; want %d", tc.query, v.Total, len(v.Games), tc.total)
		}
		for _, g := range v.Games {
			if !tc.check(g.gameSummary) {
				t.Errorf("%q: game %+v does not match", tc.query, g)
			}
			if want := fmt.Sprintf("%d.%d", g.Pair+1, g.Index+1); g.Round != want {
				t.Errorf("%q: game %d has round %q, want the PGN's %q", tc.query, g.ID, g.Round, want)
			}
		}
	}
}

// TestPagination: the 60 games are listed page by page in schedule
// order, each once, by the store (any page size) and by the handler (50).
func TestPagination(t *testing.T) {
	r, h := fixture(t)
	seen := map[int64]bool{}
	prev := -1
	for off := 0; off < 60; off += 7 {
		gs, total, err := r.ListGames(context.Background(), store.GameFilter{TournamentID: 1}, off, 7)
		if err != nil || total != 60 {
			t.Fatalf("offset %d: total %d, %v", off, total, err)
		}
		if want := min(7, 60-off); len(gs) != want {
			t.Fatalf("offset %d: %d games, want %d", off, len(gs), want)
		}
		for _, g := range gs {
			if seen[g.ID] || g.Pair*2+g.Index <= prev {
				t.Fatalf("game %d (%d.%d) repeated or out of order", g.ID, g.Pair, g.Index)
			}
			seen[g.ID] = true
			prev = g.Pair*2 + g.Index
		}
	}
	if len(seen) != 60 {
		t.Errorf("%d games seen, want 60", len(seen))
	}
	if gs, _, _ := r.ListGames(context.Background(), store.GameFilter{TournamentID: 1}, 0, 1<<30); len(gs) != 60 {
		t.Errorf("an oversized limit gave %d games", len(gs))
	}
	var ids []int64
	for page, want := range map[int]int{1: 50, 2: 10} {
		_, body := get(t, h, "GET", fmt.Sprintf("/api/tournaments/1/games?engine=&page=%d", page))
		var v gamesView
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		if len(v.Games) != want || v.Page != page || v.Pages != 2 {
			t.Errorf("page %d: %d games, page %d of %d", page, len(v.Games), v.Page, v.Pages)
		}
		for _, g := range v.Games {
			ids = append(ids, g.ID)
		}
	}
	if len(ids) != 60 {
		t.Errorf("%d games on the two pages", len(ids))
	}
	_, body := get(t, h, "GET", "/tournaments/1/games?page=2")
	if !strings.Contains(body, `rel="prev" href="?"`) || strings.Contains(body, `rel="next"`) {
		t.Errorf("page 2 of 2: wrong page links")
	}
	// Page links keep the filter.
	f := gameFilter{Engine: evil, Result: "1/2-1/2", Termination: "time forfeit", Opening: "a&b"}
	if got, want := f.query(3), "?engine=%3Cscript%3Ealert%28%22x%22%29%3C%2Fscript%3E&opening=a%26b&page=3&result=1%2F2-1%2F2&termination=time+forfeit"; got != want {
		t.Errorf("query %q, want %q", got, want)
	}
}

// TestLiveUpdates: games a writer stores beside the server show at once
// (the cached report is rebuilt when the tournament changed).
func TestLiveUpdates(t *testing.T) {
	ctx := context.Background()
	_, h, path := fixtureAt(t)
	summary := func() tournamentSummary {
		t.Helper()
		_, body := get(t, h, "GET", "/api/tournaments")
		var v tournamentsView
		if err := json.Unmarshal([]byte(body), &v); err != nil || len(v.Tournaments) != 1 {
			t.Fatalf("%v: %s", err, body)
		}
		return v.Tournaments[0]
	}
	if n := summary().GamesStored; n != 60 {
		t.Fatalf("%d games", n)
	}
	w, err := store.OpenWriter(ctx, path, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	g := record.Game{TournamentID: 1, Pair: 30, Index: 0, Round: 11, OpeningID: "op0", StartFEN: startFEN, White: plain, Black: evil,
		Result: "0-1", Termination: record.TimeForfeit, Culprit: plain, FinalFEN: startFEN,
		Started: time.Date(2026, 1, 2, 5, 0, 0, 0, time.UTC), Finished: time.Date(2026, 1, 2, 5, 1, 0, 0, time.UTC)}
	if err := w.SaveGame(ctx, &g); err != nil {
		t.Fatal(err)
	}
	s := summary()
	total := 0
	for _, p := range s.Pairings {
		total += p.Games
	}
	if s.GamesStored != 61 || total != 61 {
		t.Errorf("after a game: %d games, %d in the pairings", s.GamesStored, total)
	}
	_, page := get(t, h, "GET", "/tournaments/1")
	if !strings.Contains(page, "61/90 games stored") {
		t.Errorf("the tournament page does not show the new game")
	}
	_, list := get(t, h, "GET", "/tournaments/1/games?termination=time+forfeit")
	if !strings.Contains(list, "1 games; page 1 of 1") || !strings.Contains(list, "time forfeit (plain)") {
		t.Errorf("the game list does not show the new game")
	}
	if err := w.UpdateStatus(ctx, 1, record.StatusComplete, "", 0); err != nil {
		t.Fatal(err)
	}
	if s := summary(); s.Status != "complete" || s.ETASeconds != nil {
		t.Errorf("after completion: status %q, ETA %v", s.Status, s.ETASeconds)
	}
}

// TestSPRTShown: a match under an SPRT shows its LLR with bounds on the
// tournaments page and the LLR chart on the tournament page.
func TestSPRTShown(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sprt.db")
	if err := storetest.Generate(ctx, path, storetest.Options{Games: 40, Plies: 10}); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenReader(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, err := newReaderServer(r, Options{Level: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	_, body := get(t, h, "GET", "/api/tournaments")
	var v tournamentsView
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	p := v.Tournaments[0].Pairings[0]
	if p.SPRT == nil || !(p.SPRT.Lower < 0 && p.SPRT.Upper > 0) || !strings.Contains(p.SPRTVerdict, "LLR") || !strings.Contains(p.Verdict, "(90%,") {
		t.Errorf("pairing %+v", p)
	}
	_, page := get(t, h, "GET", "/")
	if !strings.Contains(page, p.SPRTVerdict) {
		t.Errorf("the tournaments page lacks the SPRT line %q", p.SPRTVerdict)
	}
	_, page = get(t, h, "GET", "/tournaments/1")
	for _, want := range []string{"SPRT log-likelihood ratio", `class="ref bound"`, `class="band"`, "Intervals at 90% confidence"} {
		if !strings.Contains(page, want) {
			t.Errorf("the tournament page lacks %q", want)
		}
	}
	if _, err := newReaderServer(r, Options{Level: 1}); err == nil {
		t.Errorf("level 1 accepted")
	}
}

// TestReplayAgainstNotnil: the board's positions equal notnil/chess's
// over random legal games (castling, en passant, promotions included).
func TestReplayAgainstNotnil(t *testing.T) {
	for seed := range uint64(6) {
		moves, _ := randomGame(t, seed, 200)
		cg := chess.NewGame(chess.UseNotation(chess.UCINotation{}))
		g := record.Game{ID: 1, StartFEN: startFEN, Moves: moves}
		fens, err := replay(g)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(fens) != len(moves)+1 {
			t.Fatalf("seed %d: %d positions for %d moves", seed, len(fens), len(moves))
		}
		for i, m := range moves {
			if err := cg.MoveStr(m.UCI); err != nil {
				t.Fatal(err)
			}
			// Placement, side, castling: the first three fields (the
			// en-passant square differs by convention).
			want := strings.Fields(cg.Position().String())[:3]
			if got := strings.Fields(fens[i+1])[:3]; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("seed %d ply %d %s: %v, notnil %v", seed, i+1, m.UCI, got, want)
			}
		}
	}
}

// TestIllegalStoredMove: a record with a move the board cannot play shows
// the positions up to it and says where it stopped.
func TestIllegalStoredMove(t *testing.T) {
	g := record.Game{ID: 7, StartFEN: startFEN, Moves: []record.Move{{Ply: 1, UCI: "e2e4"}, {Ply: 2, UCI: "e2e4"}, {Ply: 3, UCI: "d2d4"}}}
	fens, err := replay(g)
	if len(fens) != 2 || err == nil || !strings.Contains(err.Error(), `ply 2 "e2e4"`) {
		t.Errorf("replay: %d positions, %v", len(fens), err)
	}
	if _, err := replay(record.Game{StartFEN: "not a fen"}); err == nil {
		t.Errorf("a bad start FEN replayed")
	}
	svg := drawBoard(fens[1], "e2e4")
	if strings.Count(svg, `class="piece w"`) != 16 || strings.Count(svg, `class="piece b"`) != 16 || strings.Count(svg, " last\"") != 2 {
		t.Errorf("board after 1. e4: %s", svg)
	}
}

// TestStalledRun: a running tournament that stored nothing for ten times
// its mean interval between games (at least a minute) is shown as probably
// stopped, without an ETA.
func TestStalledRun(t *testing.T) {
	t0 := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	l := loaded{rec: record.Tournament{UpdatedAt: t0}, rep: report.Tournament{Status: "running", GamesStored: 10, GamesScheduled: 20,
		Played: &report.TimeRange{Start: t0.Add(-10 * time.Minute), End: t0}}}
	for _, tc := range []struct {
		after   time.Duration
		stalled bool
	}{{time.Second, false}, {9 * time.Minute, false}, {11 * time.Minute, true}} {
		s := summarize(l, t0.Add(tc.after))
		if s.Stalled != tc.stalled || (s.ETASeconds == nil) != tc.stalled {
			t.Errorf("%v after the last write: stalled %v, ETA %v", tc.after, s.Stalled, s.ETASeconds)
		}
		if !tc.stalled && *s.ETASeconds != 600 {
			t.Errorf("ETA %v, want 600 s", *s.ETASeconds)
		}
	}
	l.rep.Status = "complete"
	if s := summarize(l, t0.Add(time.Hour)); s.Stalled || s.ETASeconds != nil {
		t.Errorf("a complete tournament: %+v", s)
	}
}

// The games list shows a finished time as the game page does, not the
// stored text with its nanoseconds.
func TestFmtTimeText(t *testing.T) {
	for in, want := range map[string]string{
		"2026-11-27T08:12:33.123456789Z": "2026-11-27 08:12:33Z",
		"2026-11-27T09:12:33.5+01:00":    "2026-11-27 08:12:33Z",
		"":                               "-",
		"not a time":                     "not a time",
	} {
		if got := fmtTimeText(in); got != want {
			t.Errorf("fmtTimeText(%q) = %q, want %q", in, got, want)
		}
	}
}
