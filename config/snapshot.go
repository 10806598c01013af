package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// SnapshotVersion is the "snapshot" field of every snapshot; it changes
// when the snapshot format does.
const SnapshotVersion = 1

// Snapshot is everything that defines a tournament's games, stored with
// the tournament (as its canonical JSON, Encode) and compared on a rerun
// and by merge: equal configs give byte-identical snapshots, and
// DiffSnapshots lists what changed, key by key.
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
	Adjudication AdjudicationSnapshot      `json:"adjudication"`
	Engines      map[string]EngineSnapshot `json:"engines"` // per engine name
	Format       string                    `json:"format"`
	Limits       LimitsSnapshot            `json:"limits"`
	Name         string                    `json:"name"`
	Openings     OpeningsSnapshot          `json:"openings"`
	Players      []string                  `json:"players"` // the tournament's engine names, in order
	Rounds       int                       `json:"rounds"`
	Seed         uint64                    `json:"seed"`
	Version      int                       `json:"snapshot"` // SnapshotVersion
	SPRT         *SPRTSnapshot             `json:"sprt,omitempty"`
}

// AdjudicationSnapshot: move; with move > 0 the policy, margin (referee and
// agree) and for the referee policy referee, referee_nodes and
// referee_options (the referee's resolved switches); resign_* and draw_*
// when enabled.
type AdjudicationSnapshot struct {
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
}

// EngineSnapshot is an in-process engine {preset, options
// (search.Options.String()), hash} or an external one {command, args,
// options (UCI setoption values), dir}: External says which, and the JSON
// key "options" holds a string or an object accordingly.
type EngineSnapshot struct {
	Preset  string
	Options string // in-process: the resolved switches
	Hash    int

	External   bool
	Command    string
	Args       []string
	UCIOptions map[string]string
	Dir        string
}

// The JSON forms of EngineSnapshot, keys in sorted order.
type (
	localEngineJSON struct {
		Hash    int    `json:"hash"`
		Options string `json:"options"`
		Preset  string `json:"preset"`
	}
	externalEngineJSON struct {
		Args    []string          `json:"args,omitempty"`
		Command string            `json:"command"`
		Dir     string            `json:"dir,omitempty"`
		Options map[string]string `json:"options,omitempty"`
	}
)

// MarshalJSON writes the engine's form.
func (e EngineSnapshot) MarshalJSON() ([]byte, error) {
	if e.External {
		return marshalCanonical(externalEngineJSON{Args: e.Args, Command: e.Command, Dir: e.Dir, Options: e.UCIOptions})
	}
	return marshalCanonical(localEngineJSON{Hash: e.Hash, Options: e.Options, Preset: e.Preset})
}

