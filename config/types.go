// Package config reads tournaments.toml: engines, tournaments, openings,
// limits, adjudication and SPRT settings, with defaults and validation. A bad
// config is an error naming the file, the key path and (for TOML syntax
// errors) the line; nothing runs with an invalid config. ParseMatchContext builds
// the config of a tournament given on the command line (selfplay match) by
// writing the equivalent file and parsing it.
package config

import (
	"time"

	"selfplay/config/snapshot"
	"selfplay/engines/search"
	"selfplay/openings"
	"selfplay/stats"
)

// File is a parsed and validated config file.
type File struct {
	Path     string // the config file as given
	Dir      string // its directory: relative paths in the file are relative to it
	Database string // database path, resolved against Dir (default "selfplay.db")

	Engines     []Engine // in the order of the file
	Tournaments []Tournament
}

// Engine returns the engine of that name, or false.
func (f *File) Engine(name string) (Engine, bool) {
	for _, e := range f.Engines {
		if e.Name == name {
			return e, true
		}
	}
	return Engine{}, false
}

// Engine is one [engines.NAME] table: an in-process variant (Preset plus
// switches) or an external UCI engine (Command).
type Engine struct {
	Name string

	// In-process variant.
	Preset   string            // preset name (search.PresetNames)
	Switches map[string]string // explicit switches as given, values as text
	Options  search.Options    // preset + switches, resolved and validated
	Hash     int               // transposition table MiB (default 16)

	// External UCI engine (Command != "").
	Command     string
	Args        []string
	UCIOptions  map[string]string // setoption name/value pairs, values as text
	Dir         string            // working directory, resolved against File.Dir
	InitTimeout time.Duration     // uci/isready handshake timeout (default 10s)
	PingTimeout time.Duration     // isready/readyok before each go (default 10s)
	// Restart starts the engine's process afresh for every game
	// (fastchess's and cutechess-cli's restart=on); false: one process
	// per game slot plays game after game, each begun with ucinewgame.
	Restart bool

	// The engine's own limits (time or node odds), for either kind: they
	// override the tournament's for this engine's moves (see
	// Tournament.LimitsOf). Limit holds the one of Nodes, Depth, MoveTime
	// and TC given, nil when none is; TimeMargin is nil when not given.
	Limit      *Limits
	TimeMargin *time.Duration
}

// External reports whether the engine is a UCI process.
func (e Engine) External() bool { return e.Command != "" }

// Format is how a tournament pairs its engines (Pairings), as the
// config's format key names it.
type Format string

// Tournament formats.
const (
	FormatMatch      Format = snapshot.FormatMatch
	FormatGauntlet   Format = snapshot.FormatGauntlet
	FormatRoundRobin Format = snapshot.FormatRoundRobin
	// FormatKnockout plays cutechess-cli's knockout (package knockout):
	// the pairings of a round depend on the results of the one before.
	FormatKnockout Format = snapshot.FormatKnockout
)

// Schedule is how a tournament's rounds, pairings and openings make its
// games, as the tournament's schedule key names it.
type Schedule string

// Schedules.
const (
	// ScheduleSelfplay: each round is a pass over the openings, and every
	// pairing plays every opening (a game pair, both colours).
	ScheduleSelfplay Schedule = "selfplay"
	// ScheduleFastchess: fastchess 1.8.2's gauntlet and round robin. Each
	// round every pairing plays one game pair, and each pairing's pair
	// takes the next opening of the ordered book cut to its first rounds
	// openings, wrapping around (schedule/base_scheduler.hpp:36-78,
	// game/book/opening_book.cpp:50 and :70-76).
	ScheduleFastchess Schedule = "fastchess"
)

// Knockout is a knockout's [tournament.knockout] table.
type Knockout struct {
	Seeds int // players placed by their order in engines (default 0: all drawn from seed)
	Games int // games of an encounter before tie-breaks: game pairs x 2 (default 2)
}

