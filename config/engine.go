package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"selfplay/engines/search"
)

// Engine defaults and bounds.
const (
	defaultHash        = search.DefaultHashMiB
	MaxHash            = 65536
	defaultInitTimeout = 10 * time.Second
	defaultPingTimeout = 10 * time.Second
)

var (
	inProcessKeys = []string{"preset", "hash"}
	externalKeys  = []string{"command", "args", "options", "dir", "init_timeout", "ping_timeout", "restart"}
	// engineLimitKeys are the limits either kind of engine may carry.
	engineLimitKeys = append(slices.Clone(limitKeys), "time_margin")
)

// engine parses one [engines.NAME] table.
func (p *parser) engine(name string, v any) (Engine, bool) {
	path := join("engines", name)
	if err := checkName(name); err != nil {
		p.errf(path, "bad engine name: %v", err)
		return Engine{}, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		p.errf(path, "want a table ([engines.%s] with preset = ... or command = ...), got %s", keyPart(name), describe(v))
		return Engine{}, false
	}
	t := &table{p: p, path: path, m: m}
	switch {
	case t.has("preset") && t.has("command"):
		p.errf(path, "both preset and command set: an engine is either an in-process variant (preset) or an external UCI engine (command), not both")
		return Engine{}, false
	case t.has("preset"):
		return p.inProcess(name, t)
	case t.has("command"):
		return p.external(name, t)
	}
	// Neither kind is known, so a misspelt key ("prest", "comand") is
	// checked against the keys of both, with a suggestion, before the
	// missing key itself is reported.
	t.unknown(slices.Concat(inProcessKeys, externalKeys, search.SwitchNames(), engineLimitKeys), nil)
	p.errf(path, "missing preset or command: an in-process engine needs preset = one of %s; an external UCI engine needs command = \"/path/to/engine\"",
		strings.Join(search.PresetNames(), ", "))
	return Engine{}, false
}

func (p *parser) inProcess(name string, t *table) (Engine, bool) {
	e := Engine{Name: name, Hash: defaultHash, Switches: map[string]string{}}
	switches := search.SwitchNames()
	errs := len(p.errs)
	t.unknown(slices.Concat(inProcessKeys, switches, engineLimitKeys), func(k string) string {
		if slices.Contains(externalKeys, k) {
			return fmt.Sprintf("%s applies only to external UCI engines (command = ...), not to an in-process preset", k)
		}
		return ""
	})
	if h, ok := t.integer("hash", 1, MaxHash); ok {
		if err := CheckHash(h); err != nil {
			t.errf("hash", "%v", err)
		} else {
			e.Hash = int(h)
		}
	}
	preset, ok := t.str("preset")
	if !ok {
		return Engine{}, false
	}
	opts, err := search.Preset(preset)
	if err != nil {
		hint := ""
		if s := didYouMean(preset, search.PresetNames()); s != "" {
			hint = fmt.Sprintf("did you mean %q? ", s)
		}
		t.errf("preset", "unknown preset %q (%svalid presets: %s)", preset, hint, strings.Join(search.PresetNames(), ", "))
		return Engine{}, false
	}
	e.Preset = preset
	e.Limit, e.TimeMargin = p.engineLimits(t)
	// Switches in the fixed order of search.Switches: each sets its own
	// fields, so the order does not change the result, but keep it stable.
	for _, sw := range switches {
		v, ok := t.m[sw]
		if !ok {
			continue
		}
		text, ok := scalarText(v)
		if _, isFloat := v.(float64); !ok || isFloat {
			t.wrongType(sw, "an integer, boolean or string")
			continue
		}
		if err := opts.Set(sw, text); err != nil {
			t.errf(sw, "%v", err)
			continue
		}
		e.Switches[sw] = text
	}
	if len(p.errs) > errs {
		return Engine{}, false
	}
	if err := opts.Validate(); err != nil {
		p.errf(t.path, "preset %q with these switches cannot run: %v", preset, err)
		return Engine{}, false
	}
	e.Options = opts
	return e, true
}

