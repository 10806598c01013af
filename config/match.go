package config

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"selfplay/engines/search"
)

// MatchArgs is a tournament given on the command line (selfplay match)
// instead of in a file: engines as words, settings as flags.
//
// ParseMatchContext writes the config file these arguments stand for (one
// [[tournament]] table) and parses it with Parse, so the config is exactly
// what that file gives, defaults and validation included; the errors name
// the flag or engine argument instead of the key path.
type MatchArgs struct {
	// Engines holds each engine's words. The first is a variant spec
	// (PRESET or PRESET:SWITCH=VALUE:...) or cmd=PATH for an external UCI
	// engine; the others are KEY=VALUE: for a variant hash= and any switch,
	// for a UCI engine option.NAME=, arg= (one argument, repeatable),
	// args= (arguments separated by spaces), dir=, init_timeout=,
	// ping_timeout=; for both name= (the engine's name; default: the
	// spec, or the command's base name) and the engine's own limits
	// nodes=, depth=, movetime=, tc=, time_margin= (the keys of its
	// config table).
	Engines [][]string
	// Settings are the tournament's keys set by flags, in the order given.
	Settings []MatchSetting
	Database string // "" : DefaultDatabase in the current directory
	// Name is the tournament's name; "" generates one from what defines
	// the games (matchName), so that the same arguments name the same
	// tournament.
	Name string
	// CommandLine is the command as typed, for a comment atop the file.
	CommandLine []string
}

// MatchSetting is one tournament key set by a flag.
type MatchSetting struct {
	Flag  string // as named in errors, e.g. "-nodes"
	Key   string // key path inside [[tournament]], e.g. "limits.nodes", "rounds"
	Value any    // int64, float64 or string, as the TOML decoder gives them
}

// matchFile is the path that the config of a match is parsed as: relative
// paths (openings file, engine commands and dirs, database) are relative to
// the current directory.
const matchFile = "selfplay-match.toml"

// parseMatch builds and validates the config of a match: the File and the
// TOML text of the equivalent config file (with the tournament's name).
func parseMatch(m MatchArgs) (*File, string, error) {
	return ParseMatchContext(context.Background(), m)
}

// ParseMatchContext is parseMatch whose openings file is read on ctx (see
// LoadContext).
func ParseMatchContext(ctx context.Context, m MatchArgs) (*File, string, error) {
	g, err := newMatchGen(m)
	if err != nil {
		return nil, "", err
	}
	name := m.Name
	if name == "" {
		name = "match" // replaced below by the generated name
	}
	text := g.toml(name)
	f, err := parse(ctx, []byte(text), matchFile)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", err
		}
		return nil, "", g.blame(err)
	}
	t := &f.Tournaments[0]
	if m.Name == "" {
		if t.Name, err = matchName(f, t); err != nil {
			return nil, "", err
		}
		text = g.toml(t.Name)
	}
	return f, text, nil
}

// matchName is the generated name of a tournament given on the command
// line: who plays (A-vs-B for two engines, A-gauntlet or round-robin for
// more) and the first 8 hex digits of the SHA-256 of its snapshot without
// its name, that is of everything that defines its games (engines, limits,
// openings and their file's content, adjudication, SPRT, rounds, seed)
// and of nothing else (not the concurrency, the database or the order of
// the flags).
func matchName(f *File, t *Tournament) (string, error) {
	snap, err := t.Snapshot(f)
	if err != nil {
		return "", err
	}
	snap.Name = ""
	text, err := snap.Encode()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(text))
	var who string
	switch {
	case t.Format == FormatMatch:
		who = t.Engines[0] + "-vs-" + t.Engines[1]
	case t.Format == FormatGauntlet:
		who = t.Engines[0] + "-gauntlet"
	case t.Format == FormatKnockout:
		who = "knockout"
	default:
		who = "round-robin"
	}
	return who + "-" + hex.EncodeToString(sum[:4]), nil
}

// matchGen holds the tables of a match's config, ready to be written.
type matchGen struct {
	m       MatchArgs
	engines []matchEngine
	// keyArg maps key paths of the generated file to the argument that
	// set them, for errors.
	keyArg map[string]string
}

