package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"selfplay/outcome"
	"selfplay/report"
	"selfplay/standings"
	"selfplay/store"
	"selfplay/store/record"
)

// The results by opening come a window of the schedule's pairs a page:
// every page answers 200 with its links, the pages together hold every
// game's result exactly as the full report's table has it, names are
// escaped, and pages past the last are 404 (malformed ones 400).
func TestOpeningsPages(t *testing.T) {
	r, hh := fixture(t)
	h := hh.(*Server)
	h.pairsPerPage = 7 // 30 pairs: pages of 7, 7, 7, 7 and 2
	const pages = 5
	full, err := standings.Load(context.Background(), r, standings.Options{SkipSuiteRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ first, second, opening string }
	got := map[key][2][]outcome.Result{}
	for page := 1; page <= pages; page++ {
		url := fmt.Sprintf("/api/tournaments/1/openings?page=%d", page)
		res, body := get(t, h, "GET", url)
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", url, res.StatusCode, body)
		}
		var v openingsView
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		wantLast := min(30, page*7)
		if v.Page != page || v.Pages != pages || v.FirstPair != (page-1)*7+1 || v.LastPair != wantLast || v.PairsPerPage != 7 {
			t.Errorf("%s: page %d of %d, pairs %d-%d", url, v.Page, v.Pages, v.FirstPair, v.LastPair)
		}
		games := 0
		for _, p := range v.Pairings {
			for _, o := range p.Openings.Rows {
				k := key{p.First, p.Second, o.ID}
				g := got[k]
				got[k] = [2][]outcome.Result{append(g[0], o.FirstWhite...), append(g[1], o.FirstBlack...)}
				games += o.Games
			}
		}
		if games != 2*(wantLast-(page-1)*7) {
			t.Errorf("%s: %d games, want those of pairs %d-%d", url, games, v.FirstPair, v.LastPair)
		}

		_, html := get(t, h, "GET", fmt.Sprintf("/tournaments/1/openings?page=%d", page))
		for _, raw := range []string{"<script>alert", "<i>&</i>", `<b>"&"</b>`} {
			if strings.Contains(html, raw) {
				t.Errorf("page %d: unescaped %q", page, raw)
			}
		}
		if !strings.Contains(html, "Italian &lt;i&gt;&amp;&lt;/i&gt;") || !strings.Contains(html, "&lt;script&gt;alert(") {
			t.Errorf("page %d: the escaped opening or engine name is missing", page)
		}
		wantLinks := map[string]bool{
			`rel="prev" href="?"`:                                     page == 2,
			`rel="prev" href="?page=2"`:                               page == 3,
			`rel="next" href="?page=2"`:                               page == 1,
			`rel="next" href="?page=5"`:                               page == 4,
			`<strong>` + fmt.Sprint(page) + `</strong>`:               true,
			`<a href="?page=5">5</a>`:                                 page != 5,
			fmt.Sprintf("games %d.1 to %d.2", (page-1)*7+1, wantLast): true,
		}
		for link, want := range wantLinks {
			if strings.Contains(html, link) != want {
				t.Errorf("page %d: has %s: %v, want %v", page, link, !want, want)
			}
		}
		if page == 1 && strings.Contains(html, `rel="prev"`) || page == pages && strings.Contains(html, `rel="next"`) {
			t.Errorf("page %d: a link past the ends", page)
		}
	}
	for _, p := range full.Tournaments[0].Pairings {
		for _, o := range p.Openings.Rows {
			g := got[key{p.First, p.Second, o.ID}]
			if !slices.Equal(g[0], o.FirstWhite) || !slices.Equal(g[1], o.FirstBlack) {
				t.Errorf("%s vs %s, %s: the pages give %v %v, the report %v %v", p.First, p.Second, o.ID, g[0], g[1],
					o.FirstWhite, o.FirstBlack)
			}
			delete(got, key{p.First, p.Second, o.ID})
		}
	}
	if len(got) > 0 {
		t.Errorf("rows on the pages that the report lacks: %v", got)
	}
	for url, status := range map[string]int{
		"/tournaments/1/openings?page=6":     404,
		"/api/tournaments/1/openings?page=6": 404,
		"/tournaments/1/openings?page=0":     400,
		"/tournaments/1/openings?page=x":     400,
		"/tournaments/9/openings":            404,
		"/api/tournaments/9/openings":        404,
	} {
		if res, body := get(t, h, "GET", url); res.StatusCode != status {
			t.Errorf("GET %s: %d, want %d: %s", url, res.StatusCode, status, body)
		}
	}
}

