// Package snapshot is the stored form of a tournament's config: the
// canonical JSON that the database keeps with the tournament (package
// config builds it from a config file), read back by the report and the
// merge, and compared key by key when a config changes. It depends on no
// engine, so that reading a database does not link the search.
package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"

	"selfplay/stats"
)

// Version is the "snapshot" field of every snapshot; it changes when the
// snapshot format does.
const Version = 1

// The tournament formats as a snapshot names them.
const (
	FormatMatch      = "match"
	FormatGauntlet   = "gauntlet"
	FormatRoundRobin = "round-robin"
	FormatKnockout   = "knockout"
)

// Snapshot is everything that defines a tournament's games, stored with
// the tournament (as its canonical JSON, Encode) and compared on a rerun
// and by merge: equal configs give byte-identical snapshots, and
// Diff lists what changed, key by key.
//
// The JSON keys are named like the config keys, so that diffs read like
// the config. Fields are declared in the order of their keys, and optional
// ones are left out when unset, so Encode writes the keys sorted, exactly
// as the snapshots stored by earlier versions (which were written from a
// map): a stored tournament keeps its config hash. Fields that may be set
// to zero and are present only with some settings are pointers.
//
// Left out because they do not change the games: concurrency, the database
// path, external engines' init_timeout and ping_timeout, and settings
// that the chosen limit or policy ignores. Paths inside the config
// directory are written
// relative to it, so moving the whole directory changes nothing.
type Snapshot struct {
	Adjudication Adjudication      `json:"adjudication"`
	Engines      map[string]Engine `json:"engines"`         // per engine name
	Event        string            `json:"event,omitempty"` // the PGN's Event tag; "": the name
	Format       string            `json:"format"`
	// GamesPerOpening is 1 only (2, the default, is left out).
	GamesPerOpening int `json:"games_per_opening,omitempty"`
	// GauntletSeeds is a gauntlet's seeds over 1 only (1, the default, is
	// left out): see Pairings.
	GauntletSeeds int       `json:"gauntlet_seeds,omitempty"`
	Knockout      *Knockout `json:"knockout,omitempty"` // format knockout only
	Limits        Limits    `json:"limits"`
	Name          string    `json:"name"`
	NoSwap        bool      `json:"noswap,omitempty"`
	Openings      Openings  `json:"openings"`
	Players       []string  `json:"players"` // the tournament's engine names, in order
	Reverse       bool      `json:"reverse,omitempty"`
	Rounds        int       `json:"rounds"`
	// Schedule is "fastchess" for fastchess's gauntlet and round robin
	// schedule; "" (left out): selfplay's.
	Schedule string      `json:"schedule,omitempty"`
	Seed     uint64      `json:"seed"`
	Site     string      `json:"site,omitempty"` // the PGN's Site tag; "": selfplay
	Version  int         `json:"snapshot"`       // Version
	SPRT     *stats.SPRT `json:"sprt,omitempty"`
}

// Knockout is a knockout's seeds and games per encounter.
type Knockout struct {
	Games int `json:"games"`
	Seeds int `json:"seeds"`
}

// Adjudication: move; with move > 0 the policy, margin (referee and
// agree) and for the referee policy referee, referee_nodes and
// referee_options (the referee's resolved switches); resign_* and draw_*
// when enabled (resign_two_sided only when false); rules only when
// "fastchess" and some rule is on.
type Adjudication struct {
	DrawMoveFrom   *int   `json:"draw_move_from,omitempty"`
	DrawMoves      int    `json:"draw_moves,omitempty"`
	DrawScore      *int   `json:"draw_score,omitempty"`
	Margin         *int   `json:"margin,omitempty"`
	Move           int    `json:"move"`
	Policy         string `json:"policy,omitempty"`
	Referee        string `json:"referee,omitempty"`
	RefereeNodes   int64  `json:"referee_nodes,omitempty"`
	RefereeOptions string `json:"referee_options,omitempty"`
	ResignMoves    int    `json:"resign_moves,omitempty"`
	ResignScore    int    `json:"resign_score,omitempty"`
	ResignTwoSided *bool  `json:"resign_two_sided,omitempty"` // false only: one-sided resign
	Rules          string `json:"rules,omitempty"`            // "fastchess" only
}

