package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/internal/testkit"
	"selfplay/openings"
	"selfplay/outcome"
	"selfplay/players"
	"selfplay/stats"
	"selfplay/store"
	"selfplay/store/record"
)

// quickConfig is a tournament small enough for unit tests: 25 openings x 2
// colors at a few hundred nodes per move, adjudicated at move 30.
func quickConfig(concurrency int) testkit.Config {
	return testkit.Config{
		Database: "games.db",
		Engines:  testkit.InProcess("plain", "fhr"),
		Tournaments: []testkit.Tournament{{
			Name: "quick", Engines: []string{"fhr", "plain"}, Concurrency: concurrency,
			Openings:     testkit.Table{"set": "fhr25"},
			Limits:       testkit.Table{"nodes": 300, "nodes_jitter": 0.1},
			Adjudication: testkit.Table{"move": 30, "referee_nodes": 2000},
		}},
	}
}

func loadConfig(t *testing.T, c testkit.Config) *config.File {
	t.Helper()
	cfg, err := config.Load(c.Write(t, t.TempDir(), "t.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func openStore(t *testing.T, cfg *config.File) *store.Store {
	t.Helper()
	st, err := store.OpenWriter(context.Background(), cfg.Database, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// runQuick plays quickConfig and returns its store.
func runQuick(t *testing.T, concurrency int) (*config.File, *store.Store) {
	t.Helper()
	cfg := loadConfig(t, quickConfig(concurrency))
	st := openStore(t, cfg)
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer("")}); err != nil {
		t.Fatal(err)
	}
	return cfg, st
}

// storedGames returns a tournament's row and stored games.
func storedGames(t *testing.T, st *store.Store, name string) (record.Tournament, []record.Game) {
	t.Helper()
	tour, err := st.TournamentByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	games, err := st.Games(context.Background(), store.GameFilter{TournamentID: tour.ID})
	if err != nil {
		t.Fatal(err)
	}
	return tour, games
}

func exportAll(t *testing.T, st *store.Store) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := st.WritePGN(context.Background(), &buf, store.GameFilter{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// timeless drops what legitimately differs between two runs of the same
// config: the date and the time each move took.
func timeless(pgn string) string {
	pgn = regexp.MustCompile(`\[Date "[^"]*"\]`).ReplaceAllString(pgn, "")
	// Comments are wrapped by width, so compare them as word streams.
	words := strings.Fields(pgn)
	out := words[:0]
	for _, w := range words {
		if regexp.MustCompile(`^[0-9.]+s\}$`).MatchString(w) {
			w = "Ts}"
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

func TestEndToEnd(t *testing.T) {
	_, st := runQuick(t, 2)
	ctx := context.Background()
	tour, err := st.TournamentByName(ctx, "quick")
	if err != nil {
		t.Fatal(err)
	}
	if tour.Status != record.StatusComplete || tour.TotalGames != 50 {
		t.Fatalf("tournament row %+v", tour)
	}
	games, err := st.Games(ctx, store.GameFilter{TournamentID: tour.ID, WithMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 50 {
		t.Fatalf("%d games stored, want 50", len(games))
	}
	// Each opening once with each color.
	seen := map[string]map[string]bool{}
	for _, g := range games {
		if seen[g.OpeningID] == nil {
			seen[g.OpeningID] = map[string]bool{}
		}
		if seen[g.OpeningID][g.White] {
			t.Errorf("opening %s: %s had White twice", g.OpeningID, g.White)
		}
		seen[g.OpeningID][g.White] = true
	}
	if len(seen) != 25 {
		t.Errorf("%d openings played, want 25", len(seen))
	}
	for _, g := range games {
		checkGame(t, &g, 30)
	}
}

// checkGame replays a stored game's PGN with notnil/chess and checks that it
// reaches the stored final position and that the result fits the
// termination.
func checkGame(t *testing.T, g *record.Game, adjudicationMove int) {
	t.Helper()
	id := fmt.Sprintf("game %d.%d (%s)", g.Pair, g.Index, g.Termination)
	read, err := chess.PGN(strings.NewReader(g.PGN))
	if err != nil {
		t.Fatalf("%s: PGN does not parse: %v\n%s", id, err, g.PGN)
	}
	game := chess.NewGame(read)
	pos := game.Position()
	if pos.String() != g.FinalFEN {
		t.Fatalf("%s: replay ends at %s, stored %s", id, pos.String(), g.FinalFEN)
	}
	if len(game.Moves()) != len(g.Moves) {
		t.Fatalf("%s: PGN has %d moves, stored %d", id, len(game.Moves()), len(g.Moves))
	}
	draw := g.Result == "1/2-1/2"
	switch g.Termination {
	case record.Checkmate:
		if pos.Status() != chess.Checkmate {
			t.Fatalf("%s: final position is not mate", id)
		}
		want := outcome.WhiteWins
		if pos.Turn() == chess.White {
			want = outcome.BlackWins
		}
		if g.Result != want {
			t.Fatalf("%s: result %s, want %s", id, g.Result, want)
		}
	case record.Stalemate:
		if pos.Status() != chess.Stalemate || !draw {
			t.Fatalf("%s: not a stalemate draw", id)
		}
	case record.FiftyMoves:
		if pos.HalfMoveClock() < 100 || !draw {
			t.Fatalf("%s: halfmove clock %d", id, pos.HalfMoveClock())
		}
	case record.Repetition:
		if !draw || !contains(game.EligibleDraws(), chess.ThreefoldRepetition) {
			t.Fatalf("%s: notnil sees no threefold repetition (eligible %v)", id, game.EligibleDraws())
		}
	case record.InsufficientMaterial:
		if !draw || game.Method() != chess.InsufficientMaterial {
			t.Fatalf("%s: notnil sees no insufficient material", id)
		}
	case record.Adjudication:
		if len(g.Moves) != 2*adjudicationMove { // counted from the initial position
			t.Fatalf("%s: adjudicated after %d plies, want %d", id, len(g.Moves), 2*adjudicationMove)
		}
		if !strings.Contains(g.Reason, fmt.Sprintf("by adjudication: at move %d", adjudicationMove)) {
			t.Fatalf("%s: reason %q", id, g.Reason)
		}
	default:
		t.Fatalf("%s: unexpected termination (%s)", id, g.Reason)
	}
}

func contains(ms []chess.Method, m chess.Method) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func TestDeterministicAcrossConcurrency(t *testing.T) {
	_, a := runQuick(t, 1)
	_, b := runQuick(t, 2)
	pa, pb := timeless(exportAll(t, a)), timeless(exportAll(t, b))
	if pa != pb {
		t.Fatal("the same config gave different games with concurrency 1 and 2")
	}
	_, c := runQuick(t, 2)
	if timeless(exportAll(t, c)) != pb {
		t.Fatal("the same config gave different games on a second run")
	}
}

func TestResumeAfterCancel(t *testing.T) {
	_, ref := runQuick(t, 2)
	want := timeless(exportAll(t, ref))

	cfg := loadConfig(t, quickConfig(2))
	st := openStore(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	stored := 0
	err := Run(ctx, cfg, st, Options{NewEngine: newPlayer(""), OnGameStored: func(*record.Game) {
		if stored++; stored == 12 {
			cancel()
		}
	}})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run = %v, want ErrInterrupted", err)
	}
	tour, games := storedGames(t, st, "quick")
	if len(games) < 12 || len(games) >= 50 || tour.Status != record.StatusRunning {
		t.Fatalf("after cancel: %d games, status %s", len(games), tour.Status)
	}
	resumed := 0
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), OnGameStored: func(*record.Game) { resumed++ }}); err != nil {
		t.Fatal(err)
	}
	if resumed != 50-len(games) {
		t.Fatalf("resume played %d games, want the %d missing", resumed, 50-len(games))
	}
	if got := timeless(exportAll(t, st)); got != want {
		t.Fatal("interrupted and resumed run differs from an uninterrupted one")
	}
	// A third run plays nothing.
	again := 0
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), OnGameStored: func(*record.Game) { again++ }}); err != nil || again != 0 {
		t.Fatalf("complete tournament replayed %d games (err %v)", again, err)
	}
}

func TestConfigChangeRefusedThenRestart(t *testing.T) {
	cfg := loadConfig(t, quickConfig(2))
	st := openStore(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	Run(ctx, cfg, st, Options{NewEngine: newPlayer(""), OnGameStored: func(*record.Game) {
		if n++; n == 2 {
			cancel()
		}
	}})
	cfg.Tournaments[0].Limits.Nodes = 400
	err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer("")})
	var changed *ConfigChangedError
	if !errors.As(err, &changed) || !strings.Contains(err.Error(), "limits.nodes: 300 -> 400") || !strings.Contains(err.Error(), "-restart quick") {
		t.Fatalf("Run with a changed config = %v", err)
	}
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Restart: []string{"quick"}}); err != nil {
		t.Fatal(err)
	}
	tour, games := storedGames(t, st, "quick")
	if len(games) != 50 || tour.Status != record.StatusComplete {
		t.Fatalf("after restart: %d games, status %s", len(games), tour.Status)
	}
}