// Tournament is one [[tournament]] table.
type Tournament struct {
	Name        string
	Engines     []string // engine names, in order; the first is the gauntlet's hero and the match's "first engine"
	Format      Format
	Rounds      int    // passes over the opening set (default 1); fastchess's rounds under ScheduleFastchess
	Concurrency int    // parallel games (default: number of CPUs)
	Seed        uint64 // seeds the opening order and the node jitter (default 1)
	// OneGamePerOpening is games_per_opening = 1 (fastchess's and
	// cutechess-cli's -games 1): each game takes the next opening, and a
	// pair is two consecutive openings. false (2, the default): each
	// opening is a game pair, both colours.
	OneGamePerOpening bool
	// NoSwap keeps the pairing's first engine White in every game
	// (-noswap); Reverse gives the second engine White where the first
	// would have it (-reverse). Both: the second engine is always White.
	NoSwap, Reverse bool
	// Schedule is the schedule key (default ScheduleSelfplay).
	Schedule Schedule
	// GauntletSeeds is a gauntlet's first engines that each play every
	// engine after them, one another included (gauntlet_seeds; 0 or 1:
	// the first engine against each other one).
	GauntletSeeds int
	// Knockout holds format "knockout"'s settings (zero for other formats).
	Knockout Knockout

	Openings Openings
	// Limits are the tournament's limits. With every engine carrying its
	// own limit the table may be left out: then no kind is set, only
	// TimeMargin and MoveTimeout (their defaults).
	Limits       Limits
	Adjudication Adjudication
	// SPRT stops a match as soon as the test decides (matches only):
	// alpha and beta default to 0.05, the model to normalized. nil: no SPRT.
	SPRT *stats.SPRT

	// Log is the file that the UCI traffic of the external engines is
	// appended to (the tournament's log key, else the file's), resolved
	// against File.Dir; "": none. Not part of the snapshot: it does not
	// change the games.
	Log string

	// Live is the files appended as games are stored (pgn_out, epd_out).
	Live LiveOut

	// Event and Site are the PGN's Event and Site tags (fastchess's -event
	// and -site); "" (the default): the tournament's name, and selfplay.
	// In the snapshot when set: the games' PGN, and the live file's keys,
	// carry the Event.
	Event, Site string

	// Wait is the pause of a game's worker after each game (fastchess's
	// -wait). Not part of the snapshot: it does not change the games.
	Wait time.Duration

	// own holds the limits of the engines with limits of their own: the
	// tournament's overridden by the engine's (LimitsOf).
	own map[string]Limits
}

// PGNEvent is the PGN's Event tag of the tournament's games.
func (t *Tournament) PGNEvent() string {
	if t.Event != "" {
		return t.Event
	}
	return t.Name
}

// PGNSite is the PGN's Site tag of the tournament's games.
func (t *Tournament) PGNSite() string {
	if t.Site != "" {
		return t.Site
	}
	return "selfplay"
}

// LimitsOf is the limits of the named engine's moves: its own where it has
// them (time or node odds), else the tournament's.
func (t *Tournament) LimitsOf(name string) Limits {
	if l, ok := t.own[name]; ok {
		return l
	}
	return t.Limits
}

// Openings selects the opening set: a built-in Set or a File.
type Openings struct {
	Set    string            // "fhr25" | "two-ply" (default "fhr25" when File is empty)
	File   string            // .epd, .pgn or .bin (Polyglot book) path, resolved against File.Dir
	Format string            // "epd" | "pgn" | "polyglot"; "" (default): by File's extension
	Plies  int               // PGN: the most plies taken from each game (openings.AllPlies: all); book: the most book moves (default 8 for both)
	Order  openings.Ordering // sequential (default) | random | fastchess-random
	Offset int               // the start key less 1: the ordered list starts at its (Offset mod len)th opening
	Choice string            // book only: "weighted" (default, seeded) | "best"
	Count  int               // book with choice "weighted": distinct openings drawn (default 100)

	// List is the openings as Parse loaded and validated them, in the
	// set's or file's order (Order applies them per round). It is shared
	// by the tournaments with the same set or file: do not modify it.
	List []openings.Opening
	// Hash is the SHA-256 (hex) of File's content, from the bytes List was
	// parsed from; "" for a built-in set.
	Hash string
}