// UnmarshalJSON reads either form: an engine with a command is external.
func (e *EngineSnapshot) UnmarshalJSON(b []byte) error {
	var v struct {
		Preset  string          `json:"preset"`
		Hash    int             `json:"hash"`
		Command *string         `json:"command"`
		Args    []string        `json:"args"`
		Dir     string          `json:"dir"`
		Options json.RawMessage `json:"options"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*e = EngineSnapshot{Preset: v.Preset, Hash: v.Hash, Args: v.Args, Dir: v.Dir}
	if v.Command != nil {
		e.External, e.Command = true, *v.Command
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

// OpeningsSnapshot is {set, order} or {file, sha256 (Openings.Hash: of the
// file's content as loaded), plies (PGN only), order}.
type OpeningsSnapshot struct {
	File   string `json:"file,omitempty"`
	Order  string `json:"order"`
	Plies  int    `json:"plies,omitempty"`
	Set    string `json:"set,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

// LimitsSnapshot is the one limit set: nodes (+ nodes_jitter when > 0),
// depth, movetime or tc (canonical "moves/seconds+increment"); time_margin
// with movetime and tc only.
type LimitsSnapshot struct {
	Depth       int     `json:"depth,omitempty"`
	MoveTime    string  `json:"movetime,omitempty"`
	Nodes       int64   `json:"nodes,omitempty"`
	NodesJitter float64 `json:"nodes_jitter,omitempty"`
	TC          string  `json:"tc,omitempty"`
	TimeMargin  string  `json:"time_margin,omitempty"`
}

// SPRTSnapshot is the tournament's SPRT.
type SPRTSnapshot struct {
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Model string  `json:"model"`
}

// Snapshot returns the snapshot of the tournament in the file.
func (t Tournament) Snapshot(f *File) (Snapshot, error) {
	s := Snapshot{
		Version: SnapshotVersion, Name: t.Name, Format: string(t.Format), Rounds: t.Rounds, Seed: t.Seed,
		Players: append([]string{}, t.Engines...), Engines: map[string]EngineSnapshot{},
	}
	for _, name := range t.Engines {
		e, ok := f.Engine(name)
		if !ok {
			return Snapshot{}, fmt.Errorf("config: snapshot of tournament %q: engine %q is not defined", t.Name, name)
		}
		if e.External() {
			es := EngineSnapshot{External: true, Command: portablePath(f, e.Command), Args: e.Args, UCIOptions: e.UCIOptions}
			if e.Dir != "" {
				es.Dir = portablePath(f, e.Dir)
			}
			s.Engines[name] = es
		} else {
			s.Engines[name] = EngineSnapshot{Preset: e.Preset, Options: e.Options.String(), Hash: e.Hash}
		}
	}

	s.Openings.Order = string(t.Openings.Order)
	if t.Openings.File != "" {
		if t.Openings.Hash == "" {
			return Snapshot{}, fmt.Errorf("config: snapshot of tournament %q: openings file %s not loaded (no hash)", t.Name, t.Openings.File)
		}
		s.Openings.File = portablePath(f, t.Openings.File)
		s.Openings.SHA256 = t.Openings.Hash
		s.Openings.Plies = t.Openings.Plies
	} else {
		s.Openings.Set = t.Openings.Set
	}

	l := t.Limits
	switch {
	case l.Nodes > 0:
		s.Limits.Nodes = l.Nodes
		s.Limits.NodesJitter = max(l.NodesJitter, 0)
	case l.Depth > 0:
		s.Limits.Depth = l.Depth
	case l.MoveTime > 0:
		s.Limits.MoveTime = l.MoveTime.String()
		s.Limits.TimeMargin = l.TimeMargin.String()
	case l.TC != nil:
		s.Limits.TC = canonicalTC(l.TC)
		s.Limits.TimeMargin = l.TimeMargin.String()
	}

	a := t.Adjudication
	s.Adjudication.Move = a.Move
	if a.Move > 0 {
		s.Adjudication.Policy = string(a.Policy)
		if a.Policy != PolicyDraw {
			s.Adjudication.Margin = ptr(a.Margin)
		}
		if a.Policy == PolicyReferee {
			s.Adjudication.Referee = a.Referee
			s.Adjudication.RefereeOptions = a.RefereeOptions.String()
			s.Adjudication.RefereeNodes = a.RefereeNodes
		}
	}
	if a.ResignMoves > 0 {
		s.Adjudication.ResignScore, s.Adjudication.ResignMoves = a.ResignScore, a.ResignMoves
	}
	if a.DrawMoves > 0 {
		s.Adjudication.DrawScore, s.Adjudication.DrawMoves = ptr(a.DrawScore), a.DrawMoves
		s.Adjudication.DrawMoveFrom = ptr(a.DrawMoveFrom)
	}

	if t.SPRT != nil {
		s.SPRT = &SPRTSnapshot{Elo0: t.SPRT.Elo0, Elo1: t.SPRT.Elo1, Alpha: t.SPRT.Alpha, Beta: t.SPRT.Beta, Model: t.SPRT.Model}
	}
	return s, nil
}

func ptr[T any](v T) *T { return &v }

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

// ParseSnapshot reads a stored snapshot. Keys it does not know (from a
// later version) are ignored; missing ones stay zero.
func ParseSnapshot(text string) (Snapshot, error) {
	var s Snapshot
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return Snapshot{}, fmt.Errorf("config snapshot: %w", err)
	}
	return s, nil
}

// Diff lists what differs from old to s, as DiffSnapshots does.
func (s Snapshot) Diff(old Snapshot) ([]string, error) {
	a, err := old.Encode()
	if err != nil {
		return nil, err
	}
	b, err := s.Encode()
	if err != nil {
		return nil, err
	}
	return DiffSnapshots(a, b), nil
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

// portablePath writes a path inside the config directory relative to it
// (slash-separated), and any other path as it is.
func portablePath(f *File, path string) string {
	dir, err1 := filepath.Abs(f.Dir)
	abs, err2 := filepath.Abs(path)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(dir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return path
}

// DiffSnapshots lists what changed between two snapshots of a tournament,
// one line per key path in sorted order, such as
//
//	limits.nodes: 20000 -> 30000
//	engines.fhr.options: fhr=true -> fhr=false
//	sprt: (none) -> {"alpha":0.05,...}
//
// Switch lists (engines.*.options of in-process engines, referee_options)
// show only the switches that differ. Values are JSON; "(none)" stands for
// a key present on one side only. Equal snapshots give nil. An empty
// string is an empty snapshot; an unreadable one gives a single line
// saying so.
func DiffSnapshots(old, new string) []string {
	o, err := flattenSnapshot(old)
	if err != nil {
		return []string{fmt.Sprintf("old snapshot is unreadable: %v", err)}
	}
	n, err := flattenSnapshot(new)
	if err != nil {
		return []string{fmt.Sprintf("new snapshot is unreadable: %v", err)}
	}
	keys := map[string]bool{}
	for k := range o {
		keys[k] = true
	}
	for k := range n {
		keys[k] = true
	}
	var out []string
	for _, k := range sortedKeys(keys) {
		ov, inOld := o[k]
		nv, inNew := n[k]
		if inOld && inNew && ov == nv {
			continue
		}
		if inOld && inNew && isSwitchList(k) {
			if a, b, ok := diffSwitches(ov, nv); ok {
				out = append(out, fmt.Sprintf("%s: %s -> %s", k, a, b))
				continue
			}
		}
		if !inOld {
			ov = "(none)"
		}
		if !inNew {
			nv = "(none)"
		}
		out = append(out, fmt.Sprintf("%s: %s -> %s", k, ov, nv))
	}
	return out
}

// flattenSnapshot maps every leaf key path of a snapshot to its compact
// JSON value; arrays are leaves.
func flattenSnapshot(s string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	var walk func(path string, v any) error
	walk = func(path string, v any) error {
		if m, ok := v.(map[string]any); ok && len(m) > 0 {
			for k, x := range m {
				if err := walk(join(path, k), x); err != nil {
					return err
				}
			}
			return nil
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		out[path] = strings.TrimSuffix(b.String(), "\n")
		return nil
	}
	for k, x := range m {
		if err := walk(keyPart(k), x); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// isSwitchList reports whether a snapshot key holds a search.Options string.
func isSwitchList(key string) bool {
	return strings.HasSuffix(key, ".referee_options") ||
		strings.HasPrefix(key, "engines.") && strings.HasSuffix(key, ".options")
}

// diffSwitches compares two JSON strings of "k=v k=v" switches and returns
// the differing switches of each side.
func diffSwitches(oldJSON, newJSON string) (string, string, bool) {
	var a, b string
	if json.Unmarshal([]byte(oldJSON), &a) != nil || json.Unmarshal([]byte(newJSON), &b) != nil {
		return "", "", false
	}
	parse := func(s string) (map[string]string, []string, bool) {
		m := map[string]string{}
		var order []string
		for _, f := range strings.Fields(s) {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				return nil, nil, false
			}
			m[k] = v
			order = append(order, k)
		}
		return m, order, true
	}
	ma, oa, ok1 := parse(a)
	mb, ob, ok2 := parse(b)
	if !ok1 || !ok2 {
		return "", "", false
	}
	// Keys in canonical order: a's, then b's new ones.
	seen := map[string]bool{}
	var keys []string
	for _, k := range append(oa, ob...) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	var da, db []string
	for _, k := range keys {
		va, inA := ma[k]
		vb, inB := mb[k]
		if inA && inB && va == vb {
			continue
		}
		if inA {
			da = append(da, k+"="+va)
		}
		if inB {
			db = append(db, k+"="+vb)
		}
	}
	side := func(d []string) string {
		if len(d) == 0 {
			return "(none)"
		}
		return strings.Join(d, " ")
	}
	return side(da), side(db), true
}
