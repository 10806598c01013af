package search

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"selfplay/engines"
	"selfplay/engines/board"
)

// perpetual is a position where White gives check on d8 and Black's king
// goes back and forth: d1d8 h8g7 d8d1 g7h8 repeats it.
const perpetual = "7k/7p/6p1/8/8/8/5PPP/3Q2K1 w - - 0 1"

// TestQuiesceDrawByRule: a quiescence node (a check can reach the horizon
// when extensions stop) is a draw by repetition or by the fifty-move rule
// before its evasions are searched, so no line goes on past the draw; a
// mate on the hundredth ply is still a mate.
func TestQuiesceDrawByRule(t *testing.T) {
	// The check d1d8 reaches the position after the first d1d8 again,
	// inside the search (the root is the start).
	s, _ := node(t, "plain", perpetual, "d1d8", "h8g7", "d8d1", "g7h8", "d1d8")
	s.rootPly = 0
	if v := s.quiesce(-infinity, infinity, 5, checkFlags(true), false); v != drawScore || s.plies[5].pvLen != 0 {
		t.Errorf("repetition in check at the horizon: %s with a PV of %d moves, want a draw", v.UCI(), s.plies[5].pvLen)
	}
	// Black in check after the hundredth reversible ply, with evasions.
	s, _ = node(t, "plain", "R3k3/8/8/8/8/8/8/4K3 b - - 100 80")
	if v := s.quiesce(-infinity, infinity, 1, checkFlags(true), false); v != drawScore {
		t.Errorf("fifty-move rule in check: %s, want a draw", v.UCI())
	}
	// Mated on the hundredth ply: the mate counts.
	s, _ = node(t, "plain", "R3k3/8/4K3/8/8/8/8/8 b - - 100 80")
	if v := s.quiesce(-infinity, infinity, 1, checkFlags(true), false); v != -engines.Mate+1 {
		t.Errorf("mate on the fifty-move ply: %s, want mated", v.UCI())
	}
}

// TestPVEndsAtDraw: the reported PV ends with the move that draws by rule,
// whatever line the search assembled behind it.
func TestPVEndsAtDraw(t *testing.T) {
	tests := []struct {
		name    string
		fen     string
		history string // moves played before the root
		line    string // the line the search would report
		want    string
	}{
		// The position after d1d8 occurred twice before: d1d8 makes the
		// threefold, h8g7 must not follow.
		{"threefold repetition", perpetual, "d1d8 h8g7 d8d1 g7h8 d1d8 h8g7 d8d1 g7h8",
			"d1d8 h8g7 d8d4 g7h6", "d1d8"},
		// Twofold only: the line goes on.
		{"twofold is no draw", perpetual, "d1d8 h8g7 d8d1 g7h8", "d1d8 h8g7 d8d4", "d1d8 h8g7 d8d4"},
		{"fifty-move rule", "4k3/8/8/8/8/8/8/R3K3 w - - 98 80", "", "a1a2 e8e7 a2a3 e7e6", "a1a2 e8e7"},
		{"insufficient material", "4k3/8/8/8/8/8/3r4/3NK3 w - - 0 1", "", "e1d2 e8e7 d2e3", "e1d2"},
		{"no draw", board.StartFEN, "", "e2e4 e7e5 g1f3", "e2e4 e7e5 g1f3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustSearcher(t, "plain")
			b := mustBoard(t, tt.fen)
			if err := b.ApplyUCI(strings.Fields(tt.history)); err != nil {
				t.Fatal(err)
			}
			s.b = b
			before := b.FEN()
			line := strings.Fields(tt.line)
			probe := b.Clone()
			for i, text := range line {
				m, err := probe.ParseUCI(text)
				if err != nil {
					t.Fatalf("line move %s: %v", text, err)
				}
				probe.MakeMove(m)
				s.plies[0].pv[i] = m
			}
			s.plies[0].pvLen = len(line)
			res := s.result(3, 0)
			if got := strings.Join(res.Info.PV, " "); got != tt.want {
				t.Errorf("PV %q, want %q", got, tt.want)
			}
			if b.FEN() != before || b.Ply() != len(strings.Fields(tt.history)) {
				t.Errorf("board not restored: %s", b.FEN())
			}
		})
	}
}

