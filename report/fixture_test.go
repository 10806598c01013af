package report_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"selfplay/outcome"
	"selfplay/report"
	"selfplay/standings"
	"selfplay/store/record"
)

// base is the fixed clock of the fixture: every time derives from it, so
// the reports are byte-stable.
var base = time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)

// fixtureGame is a hand-written game: its pair and colour order, opening,
// result and how it ended.
type fixtureGame struct {
	pair, index int
	opening     string // fixture opening key
	result      string
	term        record.Termination
	reason      string
	culprit     string // engine charged with a fault, "" for none
}

// fixtureOpenings are the fixture's openings: id, name and book moves.
var fixtureOpenings = map[string][3]string{
	"e4e5": {"fhr-01", "1. e4 e5", "e2e4 e7e5"},
	"d4d5": {"fhr-11", "1. d4 d5", "d2d4 d7d5"},
	"c4c5": {"fhr-13", "1. c4 c5", "c2c4 c7c5"},
	"nf3":  {"fhr-19", "1. Nf3 d5", "g1f3 d7d5"},
}

// matchGames: fhr (first) against plain over four openings, with one game
// whose partner is not stored yet, and every kind of fault termination.
func matchGames() []fixtureGame {
	return []fixtureGame{
		{0, 0, "e4e5", "1-0", "checkmate", "White mates", ""},
		{0, 1, "e4e5", "1/2-1/2", "threefold repetition", "threefold repetition", ""},
		{1, 0, "d4d5", "1-0", "adjudication", "adjudicated at move 100 by agreeing scores", ""},
		{1, 1, "d4d5", "0-1", "checkmate", "Black mates", ""},
		{2, 0, "c4c5", "1/2-1/2", "fifty-move rule", "fifty moves without capture or pawn move", ""},
		{2, 1, "c4c5", "1-0", "illegal move", `Black (fhr) plays an illegal move: "e1e8"`, "fhr"},
		{3, 0, "nf3", "1-0", "adjudication", "adjudicated at move 100 by agreeing scores", ""},
		{3, 1, "nf3", "0-1", "illegal move", `White (plain) plays an illegal move: "a1a8"`, "plain"},
		{4, 0, "e4e5", "1/2-1/2", "time forfeit", "White (fhr) loses on time (12ms over, margin 0s)", "fhr"},
		{4, 1, "e4e5", "0-1", "engine error", "White (plain) failed: panic: boom", "plain"},
		{5, 0, "d4d5", "1-0", "checkmate", "White mates", ""},
	}
}

// gauntletGames: fhr against null-r3 over two openings in two rounds, and a
// clean sweep against nmr (an infinite Elo); idle plays nothing.
func gauntletGames() []fixtureGame {
	return []fixtureGame{
		{0, 0, "e4e5", "1-0", "checkmate", "White mates", ""},
		{0, 1, "e4e5", "1/2-1/2", "stalemate", "stalemate", ""},
		{1, 0, "e4e5", "1-0", "checkmate", "White mates", ""},
		{1, 1, "e4e5", "0-1", "checkmate", "Black mates", ""},
		{4, 0, "d4d5", "0-1", "checkmate", "Black mates", ""},
		{4, 1, "d4d5", "1/2-1/2", "insufficient material", "insufficient material", ""},
		{5, 0, "d4d5", "1-0", "adjudication", "adjudicated", ""},
		{5, 1, "d4d5", "0-1", "adjudication", "adjudicated", ""},
		// pairs 2, 3, 6, 7 are fhr against nmr
		{2, 0, "e4e5", "1-0", "checkmate", "White mates", ""},
		{2, 1, "e4e5", "0-1", "checkmate", "Black mates", ""},
		{6, 0, "d4d5", "1-0", "checkmate", "White mates", ""},
		{6, 1, "d4d5", "0-1", "checkmate", "Black mates", ""},
	}
}

// gauntletOpponent names the second engine of a gauntlet pair.
func gauntletOpponent(pair int) string {
	if pair == 2 || pair == 3 || pair == 6 || pair == 7 {
		return "nmr"
	}
	return "null-r3"
}

