package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Diff lists what changed between two snapshots of a tournament,
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
func Diff(old, new string) []string {
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
	for _, k := range slices.Sorted(maps.Keys(keys)) {
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
				if err := walk(JoinKey(path, k), x); err != nil {
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
		if err := walk(KeyPart(k), x); err != nil {
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

// KeyPart quotes a key for a key path the way TOML would (as package
// config names keys in its errors, and Diff in its changes): bare if it
// is made of letters, digits, '-' and '_', else as a quoted string.
func KeyPart(k string) string {
	if k == "" {
		return `""`
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return strconv.Quote(k)
		}
	}
	return k
}

// JoinKey appends a key to a key path.
func JoinKey(path, key string) string {
	if path == "" {
		return KeyPart(key)
	}
	return path + "." + KeyPart(key)
}
