package serve

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/internal/testkit"
	"selfplay/merge"
	"selfplay/players"
	"selfplay/report"
	"selfplay/runner"
	"selfplay/standings"
	"selfplay/store"
	"selfplay/store/record"
)

// liveConfig is a round robin of three engines at tiny node budgets: 150
// games in a few seconds, played into the database db.
func liveConfig(db string) testkit.Config {
	return testkit.Config{
		Database: db,
		Engines:  []testkit.Engine{{Name: "a", Preset: "plain", Hash: 1}, {Name: "b", Preset: "fhr", Hash: 1}, {Name: "c", Preset: "nmr-r3-4", Hash: 1}},
		Tournaments: []testkit.Tournament{{
			Name: "rr <live> & co", Format: "round-robin", Engines: []string{"a", "b", "c"}, Concurrency: 2,
			Openings:     testkit.Table{"set": "fhr25"},
			Limits:       testkit.Table{"nodes": 150},
			Adjudication: testkit.Table{"move": 20, "referee_nodes": 500},
		}},
	}
}

// liveRun plays the config's tournaments into its database with opts, as
// selfplay run does. It may run on a goroutine of its own.
func liveRun(t testing.TB, ctx context.Context, cfgPath string, opts runner.Options) error {
	cfg, err := config.Load(cfgPath)
	if err != nil {
		return err
	}
	st, err := store.OpenWriter(ctx, cfg.Database, "test")
	if err != nil {
		return err
	}
	defer st.Close()
	logDir := t.TempDir()
	opts.NewEngine = func(ctx context.Context, e config.Engine) (engines.Engine, error) {
		return players.New(ctx, e, logDir)
	}
	return runner.Run(ctx, cfg, st, opts)
}

func writeConfig(t testing.TB, dir, db string) string {
	t.Helper()
	return liveConfig(db).Write(t, dir, strings.TrimSuffix(filepath.Base(db), ".db")+".toml")
}

// sameAsRebuilt checks that the long-lived server h answers what a new
// server over the same database (which counts every game afresh) answers:
// the tournament's report (JSON, HTML) and the game list with its filter
// of openings, for every stored tournament; and that its report and
// openings are what `selfplay report` and storedOpenings read from the
// database.
// storedOpenings are the distinct openings (id, name) of a tournament's
// stored games, as the game list's filter offers them: each with the
// least of its games' names, in the order of their first stored game.
func storedOpenings(ctx context.Context, r *store.Reader, tid int64) ([][2]string, error) {
	games, err := r.Games(ctx, store.GameFilter{TournamentID: tid})
	if err != nil {
		return nil, err
	}
	type opening struct {
		firstID int64
		name    string
	}
	byID := map[string]opening{}
	for _, g := range games {
		o, ok := byID[g.OpeningID]
		if !ok || g.ID < o.firstID {
			o.firstID = g.ID
		}
		if !ok || g.OpeningName < o.name {
			o.name = g.OpeningName
		}
		byID[g.OpeningID] = o
	}
	var out [][2]string
	for id, o := range byID {
		out = append(out, [2]string{id, o.name})
	}
	slices.SortFunc(out, func(a, b [2]string) int { return cmp.Compare(byID[a[0]].firstID, byID[b[0]].firstID) })
	return out, nil
}

