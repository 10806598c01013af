package uci

import (
	"slices"
	"strings"
	"testing"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
)

func TestParseInfo(t *testing.T) {
	cases := []struct {
		line  string
		want  infoLine
		depth bool
	}{
		{
			line: "info depth 24 seldepth 33 multipv 1 score cp 31 nodes 1523781 nps 1251213 hashfull 552 tbhits 0 time 1218 pv e2e4 e7e5 g1f3 b8c6",
			want: infoLine{depth: 24, selDepth: 33, multiPV: 1, hasDepth: true, hasSelDepth: true, score: 31, bound: engines.BoundExact, hasScore: true,
				nodes: 1523781, hasNodes: true, pv: []string{"e2e4", "e7e5", "g1f3", "b8c6"}, hasPV: true},
		},
		{
			line: "info depth 18 seldepth 25 multipv 1 score cp 45 lowerbound nodes 412345 nps 900000 hashfull 120 tbhits 0 time 458 pv d2d4",
			want: infoLine{depth: 18, selDepth: 25, multiPV: 1, hasDepth: true, hasSelDepth: true, score: 45, bound: engines.BoundLower, hasScore: true,
				nodes: 412345, hasNodes: true, pv: []string{"d2d4"}, hasPV: true},
		},
		{
			line: "info depth 12 seldepth 14 score cp -20 upperbound nodes 9000 time 12 pv g8f6 c2c4",
			want: infoLine{depth: 12, selDepth: 14, hasDepth: true, hasSelDepth: true, score: -20, bound: engines.BoundUpper, hasScore: true,
				nodes: 9000, hasNodes: true, pv: []string{"g8f6", "c2c4"}, hasPV: true},
		},
		{
			line: "info depth 30 seldepth 8 multipv 1 score mate -3 nodes 81234 nps 5000000 tbhits 0 time 16 pv e1d1 h4h1 d1e2 h1e1",
			want: infoLine{depth: 30, selDepth: 8, multiPV: 1, hasDepth: true, hasSelDepth: true, score: engines.MateIn(-3), bound: engines.BoundExact, hasScore: true,
				nodes: 81234, hasNodes: true, pv: []string{"e1d1", "h4h1", "d1e2", "h1e1"}, hasPV: true},
		},
		{
			line: "info depth 5 seldepth 5 score mate 2 nodes 800 time 1 pv d8h4 a2a3 h4e1",
			want: infoLine{depth: 5, selDepth: 5, hasDepth: true, hasSelDepth: true, score: engines.MateIn(2), bound: engines.BoundExact, hasScore: true,
				nodes: 800, hasNodes: true, pv: []string{"d8h4", "a2a3", "h4e1"}, hasPV: true},
		},
		{
			line: "info depth 0 score mate 0",
			want: infoLine{hasDepth: true, score: engines.MateIn(0), bound: engines.BoundExact, hasScore: true},
		},
		{
			line: "info string NNUE evaluation using nn-b1a57edbea57.nnue enabled depth 99 score cp 1",
			want: infoLine{},
		},
		{
			line: "info depth 21 currmove g1f3 currmovenumber 3",
			want: infoLine{depth: 21, hasDepth: true},
		},
		{
			line: "info depth 10 seldepth 12 multipv 2 score cp 10 nodes 5000 nps 100 time 50 pv c2c4 e7e5",
			want: infoLine{depth: 10, selDepth: 12, multiPV: 2, hasDepth: true, hasSelDepth: true, score: 10, bound: engines.BoundExact, hasScore: true,
				nodes: 5000, hasNodes: true, pv: []string{"c2c4", "e7e5"}, hasPV: true},
		},
		{
			line: "info depth 20 seldepth 28 multipv 1 score cp 25 wdl 76 910 14 nodes 100 nps 1 hashfull 3 tbhits 0 time 4 pv e2e4 e7e7q",
			want: infoLine{depth: 20, selDepth: 28, multiPV: 1, hasDepth: true, hasSelDepth: true, score: 25, bound: engines.BoundExact, hasScore: true,
				nodes: 100, hasNodes: true, pv: []string{"e2e4", "e7e7q"}, hasPV: true},
		},
		{
			line: "info nodes 1000000 nps 950000 hashfull 10 tbhits 0 time 1052",
			want: infoLine{nodes: 1000000, hasNodes: true},
		},
		{
			line: "info depth x score cp banana frobnicate 7 nodes 12 currline 1 e2e4 e7e5 refutation d1h5 g7g6",
			want: infoLine{nodes: 12, hasNodes: true},
		},
		// Negative counts are garbage, left out; a negative score is a score.
		{
			line: "info depth -3 seldepth -1 score cp -40 nodes -5 hashfull -2 time -7 pv e2e4",
			want: infoLine{score: -40, bound: engines.BoundExact, hasScore: true, pv: []string{"e2e4"}, hasPV: true},
		},
	}
	for _, c := range cases {
		got := parseInfo(strings.Fields(c.line)[1:])
		if !infoLineEqual(got, c.want) {
			t.Errorf("parseInfo(%q)\n got  %+v\n want %+v", c.line, got, c.want)
		}
	}
}

