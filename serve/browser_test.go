package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"selfplay/internal/testkit"
	"selfplay/internal/tooltest"
	"selfplay/runner"
	"selfplay/store"
)

// chromium returns Debian's chromium (or chromium-browser) on PATH. Without
// one the test skips, or fails where SELFPLAY_REQUIRE_TOOLS names chromium
// (CI, whose .ci/run installs it).
func chromium(t *testing.T) string {
	t.Helper()
	return tooltest.Find(t, "chromium", "chromium", "chromium", "chromium-browser")
}

// artifacts is where the test keeps its screenshots: $SELFPLAY_ARTIFACTS
// (created if needed), else the test's temporary directory.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SELFPLAY_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browserConfig is a match under an SPRT whose bounds a few hundred games
// do not reach, slow enough (3,000 nodes a move, one game at a time) to be
// still running while the browser looks; it plays into the database db.
func browserConfig(db string) testkit.Config {
	return testkit.Config{
		Database: db,
		Engines:  testkit.InProcess("fhr", "plain"),
		Tournaments: []testkit.Tournament{{
			Name: `fhr <vs> "plain" & co`, Engines: []string{"fhr", "plain"}, Concurrency: 1, Rounds: 20,
			SPRT:         testkit.Table{"elo0": -10, "elo1": 10, "alpha": 0.001, "beta": 0.001},
			Openings:     testkit.Table{"set": "fhr25"},
			Limits:       testkit.Table{"nodes": 3000},
			Adjudication: testkit.Table{"move": 20, "referee_nodes": 500},
		}},
	}
}

// console collects what the pages report: console errors and warnings,
// uncaught exceptions, and the browser's own log errors (failed loads,
// refused by the Content-Security-Policy).
type console struct {
	mu   sync.Mutex
	msgs []string
}

func (c *console) add(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, fmt.Sprintf(format, args...))
}

func (c *console) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.msgs
	c.msgs = nil
	return m
}

func (c *console) listen(ev any) {
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			c.add("console.%s: %s", e.Type, strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		c.add("exception at %s:%d: %s", d.URL, d.LineNumber, msg)
	case *cdplog.EventEntryAdded:
		if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
			c.add("log %s %s: %s %s", e.Entry.Level, e.Entry.Source, e.Entry.Text, e.Entry.URL)
		}
	}
}

