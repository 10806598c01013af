// Package record holds what a database stores as plain values: tournaments
// with their engines, finished games with their moves, and test-suite runs.
// It has no database code, so the report, the statistics and tests use
// records without SQLite; package store reads and writes them.
package record

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"selfplay/outcome"
)

// Status is a tournament's state.
type Status string

// Tournament statuses.
const (
	StatusRunning  Status = "running"
	StatusComplete Status = "complete"
	// StatusShareComplete: the database's share of the tournament (its
	// Shard) is played; the tournament is not complete, and only a merge
	// of the shards is.
	StatusShareComplete Status = "share complete"
)

// Tournament is a stored tournament with its engines.
type Tournament struct {
	ID         int64
	Name       string
	Config     string // the config snapshot (config.Snapshot, canonical JSON)
	ConfigHash string // sha256 of Config, hex
	Status     Status
	TotalGames int
	SPRTState  string // "" (no SPRT), continue, H0 or H1
	SPRTLLR    float64
	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt time.Time // zero while running
	Engines    []Engine
	Shard      Shard // the part of the schedule this database plays; the zero value: all of it
	// ConfigLeftOut is the size in bytes of a config snapshot that a
	// reader for display did not read, longer than MaxConfigSnapshot
	// (Config is "" then); 0 when Config is the snapshot.
	ConfigLeftOut int64
}

// MaxConfigSnapshot is the longest config snapshot that a reader for
// display (report, serve) reads, in bytes. The snapshots selfplay stores
// are a few KB (a few hundred bytes per engine); a longer one was written
// by hand or is damaged, and reading it would take memory without bound.
const MaxConfigSnapshot = 4 << 20

// Snapshot returns the config snapshot, or an error saying why it was
// not read (ConfigLeftOut).
func (t Tournament) Snapshot() (string, error) {
	if t.ConfigLeftOut > 0 {
		return "", fmt.Errorf("its config snapshot is %d bytes, more than the %d that are read "+
			"(selfplay writes a few KB: the database was edited by hand or is damaged)", t.ConfigLeftOut, MaxConfigSnapshot)
	}
	return t.Config, nil
}

// Engine is a player of a tournament with its resolved options.
type Engine struct {
	Name    string
	Options string
}

// Termination says how a game ended; it is stored as text and written to
// the PGN Termination tag. A database may hold terminations that a later
// version added: readers keep them as they are.
type Termination string

// Terminations.
const (
	Checkmate            Termination = "checkmate"
	Stalemate            Termination = "stalemate"
	Repetition           Termination = "threefold repetition"
	FiftyMoves           Termination = "fifty-move rule"
	InsufficientMaterial Termination = "insufficient material"
	Adjudication         Termination = "adjudication"
	IllegalMove          Termination = "illegal move"
	TimeForfeit          Termination = "time forfeit"
	EngineTimeout        Termination = "engine timeout" // no move under a node or depth limit: a hung engine
	EngineCrash          Termination = "engine crash"
	EngineError          Termination = "engine error" // protocol garbage, internal errors
)

// Terminations lists every termination the runner gives, in the order
// reports list them.
func Terminations() []Termination {
	return []Termination{Checkmate, Stalemate, Repetition, FiftyMoves, InsufficientMaterial,
		Adjudication, IllegalMove, TimeForfeit, EngineTimeout, EngineCrash, EngineError}
}

// Game is a finished game with its moves.
type Game struct {
	ID           int64
	TournamentID int64
	Pair, Index  int // game pair in schedule order; 0: the pairing's first engine has White, 1: colors swapped
	Round        int
	OpeningID    string
	OpeningName  string
	StartFEN     string
	OpeningMoves []string
	White, Black string
	Result       outcome.Result // a finished game's: 1-0, 0-1 or 1/2-1/2
	Termination  Termination
	Reason       string
	Culprit      string // engine charged with the fault that ended the game (illegal move, time forfeit, engine timeout, crash, error), also in a draw; "" otherwise
	Plies        int    // plies played after the opening
	FinalFEN     string
	Started      time.Time
	Finished     time.Time
	PGN          string
	Moves        []Move // every ply from StartFEN, opening moves included
	// Identity is White's and Black's engine as it named itself when the
	// game was played (UCI id name and id author; an in-process engine's
	// those of `selfplay uci -variant`): fastchess's EngineWhiteName ...
	// tags. Empty for games stored before schema 9 and for an engine that
	// said nothing.
	Identity [2]EngineID
}

// EngineID is what an engine says of itself at its UCI handshake.
type EngineID struct {
	Name, Author string // id name, id author ("" when not said)
}

// Move is one ply of a stored game.
type Move struct {
	Ply      int
	UCI      string
	SAN      string
	Book     bool
	Score    int // mover's view, engines.Score encoding: centipawns, or ±(32000 - plies to mate)
	Depth    int
	SelDepth int
	Nodes    int64
	Time     time.Duration
	// fastchess's per-move PGN fields beyond those: the engine's hashfull
	// and tbhits and principal variation (UCI moves, space separated) from
	// its last exact info line, the mover's clock after the move (0
	// without a clock) and the move's latency (its time less the time the
	// engine last reported). Book moves have none.
	HashFull int
	TBHits   int64
	PV       string
	TimeLeft time.Duration
	Latency  time.Duration
	// NPS is the nps of that info line (0 when it had none, for an
	// in-process engine, and in games stored before schema 10).
	NPS int64
}