func infoLineEqual(a, b infoLine) bool {
	return a.depth == b.depth && a.selDepth == b.selDepth && a.multiPV == b.multiPV &&
		a.hasDepth == b.hasDepth && a.hasSelDepth == b.hasSelDepth &&
		a.score == b.score && a.bound == b.bound && a.hasScore == b.hasScore &&
		a.nodes == b.nodes && a.hasNodes == b.hasNodes &&
		slices.Equal(a.pv, b.pv) && a.hasPV == b.hasPV
}

// Every figure of a move is one line's: the last main-line line with an
// exact score, else the last bound (fastchess engine/uci_engine.cpp:389-418,
// matchmaking/match/match.cpp:286-306).
func TestSearchInfoMerge(t *testing.T) {
	tests := []struct {
		name            string
		lines           []string
		depth, selDepth int
		score           engines.Score
		bound           engines.Bound
		pv              []string
		nodes           int64
	}{
		{"the last exact main line, with its node count", []string{
			"info depth 1 seldepth 1 score cp 10 nodes 20 time 1 pv e2e4",
			"info depth 2 seldepth 2 multipv 1 score cp 30 lowerbound nodes 50 pv d2d4",
			"info depth 2 seldepth 4 multipv 2 score cp -5 nodes 60 pv e2e4",
			"info depth 2 currmove g1f3 currmovenumber 2",
			"info depth 2 seldepth 4 multipv 1 score cp 22 nodes 80 pv d2d4 d7d5",
			"info string bye",
			"info nodes 99 time 3",
		}, 2, 4, 22, engines.BoundExact, []string{"d2d4", "d7d5"}, 80},
		// Stockfish's failed aspiration window at depth 9 is not the
		// search's result: on this output fastchess 1.8.2 records +0.74/8
		// (seen in a side-by-side run, issue 20), selfplay recorded +0.50/9.
		{"a bound after an exact line is not the result", []string{
			"info depth 8 seldepth 12 multipv 1 score cp 74 nodes 4000 pv e2e4 e7e5",
			"info depth 9 seldepth 14 multipv 1 score cp 50 upperbound nodes 5000 pv e2e4",
		}, 8, 12, 74, engines.BoundExact, []string{"e2e4", "e7e5"}, 4000},
		// The reviewer's E.sh: fastchess 1.8.2 writes {+0.50/5 ..., n=1234, sd=7}.
		{"nor are its nodes and seldepth", []string{
			"info depth 5 seldepth 7 score cp 50 nodes 1234 time 3 pv e2e4",
			"info depth 6 seldepth 8 score cp -900 lowerbound nodes 2345 time 4 pv e2e4",
		}, 5, 7, 50, engines.BoundExact, []string{"e2e4"}, 1234},
		{"the next exact line replaces it", []string{
			"info depth 8 seldepth 12 score cp 74 nodes 4000 pv e2e4 e7e5",
			"info depth 9 seldepth 14 score cp 50 upperbound nodes 5000 pv e2e4",
			"info depth 9 seldepth 15 score cp 41 nodes 6000 pv d2d4",
		}, 9, 15, 41, engines.BoundExact, []string{"d2d4"}, 6000},
		{"only bounds: the last bound, marked", []string{
			"info depth 1 seldepth 1 score cp 30 lowerbound nodes 50 pv d2d4",
			"info depth 1 seldepth 2 score cp 35 lowerbound nodes 70 pv g1f3",
		}, 1, 2, 35, engines.BoundLower, []string{"g1f3"}, 70},
		// The reviewer's F.sh: fastchess 1.8.2 writes {-9.00/6 ..., n=2345, sd=8}.
		{"a line without a score is not considered", []string{
			"info depth 5 nodes 1234 time 3 pv e2e4",
			"info depth 6 seldepth 8 score cp -900 lowerbound nodes 2345 time 4 pv e2e4",
		}, 6, 8, -900, engines.BoundLower, []string{"e2e4"}, 2345},
		{"nor does it complete the scored line", []string{
			"info depth 5 seldepth 7 score cp 12 nodes 100",
			"info depth 5 pv c2c4 e7e5",
			"info depth 6 nodes 300 pv g1f3",
		}, 5, 7, 12, engines.BoundExact, nil, 100},
		{"what the scored line lacks is zero", []string{
			"info depth 9 seldepth 12 score cp 5 nodes 100 pv e2e4",
			"info depth 10 score cp 7 pv d2d4",
		}, 10, 0, 7, engines.BoundExact, []string{"d2d4"}, 0},
		{"no scored line: nothing", []string{
			"info depth 5 seldepth 6 nodes 100 pv e2e4",
		}, 0, 0, 0, engines.BoundNone, nil, 0},
		{"multipv 12 passes fastchess's text search for multipv 1", []string{
			"info depth 3 multipv 1 score cp 5 nodes 10 pv e2e4",
			"info depth 3 multipv 2 score cp 3 nodes 10 pv d2d4",
			"info depth 3 multipv 12 score cp -50 nodes 11 pv a2a3",
		}, 3, 0, -50, engines.BoundExact, []string{"a2a3"}, 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var si searchInfo
			for _, l := range tt.lines {
				si.add(parseInfo(strings.Fields(l)[1:]))
			}
			i := si.info()
			if i.Depth != tt.depth || i.SelDepth != tt.selDepth || i.Score != tt.score || i.Bound != tt.bound || !slices.Equal(i.PV, tt.pv) ||
				i.Nodes != tt.nodes || si.nodes != tt.nodes {
				t.Errorf("info %+v, nodes %d; want depth %d seldepth %d score %d bound %v pv %v nodes %d",
					i, si.nodes, tt.depth, tt.selDepth, tt.score, tt.bound, tt.pv, tt.nodes)
			}
		})
	}
}