// fixtureMoves are a game's moves: two book moves, then six engine moves
// with figures that depend on the engine (fhr searches a ply deeper, the
// FHR paper's Observation 1).
func fixtureMoves(book string, white, black string) []record.Move {
	var moves []record.Move
	for i, uci := range []string{book[:4], book[5:]} {
		moves = append(moves, record.Move{Ply: i + 1, UCI: uci, SAN: uci, Book: true})
	}
	for i := 0; i < 6; i++ {
		ply := len(moves) + 1
		mover := white
		if ply%2 == 0 {
			mover = black
		}
		depth, nodes := 7, int64(20000)
		if mover == "fhr" {
			depth, nodes = 8, 18000
		}
		moves = append(moves, record.Move{Ply: ply, UCI: "a2a3", SAN: "a3", Score: 10 * i, Depth: depth + i%2,
			SelDepth: depth + 6 + i%3, Nodes: nodes + int64(100*i), Time: time.Duration(20+i) * time.Millisecond})
	}
	return moves
}

// fixtureSource holds the fixture's records in memory (standings.Source).
type fixtureSource struct {
	tournaments []record.Tournament
	games       map[int64][]record.Game
	suiteRuns   []record.SuiteRun
}

func (f *fixtureSource) Tournaments(context.Context) ([]record.Tournament, error) {
	return f.tournaments, nil
}

func (f *fixtureSource) TournamentGames(_ context.Context, id int64) ([]record.Game, error) {
	return f.games[id], nil
}

func (f *fixtureSource) SearchSums(_ context.Context, id int64) (map[string]record.SearchSums, error) {
	return record.SumSearch(f.games[id]), nil
}

func (f *fixtureSource) SuiteRuns(context.Context) ([]record.SuiteRun, error) {
	return f.suiteRuns, nil
}

// addTournament adds a tournament with its games, complete when every
// scheduled game is there.
func (f *fixtureSource) addTournament(name, snapshot string, engines []string, total int,
	games []fixtureGame, pairing func(pair int) (string, string)) {
	id := int64(len(f.tournaments) + 1)
	row := record.Tournament{ID: id, Name: name, Config: snapshot, ConfigHash: "fixture", TotalGames: total,
		Status: record.StatusRunning}
	if total == len(games) {
		row.Status = record.StatusComplete
	}
	for _, e := range engines {
		row.Engines = append(row.Engines, record.Engine{Name: e, Options: "preset=" + e})
	}
	f.tournaments = append(f.tournaments, row)
	var rows []record.Game
	for i, fg := range games {
		first, second := pairing(fg.pair)
		white, black := first, second
		if fg.index == 1 {
			white, black = second, first
		}
		o := fixtureOpenings[fg.opening]
		rows = append(rows, record.Game{
			ID: int64(i + 1), TournamentID: id, Pair: fg.pair, Index: fg.index, OpeningID: o[0], OpeningName: o[1],
			StartFEN:     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			OpeningMoves: []string{o[2][:4], o[2][5:]}, White: white, Black: black,
			Result: outcome.Result(fg.result), Termination: fg.term, Reason: fg.reason, Culprit: fg.culprit, Plies: 6, FinalFEN: "8/8/8/8/8/8/8/8 w - - 0 1",
			Started:  base.Add(time.Duration(i) * 10 * time.Minute),
			Finished: base.Add(time.Duration(i)*10*time.Minute + 7*time.Minute + 30*time.Second),
			PGN:      "[Event \"fixture\"]\n\n*\n",
			Moves:    fixtureMoves(o[2], white, black),
		})
	}
	// In schedule order, as a store returns them.
	slices.SortFunc(rows, func(a, b record.Game) int { return cmp.Or(cmp.Compare(a.Pair, b.Pair), cmp.Compare(a.Index, b.Index)) })
	if f.games == nil {
		f.games = map[int64][]record.Game{}
	}
	f.games[id] = rows
}

