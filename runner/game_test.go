package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/local"
	"selfplay/openings"
	"selfplay/outcome"
	"selfplay/standings"
	"selfplay/stats"
	"selfplay/store/record"
)

func mustTC(t *testing.T, s string) *config.TimeControl {
	t.Helper()
	tc, err := config.ParseTimeControl(s)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

// TestGameClock charges moves to the clock and checks, after each, the
// forfeit (or none), the mover's remaining time and what its engine is told
// next.
func TestGameClock(t *testing.T) {
	const ms = time.Millisecond
	type step struct {
		side      board.Color
		elapsed   time.Duration
		forfeit   string        // "" for none, else a part of the reason
		remaining time.Duration // the mover's time after the move (tc only)
		movesToGo int           // the mover's moves to go afterwards (tc only)
	}
	margin := 100 * ms
	cases := []struct {
		name   string
		limits config.Limits
		steps  []step
	}{
		{"sudden death with increment", config.Limits{TC: mustTC(t, "60+1"), TimeMargin: margin}, []step{
			{board.White, 2 * time.Second, "", 59 * time.Second, 0},
			{board.Black, 500 * ms, "", 60500 * ms, 0},
			{board.White, 10 * time.Second, "", 50 * time.Second, 0},
		}},
		{"moves per period refill", config.Limits{TC: mustTC(t, "2/10"), TimeMargin: margin}, []step{
			{board.White, 3 * time.Second, "", 7 * time.Second, 1},
			{board.Black, 1 * time.Second, "", 9 * time.Second, 1},
			// The second move ends the period: the next period's 10 s
			// are added to what is left.
			{board.White, 3 * time.Second, "", 14 * time.Second, 2},
			{board.White, 13 * time.Second, "", 1 * time.Second, 1},
			{board.White, 1 * time.Second, "", 10 * time.Second, 2},
		}},
		{"moves per period with increment", config.Limits{TC: mustTC(t, "1/5+0.5"), TimeMargin: margin}, []step{
			{board.White, 2 * time.Second, "", 8500 * ms, 1},
		}},
		{"over the time within the margin", config.Limits{TC: mustTC(t, "10"), TimeMargin: margin}, []step{
			{board.White, 10050 * ms, "", -50 * ms, 0},
			{board.White, 100 * ms, "was 150ms over its time (margin 100ms)", -150 * ms, 0},
		}},
		{"no margin", config.Limits{TC: mustTC(t, "1+5"), TimeMargin: 0}, []step{
			{board.Black, 1001 * ms, "was 1ms over its time (margin 0s)", -1 * ms, 0},
		}},
		{"movetime within the margin", config.Limits{MoveTime: time.Second, TimeMargin: margin}, []step{
			{board.White, 1100 * ms, "", 0, 0},
			{board.Black, 50 * ms, "", 0, 0},
		}},
		{"movetime forfeit", config.Limits{MoveTime: time.Second, TimeMargin: margin}, []step{
			{board.Black, 1101 * ms, "took 1.101s for a 1s move (margin 100ms)", 0, 0},
		}},
		{"node limit has no clock", config.Limits{Nodes: 100, TimeMargin: margin}, []step{
			{board.White, time.Hour, "", 0, 0},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clock := newGameClock(c.limits.TC, c.limits.TC)
			for i, s := range c.steps {
				got := clock.spend(s.side, s.elapsed, c.limits)
				if (got == "") != (s.forfeit == "") || !strings.Contains(got, s.forfeit) {
					t.Fatalf("step %d: forfeit %q, want %q", i, got, s.forfeit)
				}
				if clock.remaining[s.side] != s.remaining {
					t.Errorf("step %d: %s has %v left, want %v", i, sideName(s.side), clock.remaining[s.side], s.remaining)
				}
				if c.limits.TC == nil || got != "" {
					continue
				}
				ec := clock.engineClock(s.side)
				if ec.MovesToGo != s.movesToGo || ec.WhiteInc != c.limits.TC.Increment || ec.BlackInc != c.limits.TC.Increment ||
					ec.WhiteTime != clock.remaining[board.White] || ec.BlackTime != clock.remaining[board.Black] {
					t.Errorf("step %d: engine clock %+v, want moves to go %d and the remaining times", i, ec, s.movesToGo)
				}
			}
		})
	}
}

func TestMoveLimits(t *testing.T) {
	tc := mustTC(t, "40/60+1")
	tr := &config.Tournament{Seed: 3, Limits: config.Limits{TC: tc, TimeMargin: 200 * time.Millisecond}}
	clock := newGameClock(tc, tc)
	clock.spend(board.White, 5*time.Second, tr.Limits)
	lim, timeout := moveLimits(tr.Limits, tr.Seed, 0, 0, board.White, clock, false)
	if lim.Clock == nil || lim.Clock.WhiteTime != 56*time.Second || lim.Clock.MovesToGo != 39 || timeout != 56200*time.Millisecond {
		t.Errorf("tc: %+v %+v, timeout %v", lim, lim.Clock, timeout)
	}
	tr.Limits = config.Limits{MoveTime: time.Second, TimeMargin: 50 * time.Millisecond, MoveTimeout: time.Minute}
	if lim, timeout := moveLimits(tr.Limits, tr.Seed, 0, 0, board.Black, newGameClock(nil, nil), false); lim.MoveTime != time.Second || timeout != 1050*time.Millisecond {
		t.Errorf("movetime: %+v, timeout %v", lim, timeout)
	}
	tr.Limits = config.Limits{Depth: 7, MoveTimeout: time.Minute}
	// move_timeout bounds only external engines' nodes and depth searches.
	for _, external := range []bool{false, true} {
		want := map[bool]time.Duration{false: 0, true: time.Minute}[external]
		tr.Limits = config.Limits{Depth: 7, MoveTimeout: time.Minute}
		if lim, timeout := moveLimits(tr.Limits, tr.Seed, 0, 0, board.Black, newGameClock(nil, nil), external); lim.Depth != 7 || timeout != want {
			t.Errorf("depth, external %v: %+v, timeout %v", external, lim, timeout)
		}
		tr.Limits = config.Limits{Nodes: 1000, NodesJitter: 0.2, MoveTimeout: time.Minute}
		if lim, timeout := moveLimits(tr.Limits, tr.Seed, 4, 9, board.Black, newGameClock(nil, nil), external); lim.Nodes != jitteredNodes(1000, 0.2, 3, 4, 9) || timeout != want {
			t.Errorf("nodes, external %v: %+v, timeout %v", external, lim, timeout)
		}
	}
}

func TestJitteredNodes(t *testing.T) {
	if n := jitteredNodes(1000, 0, 1, 2, 3); n != 1000 {
		t.Errorf("no jitter: %d", n)
	}
	if n := jitteredNodes(1, 0.5, 1, 0, 0); n < 1 {
		t.Errorf("a budget of %d nodes", n)
	}
	const nodes, jitter = 10000, 0.1
	seen := map[int64]bool{}
	for seed := uint64(1); seed <= 3; seed++ {
		for pair := 0; pair < 20; pair++ {
			for ply := 0; ply < 50; ply++ {
				n := jitteredNodes(nodes, jitter, seed, pair, ply)
				if n < nodes*(1-jitter) || n > nodes*(1+jitter) {
					t.Fatalf("seed %d pair %d ply %d: %d nodes, outside ±%v of %d", seed, pair, ply, n, jitter, nodes)
				}
				if again := jitteredNodes(nodes, jitter, seed, pair, ply); again != n {
					t.Fatalf("seed %d pair %d ply %d: %d then %d", seed, pair, ply, n, again)
				}
				seen[n] = true
			}
		}
	}
	// Spread over the range: 3000 draws give many values, some near each end.
	lo, hi := int64(nodes), int64(nodes)
	for n := range seen {
		lo, hi = min(lo, n), max(hi, n)
	}
	if len(seen) < 1000 || lo > nodes*(1-jitter)+100 || hi < nodes*(1+jitter)-100 {
		t.Errorf("%d distinct budgets in [%d, %d]", len(seen), lo, hi)
	}
	// Each of seed, pair and ply changes the draw.
	base := jitteredNodes(nodes, jitter, 1, 1, 1)
	if jitteredNodes(nodes, jitter, 2, 1, 1) == base && jitteredNodes(nodes, jitter, 1, 2, 1) == base && jitteredNodes(nodes, jitter, 1, 1, 2) == base {
		t.Error("the budget depends on neither seed, pair nor ply")
	}
}

// scripted is a fake engine: it records the limits of every search and
// answers with play(position) (default: the first legal move in UCI order,
// score 0).
type scripted struct {
	name       string
	play       func(b *board.Board) (engines.Result, error)
	newGameErr error // NewGame's answer
	limits     []engines.Limits
	fens       []string // the start position of every search
}

func (e *scripted) Name() string                      { return e.name }
func (e *scripted) NewGame(ctx context.Context) error { return e.newGameErr }
func (e *scripted) Close() error                      { return nil }
func (e *scripted) Search(ctx context.Context, fen string, moves []string, lim engines.Limits) (engines.Result, error) {
	e.limits = append(e.limits, lim)
	e.fens = append(e.fens, fen)
	b, err := board.FromFEN(fen)
	if err != nil {
		return engines.Result{}, err
	}
	if err := b.ApplyUCI(moves); err != nil {
		return engines.Result{}, err
	}
	if e.play != nil {
		return e.play(b)
	}
	return engines.Result{Move: firstMove(b)}, nil
}

// firstMove is the position's first legal move in UCI order.
func firstMove(b *board.Board) string {
	var l board.MoveList
	b.Generate(&l, board.All)
	var ucis []string
	for _, m := range l.Moves[:l.N] {
		ucis = append(ucis, m.UCI())
	}
	slices.Sort(ucis)
	return ucis[0]
}

// Both games of a pair get the same node budget at every ply, whichever
// engine is to move.
func TestNodeBudgetsEqualInBothGamesOfAPair(t *testing.T) {
	tr := &config.Tournament{Name: "t", Seed: 9,
		Limits:       config.Limits{Nodes: 5000, NodesJitter: 0.3, MoveTimeout: time.Minute},
		Adjudication: config.Adjudication{Move: 10, Policy: config.PolicyDraw}}
	o := openings.FHR25()[3]
	budgets := func(index int) []int64 {
		a, b := &scripted{name: "a"}, &scripted{name: "b"}
		white, black := engines.Engine(a), engines.Engine(b)
		if index == 1 {
			white, black = b, a
		}
		if _, err := playGame(context.Background(), tr, gameJob{pair: 7, index: index, opening: o, white: "w", black: "b"}, white, black, nil); err != nil {
			t.Fatal(err)
		}
		// Interleave the plies: White's searches are the even ones.
		w, bl := a.limits, b.limits
		if index == 1 {
			w, bl = bl, w
		}
		var out []int64
		for i := range w {
			out = append(out, w[i].Nodes)
			if i < len(bl) {
				out = append(out, bl[i].Nodes)
			}
		}
		return out
	}
	g0, g1 := budgets(0), budgets(1)
	if len(g0) < 10 || !slices.Equal(g0, g1) {
		t.Fatalf("budgets differ between the games of a pair:\n%v\n%v", g0, g1)
	}
	if slices.Min(g0) == slices.Max(g0) {
		t.Errorf("no jitter: %v", g0)
	}
}

// An en-passant square no legal capture can use is "-" in the start
// position the game records and the engines get, as fastchess's board
// writes it (chess.hpp:3443-3459); one a capture can use stays.
func TestUsableEnPassant(t *testing.T) {
	for _, c := range []struct{ name, fen, want string }{
		{"1. e4 e5: no white pawn beside e5",
			"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
			"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
		{"exf6 e.p. is legal",
			"rnbqkbnr/ppppp1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
			"rnbqkbnr/ppppp1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"},
		{"bxc6 e.p. would expose the king on a5 to the rook on h5",
			"4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2",
			"4k3/8/8/KPp4r/8/8/8/8 w - - 0 2"},
		{"Black to move, d4 usable", "4k3/8/8/8/2Pp4/8/8/4K3 b - c3 0 1", "4k3/8/8/8/2Pp4/8/8/4K3 b - c3 0 1"},
		{"no square", openings.StandardStartFEN, openings.StandardStartFEN},
	} {
		got, err := usableEnPassant(c.fen)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	o := openings.Opening{ID: "e4e5", StartFEN: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"}
	want := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	tr := &config.Tournament{Name: "t", Limits: config.Limits{Nodes: 10, MoveTimeout: time.Minute},
		Adjudication: config.Adjudication{Move: 3, Policy: config.PolicyDraw}}
	w, b := &scripted{name: "w"}, &scripted{name: "b"}
	g, err := playGame(context.Background(), tr, gameJob{opening: o, white: "w", black: "b"}, w, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.StartFEN != want || len(w.fens) == 0 || w.fens[0] != want || b.fens[0] != want {
		t.Errorf("recorded %q, sent %q and %q; want %q", g.StartFEN, w.fens, b.fens, want)
	}
}

// arbiterAfter is an arbiter at fen after the UCI moves.
func arbiterAfter(t *testing.T, fen string, moves ...string) *arbiter {
	t.Helper()
	a, err := newArbiter(fen)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range moves {
		m := a.find(u)
		if m == nil {
			t.Fatalf("%s is not legal in %s", u, a.pos)
		}
		if _, err := a.play(m); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

// TestResignAndDrawAdjudication feeds the adjudicator the scores of a game
// (each the mover's own view) and checks after which ply it ends the game.
func TestResignAndDrawAdjudication(t *testing.T) {
	// A long enough line of legal moves from the initial position.
	line := []string{"g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8", "e2e3", "e7e6", "f1e2", "f8e7", "e2f1", "e7f8"}
	cases := []struct {
		name   string
		cfg    config.Adjudication
		scores []engines.Score // ply by ply, White first
		ply    int             // the ply after which the game ends (1-based), 0: not ended
		result outcome.Result
		reason string
	}{
		{"white resigns", config.Adjudication{ResignScore: 500, ResignMoves: 2},
			[]engines.Score{-600, 600, -500, 700}, 4, "0-1", "Black wins by adjudication: both engines scored 500 cp or more against White for 2 moves"},
		{"black resigns", config.Adjudication{ResignScore: 500, ResignMoves: 2},
			[]engines.Score{600, -600, 600, -600}, 4, "1-0", "White wins by adjudication"},
		{"the winner must agree", config.Adjudication{ResignScore: 500, ResignMoves: 2},
			[]engines.Score{-600, 100, -600, 100, -600, 100}, 0, "", ""},
		{"the run must be consecutive", config.Adjudication{ResignScore: 500, ResignMoves: 2},
			[]engines.Score{-600, 600, -499, 600, -600, 600}, 0, "", ""},
		{"a run restarts", config.Adjudication{ResignScore: 500, ResignMoves: 2},
			[]engines.Score{-600, 600, -499, 600, -600, 600, -600}, 7, "0-1", "Black wins by adjudication"},
		// One-sided (fastchess's default): the loser's own scores alone,
		// whatever the winner's say.
		{"one-sided: white resigns alone", config.Adjudication{ResignScore: 500, ResignMoves: 2, ResignOneSided: true},
			[]engines.Score{-600, 100, -500, 100}, 3, "0-1", "Black wins by adjudication: White scored -500 cp or less for 2 moves"},
		{"one-sided: black resigns alone", config.Adjudication{ResignScore: 500, ResignMoves: 2, ResignOneSided: true},
			[]engines.Score{0, -700, 0, -501}, 4, "1-0", "White wins by adjudication: Black scored -500 cp or less for 2 moves"},
		{"one-sided: the run must be consecutive", config.Adjudication{ResignScore: 500, ResignMoves: 2, ResignOneSided: true},
			[]engines.Score{-600, 600, -499, 600, -600, 600}, 0, "", ""},
		{"one-sided: a winning score resigns nobody", config.Adjudication{ResignScore: 500, ResignMoves: 2, ResignOneSided: true},
			[]engines.Score{600, 600, 600, 600, 600, 600}, 0, "", ""},
		{"two-sided: one engine alone resigns nobody", config.Adjudication{ResignScore: 500, ResignMoves: 2},
			[]engines.Score{-600, 100, -500, 100, -600, 100}, 0, "", ""},
		{"draw", config.Adjudication{DrawScore: 10, DrawMoves: 2},
			[]engines.Score{5, -10, 0, 3}, 4, "1/2-1/2", "Draw by adjudication: both engines scored within 10 cp for 2 moves"},
		{"draw needs both engines", config.Adjudication{DrawScore: 10, DrawMoves: 2},
			[]engines.Score{5, -11, 0, 3, 5, 20, 1}, 0, "", ""},
		{"draw interrupted", config.Adjudication{DrawScore: 10, DrawMoves: 2},
			[]engines.Score{5, 5, 50, 5, 5, 5, 5}, 7, "1/2-1/2", "Draw by adjudication"},
		// Draw adjudication from move 2: White's and Black's first moves
		// (plies 1 and 2) are move 1 and do not count, even though Black's
		// leaves full-move number 2 on the board; the run starts at ply 3
		// and ends after Black's move 3 (ply 6).
		{"draw from move 2", config.Adjudication{DrawScore: 10, DrawMoves: 2, DrawMoveFrom: 2},
			[]engines.Score{0, 0, 0, 0, 0, 0, 0}, 6, "1/2-1/2", "Draw by adjudication"},
		{"draw from move 1", config.Adjudication{DrawScore: 10, DrawMoves: 2, DrawMoveFrom: 1},
			[]engines.Score{0, 0, 0, 0, 0, 0, 0}, 4, "1/2-1/2", "Draw by adjudication"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			adj := &adjudicator{cfg: c.cfg}
			a := arbiterAfter(t, openings.StandardStartFEN)
			for i, s := range c.scores {
				side := a.b.Side()
				a = arbiterAfter(t, openings.StandardStartFEN, line[:i+1]...)
				result, reason := adj.afterMove(side, s, a)
				if result == "" {
					continue
				}
				if i+1 != c.ply || result != c.result || !strings.HasPrefix(reason, c.reason) {
					t.Fatalf("ended after ply %d: %s (%s); want ply %d, %s (%s)", i+1, result, reason, c.ply, c.result, c.reason)
				}
				return
			}
			if c.ply != 0 {
				t.Fatalf("not ended; want ply %d, %s", c.ply, c.result)
			}
		})
	}
}

// The draw rule counts a move by its number from the initial position,
// whatever the opening's FEN move number.
func TestDrawAdjudicationMoveNumberFromFEN(t *testing.T) {
	const fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	adj := &adjudicator{cfg: config.Adjudication{DrawScore: 10, DrawMoves: 1, DrawMoveFrom: 4}}
	// White's move 3 is out of range; Black's move 3 too (it leaves move 4
	// on the board); White's move 4 and Black's move 4 end it.
	moves := []string{"f1c4", "g8f6", "b1c3", "f8c5"}
	for i := range moves {
		a := arbiterAfter(t, fen, moves[:i+1]...)
		side := board.White
		if i%2 == 1 {
			side = board.Black
		}
		result, _ := adj.afterMove(side, 0, a)
		if (result != "") != (i == 3) {
			t.Fatalf("after ply %d: result %q", i+1, result)
		}
	}
}

func TestMoveLimitPolicies(t *testing.T) {
	// White is a queen up, White to move.
	const fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"
	cases := []struct {
		name   string
		cfg    config.Adjudication
		last   [2]engines.Score // each side's last score, its own view
		have   bool             // both sides have reported a score
		result outcome.Result
		reason string
	}{
		{"draw policy", config.Adjudication{Move: 60, Policy: config.PolicyDraw}, [2]engines.Score{900, -900}, true, "1/2-1/2", "Draw by adjudication: at move 60"},
		{"agree without scores", config.Adjudication{Move: 60, Policy: config.PolicyAgree, Margin: 200}, [2]engines.Score{}, false, "1/2-1/2", "Draw by adjudication: at move 60, no scores to agree on"},
		{"agree on White", config.Adjudication{Move: 60, Policy: config.PolicyAgree, Margin: 200}, [2]engines.Score{250, -200}, true, "1-0", "White wins by adjudication: at move 60, engines agree (+2.50, +2.00)"},
		{"agree on Black", config.Adjudication{Move: 60, Policy: config.PolicyAgree, Margin: 200}, [2]engines.Score{-300, 200}, true, "0-1", "Black wins by adjudication: at move 60, engines agree (-3.00, -2.00)"},
		{"agree, one short of the margin", config.Adjudication{Move: 60, Policy: config.PolicyAgree, Margin: 200}, [2]engines.Score{250, -199}, true, "1/2-1/2", "Draw by adjudication: at move 60, engines do not agree on a winner (+2.50, +1.99)"},
		{"agree, opposite views", config.Adjudication{Move: 60, Policy: config.PolicyAgree, Margin: 200}, [2]engines.Score{300, 300}, true, "1/2-1/2", "Draw by adjudication: at move 60, engines do not agree on a winner (+3.00, -3.00)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			adj := &adjudicator{cfg: c.cfg, last: c.last, haveLast: [2]bool{c.have, c.have}}
			result, reason := adj.atMoveLimit(context.Background(), arbiterAfter(t, fen), nil, fen, nil)
			if result != c.result || !strings.HasPrefix(reason, c.reason) {
				t.Errorf("%s (%s), want %s (%s)", result, reason, c.result, c.reason)
			}
		})
	}
	// The referee scores the position itself, from White's view even with
	// Black to move.
	referee, err := local.NewVariant("plain", "plain", 1)
	if err != nil {
		t.Fatal(err)
	}
	adj := &adjudicator{cfg: config.Adjudication{Move: 60, Policy: config.PolicyReferee, Referee: "plain", RefereeNodes: 2000, Margin: 200}}
	for _, c := range []struct {
		fen    string
		result outcome.Result
	}{
		{fen, "1-0"},
		{"3qk3/8/8/8/8/8/8/4K3 b - - 0 1", "0-1"},
		{"3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "0-1"},
		{"4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", "1/2-1/2"},
	} {
		result, reason := adj.atMoveLimit(context.Background(), arbiterAfter(t, c.fen), referee, c.fen, nil)
		if result != c.result || !strings.Contains(reason, "by adjudication: at move 60, ") || !strings.Contains(reason, "referee plain scores") {
			t.Errorf("referee in %s: %s (%s), want %s", c.fen, result, reason, c.result)
		}
	}
}

func TestTimeLossAndMatingMaterial(t *testing.T) {
	cases := []struct {
		fen     string
		canMate [2]bool // White, Black
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", [2]bool{false, false}},
		{"4k3/8/8/8/8/8/8/3NK3 w - - 0 1", [2]bool{false, false}},
		{"4k3/8/8/8/8/8/8/3BK3 w - - 0 1", [2]bool{false, false}},
		{"4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", [2]bool{true, false}},
		{"4k3/8/8/8/8/8/8/2BNK3 w - - 0 1", [2]bool{true, false}},
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", [2]bool{true, false}},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", [2]bool{true, false}},
		{"3qk3/8/8/8/8/8/8/4K3 w - - 0 1", [2]bool{false, true}},
		{"3nk3/8/8/8/8/8/8/R3K3 w - - 0 1", [2]bool{true, false}},
		{"2bbk3/8/8/8/8/8/8/4K3 w - - 0 1", [2]bool{false, true}},
	}
	for _, c := range cases {
		a := arbiterAfter(t, c.fen)
		for _, side := range []board.Color{board.White, board.Black} {
			if got := a.canMate(side); got != c.canMate[side] {
				t.Errorf("%s: canMate(%s) = %v", c.fen, sideName(side), got)
			}
			// side oversteps its time: it loses if the opponent could mate.
			want := outcome.Draw
			if c.canMate[side.Other()] {
				want = lossFor(side)
			}
			if got := timeLossFor(side, a); got != want {
				t.Errorf("%s: %s loses on time: %s, want %s", c.fen, sideName(side), got, want)
			}
		}
	}
}

// A fault charges the engine that made it, also in a draw; other endings
// charge no one.
func TestCulprit(t *testing.T) {
	illegal := func(*board.Board) (engines.Result, error) { return engines.Result{Move: "a1a8"}, nil }
	failing := func(*board.Board) (engines.Result, error) { return engines.Result{}, errors.New("boom") }
	slow := func(b *board.Board) (engines.Result, error) {
		time.Sleep(30 * time.Millisecond)
		return engines.Result{Move: firstMove(b)}, nil
	}
	standard := openings.Opening{ID: "start", StartFEN: openings.StandardStartFEN}
	pawnVsKing := openings.Opening{ID: "kp", StartFEN: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}
	nodes := config.Limits{Nodes: 10, MoveTimeout: time.Minute}
	cases := []struct {
		name         string
		opening      openings.Opening
		limits       config.Limits
		white, black func(*board.Board) (engines.Result, error)
		result       outcome.Result
		term         record.Termination
		culprit      string
	}{
		{"illegal move by Black", standard, nodes, nil, illegal, "1-0", record.IllegalMove, "b"},
		{"engine error by White", standard, nodes, failing, nil, "0-1", record.EngineError, "w"},
		// White forfeits on time, but Black's lone king cannot mate.
		{"drawn time forfeit", pawnVsKing, config.Limits{MoveTime: time.Millisecond, TimeMargin: time.Millisecond, MoveTimeout: time.Minute},
			slow, nil, "1/2-1/2", record.TimeForfeit, "w"},
		{"adjudication", standard, nodes, nil, nil, "1/2-1/2", record.Adjudication, ""},
		// Faults at the new game, classified by the contract's kinds,
		// before any move.
		{"crash at the new game by Black", standard, nodes, nil, nil, "1-0", record.EngineCrash, "b"},
		{"timeout at the new game by White", standard, nodes, nil, nil, "0-1", record.EngineTimeout, "w"},
	}
	newGameErrs := map[string][2]error{
		"crash at the new game by Black":   {nil, fmt.Errorf("restart: %w", engines.ErrCrashed)},
		"timeout at the new game by White": {fmt.Errorf("isready: %w", engines.ErrTimeout), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := &config.Tournament{Name: "t", Limits: c.limits, Adjudication: config.Adjudication{Move: 5, Policy: config.PolicyDraw}}
			errs := newGameErrs[c.name]
			g, err := playGame(context.Background(), tr, gameJob{opening: c.opening, white: "w", black: "b"},
				&scripted{name: "w", play: c.white, newGameErr: errs[0]}, &scripted{name: "b", play: c.black, newGameErr: errs[1]}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Result != c.result || g.Termination != c.term || g.Culprit != c.culprit {
				t.Errorf("%s %s (%s), culprit %q; want %s %s, culprit %q", g.Result, g.Termination, g.Reason, g.Culprit, c.result, c.term, c.culprit)
			}
			if errs != [2]error{} && (g.Plies != 0 || !strings.Contains(g.Reason, "at the new game")) {
				t.Errorf("a fault at the new game: %d plies played, reason %q", g.Plies, g.Reason)
			}
		})
	}
}

func TestPGNHeaderFromOpening(t *testing.T) {
	tr := &config.Tournament{Name: "t", Limits: config.Limits{TC: mustTC(t, "40/120+0.5")}}
	h, err := pgnHeaderFor(tr, "a", "b", openings.FHR25()[0])
	if err != nil || h != (pgnHeader{event: "t", site: "selfplay", timeControl: "40/120+0.5", standard: true, startMove: 1}) {
		t.Errorf("standard start: %+v, %v", h, err)
	}
	tr.Limits = config.Limits{Nodes: 5}
	h, err = pgnHeaderFor(tr, "a", "b", openings.Opening{ID: "x", StartFEN: "8/8/8/8/8/8/8/K6k b - - 3 12"})
	if err != nil || h != (pgnHeader{event: "t", site: "selfplay", timeControl: "-", standard: false, startMove: 12, blackFirst: true}) {
		t.Errorf("black to move at move 12: %+v, %v", h, err)
	}
	// fastchess's -event and -site (pgn_builder.cpp:28-29).
	tr.Event, tr.Site = "Weekly test", "lab"
	if h, err = pgnHeaderFor(tr, "a", "b", openings.FHR25()[0]); err != nil || h.event != "Weekly test" || h.site != "lab" {
		t.Errorf("event and site: %+v, %v", h, err)
	}
}

// writePGN's whole output: tags (escaped), move numbers from the start
// position, comments, wrapping at 79 columns, the result and the reason.
func TestWritePGN(t *testing.T) {
	day := time.Date(2024, 3, 1, 12, 0, 0, 0, time.Local)
	cases := []struct {
		name string
		g    *record.Game
		h    pgnHeader
		want string
	}{
		{
			name: "standard start",
			g: &record.Game{Pair: 3, Index: 1, White: `a\b`, Black: `"p"`, Result: "0-1", Termination: record.Checkmate,
				Reason: "Black mates {in the end}\nfinally", OpeningID: "fhr-01", OpeningName: "1. e4 e5", Started: day,
				StartFEN: openings.StandardStartFEN,
				Moves: []record.Move{
					{SAN: "e4", Book: true}, {SAN: "e5", Book: true},
					{SAN: "Nf3", Score: 31, Depth: 12, Nodes: 8123, Time: 42 * time.Millisecond},
					{SAN: "Nc6", Score: -25, Depth: 11, Nodes: 9000, Time: 2 * time.Millisecond},
					{SAN: "Bc4", Score: 0, Depth: 13, Nodes: 12000, Time: 1500 * time.Millisecond},
					{SAN: "Nf6", Score: int(engines.MateIn(2)), Depth: 9, Nodes: 100, Time: time.Millisecond},
					{SAN: "Ng5", Score: int(engines.MateIn(-2)), Depth: 8, Nodes: 50, Time: 0},
					{SAN: "Qe7", Score: int(engines.MateIn(1)), Depth: 7, Nodes: 20, Time: 0},
				}},
			h: pgnHeader{event: `fhr "vs" plain`, site: "selfplay", timeControl: "40/120+0.5", standard: true, startMove: 1},
			want: `[Event "fhr \"vs\" plain"]
[Site "selfplay"]
[Date "2024.03.01"]
[Round "4.2"]
[White "a\\b"]
[Black "\"p\""]
[Result "0-1"]
[TimeControl "40/120+0.5"]
[PlyCount "8"]
[Termination "checkmate"]
[Opening "1. e4 e5"]

1. e4 {book} 1... e5 {book} 2. Nf3 {+0.31/12 8123N 0.042s} 2... Nc6 {-0.25/11
9000N 0.002s} 3. Bc4 {0.00/13 12000N 1.500s} 3... Nf6 {+M3/9 100N 0.001s} 4.
Ng5 {-M4/8 50N 0.000s} 4... Qe7 {+M1/7 20N 0.000s} 0-1 {Black mates (in the
end) finally}

`,
		},
		{
			name: "Black to move at move 12, no opening name, no reason",
			g: &record.Game{White: "a", Black: "b", Result: "1/2-1/2", Termination: record.Adjudication, OpeningID: "x",
				Started: day, StartFEN: "8/8/8/8/8/8/8/K6k b - - 3 12",
				Moves: []record.Move{{SAN: "Kg2", Book: true}, {SAN: "Kb2"}, {SAN: "Kf3"}}},
			h: pgnHeader{event: "t", site: "selfplay", timeControl: "-", startMove: 12, blackFirst: true},
			want: `[Event "t"]
[Site "selfplay"]
[Date "2024.03.01"]
[Round "1.1"]
[White "a"]
[Black "b"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "8/8/8/8/8/8/8/K6k b - - 3 12"]
[TimeControl "-"]
[PlyCount "3"]
[Termination "adjudication"]
[Opening "x"]

12... Kg2 {book} 13. Kb2 {0.00/0 0N 0.000s} 13... Kf3 {0.00/0 0N 0.000s}
1/2-1/2

`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := writePGN(c.g, c.h); got != c.want {
				t.Errorf("PGN:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// Once the SPRT has decided, later games (finished in flight) do not change
// the result, even games that would have undone the decision.
func TestSPRTStateDecisionIsFinal(t *testing.T) {
	tr := &config.Tournament{Name: "m", Format: config.FormatMatch, Engines: []string{"a", "b"},
		SPRT: &stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: stats.LogisticElo}}
	tally := standings.NewTally()
	s := newSPRTState(tr, tally)
	pair := 0
	addPair := func(first0, first1 string) { // results of the pair's games, White's view
		t.Helper()
		for i, r := range []string{first0, first1} {
			g := &record.Game{Pair: pair, Index: i, White: "a", Black: "b", Result: outcome.Result(r)}
			if i == 1 {
				g.White, g.Black = "b", "a"
			}
			if err := tally.Add(g); err != nil {
				t.Fatal(err)
			}
			s.update(tally)
		}
		pair++
	}
	// a loses pair after pair (a draw now and then keeps the LLR
	// defined) until H0 is accepted.
	for i := 0; !s.decided(); i++ {
		if i == 200 {
			t.Fatalf("no decision after 200 pairs: %+v", s.result())
		}
		if i%3 == 0 {
			addPair("1/2-1/2", "1/2-1/2")
		} else {
			addPair("0-1", "1-0")
		}
	}
	decision := s.result()
	if decision.State != stats.SPRTAcceptH0 {
		t.Fatalf("decision %v, want H0", decision.State)
	}
	// Then a wins everything: enough to undo the decision.
	for range 3 * pair {
		addPair("1-0", "0-1")
	}
	if s.result() != decision {
		t.Fatalf("the decision changed: %+v -> %+v", decision, s.result())
	}
	fresh := newSPRTState(tr, tally)
	if fresh.result().State == stats.SPRTAcceptH0 {
		t.Fatalf("the later games would not have undone the decision (%+v): the test proves nothing", fresh.result())
	}
}

// A move that comes after the runner's deadline (from an engine that
// ignored its context) is a recorded timeout, never a normal move.
func TestLateMoveIsATimeout(t *testing.T) {
	late := func(b *board.Board) (engines.Result, error) {
		time.Sleep(50 * time.Millisecond)
		return engines.Result{Move: firstMove(b)}, nil
	}
	tr := &config.Tournament{Name: "t", Limits: config.Limits{Nodes: 10, MoveTimeout: 10 * time.Millisecond},
		Adjudication: config.Adjudication{Move: 5, Policy: config.PolicyDraw}}
	job := gameJob{opening: openings.Opening{ID: "start", StartFEN: openings.StandardStartFEN}, white: "w", black: "b", external: [2]bool{false, true}}
	g, err := playGame(context.Background(), tr, job, &scripted{name: "w", play: late}, &scripted{name: "b", play: late}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// White is in-process: no move_timeout; Black's first move is late.
	if g.Result != "1-0" || g.Termination != record.EngineTimeout || g.Culprit != "b" || g.Plies != 1 {
		t.Fatalf("%s %s (%s), culprit %q, %d plies; want Black's timeout after one move", g.Result, g.Termination, g.Reason, g.Culprit, g.Plies)
	}
}
