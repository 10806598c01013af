package runner

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/openings"
	"selfplay/standings"
	"selfplay/store/record"
)

// fastchess's overrun is its whole milliseconds past the time left, as
// far as it waits: the time left, the margin and 100ms (match.cpp:516-521,
// timecontrol.cpp:27-29).
func TestFastchessOverrun(t *testing.T) {
	for _, c := range []struct {
		over, margin time.Duration
		want         int64
	}{
		{50*time.Millisecond + 900*time.Microsecond, 0, 50},
		{-5 * time.Millisecond, 0, 0},
		// slow.sh's bestmove 608ms after go on 400ms left: fastchess
		// stops waiting at 500ms and writes "100ms overrun".
		{208 * time.Millisecond, 0, 100},
		{250 * time.Millisecond, 200 * time.Millisecond, 250},
		{400 * time.Millisecond, 200 * time.Millisecond, 300},
	} {
		if got := fastchessOverrun(c.over, c.margin); got != c.want {
			t.Errorf("%v over, margin %v: %d, want %d", c.over, c.margin, got, c.want)
		}
	}
}

// A game lost on time or by a crash keeps selfplay's detail in its stored
// reason; fastchess's PGN and its per-game line have fastchess's words
// alone: "White loses on time (Nms overrun)" (match.hpp:243,
// match.cpp:838-841), "White disconnects" (match.hpp:244).
func TestFastchessFaultTexts(t *testing.T) {
	slow := func(b *board.Board) (engines.Result, error) {
		time.Sleep(30 * time.Millisecond)
		return engines.Result{Move: firstMove(b)}, nil
	}
	crash := func(*board.Board) (engines.Result, error) {
		return engines.Result{}, fmt.Errorf("engine %q: search: %w", "b", engines.ErrCrashed)
	}
	start := openings.Opening{ID: "start", StartFEN: openings.StandardStartFEN}
	for _, c := range []struct {
		name            string
		limits          config.Limits
		black           func(*board.Board) (engines.Result, error) // White plays a3 first
		term            record.Termination
		stored, fastchs string // patterns of the stored reason and fastchess's text
	}{
		{"time loss", config.Limits{MoveTime: time.Millisecond, TimeMargin: time.Millisecond, MoveTimeout: time.Minute}, slow,
			record.TimeForfeit, `^Black loses on time \((\d+)ms overrun\): b timed out: .+`, `^Black loses on time \((\d+)ms overrun\)$`},
		{"crash", config.Limits{Nodes: 10, MoveTimeout: time.Minute}, crash,
			record.EngineCrash, `^Black disconnects: b crashed: .+`, `^Black disconnects$`},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &config.Tournament{Name: "t", Limits: c.limits, Adjudication: config.Adjudication{Move: 5, Policy: config.PolicyDraw}}
			g, err := playGame(context.Background(), tr, gameJob{opening: start, white: "w", black: "b"},
				&scripted{name: "w"}, &scripted{name: "b", play: c.black}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Termination != c.term || !regexp.MustCompile(c.stored).MatchString(g.Reason) {
				t.Fatalf("%s (%s), want %s %s", g.Termination, g.Reason, c.term, c.stored)
			}
			if m := regexp.MustCompile(c.stored).FindStringSubmatch(g.Reason); len(m) > 1 {
				if n, _ := strconv.Atoi(m[1]); n < 29 || n > 101 {
					t.Errorf("overrun %dms, want 29 to 101 (a 30ms move on 1ms, fastchess's wait ending 101ms past it)", n)
				}
			}
			text, err := writeFastchessPGN(g, fastchessGame{event: "e", site: "?", round: 1, tc: [2]string{"-", "-"}})
			if err != nil {
				t.Fatal(err)
			}
			_, movetext, _ := strings.Cut(text, "\n\n")
			want := fastchessReason(g)
			if !regexp.MustCompile(c.fastchs).MatchString(want) || !strings.HasPrefix(movetext, "1. a3 {") || !strings.HasSuffix(movetext, ", "+want+"} 1-0\n\n") {
				t.Errorf("fastchess's reason %q, movetext %q; want %s alone", want, movetext, c.fastchs)
			}
			for _, f := range []OutputFormat{outputFastchess, outputCutechess} {
				var out bytes.Buffer
				tally := standings.NewTally()
				if err := tally.Add(g); err != nil {
					t.Fatal(err)
				}
				p := &progress{w: &out, gameLines: true, output: f, engines: []string{"w", "b"}, sides: newSideCounts(),
					tally: tally, sprt: &sprtState{}, total: 2, lastGame: 2, now: time.Now, lastLog: time.Now()}
				p.gameDone(g)
				reason := g.Reason // cutechess-cli's text with selfplay's detail after it
				if f == outputFastchess {
					reason = want
				}
				if line := "Finished game 1 (w vs b): 1-0 {" + reason + "}\n"; !strings.HasPrefix(out.String(), line) {
					t.Errorf("%s: %q, want %q first", f, out.String(), line)
				}
			}
		})
	}
	// Games stored before the overrun was kept read as fastchess's text
	// without it; other reasons are as stored.
	for _, c := range []struct {
		term         record.Termination
		reason, want string
	}{
		{record.TimeForfeit, "White loses on time: w was 12ms over its time (margin 0s)", "White loses on time"},
		{record.TimeForfeit, "Draw by timeout: w timed out: x", "Draw by timeout"},
		{record.EngineTimeout, "Black's connection stalls: b gave no move within 1m0s: x", "Black's connection stalls"},
		{record.IllegalMove, `Black makes an illegal move: b plays "e7e4"`, "Black makes an illegal move"},
		{record.EngineError, "White (w) failed: boom", "White (w) failed: boom"},
		{record.Adjudication, "Draw by adjudication: at move 40", "Draw by adjudication: at move 40"},
	} {
		if got := fastchessReason(&record.Game{Termination: c.term, Reason: c.reason}); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.term, c.reason, got, c.want)
		}
	}
}
