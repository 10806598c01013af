package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/internal/testkit"
	"selfplay/openings"
)

// oddsConfig gives each engine its own time control (time odds) and b its
// own time margin; the tournament's limit (nodes) applies to neither.
var oddsConfig = testkit.Config{
	Engines: []testkit.Engine{
		{Name: "a", Preset: "plain", Body: `tc = "10+0.1"`},
		{Name: "b", Preset: "plain", Body: "tc = \"40/5+0.05\"\ntime_margin = \"1s\""},
	},
	Tournaments: []testkit.Tournament{{
		Name: "odds", Engines: []string{"a", "b"},
		Limits:       testkit.Table{"nodes": 300},
		Adjudication: testkit.Table{"move": 4, "policy": "draw"},
	}},
}

// Each side of a time-odds game is told its own clock and increment and
// the opponent's, and the PGN names both time controls as fastchess does
// (app/src/game/pgn/pgn_builder.cpp:71-76 at fastchess 74deac23:
// "TimeControl" when white_player.config.limit.tc == black_player's,
// else "WhiteTimeControl" and "BlackTimeControl").
func TestTimeOddsEachSideItsClock(t *testing.T) {
	cfg := loadConfig(t, oddsConfig)
	tr := &cfg.Tournaments[0]
	o := openings.FHR25()[0] // White to move after the book
	a, b := &scripted{name: "a"}, &scripted{name: "b"}
	g, err := playGame(context.Background(), tr, gameJob{opening: o, white: "a", black: "b"}, a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.limits) == 0 || len(b.limits) == 0 {
		t.Fatalf("searches: a %d, b %d", len(a.limits), len(b.limits))
	}
	for i, lim := range a.limits {
		c := lim.Clock
		if c == nil || lim.Nodes != 0 || c.WhiteInc != 100*time.Millisecond || c.BlackInc != 50*time.Millisecond || c.MovesToGo != 0 {
			t.Fatalf("a's search %d: %+v %+v, want a's 10+0.1 against b's 40/5+0.05", i, lim, c)
		}
	}
	if c := a.limits[0].Clock; c.WhiteTime != 10*time.Second || c.BlackTime != 5*time.Second {
		t.Errorf("a's first clock %+v, want 10s against 5s", c)
	}
	for i, lim := range b.limits {
		c := lim.Clock
		if c == nil || c.WhiteInc != 100*time.Millisecond || c.BlackInc != 50*time.Millisecond || c.MovesToGo != 40-i {
			t.Fatalf("b's search %d: %+v %+v, want moves to go %d", i, lim, c, 40-i)
		}
	}
	if c := b.limits[0].Clock; c.BlackTime != 5*time.Second {
		t.Errorf("b's first clock %+v, want its 5s", c)
	}
	h, err := pgnHeaderFor(tr, "a", "b", o)
	if err != nil {
		t.Fatal(err)
	}
	pgn := writePGN(g, h)
	for _, tag := range []string{`[WhiteTimeControl "10+0.1"]`, `[BlackTimeControl "40/5+0.05"]`,
		`[WhiteLimit "time control 10+0.1"]`, `[BlackLimit "time control 40/5+0.05"]`} {
		if !strings.Contains(pgn, tag) {
			t.Errorf("no %s in\n%s", tag, pgn)
		}
	}
	if strings.Contains(pgn, "[TimeControl ") {
		t.Errorf("a TimeControl tag in an odds game:\n%s", pgn)
	}
}

// The clocks of sides with different time controls, and a side without a
// clock (nodes against tc), which its opponent is shown as its own.
func TestGameClockPerSide(t *testing.T) {
	const ms = time.Millisecond
	white, black := mustTC(t, "10+1"), mustTC(t, "2/4+0.5")
	c := newGameClock(white, black)
	l := tcLimits(white, 100*ms)
	if f := c.spend(board.White, 3*time.Second, l); f != "" {
		t.Fatal(f)
	}
	if f := c.spend(board.Black, time.Second, tcLimits(black, 100*ms)); f != "" {
		t.Fatal(f)
	}
	want := engines.Clock{WhiteTime: 8 * time.Second, BlackTime: 3500 * ms, WhiteInc: time.Second, BlackInc: 500 * ms, MovesToGo: 1}
	if got := c.engineClock(board.Black); got != want {
		t.Errorf("black's clock %+v, want %+v", got, want)
	}
	want.MovesToGo = 0
	if got := c.engineClock(board.White); got != want {
		t.Errorf("white's clock %+v, want %+v", got, want)
	}
	// Black's second move ends its period: its 4 s come back.
	if f := c.spend(board.Black, time.Second, tcLimits(black, 100*ms)); f != "" || c.remaining[board.Black] != 7*time.Second {
		t.Errorf("black after its period: %v, forfeit %q", c.remaining[board.Black], f)
	}
	// Black's margin is its own: 600 ms over a 100 ms margin loses, over
	// a 1 s margin does not.
	if f := c.spend(board.Black, 7600*ms, tcLimits(black, time.Second)); f != "" {
		t.Errorf("within black's own margin: %q", f)
	}
	if f := c.spend(board.Black, 10*time.Second, tcLimits(black, 100*ms)); !strings.Contains(f, "over its time") {
		t.Errorf("over the margin: %q", f)
	}

	c = newGameClock(nil, black)
	if f := c.spend(board.White, time.Hour, tcLimits(nil, 0)); f != "" {
		t.Errorf("a side without a clock forfeits: %q", f)
	}
	want = engines.Clock{WhiteTime: 4 * time.Second, BlackTime: 4 * time.Second, WhiteInc: 500 * ms, BlackInc: 500 * ms, MovesToGo: 2}
	if got := c.engineClock(board.Black); got != want {
		t.Errorf("black against a side without a clock: %+v, want %+v", got, want)
	}
}

func tcLimits(tc *config.TimeControl, margin time.Duration) config.Limits {
	l := config.Limits{TC: tc, TimeMargin: margin}
	if tc == nil {
		l.Nodes = 1
	}
	return l
}