type matchEngine struct {
	label string // `engine 1 "fhr dr=2"`
	name  string
	keys  []tomlKey // the table's keys in order
	// specKey maps a key of the table to the word's key, for errors
	// ("command" -> "cmd", "options.Hash" -> "option.Hash").
	specKey map[string]string
	// ownLimit: the engine has a limit of its own (nodes=, depth=,
	// movetime= or tc=), so the match needs no limit flag for it.
	ownLimit bool
	external bool // a UCI engine (cmd=)
	index    int  // its place among the match's engines, from 0
	// plainName is the default name without the limit words (fhr for
	// fhr:nodes=1000); "" for a name given with name=.
	plainName string
}

type tomlKey struct {
	key   string // "preset", "options" (a table of strings), "args" (a list)
	value any    // string, int64, []string, or [][2]string for options
}

// External engines' words and the config keys they set.
var externalWords = []string{"cmd", "name", "arg", "args", "dir", "option.NAME", "init_timeout", "ping_timeout", "restart",
	"nodes", "depth", "movetime", "tc", "time_margin"}

func newMatchGen(m MatchArgs) (*matchGen, error) {
	g := &matchGen{m: m, keyArg: map[string]string{}}
	var errs Errors
	bad := func(label, format string, args ...any) {
		errs = append(errs, &Error{Key: label, Msg: fmt.Sprintf(format, args...)})
	}
	if len(m.Engines) < 2 {
		bad("engines", "want at least 2 engines, got %d (each a variant spec such as nmr-r3-4:dr=2, or cmd=PATH for a UCI engine)", len(m.Engines))
	}
	parsed := 0
	for i, words := range m.Engines {
		label := fmt.Sprintf("engine %d %q", i+1, strings.Join(words, " "))
		e, err := parseMatchEngine(words)
		if err != nil {
			bad(label, "%v", err)
			continue
		}
		e.label, e.index = label, i
		g.engines = append(g.engines, e)
		parsed++
	}
	if parsed == len(m.Engines) && !slices.ContainsFunc(m.Settings, func(s MatchSetting) bool {
		k, ok := strings.CutPrefix(s.Key, "limits.")
		return ok && slices.Contains(engineLimitKeys, k)
	}) {
		m.Settings = append(slices.Clip(m.Settings), g.hoistSharedLimits()...)
	}
	names := map[string]int{}
	kept := g.engines[:0]
	for _, e := range g.engines {
		if j, dup := names[e.name]; dup {
			bad(e.label, "the name %q is also engine %d's: give one of them another with name=NAME", e.name, j+1)
			continue
		}
		names[e.name] = e.index
		kept = append(kept, e)
	}
	g.engines = kept
	var limits []string
	allOwn := len(g.engines) > 0
	for _, e := range g.engines {
		allOwn = allOwn && e.ownLimit
	}
	for _, s := range m.Settings {
		if k, ok := strings.CutPrefix(s.Key, "limits."); ok && slices.Contains(limitKeys, k) {
			limits = append(limits, s.Flag)
		}
		g.keyArg["tournament[0]."+s.Key] = s.Flag
	}
	switch {
	case len(limits) == 0 && !allOwn:
		bad("limits", "no limit: give one of -nodes, -depth, -movetime, -tc (or give every engine its own, such as nodes=N)")
	case len(limits) > 1:
		bad("limits", "%s: give exactly one limit, not several", strings.Join(limits, " and "))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	g.m.Settings = withPlayOutDefault(g.engines, m.Settings)
	return g, nil
}

// hoistSharedLimits makes limits that every engine has, with the same
// values (fastchess's -each nodes=N, or the same word on each engine), the
// tournament's: the same games as -nodes N, so the same tournament, and
// the engines keep names without them (fhr, not fhr:nodes=1000). It
// returns the settings; nil when the engines' limits differ (node odds),
// which then stay theirs and in their default names.
func (g *matchGen) hoistSharedLimits() []MatchSetting {
	if len(g.engines) < 2 {
		return nil
	}
	shared := g.engines[0].limitKeys()
	if len(shared) == 0 {
		return nil
	}
	for _, e := range g.engines[1:] {
		if !slices.Equal(e.limitKeys(), shared) {
			return nil
		}
	}
	var settings []MatchSetting
	for _, k := range shared {
		settings = append(settings, MatchSetting{Flag: fmt.Sprintf("%s=%v (every engine's)", k.key, k.value), Key: "limits." + k.key, Value: k.value})
	}
	for i := range g.engines {
		e := &g.engines[i]
		e.keys = slices.DeleteFunc(e.keys, func(k tomlKey) bool { return slices.Contains(engineLimitKeys, k.key) })
		e.ownLimit = false
		if e.plainName != "" {
			e.name = e.plainName
		}
	}
	return settings
}

// limitKeys are the engine's limit keys, sorted by key.
func (e *matchEngine) limitKeys() []tomlKey {
	var out []tomlKey
	for _, k := range e.keys {
		if slices.Contains(engineLimitKeys, k.key) {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b tomlKey) int { return strings.Compare(a.key, b.key) })
	return out
}

// The move-limit adjudication flags: any of them asks for adjudication
// at the move limit.
var moveLimitKeys = []string{"adjudication.move", "adjudication.policy", "adjudication.referee",
	"adjudication.referee_nodes", "adjudication.margin"}

// playOutFlag names the setting withPlayOutDefault adds, in errors and in
// the generated file's comment.
const playOutFlag = "(external engines' default)"

// withPlayOutDefault adds adjudication.move = 0 to the settings of a match
// with an external engine that asks for no move-limit adjudication: games
// are played out, as fastchess plays them by default, since the papers'
// referee (our own plain engine at move 100) is weaker than most engines
// it would judge. A config file keeps the papers' rule as its default.
func withPlayOutDefault(engines []matchEngine, settings []MatchSetting) []MatchSetting {
	if !slices.ContainsFunc(engines, func(e matchEngine) bool { return e.external }) {
		return settings
	}
	for _, s := range settings {
		if slices.Contains(moveLimitKeys, s.Key) {
			return settings
		}
	}
	return append(slices.Clip(settings), MatchSetting{Flag: playOutFlag, Key: "adjudication.move", Value: int64(0)})
}

// parseMatchEngine reads an engine's words into its table.
func parseMatchEngine(words []string) (matchEngine, error) {
	e := matchEngine{specKey: map[string]string{}}
	if len(words) == 0 || words[0] == "" {
		return e, errors.New("empty engine")
	}
	first := words[0]
	rest := words[1:]
	set := func(key, word string, v any) {
		e.keys = append(e.keys, tomlKey{key, v})
		e.specKey[key] = word
	}
	if cmd, ok := strings.CutPrefix(first, "cmd="); ok {
		set("command", "cmd", cmd)
		e.name, e.external = baseName(cmd), true
		err := e.externalWords(rest, set)
		return e, err
	}
	if k, _, ok := strings.Cut(first, "="); ok && !strings.Contains(k, ":") {
		return e, fmt.Errorf("an engine starts with a variant spec (PRESET or PRESET:SWITCH=VALUE:...) or cmd=PATH, not %q", first)
	}
	parts := strings.Split(first, ":")
	set("preset", "preset", parts[0])
	nameParts := []string{parts[0]}
	plainParts := []string{parts[0]} // without the limit words
	kvs := append(parts[1:], rest...)
	for _, w := range kvs {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return e, fmt.Errorf("switch %q is not KEY=VALUE", w)
		}
		switch k {
		case "name":
			e.name = v
			continue
		case "preset":
			return e, fmt.Errorf("preset=: the preset is the engine's first word (%s)", parts[0])
		case "hash": // not part of the default name, which says the variant
			set(k, k, limitWord(k, v))
			continue
		}
		if slices.Contains(engineLimitKeys, k) {
			// Part of the default name: the same variant at two
			// budgets (node odds) gets two names.
			set(k, k, limitWord(k, v))
			e.ownLimit = e.ownLimit || k != "time_margin"
			nameParts = append(nameParts, w)
			continue
		}
		set(k, k, scalar(v))
		nameParts = append(nameParts, w)
		plainParts = append(plainParts, w)
	}
	if e.name == "" {
		e.name = strings.Join(nameParts, ":")
		e.plainName = strings.Join(plainParts, ":")
	}
	return e, nil
}

