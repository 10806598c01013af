package runner

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/uci/ucitest"
	"selfplay/engines/uciserver"
	"selfplay/internal/testkit"
	"selfplay/internal/tooltest"
	"selfplay/store"
	"selfplay/store/record"
)

// The test binary re-runs itself as the engines of these tests
// (testkit.Main): these are the helpers' names.
const (
	fakeEngine = "runner-helper-fakeengine" // ucitest's fake UCI engine
	// startFault is the fake engine whose starts are counted (one file per
	// start in -starts DIR): start number -fail is slow (-how slow: it
	// sleeps -delay before reading anything) or exits at once (-how exit).
	startFault = "runner-helper-startfault"
	uciVariant = "runner-helper-uci" // a variant over UCI, as `selfplay uci` serves it
)

func TestMain(m *testing.M) {
	helper := func(name string) testkit.Helper { return func(args []string) int { return runHelper(name, args) } }
	testkit.Main(m, map[string]testkit.Helper{fakeEngine: helper(fakeEngine), startFault: helper(startFault), uciVariant: helper(uciVariant)})
}

// runHelper is the process of a helper engine; it returns the exit status.
func runHelper(name string, args []string) int {
	switch name {
	case fakeEngine:
		ucitest.Main(args)
		return 0
	case startFault:
		fs := flag.NewFlagSet(startFault, flag.ContinueOnError)
		starts := fs.String("starts", "", "directory counting the starts")
		fail := fs.Int("fail", 0, "the start that fails")
		how := fs.String("how", "slow", "slow or exit")
		delay := fs.Duration("delay", 5*time.Second, "how long a slow start sleeps")
		if err := fs.Parse(args); err != nil {
			return 2
		}
		n := 1
		for ; ; n++ {
			f, err := os.OpenFile(filepath.Join(*starts, strconv.Itoa(n)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
			if err == nil {
				f.Close()
				break
			}
			if !errors.Is(err, os.ErrExist) {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
		}
		if n == *fail {
			fmt.Fprintf(os.Stderr, "start %d fails (%s)\n", n, *how)
			if *how == "exit" {
				return 5
			}
			time.Sleep(*delay)
		}
		ucitest.Main(fs.Args())
		return 0
	case uciVariant:
		fs := flag.NewFlagSet(uciVariant, flag.ContinueOnError)
		variant := fs.String("variant", "plain", "variant spec")
		variantFile := fs.String("variant-file", "", "read the variant spec from this file (the same command, another engine)")
		hash := fs.Int("hash", 16, "transposition table MiB")
		if err := fs.Parse(args); err != nil {
			return 2
		}
		if *variantFile != "" {
			b, err := os.ReadFile(*variantFile)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			*variant = strings.TrimSpace(string(b))
		}
		srv, err := uciserver.New(*variant, *hash)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if err := srv.Run(context.Background(), os.Stdin, os.Stdout); err != nil {
			return 1
		}
		return 0
	}
	fmt.Fprintf(os.Stderr, "unknown test helper %q\n", name)
	return 2
}

// helperEngine returns the TOML of an external engine that is this test
// binary re-run as the helper name with args; the marker in its command
// line (the helper name) is what processesRunning looks for.
func helperEngine(t *testing.T, name string, args ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts engine processes")
	}
	return testkit.EngineTOML(t, name, args...)
}

// externalConfig: one opening (a game pair) between an external engine and
// the in-process plain.
func externalConfig(t *testing.T, external string) testkit.Config {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.epd")
	os.WriteFile(book, []byte("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n"), 0o644)
	return testkit.Config{
		Database: "games.db",
		Engines:  append(testkit.InProcess("plain"), testkit.Engine{Name: "ext", Body: external}),
		Tournaments: []testkit.Tournament{{
			Name: "ext", Engines: []string{"ext", "plain"}, Concurrency: 2,
			Openings:     testkit.Table{"file": book},
			Limits:       testkit.Table{"nodes": 300, "move_timeout": "1s"},
			Adjudication: testkit.Table{"move": 20, "referee_nodes": 1000},
		}},
	}
}

// processesRunning counts the live children of this test process whose
// command line contains marker: other processes on the machine, such as
// another test's stockfish, do not count.
func processesRunning(marker string) int {
	return len(testkit.Children(os.Getpid(), marker))
}

func TestFaultyExternalEnginesLose(t *testing.T) {
	tests := []struct {
		mode        string
		termination record.Termination
	}{
		{"legal", ""},
		{"crash", record.EngineCrash},
		{"crash-after=3", record.EngineCrash},
		{"hang", record.EngineTimeout},
		{"garbage", record.EngineError},
		{"illegal", record.IllegalMove},
		{"null", record.IllegalMove},
		{"slow-start", ""},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			ext := helperEngine(t, fakeEngine, "-mode", tt.mode, "-delay", "300ms") + "\ninit_timeout = \"5s\""
			cfg := loadConfig(t, externalConfig(t, ext))
			st := openStore(t, cfg)
			logDir := t.TempDir()
			if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(logDir)}); err != nil {
				t.Fatal(err)
			}
			games, err := st.Games(context.Background(), store.GameFilter{WithMoves: true})
			if err != nil || len(games) != 2 {
				t.Fatalf("%d games stored (%v), want the pair", len(games), err)
			}
			for _, g := range games {
				if tt.termination == "" {
					if g.Termination == record.EngineCrash || g.Termination == record.EngineError || g.Termination == record.IllegalMove || g.Termination == record.EngineTimeout {
						t.Errorf("game %d: %s (%s)", g.Index, g.Termination, g.Reason)
					}
					continue
				}
				fakeWhite := g.White == "ext"
				if g.Termination != tt.termination || (fakeWhite && g.Result != "0-1") || (!fakeWhite && g.Result != "1-0") {
					t.Errorf("game %d (ext %s): %s %s (%s), want %s and a loss for ext", g.Index,
						map[bool]string{true: "White", false: "Black"}[fakeWhite], g.Result, g.Termination, g.Reason, tt.termination)
				}
				if !strings.Contains(g.Reason, ": ext ") && !strings.Contains(g.Reason, "(ext) ") {
					t.Errorf("reason %q does not name the engine", g.Reason)
				}
			}
			if n := processesRunning(fakeEngine); n != 0 {
				t.Errorf("%d engine processes left running", n)
			}
		})
	}
}

