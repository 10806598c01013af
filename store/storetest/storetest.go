// Package storetest builds synthetic databases for tests and benchmarks of
// the readers: many games written straight into the tables in one
// transaction, without playing them. The games look like the runner's
// (results, terminations, openings, moves with search figures, PGN of the
// usual length) and are the same for the same options.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"selfplay/outcome"
	"selfplay/store"
	"selfplay/store/record"
)

// Options describe a synthetic database.
type Options struct {
	Games int // games of the one tournament (pairs of two), at least 2
	// Plies is the average number of engine moves per game (100 if 0);
	// games have between half and one and a half times as many.
	Plies int
	// NoMoves leaves the moves table empty (the games keep their search
	// sums and PGN): what the report and export read, in a fraction of the
	// time it takes to write every move.
	NoMoves bool
	Seed    uint64
}

// Tournament is the synthetic tournament's name.
const Tournament = "synthetic"

// snapshot is the tournament's config snapshot: a match under an SPRT, so
// that a report draws both series (Elo progress and LLR path).
const snapshot = `{"format":"match","players":["fhr","plain"],"sprt":{"alpha":0.05,"beta":0.05,"elo0":0,"elo1":5,"model":"logistic"}}`

var terminations = []struct {
	term    record.Termination
	decided bool // a win; else a draw
	fault   bool // charged to the loser (or, in a draw, to White)
}{
	{record.Adjudication, true, false}, {record.Adjudication, false, false}, {record.Checkmate, true, false},
	{record.Repetition, false, false}, {record.FiftyMoves, false, false}, {record.Stalemate, false, false},
	{record.InsufficientMaterial, false, false}, {record.TimeForfeit, true, true}, {record.IllegalMove, true, true},
}