func TestUnknownOnlyName(t *testing.T) {
	cfg := loadConfig(t, quickConfig(1))
	err := CheckNames(cfg, Options{Only: []string{"quik"}})
	if err == nil || !strings.Contains(err.Error(), `no tournament "quik"`) || !strings.Contains(err.Error(), "quick") {
		t.Fatalf("CheckNames = %v", err)
	}
}

// A -restart of a tournament that -only leaves out would not run: an
// error, not a restart silently ignored.
func TestRestartOutsideOnly(t *testing.T) {
	c := quickConfig(1)
	c.Tournaments = append(c.Tournaments, c.Tournaments[0])
	c.Tournaments[1].Name = "other"
	cfg := loadConfig(t, c)
	err := CheckNames(cfg, Options{Only: []string{"quick"}, Restart: []string{"other"}})
	if err == nil || !strings.Contains(err.Error(), "-restart other: not among -only's tournaments (quick)") {
		t.Fatalf("CheckNames = %v", err)
	}
	if err := CheckNames(cfg, Options{Only: []string{"quick"}, Restart: []string{"quick"}}); err != nil {
		t.Fatalf("-restart of an -only tournament: %v", err)
	}
}

func TestSPRTStopsMatch(t *testing.T) {
	// Bounds far above any plausible difference: H0 is accepted quickly.
	// With 4 games at a time, games still finish after the decision: they
	// are stored but leave the decision (and its LLR) as it was.
	for _, concurrency := range []int{1, 4} {
		t.Run(fmt.Sprint("concurrency ", concurrency), func(t *testing.T) {
			c := quickConfig(concurrency)
			c.Tournaments[0].SPRT = testkit.Table{"elo0": 400, "elo1": 500, "model": "logistic"}
			cfg := loadConfig(t, c)
			st := openStore(t, cfg)
			if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer("")}); err != nil {
				t.Fatal(err)
			}
			tour, games := storedGames(t, st, "quick")
			lower, _ := stats.SPRT{Elo0: 400, Elo1: 500, Alpha: 0.05, Beta: 0.05, Model: stats.LogisticElo}.Bounds()
			if tour.SPRTState != "H0" || tour.SPRTLLR > lower || tour.Status != record.StatusComplete || len(games) >= 50 {
				t.Fatalf("SPRT state %q, LLR %v (lower bound %v), status %s, %d games", tour.SPRTState, tour.SPRTLLR, lower, tour.Status, len(games))
			}
			// Resuming a decided match plays nothing more.
			n := 0
			if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), OnGameStored: func(*record.Game) { n++ }}); err != nil || n != 0 {
				t.Fatalf("resume after SPRT decision played %d games (err %v)", n, err)
			}
		})
	}
}

