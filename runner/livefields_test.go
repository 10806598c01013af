package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/internal/testkit"
	"selfplay/store"
	"selfplay/store/record"
)

// Each of fastchess's per-move fields alone and all together, in its
// words, units and order (game/pgn/pgn_builder.cpp:181-189; times with
// formatTime, pgn_builder.hpp:52-56).
func TestMoveCommentFields(t *testing.T) {
	m := record.Move{Score: 31, Depth: 12, SelDepth: 15, Nodes: 8123, Time: 42 * time.Millisecond,
		HashFull: 137, TBHits: 4, PV: "g1f3 b8c6 f1b5", TimeLeft: 9876 * time.Millisecond, Latency: 3 * time.Millisecond}
	const head = "{+0.31/12 8123N 0.042s"
	cases := []struct {
		name   string
		fields config.PGNFields
		want   string
	}{
		{"none", config.PGNFields{}, head + "}"},
		{"timeleft", config.PGNFields{TimeLeft: true}, head + ", tl=9.876s}"},
		{"latency", config.PGNFields{Latency: true}, head + ", latency=0.003s}"},
		{"nodes", config.PGNFields{Nodes: true}, head + ", n=8123}"},
		{"seldepth", config.PGNFields{SelDepth: true}, head + ", sd=15}"},
		{"nps", config.PGNFields{NPS: true}, head + ", nps=193404}"},
		{"hashfull", config.PGNFields{HashFull: true}, head + ", hashfull=137}"},
		{"tbhits", config.PGNFields{TBHits: true}, head + ", tbhits=4}"},
		{"pv", config.PGNFields{PV: true}, head + `, pv="g1f3 b8c6 f1b5"}`},
		{"all, in fastchess's order", config.PGNFields{TimeLeft: true, Latency: true, Nodes: true, SelDepth: true, NPS: true, HashFull: true, TBHits: true, PV: true},
			head + `, tl=9.876s, latency=0.003s, n=8123, sd=15, nps=193404, hashfull=137, tbhits=4, pv="g1f3 b8c6 f1b5"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := moveComment(m, c.fields); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
	// The engine's own nps, as fastchess writes it; nodes over time where
	// the engine gave none (and for an in-process engine).
	reported := m
	reported.NPS = 2_500_000
	if got := moveComment(reported, config.PGNFields{NPS: true}); got != head+", nps=2500000}" {
		t.Errorf("a reported nps: %s", got)
	}
	if got := moveComment(record.Move{Book: true, PV: "e2e4"}, config.PGNFields{PV: true}); got != "{book}" {
		t.Errorf("a book move: %s", got)
	}
	for _, c := range []struct {
		latency time.Duration
		want    string
	}{
		{-2 * time.Millisecond, ", latency=-0.002s}"},  // fastchess does not clamp it
		{-400 * time.Microsecond, ", latency=0.000s}"}, // whole milliseconds, cut toward zero
		{2900 * time.Microsecond, ", latency=0.002s}"},
		{-2900 * time.Microsecond, ", latency=-0.002s}"},
	} {
		if got := moveComment(record.Move{Latency: c.latency}, config.PGNFields{Latency: true}); !strings.HasSuffix(got, c.want) {
			t.Errorf("latency %v: %s, want the suffix %s", c.latency, got, c.want)
		}
	}
}

// fastchess's notation=lan and uci (third_party/chess.hpp:5685-5722).
func TestMoveText(t *testing.T) {
	cases := []struct {
		uci, san    string
		lan         string
		wantSANAsIs bool
	}{
		{"e2e4", "e4", "e2e4", false},
		{"g1f3", "Nf3", "Ng1f3", false},
		{"e4d5", "exd5", "e4xd5", false},
		{"b1d2", "Nbd2", "Nb1d2", false},
		{"d1h5", "Qxh5+", "Qd1xh5+", false},
		{"h5f7", "Qxf7#", "Qh5xf7#", false},
		{"e7e8q", "e8=Q+", "e7e8=Q+", false},
		{"g7h8n", "gxh8=N", "g7xh8=N", false},
		{"e5d6", "exd6", "e5xd6", false}, // en passant
		{"e1g1", "O-O", "O-O", true},
		{"e8c8", "O-O-O+", "O-O-O+", true},
	}
	for _, c := range cases {
		m := record.Move{UCI: c.uci, SAN: c.san}
		if got := moveText(m, config.NotationLAN); got != c.lan {
			t.Errorf("%s (%s) in LAN: %s, want %s", c.uci, c.san, got, c.lan)
		}
		if got := moveText(m, config.NotationUCI); got != c.uci {
			t.Errorf("%s in UCI: %s", c.uci, got)
		}
		if got := moveText(m, ""); got != c.san {
			t.Errorf("%s in SAN: %s", c.uci, got)
		}
	}
}

// pgn_out's and epd_out's append = false: a tournament with no game
// stored starts the files afresh, their earlier text gone unread (a game
// of selfplay's, a text that is no live file's: fastchess's EPD lines
// hold no c0 and id), and a resume appends and says so for each, as
// fastchess does (matchmaking/tournament/base/tournament.cpp:41-45).
func TestLiveFilesAfresh(t *testing.T) {
	for _, c := range []struct{ name, pgn, epd string }{
		{"a game of selfplay's", "[Event \"old\"]\n[Round \"1.1\"]\n\n1. e4 *\n\n", "8/8/8/8/8/8/8/K6k w - - hmvc 0; fmvn 1; c0 \"x\"; id \"1.1\";\n"},
		{"another tool's text", "not a PGN game\n", "8/8/8/8/8/8/8/K6k w - -\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := quickConfig(1)
			body.Tournaments[0].Body = `pgn_out = { file = "live.pgn", append = false }
epd_out = { file = "live.epd", append = false }`
			cfg := loadConfig(t, body)
			path := filepath.Join(cfg.Dir, "live.pgn")
			epdPath := filepath.Join(cfg.Dir, "live.epd")
			for p, text := range map[string]string{path: c.pgn, epdPath: c.epd} {
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			st := openStore(t, cfg)
			liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 2}})
			var out strings.Builder
			liveRun(t, st, cfg, Options{Progress: &out})
			for _, key := range []string{"pgn_out", "epd_out"} {
				if !strings.Contains(out.String(), "Resuming from 4 games, ignoring "+key+" append = false.\n") {
					t.Errorf("the resume does not say it ignores %s's append = false:\n%s", key, out.String())
				}
			}
			var export strings.Builder
			tour, games := storedGames(t, st, "quick")
			if _, err := st.WritePGN(context.Background(), &export, store.GameFilter{TournamentID: tour.ID}); err != nil {
				t.Fatal(err)
			}
			if pgn, _ := os.ReadFile(path); string(pgn) != export.String() {
				t.Fatalf("live.pgn is not export's text (the old game kept, or the resume's games lost):\n%.300s", pgn)
			}
			epd, _ := os.ReadFile(epdPath)
			lines := strings.Split(strings.TrimSuffix(string(epd), "\n"), "\n")
			if len(lines) != len(games) || strings.Contains(string(epd), c.epd) {
				t.Fatalf("live.epd holds %d lines, want the %d games' (the old line gone):\n%s", len(lines), len(games), epd)
			}
		})
	}
}

// wait (fastchess's -wait): each game's worker pauses that long after it,
// so a run of n games at concurrency 1 takes at least n pauses (a lower
// bound that a timer guarantees, not a speed). A cancelled run does not
// wait out the pause.
func TestWaitBetweenGames(t *testing.T) {
	c := quickConfig(1)
	c.Tournaments[0].Body = `wait = "40ms"`
	cfg := loadConfig(t, c)
	st := openStore(t, cfg)
	start := time.Now()
	liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 2}})
	if took := time.Since(start); took < 4*40*time.Millisecond {
		t.Errorf("4 games with wait = 40ms took %v", took)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if pause(ctx, time.Hour) {
		t.Error("pause went on after its context ended")
	}
	if !pause(ctx, 0) {
		t.Error("no pause is not a completed pause")
	}
}

// timeleft (tl=) is the mover's clock after its move and increment, the
// move time under movetime, 0 under nodes (fastchess's TimeControl
// updateTime and getTimeLeft, game/timecontrol/timecontrol.cpp:28-57).
func TestClockLeft(t *testing.T) {
	tc := mustTC(t, "10+0.1")
	cases := []struct {
		name   string
		limits config.Limits
		spent  time.Duration
		want   time.Duration
	}{
		{"clock", config.Limits{TC: tc}, 300 * time.Millisecond, 9800 * time.Millisecond},
		{"movetime", config.Limits{MoveTime: 250 * time.Millisecond}, 240 * time.Millisecond, 250 * time.Millisecond},
		{"nodes", config.Limits{Nodes: 1000}, 5 * time.Millisecond, 0},
	}
	for _, c := range cases {
		clock := newGameClock(c.limits.TC, c.limits.TC)
		if reason := clock.spend(0, c.spent, c.limits); reason != "" {
			t.Fatalf("%s: %s", c.name, reason)
		}
		if got := clock.left(0, c.limits); got != c.want {
			t.Errorf("%s: %v left, want %v", c.name, got, c.want)
		}
	}
}

// append = false with -restart: the stored games go, and the file is
// emptied whatever it holds (no refusal of a file that holds the deleted
// run's games, nor of another tool's text). A run that is refused (its
// config changed under a tournament with no game stored) leaves the file
// as it was: the file is emptied only once the run goes ahead.
func TestLiveFilesAfreshRestartAndRefusal(t *testing.T) {
	body := quickConfig(1)
	body.Tournaments[0].Body = `pgn_out = { file = "live.pgn", append = false }`
	cfg := loadConfig(t, body)
	path := filepath.Join(cfg.Dir, "live.pgn")
	st := openStore(t, cfg)
	liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 1}})
	for _, text := range []string{"", "not a PGN game\n"} {
		if text != "" {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		} // else: the file holds the games -restart deletes
		liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 1}, Restart: []string{"quick"}})
		var export strings.Builder
		tour, _ := storedGames(t, st, "quick")
		if _, err := st.WritePGN(context.Background(), &export, store.GameFilter{TournamentID: tour.ID}); err != nil {
			t.Fatal(err)
		}
		if pgn, _ := os.ReadFile(path); string(pgn) != export.String() {
			t.Fatalf("after -restart over %q, live.pgn is not export's text:\n%.300s", text, pgn)
		}
	}

	// A tournament stored with no game (as a run killed between the
	// tournament's row and its first game leaves it), then its config
	// changed: the run is refused, the file kept.
	fresh := quickConfig(1)
	fresh.Tournaments[0].Name = "fresh"
	fresh.Tournaments[0].Body = `pgn_out = { file = "fresh.pgn", append = false }`
	cfg = loadConfig(t, fresh)
	st = openStore(t, cfg)
	_, snap, hash, err := planTournament(cfg, &cfg.Tournaments[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateTournament(context.Background(), record.Tournament{Name: "fresh", Config: snap, ConfigHash: hash, TotalGames: 50}); err != nil {
		t.Fatal(err)
	}
	fresh.Tournaments[0].Limits = testkit.Table{"nodes": 400}
	cfg = loadConfig(t, fresh) // in a folder of its own: its fresh.pgn is there
	freshPath := filepath.Join(cfg.Dir, "fresh.pgn")
	const kept = "a file the refused run must not touch\n"
	if err := os.WriteFile(freshPath, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	err = Run(context.Background(), cfg, st, Options{NewEngine: newPlayer("")})
	var changed *ConfigChangedError
	if !errors.As(err, &changed) {
		t.Fatalf("the changed config ran: %v", err)
	}
	if b, _ := os.ReadFile(freshPath); string(b) != kept {
		t.Errorf("the refused run changed the file: %q", b)
	}
}
