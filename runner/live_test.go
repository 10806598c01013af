package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"selfplay/config"
	"selfplay/internal/testkit"
	"selfplay/pgnout"
	"selfplay/store"
	"selfplay/store/record"
)

// liveConfig is quickConfig with live files (and the given pgn_out).
func liveConfig(concurrency int, pgnOut string) testkit.Config {
	c := quickConfig(concurrency)
	c.Tournaments[0].Body = pgnOut + "\nepd_out = \"live.epd\""
	return c
}

// liveRun plays the config's quick tournament (a share of it) into st.
func liveRun(t *testing.T, st *store.Store, cfg *config.File, opts Options) {
	t.Helper()
	opts.NewEngine = newPlayer("")
	if err := Run(context.Background(), cfg, st, opts); err != nil {
		t.Fatal(err)
	}
}

// checkLiveFiles checks the live files against the database: the PGN file
// is export's text of the tournament, byte for byte, and the EPD file has
// each game's final position, in schedule order.
func checkLiveFiles(t *testing.T, cfg *config.File, st *store.Store) {
	t.Helper()
	var export strings.Builder
	tour, games := storedGames(t, st, "quick")
	if _, err := st.WritePGN(context.Background(), &export, store.GameFilter{TournamentID: tour.ID}); err != nil {
		t.Fatal(err)
	}
	pgn, _ := os.ReadFile(filepath.Join(cfg.Dir, "live.pgn"))
	if string(pgn) != export.String() {
		t.Fatalf("live.pgn (%d bytes) is not export's text (%d bytes)", len(pgn), export.Len())
	}
	var want []string
	for _, g := range games {
		line, err := pgnout.EPDLine(g.FinalFEN, pgnout.Key{Event: "quick", Round: record.PGNRound(g.Pair, g.Index)})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, line)
	}
	if epd, _ := os.ReadFile(filepath.Join(cfg.Dir, "live.epd")); string(epd) != strings.Join(want, "") {
		t.Fatalf("live.epd:\n%s\nwant:\n%s", epd, strings.Join(want, ""))
	}
}

// With two games at a time, games end out of schedule order; the files
// still hold every game once, in schedule order.
func TestLiveFilesInScheduleOrder(t *testing.T) {
	body := liveConfig(2, `pgn_out = "live.pgn"`)
	cfg := loadConfig(t, body)
	st := openStore(t, cfg)
	var stored []string
	liveRun(t, st, cfg, Options{OnGameStored: func(g *record.Game) { stored = append(stored, record.PGNRound(g.Pair, g.Index)) }})
	if len(stored) != 50 {
		t.Fatalf("%d games stored", len(stored))
	}
	if slices.IsSortedFunc(stored, func(a, b string) int { i, _ := scheduleIndex(a); j, _ := scheduleIndex(b); return i - j }) {
		t.Log("the games were stored in schedule order: the ordering went untried this time")
	}
	checkLiveFiles(t, cfg, st)
}

// A resume appends the games stored but not in the files (a kill between
// the database and the file), cuts off a torn last game, and goes on.
func TestLiveFilesResume(t *testing.T) {
	body := liveConfig(2, `pgn_out = "live.pgn"`)
	cfg := loadConfig(t, body)
	st := openStore(t, cfg)
	liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 5}})
	path := filepath.Join(cfg.Dir, "live.pgn")
	pgn, _ := os.ReadFile(path)
	// Tags and moves each end with a blank line: game k is blocks 2k, 2k+1.
	blocks := strings.SplitAfter(string(pgn), "\n\n")
	if len(blocks) != 2*10+1 {
		t.Fatalf("%d blocks after 5 pairs", len(blocks))
	}
	// Games 7 to 10 are stored but not written; the 7th half written.
	seventh := blocks[12] + blocks[13]
	kept := strings.Join(blocks[:12], "") + seventh[:len(seventh)/2]
	if err := os.WriteFile(path, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	epd := filepath.Join(cfg.Dir, "live.epd")
	lines, _ := os.ReadFile(epd)
	os.WriteFile(epd, lines[:len(lines)-5], 0o644) // a torn last line
	liveRun(t, st, cfg, Options{})
	checkLiveFiles(t, cfg, st)
}