func TestExportParsesInPGNExtract(t *testing.T) {
	tool := pgnExtract(t)
	_, st := runQuick(t, 2)
	pgn, text := pgnExtractReads(t, tool, st, 50)
	dir := filepath.Dir(pgn)
	for _, bad := range []string{"Failed", "Missing", "Unknown", "rror", "llegal"} {
		if strings.Contains(text, bad) {
			t.Fatalf("pgn-extract reports %q:\n%s", bad, text)
		}
	}
	// pgn-extract replays every game to the stored final position.
	fenOut := filepath.Join(dir, "fen.pgn")
	if out, err := exec.Command(tool, "-s", "--fencomments", "-o", fenOut, pgn).CombinedOutput(); err != nil {
		t.Fatalf("pgn-extract --fencomments: %v\n%s", err, out)
	}
	withFEN, _ := os.ReadFile(fenOut)
	games, _ := st.Games(context.Background(), store.GameFilter{})
	for _, g := range games {
		placement := strings.Fields(g.FinalFEN)[0]
		if !strings.Contains(string(withFEN), placement) {
			t.Fatalf("game %d.%d: pgn-extract never reaches %s", g.Pair, g.Index, g.FinalFEN)
		}
	}
}

// newPlayer starts the players as the selfplay command does, logging
// external engines' stderr to logDir ("" discards it).
func newPlayer(logDir string) func(context.Context, config.Engine) (engines.Engine, error) {
	return func(ctx context.Context, e config.Engine) (engines.Engine, error) {
		return players.New(ctx, e, logDir)
	}
}