// Engine is an in-process engine {preset, options
// (search.Options.String()), hash} or an external one {command, args,
// options (UCI setoption values), dir}: External says which, and the JSON
// key "options" holds a string or an object accordingly. Either has
// "limits" when its own limits differ from the tournament's.
type Engine struct {
	Preset  string
	Options string // in-process: the resolved switches
	Hash    int
	// Limits are the engine's limits where they are its own (time or
	// node odds), in the form of the tournament's; nil: the tournament's.
	Limits *Limits

	External   bool
	Command    string
	Args       []string
	UCIOptions map[string]string
	Dir        string
	Restart    bool // a process per game: an engine's state may carry over otherwise
}

// The JSON forms of Engine, keys in sorted order.
type (
	localEngineJSON struct {
		Hash    int     `json:"hash"`
		Limits  *Limits `json:"limits,omitempty"`
		Options string  `json:"options"`
		Preset  string  `json:"preset"`
	}
	externalEngineJSON struct {
		Args    []string          `json:"args,omitempty"`
		Command string            `json:"command"`
		Dir     string            `json:"dir,omitempty"`
		Limits  *Limits           `json:"limits,omitempty"`
		Options map[string]string `json:"options,omitempty"`
		Restart bool              `json:"restart,omitempty"`
	}
)

// MarshalJSON writes the engine's form.
func (e Engine) MarshalJSON() ([]byte, error) {
	if e.External {
		return marshalCanonical(externalEngineJSON{Args: e.Args, Command: e.Command, Dir: e.Dir, Limits: e.Limits, Options: e.UCIOptions, Restart: e.Restart})
	}
	return marshalCanonical(localEngineJSON{Hash: e.Hash, Limits: e.Limits, Options: e.Options, Preset: e.Preset})
}