// An engine that passed the preflight but fails a later start, in a
// worker, loses that game (charged to it, with the reason); the next game
// starts it again and the tournament goes on.
func TestEngineStartFaultInWorkerLosesTheGame(t *testing.T) {
	tests := []struct {
		how  string
		term record.Termination
		verb string
	}{
		{"slow", record.EngineTimeout, "timed out"},
		{"exit", record.EngineCrash, "crashed"},
	}
	for _, tt := range tests {
		t.Run(tt.how, func(t *testing.T) {
			// Start 1 is the preflight's, whose engine one of the two
			// workers takes over; start 2 is the other worker's first.
			// The init timeout leaves a loaded machine time to start the
			// others.
			ext := helperEngine(t, startFault, "-starts", t.TempDir(), "-fail", "2", "-how", tt.how, "-delay", "1m", "--", "-mode", "legal") +
				"\ninit_timeout = \"8s\""
			c := externalConfig(t, ext)
			c.Tournaments[0].Rounds = 2
			cfg := loadConfig(t, c)
			st := openStore(t, cfg)
			if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer("")}); err != nil {
				t.Fatalf("Run = %v, want the tournament to go on", err)
			}
			tour, games := storedGames(t, st, "ext")
			if len(games) != 4 || tour.Status != record.StatusComplete {
				t.Fatalf("%d games stored, status %s; want 2 pairs, complete", len(games), tour.Status)
			}
			lost := 0
			for _, g := range games {
				if g.Plies == 0 {
					lost++
					if g.Culprit != "ext" || g.Termination != tt.term || !strings.Contains(g.Reason, ": ext "+tt.verb+" at its start") {
						t.Errorf("game %d.%d: %s %s, culprit %q (%s); want a loss of ext by %s at its start",
							g.Pair, g.Index, g.Result, g.Termination, g.Culprit, g.Reason, tt.term)
					}
					t.Logf("game %d.%d: %s %s: %s", g.Pair, g.Index, g.Result, g.Termination, g.Reason)
					continue
				}
				// The restart policy: the next game starts the engine again.
				if g.Culprit != "" {
					t.Errorf("game %d.%d: %s %s (%s); want a game played", g.Pair, g.Index, g.Result, g.Termination, g.Reason)
				}
			}
			if lost != 1 {
				t.Errorf("%d games lost at the start, want 1 (start 2's)", lost)
			}
			if n := processesRunning(startFault); n != 0 {
				t.Errorf("%d engine processes left running", n)
			}
		})
	}
}

