package runner

import (
	"strings"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/store/record"
)

// The texts of fastchess 1.8.2's PGN (/work/notes/fastchess-src's
// app/src/game/pgn/pgn_builder.cpp and pgn_gen.hpp), game by game: the tag
// order of pgn_builder.cpp:28-77 (SetUp/FEN only off the initial
// position, :51-54; TimeControl, or White/BlackTimeControl when the sides'
// differ, :71-76; the engines' id name and author after Result, each only
// when not empty, :36-49), convertMatchTermination's words (:211-230), the
// numbering of pgn_gen.hpp:94-117 ("1... a6" only for a first move by
// Black), the comments of pgn_builder.cpp:162-196 ("book"; the reason in
// the last move's) and the result after the moves (pgn_gen.hpp:122-123).
func TestFastchessPGNText(t *testing.T) {
	start := time.Date(2025, 1, 31, 14, 5, 9, 0, time.Local)
	zone := start.Format("-0700")
	move := func(uci, san string, score, depth int, ms int) record.Move {
		return record.Move{UCI: uci, SAN: san, Score: score, Depth: depth, Time: time.Duration(ms) * time.Millisecond}
	}
	for _, c := range []struct {
		name string
		g    record.Game
		fg   fastchessGame
		want string
	}{{
		name: "initial position, mate, same clocks",
		g: record.Game{White: "a", Black: "b", Result: "0-1", Termination: record.Checkmate, Reason: "Black mates",
			StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Started: start, Finished: start.Add(3723 * time.Second),
			Moves: []record.Move{{UCI: "f2f3", SAN: "f3", Book: true}, move("e7e5", "e5", -12, 5, 1),
				move("g2g4", "g4", -300, 7, 12), move("d8h4", "Qh4#", int(engines.Mate)-1, 1, 1234)}},
		fg: fastchessGame{event: fastchessDefaultEvent, site: fastchessDefaultSite, round: 3, tc: [2]string{"10+0.1", "10+0.1"}},
		want: `[Event "Fastchess Tournament"]
[Site "?"]
[Date "2025.01.31"]
[Round "3"]
[White "a"]
[Black "b"]
[Result "0-1"]
[GameDuration "01:02:03"]
[GameStartTime "2025-01-31T14:05:09 ` + zone + `"]
[GameEndTime "2025-01-31T15:07:12 ` + zone + `"]
[PlyCount "4"]
[Termination "normal"]
[TimeControl "10+0.1"]
[ECO "A00"]
[Opening "Barnes Opening: Fool's Mate"]

1. f3 {book} e5 {-0.12/5 0.001s} 2. g4 {-3.00/7 0.012s}
Qh4# {+M1/1 1.234s, Black mates} 0-1

`,
	}, {
		name: "Black first, adjudication, odds, fields",
		g: record.Game{White: "w", Black: "x", Result: "1/2-1/2", Termination: record.Adjudication, Reason: "Draw by adjudication",
			StartFEN: "4k3/8/8/8/8/8/8/4K3 b - - 0 41", Started: start, Finished: start,
			Moves:    []record.Move{{UCI: "e8d8", SAN: "Kd8", Depth: 3, Nodes: 12, Time: 2 * time.Millisecond}},
			Identity: [2]record.EngineID{{Name: "W 1.0", Author: "W's authors"}, {Name: "X 2"}}},
		fg: fastchessGame{event: "ev", site: "here", round: 1, tc: [2]string{"-", "0.1/move"}, fields: config.PGNFields{Nodes: true}},
		want: `[Event "ev"]
[Site "here"]
[Date "2025.01.31"]
[Round "1"]
[White "w"]
[Black "x"]
[Result "1/2-1/2"]
[EngineWhiteName "W 1.0"]
[EngineWhiteAuthor "W's authors"]
[EngineBlackName "X 2"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K3 b - - 0 41"]
[GameDuration "00:00:00"]
[GameStartTime "2025-01-31T14:05:09 ` + zone + `"]
[GameEndTime "2025-01-31T14:05:09 ` + zone + `"]
[PlyCount "1"]
[Termination "adjudication"]
[WhiteTimeControl "-"]
[BlackTimeControl "0.1/move"]

41... Kd8 {0.00/3 0.002s, n=12, Draw by adjudication} 1/2-1/2

`,
	}, {
		// min=true (pgn_builder.cpp:36, 64, 81, 173): the tags up to
		// Result, SetUp and FEN, and no comments, not even the reason.
		name: "minimal",
		g: record.Game{White: "w", Black: "x", Result: "0-1", Termination: record.Checkmate, Reason: "Black mates",
			StartFEN: "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1", Started: start, Finished: start,
			Moves:    []record.Move{{UCI: "e7e5", SAN: "e5", Book: true}, move("g2g4", "g4", -300, 7, 12), move("d8h4", "Qh4#", int(engines.Mate)-1, 1, 1234)},
			Identity: [2]record.EngineID{{Name: "W 1.0", Author: "W's authors"}, {Name: "X 2"}}},
		fg: fastchessGame{event: "ev", site: "?", round: 2, tc: [2]string{"-", "-"}, fields: config.PGNFields{Nodes: true}, min: true},
		want: `[Event "ev"]
[Site "?"]
[Date "2025.01.31"]
[Round "2"]
[White "w"]
[Black "x"]
[Result "0-1"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1"]

1... e5 2. g4 Qh4# 0-1

`,
	}} {
		t.Run(c.name, func(t *testing.T) {
			if got, err := writeFastchessPGN(&c.g, c.fg); err != nil || got != c.want {
				t.Errorf("got (error %v)\n%s\nwant\n%s", err, got, c.want)
			}
		})
	}
}