// Generate writes a new database at path with one tournament of o.Games
// games and returns its tournament.
func Generate(ctx context.Context, path string, o Options) error {
	if o.Games < 2 {
		return fmt.Errorf("storetest: %d games", o.Games)
	}
	if o.Plies == 0 {
		o.Plies = 100
	}
	s, err := store.OpenWriter(ctx, path, "storetest")
	if err != nil {
		return err
	}
	id, err := s.CreateTournament(ctx, record.Tournament{Name: Tournament, Config: snapshot, ConfigHash: "synthetic",
		TotalGames: o.Games, Engines: []record.Engine{{Name: "fhr", Options: "preset=fhr"}, {Name: "plain", Options: "preset=plain"}}})
	if err == nil {
		err = s.UpdateStatus(ctx, id, record.StatusComplete, "continue", 0.5)
	}
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// The rows go in with plain SQL on a connection of our own (the store
	// writes one game per transaction, which would take minutes).
	// Without a write-ahead log and with a large page cache, the pages are
	// written once, at the commit; WAL is switched on again at the end.
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(MEMORY)&_pragma=synchronous(OFF)"+
		"&_pragma=cache_size(-262144)&_pragma=foreign_keys(1)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	insGame, err := tx.PrepareContext(ctx, `INSERT INTO games (tournament_id, pair_index, game_index, round, opening_id,
		opening_name, start_fen, opening_moves, white, black, result, termination, reason, culprit, plies, final_fen,
		started_at, finished_at, white_moves, white_depth, white_seldepth, white_nodes, white_time_ns,
		black_moves, black_depth, black_seldepth, black_nodes, black_time_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	insPGN, err := tx.PrepareContext(ctx, `INSERT INTO pgns (game_id, pgn) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	// A game's moves in one statement, from a JSON array of rows: one call
	// per game instead of one per move.
	insMoves, err := tx.PrepareContext(ctx, `INSERT INTO moves (game_id, ply, uci, san, book, score, depth, seldepth, nodes,
		time_ms) SELECT ?, m.value->>0, m.value->>1, m.value->>2, m.value->>3, m.value->>4, m.value->>5, m.value->>6,
		m.value->>7, m.value->>8 FROM json_each(?) AS m`)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5e1f))
	var moves []byte
	for i := 0; i < o.Games; i++ {
		g := synthGame(rng, id, i, o.Plies)
		w, b := g.SideSums()
		res, err := insGame.ExecContext(ctx, id, g.Pair, g.Index, g.Round, g.OpeningID, g.OpeningName, g.StartFEN,
			strings.Join(g.OpeningMoves, " "), g.White, g.Black, g.Result, g.Termination, g.Reason, g.Culprit, g.Plies,
			g.FinalFEN, g.Started.Format(time.RFC3339Nano), g.Finished.Format(time.RFC3339Nano),
			w.Moves, w.Depth, w.SelDepth, w.Nodes, int64(w.Time), b.Moves, b.Depth, b.SelDepth, b.Nodes, int64(b.Time))
		if err != nil {
			return fmt.Errorf("storetest: game %d: %w", i, err)
		}
		gid, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := insPGN.ExecContext(ctx, gid, g.PGN); err != nil {
			return fmt.Errorf("storetest: game %d: %w", i, err)
		}
		if o.NoMoves {
			continue
		}
		moves = movesJSON(moves[:0], g.Moves)
		if _, err := insMoves.ExecContext(ctx, gid, string(moves)); err != nil {
			return fmt.Errorf("storetest: game %d: %w", i, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "PRAGMA journal_mode = WAL")
	return err
}

// synthGame is the synthetic tournament's game i (of tournament id), its
// moves and PGN drawn from rng: about plies engine moves after two book
// moves.
func synthGame(rng *rand.Rand, id int64, i, plies int) record.Game {
	const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pair, index := i/2, i%2
	white, black := "fhr", "plain"
	if index == 1 {
		white, black = black, white
	}
	opening := pair % 25
	g := record.Game{TournamentID: id, Pair: pair, Index: index, Round: pair / 25,
		OpeningID: fmt.Sprintf("fhr-%02d", opening+1), OpeningName: fmt.Sprintf("Opening %d", opening+1),
		StartFEN: startFEN, OpeningMoves: []string{"e2e4", "e7e5"}, White: white, Black: black,
		FinalFEN: "8/5k2/8/8/8/8/5K2/8 w - - 0 60", Started: start.Add(time.Duration(i) * time.Minute)}
	g.Finished = g.Started.Add(time.Duration(30+rng.IntN(60)) * time.Second)
	t := terminations[rng.IntN(len(terminations))]
	g.Termination = t.term
	switch {
	case !t.decided:
		g.Result = outcome.Draw
	case rng.IntN(100) < 52: // fhr a little stronger
		g.Result = map[bool]outcome.Result{true: outcome.WhiteWins, false: outcome.BlackWins}[white == "fhr"]
	default:
		g.Result = map[bool]outcome.Result{true: outcome.BlackWins, false: outcome.WhiteWins}[white == "fhr"]
	}
	g.Reason = string(t.term)
	if t.fault {
		g.Culprit = map[outcome.Result]string{outcome.WhiteWins: black, outcome.BlackWins: white}[g.Result]
	}
	g.Plies = plies/2 + rng.IntN(plies+1)
	g.Moves = []record.Move{{Ply: 1, UCI: "e2e4", SAN: "e4", Book: true}, {Ply: 2, UCI: "e7e5", SAN: "e5", Book: true}}
	var pgn strings.Builder
	fmt.Fprintf(&pgn, "[Event %q]\n[Site \"selfplay\"]\n[Date \"2026.01.01\"]\n[Round \"%d.%d\"]\n[White %q]\n[Black %q]\n"+
		"[Result %q]\n[TimeControl \"-\"]\n[PlyCount \"%d\"]\n[Termination %q]\n[Opening %q]\n\n1. e4 {book} 1... e5 {book}",
		Tournament, pair+1, index+1, white, black, g.Result, g.Plies+2, g.Termination, g.OpeningName)
	for p := 3; p < g.Plies+3; p++ {
		m := record.Move{Ply: p, UCI: "g1f3", SAN: "Nf3", Score: rng.IntN(200) - 100, Depth: 6 + rng.IntN(4),
			SelDepth: 12 + rng.IntN(10), Nodes: int64(400000 + rng.IntN(100000)),
			Time: time.Duration(150+rng.IntN(100))*time.Millisecond + time.Duration(rng.IntN(1000000))}
		g.Moves = append(g.Moves, m)
		if p%2 == 1 {
			fmt.Fprintf(&pgn, " %d.", (p+1)/2)
		}
		fmt.Fprintf(&pgn, " %s {%+.2f/%d %dN %.3fs}", m.SAN, float64(m.Score)/100, m.Depth, m.Nodes, m.Time.Seconds())
	}
	fmt.Fprintf(&pgn, " %s {%s}\n\n", g.Result, g.Reason)
	g.PGN = pgn.String()
	return g
}

// movesJSON appends moves to b as the JSON array of rows that the moves
// statement of Generate reads.
func movesJSON(b []byte, moves []record.Move) []byte {
	b = append(b, '[')
	for k, m := range moves {
		if k > 0 {
			b = append(b, ',')
		}
		book := 0
		if m.Book {
			book = 1
		}
		b = fmt.Appendf(b, `[%d,%q,%q,%d,%d,%d,%d,%d,%g]`, m.Ply, m.UCI, m.SAN, book, m.Score, m.Depth,
			m.SelDepth, m.Nodes, float64(m.Time)/float64(time.Millisecond))
	}
	return append(b, ']')
}