// move_timeout does not cut in-process searches: under a depth limit every
// move is searched to that depth however long it takes, so the games are
// those of a run without a timeout (and do not depend on the machine).
func TestMoveTimeoutDoesNotCutInProcessSearches(t *testing.T) {
	const depth = 5
	deep := func(timeout string) testkit.Config {
		c := quickConfig(1)
		c.Tournaments[0] = testkit.Tournament{
			Name: "deep", Engines: []string{"fhr", "plain"}, Concurrency: 1,
			Openings:     testkit.Table{"set": "fhr25"},
			Limits:       testkit.Table{"depth": depth, "move_timeout": timeout},
			Adjudication: testkit.Table{"move": 12, "referee_nodes": 1000},
		}
		return c
	}
	play := func(timeout string) (*store.Store, []record.Game) {
		cfg := loadConfig(t, deep(timeout))
		cfg.Tournaments[0].Openings.List = cfg.Tournaments[0].Openings.List[:1]
		st := openStore(t, cfg)
		if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer("")}); err != nil {
			t.Fatal(err)
		}
		games, err := st.Games(context.Background(), store.GameFilter{WithMoves: true})
		if err != nil {
			t.Fatal(err)
		}
		return st, games
	}
	short, games := play("1ms")
	for _, g := range games {
		if g.Culprit != "" {
			t.Errorf("game %d: %s (%s)", g.Index, g.Termination, g.Reason)
		}
		for _, m := range g.Moves {
			if !m.Book && m.Depth < depth && engines.Score(m.Score) > -engines.MateBound && engines.Score(m.Score) < engines.MateBound {
				t.Fatalf("game %d ply %d: searched to depth %d, want %d", g.Index, m.Ply, m.Depth, depth)
			}
		}
	}
	long, _ := play("1h")
	if timeless(exportAll(t, short)) != timeless(exportAll(t, long)) {
		t.Fatal("the games depend on move_timeout")
	}
}

// With one game at a time, where the SPRT stops is a function of the
// config: no game is started before the one before it is counted, so a
// slow store (or a slow disk) adds no game after the decision.
func TestSPRTStopDoesNotDependOnTiming(t *testing.T) {
	c := quickConfig(1)
	c.Tournaments[0].SPRT = testkit.Table{"elo0": 400, "elo1": 500, "model": "logistic"}
	play := func(slowStore time.Duration) string {
		cfg := loadConfig(t, c)
		st := openStore(t, cfg)
		if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""),
			OnGameStored: func(*record.Game) { time.Sleep(slowStore) }}); err != nil {
			t.Fatal(err)
		}
		tour, games := storedGames(t, st, "quick")
		if tour.SPRTState != "H0" {
			t.Fatalf("SPRT state %q", tour.SPRTState)
		}
		return fmt.Sprintf("%d games, LLR %v\n%s", len(games), tour.SPRTLLR, timeless(exportAll(t, st)))
	}
	fast, slow := play(0), play(100*time.Millisecond)
	if fast != slow {
		t.Fatalf("a slow store changes the games:\n%.60s\n%.60s", fast, slow)
	}
}