func (p *parser) external(name string, t *table) (Engine, bool) {
	e := Engine{Name: name, InitTimeout: defaultInitTimeout, PingTimeout: defaultPingTimeout}
	errs := len(p.errs)
	t.unknown(slices.Concat(externalKeys, engineLimitKeys), func(k string) string {
		switch {
		case k == "hash":
			return "hash applies only to in-process engines; set a UCI engine's hash table size in options, e.g. options = { Hash = 16 }"
		case slices.Contains(search.SwitchNames(), k):
			return fmt.Sprintf("switch %s applies only to in-process engines (preset = ...); set a UCI engine's parameters in options", k)
		}
		return ""
	})
	command, _ := t.str("command")
	if strings.TrimSpace(command) == "" {
		if _, isString := t.m["command"].(string); isString {
			t.errf("command", "empty command")
		}
	}
	if hasControl(command) {
		t.errf("command", "%q contains control characters", command)
	}
	if args, ok := t.stringList("args"); ok {
		for i, a := range args {
			if strings.ContainsRune(a, 0) {
				p.errf(fmt.Sprintf("%s[%d]", t.key("args"), i), "argument contains a NUL byte")
			}
		}
		e.Args = args
	}
	if opts, ok := t.sub("options"); ok {
		e.UCIOptions = map[string]string{}
		for _, k := range sortedKeys(opts.m) {
			if err := checkUCIOptionName(k); err != nil {
				opts.errf(k, "%v", err)
				continue
			}
			v := opts.m[k]
			text, ok := scalarText(v)
			if !ok {
				opts.wrongType(k, "an integer, float, boolean or string")
				continue
			}
			if hasControl(text) {
				opts.errf(k, "value %q contains control characters (UCI is a line protocol)", text)
				continue
			}
			e.UCIOptions[k] = text
		}
	}
	if dir, ok := t.str("dir"); ok {
		if strings.TrimSpace(dir) == "" {
			t.errf("dir", "empty directory (leave the key out to run the engine in the current directory)")
		} else {
			e.Dir = p.resolve(dir)
			if st, err := os.Stat(e.Dir); err != nil {
				t.errf("dir", "%v", err)
			} else if !st.IsDir() {
				t.errf("dir", "%s is not a directory", e.Dir)
			}
		}
	}
	for _, d := range []struct {
		key   string
		field *time.Duration
	}{{"init_timeout", &e.InitTimeout}, {"ping_timeout", &e.PingTimeout}} {
		if v, ok := t.duration(d.key); ok {
			if v <= 0 {
				t.errf(d.key, "must be > 0")
			} else {
				*d.field = v
			}
		}
	}
	e.Restart, _ = t.boolean("restart")
	e.Limit, e.TimeMargin = p.engineLimits(t)
	if len(p.errs) > errs {
		return Engine{}, false
	}
	e.Command = p.resolveCommand(command, e.Dir)
	return e, true
}

// engineLimits parses an engine's own limits: at most one of nodes,
// depth, movetime and tc (the tournament's syntax), and time_margin, which
// only a time limit (the engine's or the tournament's) uses. The
// tournament's nodes_jitter varies an engine's own node limit too.
func (p *parser) engineLimits(t *table) (*Limits, *time.Duration) {
	var limit *Limits
	switch given := givenLimits(t); len(given) {
	case 0:
	case 1:
		l := Limits{}
		errs := len(p.errs)
		limitValues(t, &l)
		if len(p.errs) == errs {
			limit = &l
		}
	default:
		p.errf(t.path, "%s: an engine takes at most one limit of its own, not several (one of %s)", strings.Join(given, " and "), strings.Join(limitKeys, ", "))
	}
	d, ok := t.duration("time_margin")
	if !ok {
		return limit, nil
	}
	if limit != nil && limit.TC == nil && limit.MoveTime == 0 {
		t.errf("time_margin", "applies only to a time limit (tc or movetime), not to the engine's %s", givenLimits(t)[0])
		return limit, nil
	}
	return limit, &d
}

// resolveCommand: a command without a path separator is left as is (the
// UCI adapter looks it up in PATH); a relative path is resolved against the
// engine's dir if given, else against the config directory, and made
// absolute so that it does not depend on the working directory the engine
// is started in.
func (p *parser) resolveCommand(command, dir string) string {
	if filepath.IsAbs(command) || !strings.ContainsRune(command, '/') && !strings.ContainsRune(command, filepath.Separator) {
		return command
	}
	base := dir
	if base == "" {
		base = p.dir
	}
	path := filepath.Join(base, command)
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// checkUCIOptionName rejects names that "setoption name N value V" cannot
// carry.
func checkUCIOptionName(name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("empty UCI option name")
	}
	if hasControl(name) {
		return fmt.Errorf("UCI option name %q contains control characters", name)
	}
	for _, w := range strings.Fields(name) {
		if w == "name" || w == "value" {
			return fmt.Errorf("UCI option name %q contains the word %q, which setoption cannot carry", name, w)
		}
	}
	return nil
}

// VariantSpec is the in-process engine as a variant spec for
// `selfplay uci -variant` (search.ParseVariant): its preset and the
// switches given, in search.SwitchNames's order.
func (e Engine) VariantSpec() string {
	spec := e.Preset
	for _, sw := range search.SwitchNames() {
		if v, ok := e.Switches[sw]; ok {
			spec += ":" + sw + "=" + v
		}
	}
	return spec
}