// The tournament page shows each opening's score with each colour (not
// every game's result) for at most openingsOnPage openings and links to
// the results; its JSON leaves out the per-game lists.
func TestTournamentPageOpeningScores(t *testing.T) {
	_, hh := fixture(t)
	h := hh.(*Server)
	_, body := get(t, h, "GET", "/tournaments/1")
	// The first pairing (the hostile names) in opening op0 (rounds 0, 3,
	// 6, 9): as White 1-0, ½, 1-0, ½; as Black ½, 0-1... written
	// White-Black: 3-1 with each colour, 4-4 in all.
	row := `<td>op0</td><td>Italian &lt;i&gt;&amp;&lt;/i&gt;</td><td class="num">8</td><td class="num">3-1</td>` +
		`<td class="num">3-1</td><td class="num">4-4</td>`
	if !strings.Contains(body, row) {
		t.Errorf("no row %s in the tournament page", row)
	}
	if !strings.Contains(body, `<a href="/tournaments/1/openings">every game&#39;s result by opening`) {
		t.Errorf("no link to the results by opening")
	}
	if strings.Contains(body, "1-0 1/2-1/2") || strings.Contains(body, "the first 3 of") {
		t.Errorf("the tournament page lists every game's result, or cuts the openings")
	}
	h.openingsOnPage = 2
	h.cur.states.byID = map[int64]*tournamentState{}
	if _, body := get(t, h, "GET", "/tournaments/1"); !strings.Contains(body, "the first 2 of 3 openings") ||
		strings.Contains(body, "<td>op2</td>") {
		t.Errorf("the openings are not cut at 2")
	}

	_, js := get(t, h, "GET", "/api/tournaments/1")
	var doc report.Report
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	rows := doc.Tournaments[0].Pairings[0].Openings.Rows
	if len(rows) != 3 || rows[0].Games != 8 || rows[0].FirstPoints != 4 || len(rows[0].FirstWhite) != 0 {
		t.Errorf("JSON openings %+v", rows)
	}
	if !strings.Contains(js, `"first_white": []`) || !strings.Contains(js, `"format": "selfplay-report"`) {
		t.Errorf("JSON without empty result lists or its format")
	}
}

// Rounds are shown as the PGN's Round tag (pair.game, from 1), not the
// stored round counted from 0.
func TestRoundsAsInPGN(t *testing.T) {
	r, h := fixture(t)
	gid := firstGameID(t, r)
	_, page := get(t, h, "GET", fmt.Sprintf("/games/%d", gid+1))
	if !strings.Contains(page, "Round 1.2,") || !strings.Contains(page, "› round 1.2</nav>") {
		t.Errorf("the game page does not say Round 1.2")
	}
	_, list := get(t, h, "GET", "/tournaments/1/games")
	if !strings.Contains(list, fmt.Sprintf(`<a href="/games/%d">1.1</a>`, gid)) ||
		!strings.Contains(list, fmt.Sprintf(`<a href="/games/%d">25.2</a>`, gid+49)) {
		t.Errorf("the game list does not number the games as the PGN does")
	}
	_, js := get(t, h, "GET", fmt.Sprintf("/api/games/%d", gid+1))
	if !strings.Contains(js, `"round": "1.2"`) {
		t.Errorf("the game's JSON round is not the PGN's")
	}
}