func TestExternalEngineSetupErrors(t *testing.T) {
	tests := []struct {
		name string
		ext  func(t *testing.T) string
		want string
	}{
		{"unknown option", func(t *testing.T) string { return helperEngine(t, fakeEngine) + "\noptions = { Bogus = 3 }" }, "Bogus"},
		{"too slow to start", func(t *testing.T) string {
			return helperEngine(t, fakeEngine, "-mode", "slow-start", "-delay", "3s") + "\ninit_timeout = \"300ms\""
		}, "ext"},
		{"missing command", func(*testing.T) string { return "command = \"/nonexistent/engine\"" }, "/nonexistent/engine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := loadConfig(t, externalConfig(t, tt.ext(t)))
			st := openStore(t, cfg)
			err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer("")})
			if !errors.Is(err, ErrEngineSetup) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run = %v, want an engine setup error mentioning %q", err, tt.want)
			}
			// Nothing is written: the fixed config is not refused as a
			// changed one.
			if tour, err := st.TournamentByName(context.Background(), "ext"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("tournament row after a setup error: %+v, %v", tour, err)
			}
			games, err := st.Games(context.Background(), store.GameFilter{})
			if err != nil || len(games) != 0 {
				t.Fatalf("%d games stored (%v)", len(games), err)
			}
			if n := processesRunning(fakeEngine); n != 0 {
				t.Errorf("%d engine processes left running", n)
			}
		})
	}
}

// The same command starting another engine (a new binary at the path, or
// another program) is a changed tournament: its games would mix with the
// stored ones under one name. The engine's id name (or author) against
// the one of its last stored game tells; -restart starts over.
func TestResumeRefusesAnotherEngine(t *testing.T) {
	which := filepath.Join(t.TempDir(), "variant")
	if err := os.WriteFile(which, []byte("fhr"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := quickConfig(2)
	c.Engines[1] = testkit.Engine{Name: "fhr", Body: helperEngine(t, uciVariant, "-variant-file", which, "-hash", "1")}
	cfg := loadConfig(t, c)
	st := openStore(t, cfg)
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Shard: record.Shard{Pairs: 1}}); err != nil {
		t.Fatal(err)
	}
	// The same engine resumes.
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Shard: record.Shard{Pairs: 2}}); err != nil {
		t.Fatalf("the same engine: %v", err)
	}
	if err := os.WriteFile(which, []byte("null-r3"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer("")})
	var changed *ConfigChangedError
	if !errors.As(err, &changed) || !strings.Contains(err.Error(), `engine fhr: its stored games were played by id name "selfplay fhr"`) ||
		!strings.Contains(err.Error(), `its command now starts id name "selfplay null-r3"`) {
		t.Fatalf("another engine at the same command: %v", err)
	}
	if games, err := st.Games(context.Background(), store.GameFilter{}); err != nil || len(games) != 4 {
		t.Errorf("%d games stored (%v), want the 4 of the first engine", len(games), err)
	}
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Restart: []string{cfg.Tournaments[0].Name}, Shard: record.Shard{Pairs: 1}}); err != nil {
		t.Fatalf("-restart: %v", err)
	}
	if n := processesRunning(uciVariant); n != 0 {
		t.Errorf("%d engine processes left running", n)
	}
}

