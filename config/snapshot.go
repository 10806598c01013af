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

// Snapshot returns the canonical JSON of everything that defines the
// tournament's games, for storing with the tournament and comparing on a
// rerun: equal configs give byte-identical snapshots (object keys sorted,
// no insignificant whitespace), and DiffSnapshots lists what changed.
//
// Top-level keys (named like the config keys, so that diffs read like the
// config):
//
//	snapshot      SnapshotVersion
//	name, format, rounds, seed
//	players       the tournament's engine names, in order
//	engines       per engine name: in-process {preset, options
//	              (search.Options.String()), hash}; external {command, args,
//	              options (UCI setoption values), dir}
//	openings      {set, order} or {file, sha256 (Openings.Hash: of the
//	              file's content as loaded), plies (PGN only), order}
//	limits        the one limit set: nodes (+ nodes_jitter when > 0), depth,
//	              movetime or tc (canonical "moves/seconds+increment");
//	              time_margin with movetime and tc only
//	adjudication  move; with move > 0 the policy, margin (referee and agree)
//	              and for the referee policy referee, referee_nodes and
//	              referee_options (RefereeOptions: the referee's resolved
//	              switches); resign_*
//	              and draw_* when enabled
//	sprt          {elo0, elo1, alpha, beta, model}, absent without SPRT
//
// Left out because they do not change the games: concurrency, the database
// path, external engines' init_timeout and ping_timeout, and settings that
// the chosen limit or policy ignores. Paths inside the config directory are written
// relative to it, so moving the whole directory changes nothing.
func (t Tournament) Snapshot(f *File) (string, error) {
	s := map[string]any{
		"snapshot": SnapshotVersion,
		"name":     t.Name,
		"format":   t.Format,
		"rounds":   t.Rounds,
		"seed":     t.Seed,
		"players":  append([]string{}, t.Engines...),
	}

	engines := map[string]any{}
	for _, name := range t.Engines {
		e, ok := f.Engine(name)
		if !ok {
			return "", fmt.Errorf("config: snapshot of tournament %q: engine %q is not defined", t.Name, name)
		}
		if e.External() {
			m := map[string]any{"command": portablePath(f, e.Command)}
			if len(e.Args) > 0 {
				m["args"] = e.Args
			}
			if len(e.UCIOptions) > 0 {
				m["options"] = e.UCIOptions
			}
			if e.Dir != "" {
				m["dir"] = portablePath(f, e.Dir)
			}
			engines[name] = m
		} else {
			engines[name] = map[string]any{"preset": e.Preset, "options": e.Options.String(), "hash": e.Hash}
		}
	}
	s["engines"] = engines

	op := map[string]any{"order": t.Openings.Order}
	if t.Openings.File != "" {
		if t.Openings.Hash == "" {
			return "", fmt.Errorf("config: snapshot of tournament %q: openings file %s not loaded (no hash)", t.Name, t.Openings.File)
		}
		op["file"] = portablePath(f, t.Openings.File)
		op["sha256"] = t.Openings.Hash
		if t.Openings.Plies != 0 {
			op["plies"] = t.Openings.Plies
		}
	} else {
		op["set"] = t.Openings.Set
	}
	s["openings"] = op

	l := t.Limits
	lim := map[string]any{}
	switch {
	case l.Nodes > 0:
		lim["nodes"] = l.Nodes
		if l.NodesJitter > 0 {
			lim["nodes_jitter"] = l.NodesJitter
		}
	case l.Depth > 0:
		lim["depth"] = l.Depth
	case l.MoveTime > 0:
		lim["movetime"] = l.MoveTime.String()
		lim["time_margin"] = l.TimeMargin.String()
	case l.TC != nil:
		lim["tc"] = canonicalTC(l.TC)
		lim["time_margin"] = l.TimeMargin.String()
	}
	s["limits"] = lim

	a := t.Adjudication
	adj := map[string]any{"move": a.Move}
	if a.Move > 0 {
		adj["policy"] = a.Policy
		if a.Policy != PolicyDraw {
			adj["margin"] = a.Margin
		}
		if a.Policy == PolicyReferee {
			adj["referee"] = a.Referee
			adj["referee_options"] = a.RefereeOptions.String()
			adj["referee_nodes"] = a.RefereeNodes
		}
	}
	if a.ResignMoves > 0 {
		adj["resign_score"] = a.ResignScore
		adj["resign_moves"] = a.ResignMoves
	}
	if a.DrawMoves > 0 {
		adj["draw_score"] = a.DrawScore
		adj["draw_moves"] = a.DrawMoves
		adj["draw_move_from"] = a.DrawMoveFrom
	}
	s["adjudication"] = adj

	if t.SPRT != nil {
		s["sprt"] = map[string]any{
			"elo0": t.SPRT.Elo0, "elo1": t.SPRT.Elo1,
			"alpha": t.SPRT.Alpha, "beta": t.SPRT.Beta,
			"model": t.SPRT.Model,
		}
	}

	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", fmt.Errorf("config: snapshot of tournament %q: %w", t.Name, err)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
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