// A first visit to a game list does not count the tournament: the opening
// filter is a text field until the games were counted, a menu after, and
// it filters the same either way.
func TestGameListOpeningFilterBeforeCounting(t *testing.T) {
	_, h := fixture(t)
	_, before := get(t, h, "GET", "/tournaments/1/games?opening=op1")
	if !strings.Contains(before, `<input name="opening" value="op1"`) || strings.Contains(before, `<select name="opening">`) {
		t.Errorf("the first visit's opening filter is not a text field with op1")
	}
	if len(h.(*Server).cur.states.byID[1].openings) != 0 || h.(*Server).cur.states.byID[1].live != nil {
		t.Errorf("the first visit to the game list counted the games")
	}
	get(t, h, "GET", "/tournaments/1")
	_, after := get(t, h, "GET", "/tournaments/1/games?opening=op1")
	if !strings.Contains(after, `<option value="op1" selected>`) {
		t.Errorf("after counting, the filter is not a menu with op1 chosen")
	}
	count := func(s string) int { return strings.Count(s, `<tr><td class="num"><a href="/games/`) }
	if count(before) != 18 || count(after) != 18 {
		t.Errorf("op1 lists %d games before counting and %d after, want 18 (rounds 1, 4 and 7)", count(before), count(after))
	}
}

// An opening whose name is its id (an EPD line's id is both) is shown once
// on the game page, in the game list and in its opening menu; an opening
// with a name of its own shows both, as before.
func TestOpeningIDShownOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "epd.db")
	w, err := store.OpenWriter(ctx, path, "test")
	if err != nil {
		t.Fatal(err)
	}
	engines := []record.Engine{{Name: "a", Options: "preset=plain"}, {Name: "b", Options: "preset=plain"}}
	tid, err := w.CreateTournament(ctx, record.Tournament{Name: "epd", Config: `{"format":"match","players":["a","b"]}`,
		ConfigHash: "h", TotalGames: 2, Engines: engines})
	if err != nil {
		t.Fatal(err)
	}
	openings := [][2]string{{"fhr-01 e4 e5", "fhr-01 e4 e5"}, {"fhr-02", "1. e4 e6"}}
	for i, o := range openings {
		g := record.Game{TournamentID: tid, Pair: 0, Index: i, OpeningID: o[0], OpeningName: o[1], StartFEN: startFEN,
			White: engines[i].Name, Black: engines[1-i].Name, Result: "1/2-1/2", Termination: record.Adjudication, Plies: 1,
			Moves: []record.Move{{Ply: 1, UCI: "e2e4", SAN: "e4"}}, FinalFEN: startFEN, PGN: "1. e4 1/2-1/2\n"}
		if err := w.SaveGame(ctx, &g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenReader(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, err := newReaderServer(r, Options{Log: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	gid := firstGameID(t, r)
	get(t, h, "GET", "/tournaments/1") // counts the games: the game list's opening filter is a menu
	pages := map[string][]string{
		fmt.Sprintf("/games/%d", gid):   {"opening fhr-01 e4 e5;"},
		fmt.Sprintf("/games/%d", gid+1): {"opening fhr-02 1. e4 e6;"},
		"/tournaments/1/games": {"<td>fhr-01 e4 e5</td>", "<td>fhr-02 1. e4 e6</td>",
			`<option value="fhr-01 e4 e5">fhr-01 e4 e5</option>`, `<option value="fhr-02">fhr-02 1. e4 e6</option>`},
	}
	for url, want := range pages {
		res, page := get(t, h, "GET", url)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s", url, res.Status)
		}
		for _, s := range want {
			if !strings.Contains(page, s) {
				t.Errorf("%s does not show %q", url, s)
			}
		}
		if strings.Contains(page, "fhr-01 e4 e5 fhr-01 e4 e5") {
			t.Errorf("%s shows the id fhr-01 e4 e5 twice", url)
		}
	}
}