// maxPlausibleDepth is the deepest iteration depth (and seldepth) that a
// move's search figures are averaged with. Deeper reports are sentinels,
// not searches: Stockfish, for one, iterates to its ply limit and reports
// depth 245 when it is mated or the position is otherwise trivial, which
// would drag an engine's average depth up by several plies per such move.
// The in-process engines never exceed it (their ply limit is 128).
const maxPlausibleDepth = 127

// plausibleDepth reports whether a move's depth and seldepth are real
// search depths that the depth averages take in.
func plausibleDepth(depth, selDepth int) bool {
	return depth >= 0 && depth <= maxPlausibleDepth && selDepth >= 0 && selDepth <= maxPlausibleDepth
}

// SearchSums adds up an engine's search figures over the moves it chose
// (book moves excluded): what the report's per-engine averages are made of.
// Time is summed in whole nanoseconds, so sums are exact in any order.
// Depth and SelDepth leave out the DepthSkipped moves whose depths are not
// plausible (plausibleDepth); Nodes and Time count every move.
type SearchSums struct {
	Moves        int
	Depth        int64
	SelDepth     int64
	DepthSkipped int
	Nodes        int64
	Time         time.Duration
}

// DepthMoves is the number of moves that Depth and SelDepth add up.
func (s SearchSums) DepthMoves() int { return s.Moves - s.DepthSkipped }

// Add adds o to s.
func (s *SearchSums) Add(o SearchSums) {
	s.Moves += o.Moves
	s.Depth += o.Depth
	s.SelDepth += o.SelDepth
	s.DepthSkipped += o.DepthSkipped
	s.Nodes += o.Nodes
	s.Time += o.Time
}

// SideSums returns the search sums of the engine moves White played and of
// those Black played. Ply 1 is played by the side to move in StartFEN.
func (g *Game) SideSums() (white, black SearchSums) {
	f := strings.Fields(g.StartFEN)
	blackStarts := len(f) > 1 && f[1] == "b"
	for _, m := range g.Moves {
		if m.Book {
			continue
		}
		s := &black
		if (m.Ply%2 == 1) != blackStarts {
			s = &white
		}
		s.Moves++
		if plausibleDepth(m.Depth, m.SelDepth) {
			s.Depth += int64(m.Depth)
			s.SelDepth += int64(m.SelDepth)
		} else {
			s.DepthSkipped++
		}
		s.Nodes += m.Nodes
		s.Time += m.Time
	}
	return white, black
}

// SuiteRun is a stored test-suite run (selfplay suite -db).
type SuiteRun struct {
	ID        int64
	Suite     string
	LimitKind string // nodes | depth | movetime
	Settings  string
	Created   time.Time
	Rows      []SuiteRow
	Positions []SuitePosition
}

// SuiteRow is one variant at one budget (or depth).
type SuiteRow struct {
	Variant   string
	Limit     int64
	Positions int
	Solved    int
	Nodes     int64
	MainNodes int64
	QNodes    int64
	Time      time.Duration
}

// SuitePosition is one position's result for a variant and budget.
type SuitePosition struct {
	Variant    string
	Limit      int64
	Position   string
	Solved     bool
	Move       string
	FirstFound int // iteration depth at which the final move first became best; -1 if never
	Depth      int
	Score      int
	Nodes      int64
	Time       time.Duration
}

// SumSearch adds up each engine's search figures over the moves it chose
// in the games (with their moves): what a database's per-engine search sums hold.
func SumSearch(games []Game) map[string]SearchSums {
	out := map[string]SearchSums{}
	for i := range games {
		g := &games[i]
		w, b := g.SideSums()
		for _, side := range []struct {
			engine string
			sums   SearchSums
		}{{g.White, w}, {g.Black, b}} {
			s := out[side.engine]
			s.Add(side.sums)
			out[side.engine] = s
		}
	}
	return out
}

// EngineNames lists the engines of the tournaments, each once, in the
// order they were stored.
func EngineNames(ts []Tournament) []string {
	var names []string
	for _, t := range ts {
		for _, e := range t.Engines {
			if !slices.Contains(names, e.Name) {
				names = append(names, e.Name)
			}
		}
	}
	return names
}

// ScheduleCompare orders games as the schedule plays them: by pair, then
// by game in the pair (a cmp function for slices.SortFunc and friends).
func ScheduleCompare(a, b *Game) int {
	return cmp.Or(cmp.Compare(a.Pair, b.Pair), cmp.Compare(a.Index, b.Index))
}

// PGNRound is a game's Round tag in its PGN: the game pair and the game in
// it, counted from 1 ("3.2": pair 3, colours swapped), where pair and
// index count from 0.
func PGNRound(pair, index int) string { return strconv.Itoa(pair+1) + "." + strconv.Itoa(index+1) }