// Movetext lines break between moves, never inside one, at 80 columns
// (pgn_gen.hpp:71-86: a unit goes on the line when the line's length, a
// space and the unit make at most 80).
func TestFastchessPGNWrap(t *testing.T) {
	var moves []record.Move
	for range 12 {
		moves = append(moves, record.Move{UCI: "g1f3", SAN: "Nf3", Score: 31, Depth: 12, Time: 42 * time.Millisecond},
			record.Move{UCI: "f3g1", SAN: "Ng1", Score: -31, Depth: 12, Time: 42 * time.Millisecond})
	}
	g := record.Game{Result: "1/2-1/2", StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Moves: moves}
	var sb strings.Builder
	writeFastchessMoves(&sb, &g, fastchessGame{})
	lines := strings.Split(sb.String(), "\n")
	// "1. Nf3 {+0.31/12 0.042s}" is 24 characters, "Ng1 {-0.31/12 0.042s}" 21:
	// 24+1+21+1+24 = 71, and the next Black move would make 93.
	if want := "1. Nf3 {+0.31/12 0.042s} Ng1 {-0.31/12 0.042s} 2. Nf3 {+0.31/12 0.042s}"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	for i, l := range lines {
		if len(l) > fastchessLineLength {
			t.Errorf("line %d has %d characters: %q", i+1, len(l), l)
		}
	}
}

// The Termination words of every termination (pgn_builder.cpp:211-230).
func TestFastchessTermination(t *testing.T) {
	want := map[record.Termination]string{
		record.Checkmate: "normal", record.Stalemate: "normal", record.Repetition: "normal", record.FiftyMoves: "normal",
		record.InsufficientMaterial: "normal", record.Adjudication: "adjudication", record.IllegalMove: "illegal move",
		record.TimeForfeit: "time forfeit", record.EngineTimeout: "abandoned", record.EngineCrash: "abandoned", record.EngineError: "abandoned",
	}
	for _, term := range record.Terminations() {
		if got := fastchessTermination(term); got != want[term] || got == "" {
			t.Errorf("%s: %q, want %q", term, got, want[term])
		}
	}
}

// TimeControl values as fastchess's operator<< writes them
// (game/timecontrol/timecontrol.cpp:62-78) and the pair numbers of Round.
func TestFastchessTimeControlAndRound(t *testing.T) {
	for _, c := range []struct {
		l    config.Limits
		want string
	}{
		{config.Limits{Nodes: 5000}, "-"},
		{config.Limits{MoveTime: 100 * time.Millisecond}, "0.1/move"},
		{config.Limits{TC: &config.TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}}, "10+0.1"},
		{config.Limits{TC: &config.TimeControl{Moves: 40, Base: 7200 * time.Second}}, "40/7200"},
		{config.Limits{TC: &config.TimeControl{Base: 8500 * time.Millisecond}}, "8.5"},
		// fastchess's whole milliseconds, cut from the double of the text
		// (fastchess 1.8.2 writes these: tc=40/60+0.123456789,
		// tc=40/0.3+0.3, st=0.3).
		{config.Limits{TC: &config.TimeControl{Moves: 40, Base: 60 * time.Second, Increment: 123456789}}, "40/60+0.123"},
		{config.Limits{TC: &config.TimeControl{Moves: 40, Base: 300 * time.Millisecond, Increment: 300 * time.Millisecond}}, "40/0.299+0.299"},
		{config.Limits{MoveTime: 300 * time.Millisecond}, "0.299/move"},
		{config.Limits{TC: &config.TimeControl{Increment: 500 * time.Microsecond}}, "-"},
	} {
		if got := fastchessTimeControl(c.l); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
	pairs, single := &config.Tournament{}, &config.Tournament{OneGamePerOpening: true}
	for _, c := range []struct {
		t                 *config.Tournament
		pair, index, want int
	}{{pairs, 0, 0, 1}, {pairs, 0, 1, 1}, {pairs, 4, 1, 5}, {single, 0, 0, 1}, {single, 0, 1, 2}, {single, 4, 1, 10}} {
		if got := fastchessRound(c.t, c.pair, c.index); got != c.want {
			t.Errorf("pair %d game %d (one game per opening %v): round %d, want %d", c.pair, c.index, c.t.OneGamePerOpening, got, c.want)
		}
	}
}