// UnmarshalJSON reads either form: an engine with a command is external.
func (e *Engine) UnmarshalJSON(b []byte) error {
	var v struct {
		Preset  string          `json:"preset"`
		Hash    int             `json:"hash"`
		Command *string         `json:"command"`
		Args    []string        `json:"args"`
		Dir     string          `json:"dir"`
		Limits  *Limits         `json:"limits"`
		Options json.RawMessage `json:"options"`
		Restart bool            `json:"restart"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*e = Engine{Preset: v.Preset, Hash: v.Hash, Args: v.Args, Dir: v.Dir, Limits: v.Limits}
	if v.Command != nil {
		e.External, e.Command, e.Restart = true, *v.Command, v.Restart
		if len(v.Options) > 0 && string(v.Options) != "null" {
			return json.Unmarshal(v.Options, &e.UCIOptions)
		}
		return nil
	}
	if len(v.Options) > 0 {
		return json.Unmarshal(v.Options, &e.Options)
	}
	return nil
}

// Openings is {set, order} or {file, sha256 (Openings.Hash: of the
// file's content as loaded), plies (PGN and book), order}, with format when
// given and a Polyglot book's choice and count (weighted only).
type Openings struct {
	Choice string `json:"choice,omitempty"`
	Count  int    `json:"count,omitempty"`
	File   string `json:"file,omitempty"`
	Format string `json:"format,omitempty"`
	Order  string `json:"order"`
	Plies  int    `json:"plies,omitempty"`
	Set    string `json:"set,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	Start  int    `json:"start,omitempty"` // left out when 1
}

// Limits is the one limit set: nodes (+ nodes_jitter when > 0),
// depth, movetime or tc (canonical "moves/seconds+increment"); time_margin
// with movetime and tc only.
type Limits struct {
	Depth       int     `json:"depth,omitempty"`
	MoveTime    string  `json:"movetime,omitempty"`
	Nodes       int64   `json:"nodes,omitempty"`
	NodesJitter float64 `json:"nodes_jitter,omitempty"`
	TC          string  `json:"tc,omitempty"`
	TimeMargin  string  `json:"time_margin,omitempty"`
}

// LimitsOf is the stored limits of the named player's moves: its own
// where it has them, else the tournament's.
func (s Snapshot) LimitsOf(name string) Limits {
	if e, ok := s.Engines[name]; ok && e.Limits != nil {
		return *e.Limits
	}
	return s.Limits
}

// String says the limit in words, as the report's header does: "5000
// nodes per move", "depth 8 per move", "100ms per move", "time control
// 40/60+0.6".
func (l Limits) String() string {
	switch {
	case l.Nodes > 0 && l.NodesJitter > 0:
		return fmt.Sprintf("%d nodes per move (±%.0f%%)", l.Nodes, 100*l.NodesJitter)
	case l.Nodes > 0:
		return fmt.Sprintf("%d nodes per move", l.Nodes)
	case l.Depth > 0:
		return fmt.Sprintf("depth %d per move", l.Depth)
	case l.MoveTime != "":
		return l.MoveTime + " per move"
	case l.TC != "":
		return "time control " + l.TC
	}
	return "no limit"
}

// Encode returns the snapshot's canonical JSON: object keys sorted, no
// insignificant whitespace, no HTML escaping. It is what the database
// stores, and its sha256 the tournament's config hash.
func (s Snapshot) Encode() (string, error) {
	b, err := marshalCanonical(s)
	if err != nil {
		return "", fmt.Errorf("config: snapshot of tournament %q: %w", s.Name, err)
	}
	return string(b), nil
}

// Parse reads a stored snapshot. Keys it does not know (from a
// later version) are ignored; missing ones stay zero.
func Parse(text string) (Snapshot, error) {
	var s Snapshot
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return Snapshot{}, fmt.Errorf("config snapshot: %w", err)
	}
	return s, nil
}

// Diff lists what differs from old to s, as Diff does.
func (s Snapshot) Diff(old Snapshot) ([]string, error) {
	a, err := old.Encode()
	if err != nil {
		return nil, err
	}
	b, err := s.Encode()
	if err != nil {
		return nil, err
	}
	return Diff(a, b), nil
}

// marshalCanonical encodes v without HTML escaping and without the
// encoder's trailing newline.
func marshalCanonical(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// MatchSPRT is the snapshot's SPRT as the runner runs it (matches only),
// validated, or nil.
func (s Snapshot) MatchSPRT() (*stats.SPRT, error) {
	if s.SPRT == nil || s.Format != FormatMatch {
		return nil, nil
	}
	if err := s.SPRT.Validate(); err != nil {
		return nil, fmt.Errorf("stored SPRT: %w", err)
	}
	return s.SPRT, nil
}

// Pairings lists the pairings of a tournament of the format with the
// players, in schedule order: a match's one pairing, a gauntlet's first
// seeds players (at least 1) each against every player after it in order,
// or a round robin's every pair (i, j) with i < j in order.
func Pairings(format string, players []string, seeds int) [][2]string {
	var out [][2]string
	switch {
	case format == FormatMatch && len(players) == 2:
		out = append(out, [2]string{players[0], players[1]})
	case format == FormatGauntlet && len(players) > 1:
		// fastchess's gauntlet (schedule/base_scheduler.hpp:64-74 with
		// gauntlet/scheduler.hpp:26): each seed against every player after
		// it, the other seeds included. cutechess-cli's has its seeds play
		// the others only (gauntlettournament.cpp:57).
		for i := range min(max(seeds, 1), len(players)-1) {
			for _, o := range players[i+1:] {
				out = append(out, [2]string{players[i], o})
			}
		}
	default:
		for i := range players {
			for j := i + 1; j < len(players); j++ {
				out = append(out, [2]string{players[i], players[j]})
			}
		}
	}
	return out
}
