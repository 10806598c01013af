package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Config is a tournaments file of a test fixture, written out as TOML by
// String: the database, the engines (in order) and the tournaments.
type Config struct {
	Database    string // "" leaves the key out
	Engines     []Engine
	Tournaments []Tournament
}

// Engine is an [engines.NAME] table: an in-process preset (Hash 0 leaves
// the key out), an external engine's Command and Args, then Body's raw
// TOML lines (what the fields do not say: switches, options, timeouts, or
// a whole external engine from EngineTOML).
type Engine struct {
	Name    string
	Preset  string
	Hash    int
	Command string
	Args    []string
	Body    string
}

// Tournament is a [[tournament]] table; its zero fields are left out (the
// config's defaults), the subtables' keys are written as given.
type Tournament struct {
	Name                string
	Engines             []string
	Format              string
	Rounds, Concurrency int
	Seed                int64
	// Body is more of the tournament's own keys as TOML text (such as
	// pgn_out), written after those above.
	Body                                 string
	Openings, Limits, Adjudication, SPRT Table
}

// Table is a TOML table's keys and values (string, int, int64, float64,
// bool, []string), written in key order.
type Table map[string]any

// InProcess is the engines of presets, each named as its preset, with a
// 1 MiB hash (the size the tests play at).
func InProcess(presets ...string) []Engine {
	out := make([]Engine, len(presets))
	for i, p := range presets {
		out[i] = Engine{Name: p, Preset: p, Hash: 1}
	}
	return out
}

// String is the config as TOML.
func (c Config) String() string {
	var b strings.Builder
	if c.Database != "" {
		fmt.Fprintf(&b, "database = %q\n", c.Database)
	}
	for _, e := range c.Engines {
		fmt.Fprintf(&b, "[engines.%s]\n", tomlKey(e.Name))
		if e.Preset != "" {
			fmt.Fprintf(&b, "preset = %q\n", e.Preset)
		}
		if e.Hash != 0 {
			fmt.Fprintf(&b, "hash = %d\n", e.Hash)
		}
		if e.Command != "" {
			fmt.Fprintf(&b, "command = %s\n", tomlValue(e.Command))
		}
		if len(e.Args) > 0 {
			fmt.Fprintf(&b, "args = %s\n", tomlValue(e.Args))
		}
		if e.Body != "" {
			b.WriteString(strings.TrimSuffix(e.Body, "\n") + "\n")
		}
	}
	for _, t := range c.Tournaments {
		b.WriteString("[[tournament]]\n")
		writeTable(&b, Table{"name": t.Name, "engines": t.Engines, "format": t.Format,
			"rounds": t.Rounds, "concurrency": t.Concurrency, "seed": t.Seed}, true)
		if t.Body != "" {
			b.WriteString(strings.TrimSuffix(t.Body, "\n") + "\n")
		}
		for _, sub := range []struct {
			name  string
			table Table
		}{{"openings", t.Openings}, {"limits", t.Limits}, {"adjudication", t.Adjudication}, {"sprt", t.SPRT}} {
			if len(sub.table) > 0 {
				fmt.Fprintf(&b, "[tournament.%s]\n", sub.name)
				writeTable(&b, sub.table, false)
			}
		}
	}
	return b.String()
}

// Write writes the config to dir/name and returns its path.
func (c Config) Write(t testing.TB, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(c.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeTable writes a table's keys in order; with omitZero, not those
// whose value is zero.
func writeTable(b *strings.Builder, table Table, omitZero bool) {
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if v := table[k]; !omitZero || !isZero(v) {
			fmt.Fprintf(b, "%s = %s\n", tomlKey(k), tomlValue(v))
		}
	}
}

// isZero: v is "", 0 or an empty list.
func isZero(v any) bool {
	switch v := v.(type) {
	case []string:
		return len(v) == 0
	case string, int, int64, float64:
		return v == reflect.Zero(reflect.TypeOf(v)).Interface()
	}
	return false
}

// tomlValue is v as TOML; a type TOML has no literal for here is written
// with %v, which the config loader then refuses with its message.
func tomlValue(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// tomlKey quotes a key that is not a bare TOML key.
func tomlKey(k string) string {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return strconv.Quote(k)
		}
	}
	return k
}