// externalWords reads an external engine's words after its cmd= word.
func (e *matchEngine) externalWords(rest []string, set func(key, word string, v any)) error {
	var opts [][2]string
	var args []string
	hasArgs := false
	for _, w := range rest {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return fmt.Errorf("%q is not KEY=VALUE", w)
		}
		switch {
		case k == "name":
			e.name = v
		case k == "arg":
			args, hasArgs = append(args, v), true
		case k == "args":
			args, hasArgs = append(args, strings.Fields(v)...), true
		case strings.HasPrefix(k, "option."):
			opts = append(opts, [2]string{strings.TrimPrefix(k, "option."), v})
			e.specKey["options."+keyPart(strings.TrimPrefix(k, "option."))] = k
		case k == "dir" || k == "init_timeout" || k == "ping_timeout":
			set(k, k, v)
		case k == "restart":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("restart=%s: want true or false", v)
			}
			set(k, k, b)
		case slices.Contains(engineLimitKeys, k):
			set(k, k, limitWord(k, v))
			e.ownLimit = e.ownLimit || k != "time_margin"
		case k == "cmd":
			return fmt.Errorf("cmd= given twice (an engine starts at its cmd= word)")
		case k == "hash":
			return errors.New("hash= applies only to in-process engines; set a UCI engine's hash table size with option.Hash=MiB")
		case slices.Contains(search.SwitchNames(), k):
			return fmt.Errorf("switch %s applies only to in-process engines (a variant spec); set a UCI engine's parameters with option.NAME=VALUE", k)
		default:
			hint, guess := "", k
			if pre, _, ok := strings.Cut(k, "."); ok {
				guess = pre + ".NAME" // opton.Hash: option.NAME
			}
			if s := didYouMean(guess, externalWords); s != "" {
				hint = fmt.Sprintf("did you mean %q? ", s)
			}
			return fmt.Errorf("%s: unknown key (%sa UCI engine takes %s)", k, hint, strings.Join(externalWords, ", "))
		}
	}
	if hasArgs {
		set("args", "args", args)
	}
	if len(opts) > 0 {
		set("options", "option", opts)
	}
	return nil
}