// screenshot saves the whole page as NAME.png in dir and checks that it is
// a picture with something on it.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	// Right after a navigation a loaded machine may not have laid the page
	// out yet ("Cannot take screenshot with 0 width"): wait for the load to
	// complete and try again for a few seconds.
	var buf []byte
	var err error
	for try := 0; ; try++ {
		var state string
		if state, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState`)); err == nil && state == "complete" {
			if buf, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
				break
			}
		}
		if try == 20 {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 300 {
		t.Errorf("screenshot %s is %v", name, b)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", path)
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds on a page that has
// finished loading, or the timeout. While the page navigates (a link
// clicked, a reload) there is no document to evaluate in for a moment and
// the browser answers with an error ("Inspected target navigated or
// closed", "Execution context was destroyed"): such errors are tried
// again until the deadline, and the last one is reported if the condition
// never holds.
func waitFor(t *testing.T, ctx context.Context, what, cond string, timeout time.Duration) {
	t.Helper()
	expr := `document.readyState === "complete" && (` + cond + `)`
	var last error
	for deadline := time.Now().Add(timeout); ; time.Sleep(100 * time.Millisecond) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if err != nil {
			last = err
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			t.Fatalf("waited %v for %s (%s); the last error: %v", timeout, what, cond, last)
		}
	}
}

// startBrowser starts headless Chromium (bin) for the test and returns its
// context, which ends with the test or after timeout, listening with msgs.
func startBrowser(t *testing.T, bin string, msgs *console, timeout time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900), chromedp.UserDataDir(t.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(msgs.listen))
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, timeout)
	t.Cleanup(cancel)
	// The runtime domain (console, exceptions) is on from the start.
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	return ctx
}

// TestBrowser drives headless Chromium over the site of a database that a
// match is being played into: the tournaments page updates its game count
// without reloading, the tournament page draws its charts, the game viewer
// steps through the moves with the arrow keys, and no page logs an error
// or throws. Screenshots go to $SELFPLAY_ARTIFACTS (or the test's
// temporary directory).
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	if testing.Short() {
		t.Skip("plays games and starts a browser")
	}
	shots := artifacts(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	cfg := browserConfig(db).Write(t, dir, "live.toml")

	// The match plays in the background until the test ends.
	runCtx, stopRun := context.WithCancel(context.Background())
	runDone := make(chan error, 1)
	go func() { runDone <- liveRun(t, runCtx, cfg, runner.Options{}) }()
	defer func() {
		stopRun()
		if err := <-runDone; err != nil && !errors.Is(err, runner.ErrInterrupted) {
			t.Errorf("run: %v", err)
		}
	}()
	var r *store.Reader
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		if r == nil {
			r, err = store.OpenReader(context.Background(), db) // no file until the run created it
		}
		if r != nil {
			var n int
			if n, err = r.CountGames(context.Background(), 1); err == nil && n >= 4 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run stored no 4 games in 30 s (%v)", err)
		}
	}
	defer r.Close()
	srv, logs := loggedServer(t, r)
	defer srv.Close()

	var msgs console
	ctx := startBrowser(t, bin, &msgs, 90*time.Second)

	// First make sure that errors would be seen at all.
	if err := chromedp.Do(ctx, chromedp.Navigate("data:text/html,<script>console.error('control');missing()</script>")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); len(msgs.msgs) < 2 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
	}
	if got := msgs.take(); len(got) < 2 {
		t.Fatalf("a control page's console error and exception were not seen (%q): the checks below would prove nothing", got)
	}
	noErrors := func(page string) {
		t.Helper()
		if m := msgs.take(); len(m) > 0 {
			t.Errorf("%s: the browser reported:\n%s", page, strings.Join(m, "\n"))
		}
	}

	// The tournaments page: the count of games grows without a reload
	// (a mark left on the window survives).
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`[data-field="games"]`)); err != nil {
		t.Fatal(err)
	}
	stored := func() int {
		text := eval[string](t, ctx, `document.querySelector('[data-field="games"]').textContent`)
		n, err := strconv.Atoi(strings.Split(text, "/")[0])
		if err != nil {
			t.Fatalf("games shown as %q", text)
		}
		return n
	}
	first, updated := stored(), eval[string](t, ctx, `document.getElementById("updated-at").textContent`)
	eval[bool](t, ctx, `window.selfplayMark = true`)
	waitFor(t, ctx, "the game count to grow", fmt.Sprintf(
		`parseInt(document.querySelector('[data-field="games"]').textContent, 10) > %d`, first), 15*time.Second)
	if !eval[bool](t, ctx, `window.selfplayMark === true`) {
		t.Error("the page was reloaded to show the new count")
	}
	if now := eval[string](t, ctx, `document.getElementById("updated-at").textContent`); now == updated {
		t.Errorf("the time of the last update still says %s", now)
	}
	t.Logf("tournaments page: %d games, then %d without a reload", first, stored())
	screenshot(t, ctx, shots, "tournaments")
	noErrors("tournaments page")

	// The tournament page: every chart has a line.
	// (SVG elements have no offset box: chromedp's visibility test does
	// not apply to them.)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/tournaments/1")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the charts", `document.querySelectorAll("svg").length >= 2`, 10*time.Second)
	charts := eval[[]int](t, ctx, `Array.from(document.querySelectorAll("svg")).map(s =>
		Array.from(s.querySelectorAll("polyline, path")).filter(l =>
			(l.getAttribute("points") || l.getAttribute("d") || "").trim().split(/[ ,]+/).length >= 4).length)`)
	if len(charts) < 2 {
		t.Errorf("%d charts on the tournament page, want the Elo and the LLR chart at least", len(charts))
	}
	for i, lines := range charts {
		if lines == 0 {
			t.Errorf("chart %d has no line with points", i+1)
		}
	}
	if box := eval[[]float64](t, ctx, `(b => [b.width, b.height])(document.querySelector("svg").getBoundingClientRect())`); box[0] < 100 || box[1] < 50 {
		t.Errorf("the first chart is drawn %vx%v px", box[0], box[1])
	}
	screenshot(t, ctx, shots, "tournament")
	noErrors("tournament page")

	// From the tournament page's link to every game's result by opening.
	if err := chromedp.Do(ctx, chromedp.Click(`p.more a`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the results by opening", `location.pathname === "/tournaments/1/openings" &&
		document.querySelectorAll("table.data tbody tr").length > 0`, 10*time.Second)
	if cells := eval[int](t, ctx, `Array.from(document.querySelectorAll("table.data tbody td")).filter(td =>
		/^(1-0|0-1|1\/2-1\/2)( |$)/.test(td.textContent)).length`); cells == 0 {
		t.Errorf("no game results on the openings page")
	}
	screenshot(t, ctx, shots, "openings")
	noErrors("openings page")

	// The game viewer: a game of many moves, stepped with the arrow keys.
	games, _, err := r.ListGames(context.Background(), store.GameFilter{TournamentID: 1}, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	var gameID int64
	longest := 0
	for _, g := range games {
		if g.Plies > longest {
			gameID, longest = g.ID, g.Plies
		}
	}
	if longest < 6 {
		t.Fatalf("no game of at least 6 plies among %d", len(games))
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/games/%d", srv.URL, gameID)),
		chromedp.WaitVisible(`#board`)); err != nil {
		t.Fatal(err)
	}
	// Each ply's position as the server has it (/api/games/ID).
	var view gameView
	if _, body := get(t, srv.Config.Handler, "GET", fmt.Sprintf("/api/games/%d", gameID)); json.Unmarshal([]byte(body), &view) != nil {
		t.Fatalf("/api/games/%d: %s", gameID, body)
	}
	fenAt := func(ply int) string {
		if ply == 0 {
			return view.StartFEN
		}
		return view.Moves[ply-1].FEN
	}
	last := eval[int](t, ctx, `parseInt(document.getElementById("game").dataset.last, 10)`)
	// The board's position: its label is the FEN, its pieces are drawn.
	board := func() string {
		return eval[string](t, ctx, `document.querySelector("#board svg").getAttribute("aria-label")`)
	}
	ply := func() int { return eval[int](t, ctx, `parseInt(document.getElementById("ply").textContent, 10)`) }
	if ply() != last || last != len(view.Moves) || board() != fenAt(last) {
		t.Fatalf("the viewer opens at ply %d of %d showing %q, want the last (%d moves: %q)", ply(), last, board(),
			len(view.Moves), fenAt(last))
	}
	step := func(key string, want int) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, fmt.Sprintf("the board after %q", key), fmt.Sprintf(
			`document.getElementById("ply").textContent === "%d" && document.querySelector("#board svg").getAttribute("aria-label") === %s`,
			want, strconv.Quote(fenAt(want))), 5*time.Second)
		if n := eval[int](t, ctx, `document.querySelectorAll("#board svg text.piece").length`); n < 2 {
			t.Errorf("after %q the board shows %d pieces", key, n)
		}
		// The move list marks the move that led to the position (none at
		// the start).
		cur := eval[[]int](t, ctx, `Array.from(document.querySelectorAll(".moves tr.current")).map(tr => parseInt(tr.dataset.ply, 10))`)
		if (want == 0 && len(cur) != 0) || (want > 0 && (len(cur) != 1 || cur[0] != want)) {
			t.Errorf("after %q the move list marks plies %v, want %d", key, cur, want)
		}
	}
	step(kb.ArrowLeft, last-1)
	step(kb.ArrowLeft, last-2)
	screenshot(t, ctx, shots, "game")
	step(kb.ArrowRight, last-1)
	step(kb.Home, 0)
	step(kb.ArrowRight, 1)
	step(kb.End, last)
	if loc := eval[string](t, ctx, `location.search`); loc != fmt.Sprintf("?ply=%d", last) {
		t.Errorf("the address says %q, want ?ply=%d", loc, last)
	}
	noErrors("game page")
	if l := logs.String(); l != "" {
		t.Errorf("the server logged:\n%s", l)
	}
}