// The same games whether fhr plays in-process or as `selfplay uci` over the
// protocol: UCI adds no change to the games under node limits.
func TestUCIVariantPlaysLikeInProcess(t *testing.T) {
	c := quickConfig(2)
	inProcess := loadConfig(t, c)
	a := openStore(t, inProcess)
	if err := Run(context.Background(), inProcess, a, Options{NewEngine: newPlayer("")}); err != nil {
		t.Fatal(err)
	}
	c.Engines[1] = testkit.Engine{Name: "fhr", Body: helperEngine(t, uciVariant, "-variant", "fhr", "-hash", "1")}
	external := loadConfig(t, c)
	b := openStore(t, external)
	if err := Run(context.Background(), external, b, Options{NewEngine: newPlayer("")}); err != nil {
		t.Fatal(err)
	}
	if pa, pb := timeless(exportAll(t, a)), timeless(exportAll(t, b)); pa != pb {
		t.Fatal("the games differ when fhr plays through UCI")
	}
	// The identity stored for the in-process fhr is the one `selfplay uci
	// -variant fhr` gives at its handshake (fastchess's EngineWhiteName ...).
	ga, erra := a.Games(context.Background(), store.GameFilter{WithMoves: true})
	gb, errb := b.Games(context.Background(), store.GameFilter{WithMoves: true})
	if erra != nil || errb != nil || len(ga) != len(gb) || len(ga) == 0 {
		t.Fatalf("games: %d (%v), %d (%v)", len(ga), erra, len(gb), errb)
	}
	for i := range ga {
		if ga[i].Identity != gb[i].Identity || ga[i].Identity[ga[i].Index].Name != "selfplay fhr" {
			t.Errorf("game %d: identities %+v in-process, %+v through UCI", i+1, ga[i].Identity, gb[i].Identity)
		}
	}
	if n := processesRunning(uciVariant); n != 0 {
		t.Errorf("%d selfplay uci processes left running", n)
	}
}

// Cancelling a run (Ctrl-C) leaves no engine process behind.
func TestNoEngineSurvivesCancel(t *testing.T) {
	ext := helperEngine(t, fakeEngine, "-mode", "hang")
	c := externalConfig(t, ext)
	c.Tournaments[0].Limits["move_timeout"] = "1m"
	cfg := loadConfig(t, c)
	st := openStore(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- Run(ctx, cfg, st, Options{NewEngine: newPlayer("")}) }()
	// Both workers' engines are up (the preflight's is gone by then).
	deadline := time.After(30 * time.Second)
	for processesRunning(fakeEngine) < 2 {
		select {
		case err := <-done:
			t.Fatalf("Run ended early: %v", err)
		case <-deadline:
			cancel()
			<-done
			t.Fatalf("the engines did not start within 30s (%d running)", processesRunning(fakeEngine))
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run = %v, want ErrInterrupted", err)
	}
	if n := processesRunning(fakeEngine); n != 0 {
		t.Fatalf("%d engine processes survive the interrupted run", n)
	}
}

// A few games against Debian's Stockfish at a low node budget (skipped
// when it is not installed, apt install stockfish, unless
// SELFPLAY_REQUIRE_TOOLS asks for it, as CI does).
func TestStockfishGauntlet(t *testing.T) {
	sf := tooltest.Find(t, "stockfish", "stockfish")
	if testing.Short() {
		t.Skip("plays against an external engine")
	}
	ext := fmt.Sprintf("command = %q\noptions = { \"Skill Level\" = 0, Threads = 1, Hash = 16 }", sf)
	c := externalConfig(t, ext)
	c.Tournaments[0].Limits["nodes"] = 2000
	cfg := loadConfig(t, c)
	st := openStore(t, cfg)
	if err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(t.TempDir())}); err != nil {
		t.Fatal(err)
	}
	games, _ := st.Games(context.Background(), store.GameFilter{WithMoves: true})
	if len(games) != 2 {
		t.Fatalf("%d games", len(games))
	}
	for _, g := range games {
		switch g.Termination {
		case record.EngineCrash, record.EngineError, record.EngineTimeout, record.IllegalMove, record.TimeForfeit:
			t.Errorf("game %d: %s (%s)", g.Index, g.Termination, g.Reason)
		}
		checkGame(t, &g, 20)
	}
	if n := processesRunning(sf); n != 0 {
		t.Errorf("%d stockfish processes left running", n)
	}
}

