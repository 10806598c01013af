package runner

import (
	"strings"
	"testing"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/outcome"
	"selfplay/store/record"
)

// The sources the field's texts are quoted from.
const (
	// cutechess-cli at github.com/cutechess/cutechess commit
	// 5e84232be4546aaedc9d87a96c91867a1da06ada.
	cutechessResult  = "cutechess projects/lib/src/board/result.cpp"
	cutechessWestern = "cutechess projects/lib/src/board/westernboard.cpp"
	// fastchess at github.com/Disservin/fastchess commit
	// 74deac23aadc6718fa0f8e24ac95d16392d79444.
	fastchessMatch = "fastchess app/src/matchmaking/match/match.hpp"
)

// Each game-ending event that selfplay shares with cutechess-cli and
// fastchess starts its reason (the per-game line's {comment} and the PGN's
// last comment) with their text, so that their log scrapers read ours; our
// detail follows after ": ", as cutechess-cli appends a result's
// description (result.cpp:156-160).
func TestReasonsUseTheFieldsTexts(t *testing.T) {
	rule := func(fen string, moves ...string) string {
		return arbiterAfter(t, fen, moves...).rule().reason
	}
	adj := func(policy config.Policy, last [2]engines.Score) string {
		j := &adjudicator{cfg: config.Adjudication{Move: 60, Policy: policy, Margin: 200},
			last: last, haveLast: [2]bool{true, true}}
		_, reason := j.atMoveLimit(t.Context(), arbiterAfter(t, board.StartFEN), nil, board.StartFEN, nil)
		return reason
	}
	resign := func() string {
		j := &adjudicator{cfg: config.Adjudication{ResignScore: 500, ResignMoves: 1}}
		a := arbiterAfter(t, board.StartFEN)
		j.afterMove(board.White, -600, a)
		_, reason := j.afterMove(board.Black, 600, a)
		return reason
	}
	drawAdj := func() string {
		j := &adjudicator{cfg: config.Adjudication{DrawScore: 10, DrawMoves: 1}}
		a := arbiterAfter(t, board.StartFEN)
		j.afterMove(board.White, 0, a)
		_, reason := j.afterMove(board.Black, 0, a)
		return reason
	}
	fault := func(side board.Color, result outcome.Result, term record.Termination) string {
		return faultReason(side, "ext", result, term, "did something")
	}
	perpetual := "4k3/8/8/8/8/8/8/4K2R w - - 0 1"
	for _, c := range []struct {
		source, text string // the source's file:line and its text
		got          string // ours
	}{
		{cutechessWestern + ":1436 " + fastchessMatch + ":242", "Black mates", rule(board.StartFEN, "f2f3", "e7e5", "g2g4", "d8h4")},
		{cutechessWestern + ":1436 " + fastchessMatch + ":242", "White mates", rule("4k3/R7/4K3/8/8/8/8/8 w - - 0 1", "a7a8")},
		{cutechessWestern + ":1442 " + fastchessMatch + ":241", "Draw by stalemate", rule("7k/8/6Q1/8/8/8/8/K7 w - - 0 1", "g6f7")},
		{cutechessWestern + ":1494 " + fastchessMatch + ":234", "Draw by 3-fold repetition",
			rule(perpetual, "h1h2", "e8d8", "h2h1", "d8e8", "h1h2", "e8d8", "h2h1", "d8e8")},
		{cutechessWestern + ":1487 " + fastchessMatch + ":240", "Draw by fifty moves rule", rule("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "a1a2")},
		{cutechessWestern + ":1480 " + fastchessMatch + ":233", "Draw by insufficient mating material", rule("4k3/8/8/8/8/8/3r4/3NK3 w - - 0 1", "e1d2")},
		{cutechessResult + ":116 " + fastchessMatch + ":238", "Draw by adjudication: ", adj(config.PolicyDraw, [2]engines.Score{})},
		{cutechessResult + ":116 " + fastchessMatch + ":238", "Draw by adjudication: ", drawAdj()},
		{cutechessResult + ":118 " + fastchessMatch + ":236", "White wins by adjudication: ", adj(config.PolicyAgree, [2]engines.Score{300, -300})},
		{cutechessResult + ":118 " + fastchessMatch + ":236", "Black wins by adjudication: ", adj(config.PolicyAgree, [2]engines.Score{-300, 300})},
		{cutechessResult + ":118 " + fastchessMatch + ":236", "Black wins by adjudication: ", resign()},
		{cutechessResult + ":111 " + fastchessMatch + ":243", "White loses on time: ", fault(board.White, outcome.BlackWins, record.TimeForfeit)},
		{cutechessResult + ":109", "Draw by timeout: ", fault(board.Black, outcome.Draw, record.TimeForfeit)},
		{cutechessResult + ":121 " + fastchessMatch + ":235", "Black makes an illegal move: ", fault(board.Black, outcome.WhiteWins, record.IllegalMove)},
		{cutechessResult + ":127 " + fastchessMatch + ":244", "White disconnects: ", fault(board.White, outcome.BlackWins, record.EngineCrash)},
		{cutechessResult + ":134 " + fastchessMatch + ":245", "White's connection stalls: ", fault(board.White, outcome.BlackWins, record.EngineTimeout)},
	} {
		if !strings.HasPrefix(c.got, c.text) {
			t.Errorf("%q, want it to start with %q (%s)", c.got, c.text, c.source)
		}
	}
	// An engine error has no text in either: the engine's name and what it did.
	if got, want := fault(board.White, outcome.BlackWins, record.EngineError), "White (ext) did something"; got != want {
		t.Errorf("engine error: %q, want %q", got, want)
	}
}