func sameAsRebuilt(t *testing.T, r *store.Reader, h *Server, when string) {
	t.Helper()
	ctx := context.Background()
	fresh, err := newReaderServer(r, Options{Log: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := r.Tournaments(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range ts {
		rep, err := standings.Load(ctx, r, standings.Options{Tournament: tr.Name, SkipSuiteRuns: true})
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		for i := range rep.Tournaments {
			rep.Tournaments[i] = siteTournament(rep.Tournaments[i])
		}
		if err := report.WriteJSON(&want, rep); err != nil {
			t.Fatal(err)
		}
		if _, got := get(t, h, "GET", fmt.Sprintf("/api/tournaments/%d", tr.ID)); got != want.String() {
			t.Fatalf("%s: /api/tournaments/%d is not selfplay report's JSON:\n%s\n--- report:\n%s", when, tr.ID, got, want.String())
		}
		wantOpenings, err := storedOpenings(ctx, r, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, got, _, _, known, err := h.gameList(ctx, tr.ID, nil, 0, 0); err != nil || !known || !reflect.DeepEqual(got, wantOpenings) {
			t.Fatalf("%s: openings %v (%v, counted %v), want %v", when, got, err, known, wantOpenings)
		}
		for _, url := range []string{fmt.Sprintf("/api/tournaments/%d", tr.ID), fmt.Sprintf("/tournaments/%d", tr.ID),
			fmt.Sprintf("/tournaments/%d/openings", tr.ID), fmt.Sprintf("/api/tournaments/%d/openings", tr.ID)} {
			res, got := get(t, h, "GET", url)
			_, want := get(t, fresh, "GET", url)
			if res.StatusCode != 200 {
				t.Fatalf("%s: GET %s: %d %s", when, url, res.StatusCode, got)
			}
			if got != want {
				t.Fatalf("%s: GET %s differs from a new server's:\n%s\n--- new server:\n%s", when, url, got, want)
			}
		}
	}
	// The game list, selected from the games the server counted, is what a
	// server that has counted nothing reads with SQL (store.ListGames).
	for _, tr := range ts {
		sqlOnly, err := newReaderServer(r, Options{Log: log.New(io.Discard, "", 0)})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"", "?page=2", "?result=1-0", "?result=1%2F2-1%2F2&page=2", "?opening=fhr-01",
			"?engine=" + url.QueryEscape(tr.Engines[0].Name) + "&termination=adjudication", "?termination=checkmate"} {
			u := fmt.Sprintf("/api/tournaments/%d/games%s", tr.ID, q)
			res, got := get(t, h, "GET", u)
			sqlRes, want := get(t, sqlOnly, "GET", u)
			if got != want || res.StatusCode != sqlRes.StatusCode {
				t.Fatalf("%s: GET %s (games counted) differs from the SQL's: status %d, %d\n%s\n--- SQL:\n%s",
					when, u, res.StatusCode, sqlRes.StatusCode, got, want)
			}
		}
		if sqlOnly.cur.states.byID[tr.ID].live != nil {
			t.Fatalf("the game list counted the games")
		}
	}
	// The tournaments page lists the same tournaments with the same counts.
	_, got := get(t, h, "GET", "/api/tournaments")
	for _, tr := range ts {
		n, err := r.CountGames(context.Background(), tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, fmt.Sprintf(`"id": %d,`, tr.ID)) || !strings.Contains(got, fmt.Sprintf(`"games_stored": %d,`, n)) {
			t.Fatalf("%s: /api/tournaments lacks tournament %d with %d games:\n%s", when, tr.ID, n, got)
		}
	}
}

// A server kept running while games are stored answers exactly what a new
// server answers: during a run (games stored out of schedule order by
// concurrent games), after merges of shards (a shard's games land between
// the others'), after games are deleted, and after run -restart (the
// tournament stored anew under a new id).
func TestIncrementalEqualsRebuild(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	ctx := context.Background()
	dir := t.TempDir()

	// A run, checked after every few games it stores.
	runDB := filepath.Join(dir, "run.db")
	cfg := writeConfig(t, dir, runDB)
	var r *store.Reader
	var h *Server
	stored := 0
	err := liveRun(t, ctx, cfg, runner.Options{OnGameStored: func(*record.Game) {
		stored++
		if r == nil {
			var err error
			if r, err = store.OpenReader(ctx, runDB); err != nil {
				t.Fatal(err)
			}
			if h, err = newReaderServer(r, Options{Log: log.New(io.Discard, "", 0)}); err != nil {
				t.Fatal(err)
			}
		}
		if stored%7 == 1 {
			sameAsRebuilt(t, r, h, fmt.Sprintf("run, %d games stored", stored))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sameAsRebuilt(t, r, h, "run complete")
	counted := func() int { return h.cur.stateOf(1).counts }
	if n := counted(); n != 1 {
		t.Errorf("during the run the server counted every game %d times, want once (then only the new games)", n)
	}

	// Games deleted behind the server's back: it counts every game again.
	db, err := sql.Open("sqlite", runDB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DELETE FROM games WHERE pair_index % 5 = 2`); err != nil {
		t.Fatal(err)
	}
	sameAsRebuilt(t, r, h, "games deleted")
	if n := counted(); n != 2 {
		t.Errorf("after games were deleted the server has counted every game %d times, want 2", n)
	}

	// run -restart: the tournament is deleted and played anew.
	if err := liveRun(t, ctx, cfg, runner.Options{Restart: []string{"rr <live> & co"}, Shard: record.Shard{Pairs: 10}}); err != nil {
		t.Fatal(err)
	}
	sameAsRebuilt(t, r, h, "after -restart")
	if res, _ := get(t, h, "GET", "/tournaments/1"); res.StatusCode != 404 {
		t.Errorf("the deleted tournament's page: %d, want 404", res.StatusCode)
	}

	// Shards merged one after the other into a database being served.
	var shards []string
	for i := range 2 {
		p := filepath.Join(dir, fmt.Sprintf("shard%d.db", i))
		if err := liveRun(t, ctx, writeConfig(t, dir, p), runner.Options{Shard: record.Shard{Index: i, Count: 2}}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, p)
	}
	merged := filepath.Join(dir, "merged.db")
	if _, err := merge.Run(ctx, merged, shards[:1], merge.Options{}); err != nil {
		t.Fatal(err)
	}
	mr, err := store.OpenReader(ctx, merged)
	if err != nil {
		t.Fatal(err)
	}
	defer mr.Close()
	mh, err := newReaderServer(mr, Options{Log: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	sameAsRebuilt(t, mr, mh, "first shard merged")
	if _, err := merge.Run(ctx, merged, shards[1:], merge.Options{}); err != nil {
		t.Fatal(err)
	}
	sameAsRebuilt(t, mr, mh, "second shard merged")
}

// mergeSchedule keeps the games in schedule order whatever order they
// arrive in.
func TestMergeSchedule(t *testing.T) {
	game := func(pair, index int) *record.Game { return &record.Game{Pair: pair, Index: index} }
	for _, tc := range []struct {
		name         string
		games, fresh []*record.Game
	}{
		{"after the last", []*record.Game{game(0, 0), game(0, 1)}, []*record.Game{game(1, 0), game(2, 1)}},
		{"into an empty list", nil, []*record.Game{game(0, 1), game(3, 0)}},
		{"among the last", []*record.Game{game(0, 0), game(1, 0), game(2, 1)}, []*record.Game{game(0, 1), game(2, 0), game(3, 0)}},
		{"before the first", []*record.Game{game(1, 0)}, []*record.Game{game(0, 0), game(0, 1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := append(slices.Clone(tc.games), tc.fresh...)
			slices.SortFunc(want, record.ScheduleCompare)
			if got := mergeSchedule(tc.games, tc.fresh); !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}