// With Options.Affinity each worker starts its external engines with its
// own CPU set (engines.CPUsOf of the start's context), and the preflight's
// engines, started before a slot was known, are not played with.
func TestAffinityPerWorker(t *testing.T) {
	c := externalConfig(t, helperEngine(t, fakeEngine, "-mode", "legal"))
	c.Tournaments[0].Rounds = 2
	cfg := loadConfig(t, c)
	st := openStore(t, cfg)
	var mu sync.Mutex
	var starts [][]int
	newEngine := func(ctx context.Context, e config.Engine) (engines.Engine, error) {
		if e.External() {
			mu.Lock()
			starts = append(starts, engines.CPUsOf(ctx))
			mu.Unlock()
		}
		// Not pinned for real: the machine may have fewer CPUs
		// (engines/uci tests the pinning).
		return newPlayer("")(engines.WithCPUs(ctx, nil), e)
	}
	opts := Options{NewEngine: newEngine, Affinity: [][]int{{7}, {9}}}
	if err := Run(context.Background(), cfg, st, opts); err != nil {
		t.Fatal(err)
	}
	// The preflight's start, then one per worker (each keeps its engine).
	got := fmt.Sprint(starts)
	if got != "[[] [7] [9]]" && got != "[[] [9] [7]]" {
		t.Errorf("external engine starts with CPUs %s; want the preflight's (none), then [7] and [9]", got)
	}
	opts.Affinity = [][]int{{7}}
	opts.Restart = []string{"ext"}
	if err := Run(context.Background(), cfg, st, opts); !errors.Is(err, ErrEngineSetup) {
		t.Errorf("one CPU set for 2 workers: %v; want an engine setup error", err)
	}
}

// restart = true (fastchess's and cutechess-cli's restart=on) starts the
// engine's process afresh for every game: 2 pairs at concurrency 2 start
// it 4 times (the preflight's start plays the first game), against 2
// starts without it (each worker keeps its process).
func TestRestartEachGame(t *testing.T) {
	for _, tt := range []struct {
		restart bool
		want    int
	}{{false, 2}, {true, 4}} {
		ext := helperEngine(t, fakeEngine, "-mode", "legal")
		if tt.restart {
			ext += "\nrestart = true"
		}
		c := externalConfig(t, ext)
		c.Tournaments[0].Rounds = 2
		cfg := loadConfig(t, c)
		st := openStore(t, cfg)
		var mu sync.Mutex
		starts := 0
		newEngine := func(ctx context.Context, e config.Engine) (engines.Engine, error) {
			if e.External() {
				mu.Lock()
				starts++
				mu.Unlock()
			}
			return newPlayer("")(ctx, e)
		}
		if err := Run(context.Background(), cfg, st, Options{NewEngine: newEngine}); err != nil {
			t.Fatal(err)
		}
		if _, games := storedGames(t, st, "ext"); len(games) != 4 {
			t.Fatalf("restart %v: %d games, want 4", tt.restart, len(games))
		}
		if starts != tt.want {
			t.Errorf("restart %v: the external engine started %d times, want %d", tt.restart, starts, tt.want)
		}
		if n := processesRunning(fakeEngine); n != 0 {
			t.Errorf("restart %v: %d engine processes left running", tt.restart, n)
		}
	}
}