// A smaller -pairs than the games stored plays nothing and leaves the
// share those games cover: the report must not count 8 of 4 games.
func TestSmallerPairsKeepsShare(t *testing.T) {
	cfg := loadConfig(t, quickConfig(2))
	st := openStore(t, cfg)
	for _, pairs := range []int{4, 2} {
		if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Shard: record.Shard{Pairs: pairs}}); err != nil {
			t.Fatal(err)
		}
		tour, games := storedGames(t, st, "quick")
		if len(games) != 8 || tour.Shard.Pairs != 4 {
			t.Fatalf("after -pairs %d: %d games, share of %d pairs; want 8 games, 4 pairs", pairs, len(games), tour.Shard.Pairs)
		}
	}
	// A larger one is the next wave.
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Shard: record.Shard{Pairs: 5}}); err != nil {
		t.Fatal(err)
	}
	if tour, games := storedGames(t, st, "quick"); len(games) != 10 || tour.Shard.Pairs != 5 {
		t.Fatalf("after -pairs 5: %d games, share of %d pairs", len(games), tour.Shard.Pairs)
	}
}

// A weighted book that yields fewer distinct openings than count asks for
// is said in the plan, not silently played with fewer.
func TestPlanSaysShortBook(t *testing.T) {
	tr := &config.Tournament{Name: "b", Engines: []string{"x", "y"}, Rounds: 1, Openings: config.Openings{
		File: "book.bin", Plies: 8, Choice: openings.ChoiceWeighted, Count: 10,
		List: []openings.Opening{{ID: "1"}, {ID: "2"}},
	}}
	var out strings.Builder
	printPlan(&out, tr, 4, 4, record.Shard{}, 1, 0, 4, 0)
	if want := "b: the book book.bin yields 2 distinct openings of at most 8 plies, fewer than the 10 that count asks for\n"; !strings.Contains(out.String(), want) {
		t.Errorf("plan:\n%s\nwant %q", out.String(), want)
	}
	tr.Openings.Count = 2
	out.Reset()
	printPlan(&out, tr, 4, 4, record.Shard{}, 1, 0, 4, 0)
	if strings.Contains(out.String(), "yields") {
		t.Errorf("a book with count's openings:\n%s", out.String())
	}
}

// Passes over the openings after the first replay the first's games where
// nothing but the opening and colours decides a game: the plan says so.
func TestPlanSaysPassesReplay(t *testing.T) {
	two := []openings.Opening{{ID: "1"}, {ID: "2"}}
	tc := &config.TimeControl{Base: time.Minute, Text: "60+0"}
	cases := []struct {
		name     string
		rounds   int
		schedule config.Schedule
		limits   config.Limits
		format   config.Format
		want     bool
	}{
		{"one pass", 1, "", config.Limits{Nodes: 1000}, "", false},
		{"two passes at fixed nodes", 2, "", config.Limits{Nodes: 1000}, "", true},
		{"two passes at fixed depth", 2, "", config.Limits{Depth: 5}, "", true},
		{"two passes with jitter", 2, "", config.Limits{Nodes: 1000, NodesJitter: 0.05}, "", false},
		{"two passes under a clock", 2, "", config.Limits{TC: tc}, "", false},
		{"two passes at a fixed time", 2, "", config.Limits{MoveTime: time.Second}, "", false},
		{"fastchess rounds within the book", 2, config.ScheduleFastchess, config.Limits{Nodes: 1000}, "", false},
		{"fastchess rounds past the book", 3, config.ScheduleFastchess, config.Limits{Nodes: 1000}, "", true},
		{"a knockout", 2, "", config.Limits{Nodes: 1000}, config.FormatKnockout, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := &config.Tournament{Name: "r", Engines: []string{"x", "y"}, Rounds: c.rounds, Schedule: c.schedule,
				Format: c.format, Limits: c.limits, Openings: config.Openings{List: two}}
			var out strings.Builder
			printPlan(&out, tr, 4*c.rounds, 4*c.rounds, record.Shard{}, 1, 0, 4, 0)
			got := strings.Contains(out.String(), "replays the first pass's games")
			if got != c.want {
				t.Errorf("says it replays: %v, want %v; plan:\n%s", got, c.want, out.String())
			}
		})
	}
}