// TestBrowserDatabaseGone: the tournaments page of a database that is
// deleted shows the server's 503 page at its next poll, and the site again
// when the database is back; a database replaced by another with a
// tournament of the same id is drawn anew.
func TestBrowserDatabaseGone(t *testing.T) {
	bin := chromium(t)
	if testing.Short() {
		t.Skip("starts a browser")
	}
	dir := t.TempDir()
	path, otherPath := filepath.Join(dir, "sv.db"), filepath.Join(dir, "other.db")
	smallDB(t, path, "oldtour", 6)
	smallDB(t, otherPath, "newtour", 8)
	aged(t, otherPath) // a complete file: opened at first sight
	h, _ := openWatched(t, path)
	h.now = time.Now
	srv := httptest.NewServer(h)
	defer srv.Close()
	var msgs console
	ctx := startBrowser(t, bin, &msgs, 60*time.Second)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`[data-field="games"]`)); err != nil {
		t.Fatal(err)
	}
	const shows = `document.querySelector("h2 a") && document.querySelector("h2 a").textContent === %q`
	waitFor(t, ctx, "the tournament", fmt.Sprintf(shows, "oldtour"), 10*time.Second)

	if err := os.Rename(path, path+".away"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the page saying the database is gone", `document.title.startsWith("Database unavailable") &&
		document.querySelector("p.unavailable").textContent.includes("is gone")`, 15*time.Second)
	if err := os.Rename(path+".away", path); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the tournament again", fmt.Sprintf(shows, "oldtour"), 15*time.Second)

	if err := os.Rename(otherPath, path); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the other database's tournament", fmt.Sprintf(shows, "newtour")+
		` && document.querySelector('[data-field="games"]').textContent === "8/16"`, 15*time.Second)
}