// fixtureRecords are a match under an SPRT, a gauntlet and a suite run,
// all with fixed times.
func fixtureRecords() *fixtureSource {
	f := &fixtureSource{}
	f.addTournament("fhr-vs-plain",
		`{"format":"match","players":["fhr","plain"],"sprt":{"alpha":0.05,"beta":0.05,"elo0":0,"elo1":10,"model":"logistic"}}`,
		[]string{"fhr", "plain"}, 50, matchGames(), func(int) (string, string) { return "fhr", "plain" })
	f.addTournament("gauntlet",
		`{"format":"gauntlet","players":["fhr","null-r3","nmr","idle"]}`,
		[]string{"fhr", "null-r3", "nmr", "idle"}, 12, gauntletGames(),
		func(pair int) (string, string) { return "fhr", gauntletOpponent(pair) })
	f.suiteRuns = []record.SuiteRun{{ID: 1, Suite: "wac.epd", LimitKind: "nodes", Settings: "-nodes 10000,20000", Created: base,
		Rows: []record.SuiteRow{
			{Variant: "plain", Limit: 10000, Positions: 300, Solved: 201, Nodes: 3000000, MainNodes: 1200000, QNodes: 1800000, Time: 1500 * time.Millisecond},
			{Variant: "fhr", Limit: 10000, Positions: 300, Solved: 214, Nodes: 2900000, MainNodes: 1100000, QNodes: 1800000, Time: 1450 * time.Millisecond},
			{Variant: "plain", Limit: 20000, Positions: 300, Solved: 230, Nodes: 6000000, MainNodes: 2400000, QNodes: 3600000, Time: 3 * time.Second},
			{Variant: "fhr", Limit: 20000, Positions: 300, Solved: 241, Nodes: 5800000, MainNodes: 2200000, QNodes: 3600000, Time: 2900 * time.Millisecond},
		}}}
	return f
}

// fixtureReport is the report of the fixture records.
func fixtureReport(t *testing.T, opt standings.Options) report.Report {
	t.Helper()
	r, err := standings.Load(context.Background(), fixtureRecords(), opt)
	if err != nil {
		t.Fatal(fmt.Errorf("building the fixture report: %w", err))
	}
	return r
}

// roundRobinReport is the report of a round robin of the given engines,
// pairsPer colour-swapped pairs per pairing, with results drawn from a
// fixed seed by each engine's strength (its index: earlier is stronger),
// so the ratings spread out as in a real tournament.
func roundRobinReport(t *testing.T, name string, engines []string, pairsPer int) report.Report {
	t.Helper()
	type pairing struct{ first, second int }
	var pairings []pairing
	for i := range engines {
		for j := i + 1; j < len(engines); j++ {
			pairings = append(pairings, pairing{i, j})
		}
	}
	rng := rand.New(rand.NewPCG(13, 6))
	openings := []string{"e4e5", "d4d5", "c4c5", "nf3"}
	var games []fixtureGame
	for k := range pairsPer * len(pairings) {
		p := pairings[k%len(pairings)]
		edge := 0.04 * float64(p.second-p.first) // the first engine's extra winning chance
		for index := range 2 {
			first := "1-0" // the first engine's win, from White's view in game 0
			second := "0-1"
			if index == 1 {
				first, second = second, first
			}
			var g fixtureGame
			switch u := rng.Float64(); {
			case u < 0.3+edge:
				g = fixtureGame{result: first, term: "checkmate", reason: "mate"}
			case u < 0.6:
				g = fixtureGame{result: second, term: "checkmate", reason: "mate"}
			default:
				g = fixtureGame{result: "1/2-1/2", term: "adjudication", reason: "adjudicated"}
			}
			g.pair, g.index, g.opening = k, index, openings[(k/len(pairings))%len(openings)]
			games = append(games, g)
		}
	}
	f := &fixtureSource{}
	f.addTournament(name, `{"format":"round-robin"}`, engines, len(games), games, func(pair int) (string, string) {
		p := pairings[pair%len(pairings)]
		return engines[p.first], engines[p.second]
	})
	r, err := standings.Load(context.Background(), f, standings.Options{})
	if err != nil {
		t.Fatal(fmt.Errorf("building the round-robin report: %w", err))
	}
	return r
}