func TestParseBestMove(t *testing.T) {
	cases := []struct {
		line, want string
		ok         bool
	}{
		{"bestmove e2e4", "e2e4", true},
		{"bestmove e2e4 ponder e7e5", "e2e4", true},
		{"bestmove e7e8q", "e7e8q", true},
		{"bestmove e7e8Q", "e7e8q", true},
		{"bestmove e1h1", "e1h1", true},
		{"bestmove 0000", "0000", true},
		{"bestmove (none)", "0000", true},
		{"bestmove", "", false},
		{"bestmove xyzzy", "", false},
		{"bestmove e2e9", "", false},
		{"bestmove e7e8k", "", false},
		{"bestmove Nf3", "", false},
	}
	for _, c := range cases {
		got, err := parseBestMove(strings.Fields(c.line)[1:])
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseBestMove(%q) = %q, %v; want %q, ok=%v", c.line, got, err, c.want, c.ok)
		}
		if err != nil && len(c.line) > len("bestmove ") && !strings.Contains(err.Error(), strings.Fields(c.line)[1]) {
			t.Errorf("parseBestMove(%q): error %q does not name the text", c.line, err)
		}
	}
}

func TestCommands(t *testing.T) {
	kiwipete := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	pos := []struct {
		fen   string
		moves []string
		want  string
	}{
		{board.StartFEN, nil, "position startpos"},
		{board.StartFEN, []string{"e2e4", "e7e5"}, "position startpos moves e2e4 e7e5"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", nil, "position startpos"},
		{kiwipete, []string{"e1g1"}, "position fen " + kiwipete + " moves e1g1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 9", nil, "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 9"},
	}
	for _, c := range pos {
		if got := positionCommand(c.fen, c.moves); got != c.want {
			t.Errorf("positionCommand(%q, %v) = %q, want %q", c.fen, c.moves, got, c.want)
		}
	}
	gos := []struct {
		lim  engines.Limits
		want string
	}{
		{engines.Limits{Nodes: 20000}, "go nodes 20000"},
		{engines.Limits{Depth: 8}, "go depth 8"},
		{engines.Limits{MoveTime: 1500 * time.Millisecond}, "go movetime 1500"},
		{engines.Limits{MoveTime: time.Microsecond}, "go movetime 1"},
		{engines.Limits{Depth: 6, Nodes: 1000}, "go depth 6 nodes 1000"},
		{engines.Limits{Clock: &engines.Clock{WhiteTime: 60 * time.Second, BlackTime: 59500 * time.Millisecond, WhiteInc: time.Second, BlackInc: time.Second, MovesToGo: 12}},
			"go wtime 60000 btime 59500 winc 1000 binc 1000 movestogo 12"},
		{engines.Limits{Clock: &engines.Clock{WhiteTime: 100 * time.Millisecond, BlackTime: -time.Second}, Nodes: 5},
			"go wtime 100 btime 0 nodes 5"},
		{engines.Limits{}, "go infinite"},
	}
	for _, c := range gos {
		if got := goCommand(c.lim); got != c.want {
			t.Errorf("goCommand(%+v) = %q, want %q", c.lim, got, c.want)
		}
	}
	clock := &engines.Clock{WhiteTime: 3 * time.Second, BlackTime: time.Second}
	dogs := []struct {
		fen   string
		moves []string
		lim   engines.Limits
		want  time.Duration
	}{
		{board.StartFEN, nil, engines.Limits{Nodes: 5}, 0},
		{board.StartFEN, nil, engines.Limits{MoveTime: time.Second}, time.Second},
		{board.StartFEN, nil, engines.Limits{Clock: clock}, 3 * time.Second},
		{board.StartFEN, []string{"e2e4"}, engines.Limits{Clock: clock}, time.Second},
		{kiwipete, nil, engines.Limits{Clock: clock, MoveTime: 2 * time.Second}, 2 * time.Second},
		{"8/8/8/8/8/8/k7/K7 b - - 0 1", nil, engines.Limits{Clock: clock}, time.Second},
	}
	for _, c := range dogs {
		if got := watchdog(c.fen, c.moves, c.lim); got != c.want {
			t.Errorf("watchdog(%q, %v, %+v) = %v, want %v", c.fen, c.moves, c.lim, got, c.want)
		}
	}
}

// fastchess's hashfull=, tbhits= and nps= are those of the last exact
// scored line (0 when it has none: matchmaking/match/match.cpp:301-304 read them
// from that one line), latency's reported time that of the last info line
// with a time, of any kind (engine/uci_engine.cpp:473-494, lastTime).
func TestSearchInfoFastchessFields(t *testing.T) {
	tests := []struct {
		name     string
		lines    []string
		hashFull int
		tbHits   int64
		nps      int64
		time     time.Duration
	}{
		{"the exact line's", []string{
			"info depth 7 score cp 10 hashfull 12 tbhits 3 nps 700 time 5 pv e2e4",
			"info depth 8 score cp 20 hashfull 40 tbhits 9 nodes 900 nps 112500 time 8 pv e2e4",
		}, 40, 9, 112500, 8 * time.Millisecond},
		{"a bound keeps the exact line's; its time counts", []string{
			"info depth 8 score cp 20 hashfull 40 tbhits 9 nps 800 time 8 pv e2e4",
			"info depth 9 score cp 5 upperbound hashfull 55 tbhits 11 nps 900 time 12 pv d2d4",
		}, 40, 9, 800, 12 * time.Millisecond},
		{"an exact line without them has none", []string{
			"info depth 8 score cp 20 hashfull 40 tbhits 9 nps 800 time 8",
			"info depth 9 score cp 25 time 10",
		}, 0, 0, 0, 10 * time.Millisecond},
		{"the last info line with a time, not info string", []string{
			"info depth 9 score cp 25 hashfull 7 time 10",
			"info nodes 1000 nps 66666 time 15",
			"info string time 99",
		}, 7, 0, 0, 15 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var si searchInfo
			for _, l := range tt.lines {
				si.add(parseInfo(strings.Fields(l)[1:]))
			}
			i := si.info()
			if i.HashFull != tt.hashFull || i.TBHits != tt.tbHits || i.NPS != tt.nps || si.time != tt.time {
				t.Errorf("hashfull %d tbhits %d nps %d time %v; want %d %d %d %v", i.HashFull, i.TBHits, i.NPS, si.time,
					tt.hashFull, tt.tbHits, tt.nps, tt.time)
			}
		})
	}
}