// Limits are the per-move search limits of both players. Exactly one of
// Nodes, Depth, MoveTime or TC is set.
type Limits struct {
	Nodes       int64
	NodesJitter float64 // 0..0.5: each move's node budget drawn within ±this fraction
	Depth       int
	MoveTime    time.Duration
	TC          *TimeControl
	TimeMargin  time.Duration // grace over the allotted time before a time forfeit (default 100ms)
	// MoveTimeout bounds one move of an external engine under a nodes or
	// depth limit (default 2m): only a hung engine reaches it, and loses
	// the game. In-process searches always run to their limit. Not part of
	// the snapshot: it does not change the games of working engines.
	MoveTimeout time.Duration
}

// TimeControl is a cutechess-style "moves/seconds+increment" clock, e.g.
// "40/7200+0" (40 moves in 2 hours) or "60+0.6" (sudden death with increment).
type TimeControl struct {
	Moves     int           // moves per period; 0 = the whole game
	Base      time.Duration // time per period
	Increment time.Duration
	Text      string // as written (without surrounding spaces), for messages
}

// Policy decides a game stopped at the move limit, as the config's policy
// key names it.
type Policy string

// Adjudication policies at the move limit.
const (
	PolicyReferee Policy = "referee" // a search of the position decides
	PolicyAgree   Policy = "agree"   // both engines' last scores decide
	PolicyDraw    Policy = "draw"
)

// AdjudicationRules says whose rules the resign, draw and move-limit keys
// follow, as the config's rules key names them.
type AdjudicationRules string

// Adjudication rules.
const (
	// RulesSelfplay: each side's run of moves counts (draw from move
	// draw_move_from on), and move counts from the initial position.
	RulesSelfplay AdjudicationRules = "selfplay"
	// RulesFastchess: fastchess 1.x's -draw, -resign and -maxmoves exactly
	// (app/src/matchmaking/match/match.hpp DrawTracker, ResignTracker,
	// MaxMovesTracker; Match::adjudicate in match.cpp).
	RulesFastchess AdjudicationRules = "fastchess"
)

// Adjudication ends games early.
type Adjudication struct {
	// Rules: whose rules the keys below follow (default RulesSelfplay).
	Rules   AdjudicationRules
	Move    int    // stop before White's move Move+1, i.e. after 2*Move plies from the initial position (default 100; 0 = never); under RulesFastchess after 2*Move plies of the engines
	Policy  Policy // referee (default) | agree | draw
	Referee string // variant spec of the referee search (default "plain")
	// RefereeOptions is Referee resolved (search.ParseVariant) and
	// validated.
	RefereeOptions search.Options
	RefereeNodes   int64 // referee node budget (default 200000)
	Margin         int   // centipawns needed for a win (default 200)

	// cutechess-style resign and draw adjudication; zero values switch them off.
	ResignScore int // a side whose score is <= -ResignScore ...
	ResignMoves int // ... for this many consecutive moves of both engines loses
	// ResignOneSided is resign_two_sided = false, fastchess's default: a
	// side loses after ResignMoves consecutive moves of its own at or below
	// -ResignScore, whatever its opponent scores.
	ResignOneSided bool
	DrawScore      int // |score| <= DrawScore ...
	DrawMoves      int // ... for this many consecutive moves of both engines ...
	DrawMoveFrom   int // ... starting at this move number is a draw
}

// UsesReferee reports whether games reach the move limit and the referee's
// search decides them there: then every game slot needs a referee engine
// (and its transposition table).
func (a Adjudication) UsesReferee() bool { return a.Policy == PolicyReferee && a.Move > 0 }