// The per-move fields: the comments gain ", n=, sd=, nps=" (and the lines
// break elsewhere); the rest is export's text.
func TestLivePGNFields(t *testing.T) {
	body := liveConfig(1, `pgn_out = { file = "live.pgn", nodes = true, seldepth = true, nps = true }`)
	cfg := loadConfig(t, body)
	st := openStore(t, cfg)
	liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 2}})
	tour, _ := storedGames(t, st, "quick")
	games, err := st.Games(context.Background(), store.GameFilter{TournamentID: tour.ID, WithMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	var export strings.Builder
	st.WritePGN(context.Background(), &export, store.GameFilter{TournamentID: tour.ID})
	pgn, _ := os.ReadFile(filepath.Join(cfg.Dir, "live.pgn"))
	fields := regexp.MustCompile(`, n=(\d+), sd=(\d+), nps=(\d+)`)
	normal := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	found := fields.FindAllStringSubmatch(normal(string(pgn)), -1)
	var moves int
	for _, g := range games {
		for _, m := range g.Moves {
			if !m.Book {
				moves++
			}
		}
	}
	if len(found) != moves || moves == 0 {
		t.Fatalf("%d comments with fields, %d engine moves", len(found), moves)
	}
	if fields.ReplaceAllString(normal(string(pgn)), "") != normal(export.String()) {
		t.Fatalf("without its fields, live.pgn is not export's text:\n%s", pgn)
	}
	first := games[0].Moves[len(games[0].OpeningMoves)]
	if want := fmt.Sprintf(", n=%d, sd=%d, nps=", first.Nodes, first.SelDepth); !strings.Contains(normal(string(pgn)), want) {
		t.Fatalf("live.pgn lacks the first engine move's %q", want)
	}
}

// A file with games of the tournament that the database does not hold
// (another database's, or a run that -restart deletes) is refused.
func TestLiveFileForeign(t *testing.T) {
	body := liveConfig(2, `pgn_out = "live.pgn"`)
	cfg := loadConfig(t, body)
	st := openStore(t, cfg)
	liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 1}})
	pgn, _ := os.ReadFile(filepath.Join(cfg.Dir, "live.pgn"))

	err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Restart: []string{"quick"}})
	if err == nil || !strings.Contains(err.Error(), "-restart") {
		t.Fatalf("-restart with the old games in the file: %v", err)
	}
	other := loadConfig(t, body)
	os.WriteFile(filepath.Join(other.Dir, "live.pgn"), pgn, 0o644)
	err = Run(context.Background(), other, openStore(t, other), Options{NewEngine: newPlayer("")})
	if !errors.Is(err, pgnout.ErrForeign) {
		t.Fatalf("another database's games in the file: %v", err)
	}
}

// Games stored after one that will not come (an SPRT decision abandoned
// it) wait until the run ends, then go out in order; a later start of the
// finished tournament writes nothing again.
func TestLiveDrainAfterGap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.pgn")
	tr := &config.Tournament{Name: "t", Live: config.LiveOut{PGN: path}}
	game := func(i int) *record.Game {
		g := &record.Game{Pair: i / 2, Index: i % 2}
		g.PGN = fmt.Sprintf("[Event \"t\"]\n[Round \"%s\"]\n\n1-0\n\n", record.PGNRound(g.Pair, g.Index))
		return g
	}
	open := func() *live {
		f, err := pgnout.Open(path, pgnout.PGN)
		if err != nil {
			t.Fatal(err)
		}
		return &live{t: tr, files: []*liveFile{{f: f, format: pgnout.PGN}}, ready: map[int]*record.Game{}}
	}
	rounds := func() string {
		b, _ := os.ReadFile(path)
		return strings.Join(regexp.MustCompile(`Round "([0-9.]+)"`).FindAllString(string(b), -1), " ")
	}
	l := open()
	var stored []record.Game
	for _, i := range []int{1, 0, 4, 3} { // game 2 (round 2.1) never comes
		stored = append(stored, *game(i))
		if err := l.add(game(i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := rounds(); got != `Round "1.1" Round "1.2"` {
		t.Fatalf("before the end: %s", got)
	}
	if err := l.drain(true); err != nil {
		t.Fatal(err)
	}
	l.close()
	want := `Round "1.1" Round "1.2" Round "2.2" Round "3.1"`
	if got := rounds(); got != want {
		t.Fatalf("at the end: %s, want %s", got, want)
	}
	l = open()
	defer l.close()
	if err := l.resume(context.Background(), nil, stored); err != nil {
		t.Fatal(err)
	}
	if err := l.drain(true); err != nil {
		t.Fatal(err)
	}
	if got := rounds(); got != want {
		t.Fatalf("after a second start: %s, want %s", got, want)
	}
}