// limitWord is the value of an engine's hash= or limit word as it would
// be written in a file: an integer for hash, nodes and depth when the text
// is one (else the string, which Parse refuses with the key's expected
// type), a string for the durations and the time control.
func limitWord(k, v string) any {
	if k == "hash" || k == "nodes" || k == "depth" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	}
	return v
}

// scalar is a switch's value as it would be written in a file: an integer
// or boolean when the text is one (as written: "02" stays a string), else
// the string. Parse reads each to the same text.
func scalar(v string) any {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && strconv.FormatInt(n, 10) == v {
		return n
	}
	if v == "true" || v == "false" {
		return v == "true"
	}
	return v
}

// baseName is a command's file name without directories and without a
// Windows executable's extension. Other dots stay: they are versions
// ("stockfish-16.1"), and cutting at them would give two versions one name.
func baseName(cmd string) string {
	i := strings.LastIndexAny(cmd, `/\`)
	b := cmd[i+1:]
	if ext := filepath.Ext(b); len(b) > len(ext) && (strings.EqualFold(ext, ".exe") || strings.EqualFold(ext, ".bat") || strings.EqualFold(ext, ".cmd")) {
		b = b[:len(b)-len(ext)]
	}
	if b == "" {
		return cmd
	}
	return b
}

// toml writes the config file.
func (g *matchGen) toml(name string) string {
	var sb strings.Builder
	if len(g.m.CommandLine) > 0 {
		sb.WriteString("# the config of:")
		for _, w := range g.m.CommandLine {
			sb.WriteString(" " + shellWord(w))
		}
		sb.WriteString("\n")
	}
	if g.m.Database != "" {
		fmt.Fprintf(&sb, "database = %s\n", tomlString(g.m.Database))
	}
	for _, e := range g.engines {
		fmt.Fprintf(&sb, "\n[engines.%s]\n", tomlKeyPart(e.name))
		for _, k := range e.keys {
			fmt.Fprintf(&sb, "%s = %s\n", tomlKeyPart(k.key), tomlValue(k.value))
		}
	}
	sb.WriteString("\n[[tournament]]\n")
	fmt.Fprintf(&sb, "name = %s\n", tomlString(name))
	var names []string
	for _, e := range g.engines {
		names = append(names, e.name)
	}
	fmt.Fprintf(&sb, "engines = %s\n", tomlValue(names))
	tables := []string{""}
	byTable := map[string][]MatchSetting{}
	for _, s := range g.m.Settings {
		table, key := "", s.Key
		if i := strings.IndexByte(s.Key, '.'); i >= 0 {
			table, key = s.Key[:i], s.Key[i+1:]
		}
		if !slices.Contains(tables, table) {
			tables = append(tables, table)
		}
		byTable[table] = append(byTable[table], MatchSetting{Flag: s.Flag, Key: key, Value: s.Value})
	}
	for _, table := range tables {
		if table != "" {
			fmt.Fprintf(&sb, "\n[tournament.%s]\n", table)
		}
		for _, s := range byTable[table] {
			if s.Flag == playOutFlag {
				sb.WriteString("# an external engine plays: games are played out unless -move or -policy is given\n")
			}
			fmt.Fprintf(&sb, "%s = %s\n", tomlKeyPart(s.Key), tomlValue(s.Value))
		}
	}
	return sb.String()
}

// blame rewrites the errors of the generated file to name the arguments.
func (g *matchGen) blame(err error) error {
	var es Errors
	if !errors.As(err, &es) {
		return err
	}
	out := make(Errors, 0, len(es))
	for _, e := range es {
		out = append(out, &Error{Key: g.argument(e.Key), Msg: e.Msg, Err: e.Err})
	}
	return out
}

// argument names the argument behind a key path of the generated file.
func (g *matchGen) argument(key string) string {
	for _, e := range g.engines {
		prefix := join("engines", e.name)
		if key == prefix {
			return e.label
		}
		if k, ok := strings.CutPrefix(key, prefix+"."); ok {
			if w, ok := e.specKey[k]; ok {
				return e.label + ": " + w
			}
			if i := strings.IndexByte(k, '['); i > 0 {
				if w, ok := e.specKey[k[:i]]; ok {
					return e.label + ": " + w
				}
			}
			return e.label + ": " + k
		}
	}
	if a, ok := g.keyArg[key]; ok {
		return a
	}
	// A table's problem (limits, adjudication, sprt): the flags under it.
	if table, ok := strings.CutPrefix(key, "tournament[0]."); ok {
		var flags []string
		for _, s := range g.m.Settings {
			if strings.HasPrefix(s.Key, table+".") && !slices.Contains(flags, s.Flag) {
				flags = append(flags, s.Flag)
			}
		}
		if len(flags) > 0 {
			return strings.Join(flags, ", ")
		}
		return table
	}
	if key == "database" {
		return "-db"
	}
	return key
}

// tomlValue writes a value as TOML.
func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		return tomlString(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return "nan"
		case math.IsInf(x, 1):
			return "inf"
		case math.IsInf(x, -1):
			return "-inf"
		}
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case bool:
		return strconv.FormatBool(x)
	case []string:
		q := make([]string, len(x))
		for i, s := range x {
			q[i] = tomlString(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	case [][2]string:
		q := make([]string, len(x))
		for i, kv := range x {
			q[i] = tomlString(kv[0]) + " = " + tomlString(kv[1])
		}
		return "{ " + strings.Join(q, ", ") + " }"
	}
	panic(fmt.Sprintf("config: no TOML for %T", v)) // a bug in this file
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&sb, `\u%04X`, r)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// tomlKeyPart writes a key bare when TOML allows it, else quoted.
func tomlKeyPart(k string) string {
	if keyPart(k) == k {
		return k
	}
	return tomlString(k)
}

// shellWord quotes a word for the comment that repeats the command line.
func shellWord(w string) string {
	if hasControl(w) {
		return strconv.Quote(w) // keeps the comment on one line
	}
	if w != "" && !strings.ContainsFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=.,:/+@%", r))
	}) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