// TestPVNeverRunsPastDraw searches random positions whose games have
// repeated positions (a piece of each side shuffled back and forth) and
// checks every iteration's PV with notnil/chess, an independent arbiter:
// no PV move may be played in a position the game's rules already draw
// (threefold repetition, fifty moves, insufficient material) or after mate.
func TestPVNeverRunsPastDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 3))
	starts := []string{board.StartFEN, perpetual,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}
	checked := 0
	for game := 0; game < 60; game++ {
		fen := starts[game%len(starts)]
		history := randomHistory(t, rng, fen)
		if drawReason(gameAfter(t, fen, history)) != "" {
			continue // the game is over: an arbiter would not ask for a move
		}
		for _, spec := range []string{"plain", "plain:ext-check=false", "fhr"} {
			s := mustSearcher(t, spec)
			b := mustBoard(t, fen)
			if err := b.ApplyUCI(history); err != nil {
				t.Fatal(err)
			}
			var l board.MoveList
			if b.Generate(&l, board.All); l.N == 0 {
				continue
			}
			lim := engines.Limits{Depth: 1 + rng.IntN(5), OnIteration: func(i engines.Info) {
				checked++
				if at, why := pvPastDraw(t, fen, history, i.PV); at >= 0 {
					t.Errorf("%s, %s after %s: PV %v goes on at move %d after %s",
						spec, fen, strings.Join(history, " "), i.PV, at+1, why)
				}
			}}
			if _, err := s.Search(context.Background(), b, lim); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 200 {
		t.Fatalf("only %d PVs checked", checked)
	}
}

// randomHistory plays a random game from fen, then shuffles a piece of
// each side back and forth one to three times, so that positions repeat.
func randomHistory(t *testing.T, rng *rand.Rand, fen string) []string {
	b := mustBoard(t, fen)
	var moves []string
	var l board.MoveList
	for i := rng.IntN(30); i > 0; i-- {
		if b.Generate(&l, board.All); l.N == 0 {
			return moves
		}
		m := l.Moves[rng.IntN(l.N)]
		b.MakeMove(m)
		moves = append(moves, m.UCI())
	}
	// A reversible move: not a pawn move, capture or castling; its way back
	// is checked when it is played.
	reversible := func() (board.Move, bool) {
		b.Generate(&l, board.All)
		start := rng.IntN(max(l.N, 1))
		for i := 0; i < l.N; i++ {
			m := l.Moves[(start+i)%l.N]
			p := b.PieceAt(m.From())
			if p.Type() != board.Pawn && b.PieceAt(m.To()) == board.NoPiece && !m.IsCastle() {
				return m, true
			}
		}
		return board.NoMove, false
	}
	for round := 1 + rng.IntN(3); round > 0; round-- {
		a, ok := reversible()
		if !ok {
			return moves
		}
		b.MakeMove(a)
		c, ok := reversible()
		if !ok {
			b.UnmakeMove()
			return moves
		}
		b.MakeMove(c)
		back := []string{a.To().String() + a.From().String(), c.To().String() + c.From().String()}
		applied := 0
		for _, text := range back {
			m, err := b.ParseUCI(text)
			if err != nil {
				break
			}
			b.MakeMove(m)
			applied++
		}
		moves = append(moves, a.UCI(), c.UCI())
		moves = append(moves, back[:applied]...)
		if applied < 2 {
			return moves
		}
		// Stop anywhere inside the next shuffle, so the root is not always
		// the repeated position itself.
		if rng.IntN(2) == 0 {
			break
		}
	}
	return moves
}

// pvPastDraw replays the game and the PV with notnil/chess and returns the
// index of the first PV move played in a position that is already drawn by
// rule or decided, with the reason; -1 if there is none.
func pvPastDraw(t *testing.T, fen string, history, pv []string) (int, string) {
	g := gameAfter(t, fen, history)
	for i, m := range pv {
		if why := drawReason(g); why != "" {
			return i, why
		}
		if err := g.MoveStr(m); err != nil {
			return i, "an illegal move: " + err.Error()
		}
	}
	return -1, ""
}

func gameAfter(t *testing.T, fen string, history []string) *chess.Game {
	opt, err := chess.FEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := chess.NewGame(opt, chess.UseNotation(chess.UCINotation{}))
	for _, m := range history {
		if err := g.MoveStr(m); err != nil {
			t.Fatalf("history move %s: %v", m, err)
		}
	}
	return g
}

// drawReason says why the game is over or drawn by rule, or "".
func drawReason(g *chess.Game) string {
	if g.Outcome() != chess.NoOutcome {
		return g.Method().String()
	}
	for _, d := range g.EligibleDraws() {
		if d == chess.ThreefoldRepetition || d == chess.FiftyMoveRule {
			return d.String()
		}
	}
	return ""
}
