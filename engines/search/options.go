package search

import (
	"fmt"
	"strconv"
	"strings"
)

// NullMode is what a null-move fail-high does (David-Tabibi & Netanyahu,
// "Extended Null-Move Reductions", §2-3).
type NullMode uint8

// Null-move modes.
const (
	NullOff      NullMode = iota
	NullStandard          // Fig. 1: cut off (fixed R, or adaptive R = depth > 6 ? Rmax : Rmin, Heinz)
	NullVerified          // verified null-move pruning (2002): reduce by one and verify below
	NullNMR               // Fig. 2: depth -= DR and continue the normal search
)

var nullModeNames = []string{"off", "standard", "verified", "nmr"}

func (m NullMode) String() string { return nullModeNames[m] }

// Options select the variant: every switch of the one search. The zero value
// is a bare NegaScout with transposition table and quiescence search; the
// presets add the papers' configurations.
type Options struct {
	// Null move (NMR paper, Figs. 1-2). R = depth > NullRDepth ? NullRMax : NullRMin;
	// a fixed R has NullRMin == NullRMax. The null-window search is done
	// around beta at depth - R - 1.
	Null            NullMode
	NullRMin        int
	NullRMax        int
	NullRDepth      int  // the "depth > 6" threshold of adaptive R
	NullDR          int  // NMR: depth reduction on fail-high (DR)
	NullPawnEndings bool // allow null moves when the side to move has only king and pawns
	NullMinDepth    int  // smallest remaining depth for a null move (2 = interior nodes only)

	// Fail-high reductions (Feldmann, Fig. 2): at null-window nodes with
	// e - t >= beta - FHRMargin, search one ply shallower.
	FHR       bool
	FHRMargin int

	// Futility cutoff at frontier nodes (Ye & Marsland, Fig. 2): when material
	// plus FutilityMargin cannot reach alpha, skip quiet non-checking moves.
	Futility       bool
	FutilityMargin int

	// Extensions on forcing moves (Ye & Marsland, Fig. 3 and §3), one ply each.
	ExtCheck          bool // the move gives check (check evasion follows)
	ExtRecapture      bool // recapture that brings material back within RecaptureWindow of the root's
	ExtKingThreat     bool // the move makes more than KingThreatSquares squares around the enemy king attacked
	ExtAttackEvading  bool // a rook or queen attacked by the last-moved piece moves to safety
	ExtSingleReply    bool // the only legal move (strictly forced)
	RecaptureWindow   int
	KingThreatSquares int
}

// Defaults shared by every preset for the numeric parameters.
func baseOptions() Options {
	return Options{
		NullRDepth:        6,
		NullDR:            4,
		NullMinDepth:      1,
		FutilityMargin:    300,
		RecaptureWindow:   100,
		KingThreatSquares: 3,
		ExtCheck:          true,
	}
}

type preset struct {
	name, doc string
	opts      func() Options
}

func presets() []preset {
	null := func(mode NullMode, rmin, rmax int) func() Options {
		return func() Options {
			o := baseOptions()
			o.Null, o.NullRMin, o.NullRMax = mode, rmin, rmax
			o.NullPawnEndings = mode == NullNMR // NMR paper §4: safe in all phases
			return o
		}
	}
	return []preset{
		{"plain", "NegaScout + TT + quiescence + check extension (FHR paper's ZZ)", baseOptions},
		{"fhr", "plain + fail-high reductions, margin 0 (Feldmann, Fig. 2)", func() Options {
			o := baseOptions()
			o.FHR = true
			return o
		}},
		{"null-r1", "standard null move, R = 1, cutoff (NMR paper, Fig. 1)", null(NullStandard, 1, 1)},
		{"null-r2", "standard null move, R = 2, cutoff (NMR paper, Fig. 1)", null(NullStandard, 2, 2)},
		{"null-r3", "standard null move, R = 3, cutoff (NMR paper, Fig. 1)", null(NullStandard, 3, 3)},
		{"null-r4", "standard null move, R = 4, cutoff (NMR paper, Fig. 1)", null(NullStandard, 4, 4)},
		{"adaptive-r2-3", "adaptive null move, R = depth > 6 ? 3 : 2, cutoff (Heinz)", null(NullStandard, 2, 3)},
		{"adaptive-r3-4", "adaptive null move, R = depth > 6 ? 4 : 3, cutoff", null(NullStandard, 3, 4)},
		{"verified-r3", "verified null move, R = 3 (David-Tabibi & Netanyahu 2002)", null(NullVerified, 3, 3)},
		{"nmr-r3-4", "extended null-move reductions, R = depth > 6 ? 4 : 3, DR = 4 (NMR paper, Fig. 2)", null(NullNMR, 3, 4)},
		{"nmr-r4", "extended null-move reductions, R = 4, DR = 4 (NMR paper, Table 4)", null(NullNMR, 4, 4)},
		{"ye-marsland", "null move R = 1 at interior nodes + futility cutoff + check and recapture extensions (Ye & Marsland)", func() Options {
			o := null(NullStandard, 1, 1)()
			o.NullMinDepth = 2
			o.Futility = true
			o.ExtRecapture = true
			return o
		}},
	}
}

// PresetNames lists the preset names in a fixed order.
func PresetNames() []string {
	var names []string
	for _, p := range presets() {
		names = append(names, p.name)
	}
	return names
}

// PresetInfo describes a preset for `selfplay variants`.
type PresetInfo struct {
	Name     string
	Doc      string
	Switches string // the preset's switch settings, canonical form
}

// Presets describes every preset.
func Presets() []PresetInfo {
	var out []PresetInfo
	for _, p := range presets() {
		o := p.opts()
		out = append(out, PresetInfo{Name: p.name, Doc: p.doc, Switches: o.String()})
	}
	return out
}

// Preset returns the options of a named preset.
func Preset(name string) (Options, error) {
	for _, p := range presets() {
		if p.name == name {
			return p.opts(), nil
		}
	}
	return Options{}, fmt.Errorf("unknown variant preset %q (valid: %s)", name, strings.Join(PresetNames(), ", "))
}

// ParseVariant parses "preset" or "preset:switch=value:switch=value...".
func ParseVariant(spec string) (Options, error) {
	parts := strings.Split(spec, ":")
	o, err := Preset(parts[0])
	if err != nil {
		return Options{}, err
	}
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return Options{}, fmt.Errorf("variant %q: switch %q is not key=value", spec, kv)
		}
		if err := o.Set(k, v); err != nil {
			return Options{}, fmt.Errorf("variant %q: %w", spec, err)
		}
	}
	return o, nil
}

// DefaultHashMiB is the transposition table size, in MiB, that commands and
// the UCI server use when none is given.
const DefaultHashMiB = 16

// SwitchKind is the type of a switch's value.
type SwitchKind uint8

// Switch kinds.
const (
	SwitchString SwitchKind = iota // free text in a switch-specific syntax (r: "N" or "N~M")
	SwitchBool                     // true or false
	SwitchInt                      // an integer in Min..Max
	SwitchChoice                   // one of Choices
)

// maxCentipawns bounds the centipawn switches (margins and windows).
const maxCentipawns = 100000

// SwitchInfo documents one switch: its name, its values for people (Values)
// and for programs (Kind with Min and Max, or Choices), and what it does.
type SwitchInfo struct {
	Name, Values, Doc string
	Kind              SwitchKind
	Min, Max          int      // SwitchInt: the accepted range; r: the range of N and M
	Choices           []string // SwitchChoice: the accepted values
}

// Switches lists every switch accepted by Options.Set.
func Switches() []SwitchInfo {
	check := func(name, doc string) SwitchInfo {
		return SwitchInfo{Name: name, Values: "true|false", Doc: doc, Kind: SwitchBool}
	}
	spin := func(name, values string, lo, hi int, doc string) SwitchInfo {
		return SwitchInfo{Name: name, Values: values, Doc: doc, Kind: SwitchInt, Min: lo, Max: hi}
	}
	return []SwitchInfo{
		{Name: "null", Values: "off|standard|adaptive|verified|nmr", Doc: "null-move rule on fail-high (adaptive = standard, with r=N~M)",
			Kind: SwitchChoice, Choices: []string{"off", "standard", "adaptive", "verified", "nmr"}},
		{Name: "r", Values: "N or N~M (1..6)", Doc: "null-move reduction R; N~M: R = depth > r-depth ? M : N",
			Kind: SwitchString, Min: 1, Max: 6},
		spin("r-depth", "integer >= 1", 1, MaxPly, "depth threshold of adaptive R (papers: 6)"),
		spin("dr", "1..4", 1, 4, "NMR depth reduction DR on a null-move fail-high"),
		check("null-pawn-endings", "allow null moves with only king and pawns"),
		spin("null-min-depth", "integer >= 1", 1, MaxPly, "smallest remaining depth for a null move (2 = interior nodes only)"),
		check("fhr", "fail-high reductions (Feldmann)"),
		spin("fhr-margin", "centipawns >= 0", 0, maxCentipawns, "FHR margin: reduce when e - t >= beta - margin"),
		check("futility", "futility cutoff at frontier nodes (Ye & Marsland)"),
		spin("futility-margin", "centipawns >= 0", 0, maxCentipawns, "maximum positional gain assumed by the futility test"),
		check("ext-check", "extend checking moves"),
		check("ext-recapture", "extend recaptures back into the root's material window"),
		check("ext-king-threat", "extend moves that attack many squares around the enemy king"),
		check("ext-attack-evading", "extend a rook or queen escaping the last-moved piece's attack"),
		check("ext-single-reply", "extend the only legal move"),
		spin("recapture-window", "centipawns >= 0", 0, maxCentipawns, "material window around the root for recapture extensions"),
		spin("king-threat-squares", "0..8", 0, 8, "king threat: extend when more than this many squares are attacked"),
	}
}

// SwitchNames lists the switch names.
func SwitchNames() []string {
	var out []string
	for _, s := range Switches() {
		out = append(out, s.Name)
	}
	return out
}

// Get returns a switch's setting in the form Set accepts, so that
// o.Set(key, v) with v from o.Get(key) leaves o unchanged. The null rule
// reads back as off, standard, verified or nmr (adaptive is standard with
// r=N~M); r is "" while no reduction is set (null move off in the zero
// Options).
func (o Options) Get(key string) (string, error) {
	b, i := strconv.FormatBool, strconv.Itoa
	switch key {
	case "null":
		return o.Null.String(), nil
	case "r":
		switch {
		case o.NullRMin < 1:
			return "", nil
		case o.NullRMin == o.NullRMax:
			return i(o.NullRMin), nil
		}
		return i(o.NullRMin) + "~" + i(o.NullRMax), nil
	case "r-depth":
		return i(o.NullRDepth), nil
	case "dr":
		return i(o.NullDR), nil
	case "null-pawn-endings":
		return b(o.NullPawnEndings), nil
	case "null-min-depth":
		return i(o.NullMinDepth), nil
	case "fhr":
		return b(o.FHR), nil
	case "fhr-margin":
		return i(o.FHRMargin), nil
	case "futility":
		return b(o.Futility), nil
	case "futility-margin":
		return i(o.FutilityMargin), nil
	case "ext-check":
		return b(o.ExtCheck), nil
	case "ext-recapture":
		return b(o.ExtRecapture), nil
	case "ext-king-threat":
		return b(o.ExtKingThreat), nil
	case "ext-attack-evading":
		return b(o.ExtAttackEvading), nil
	case "ext-single-reply":
		return b(o.ExtSingleReply), nil
	case "recapture-window":
		return i(o.RecaptureWindow), nil
	case "king-threat-squares":
		return i(o.KingThreatSquares), nil
	}
	return "", fmt.Errorf("unknown switch %q (valid: %s)", key, strings.Join(SwitchNames(), ", "))
}

// Set changes one switch; key and value as in Switches, whose ranges it
// enforces.
func (o *Options) Set(key, value string) error {
	var info SwitchInfo
	for _, sw := range Switches() {
		if sw.Name == key {
			info = sw
		}
	}
	if info.Name == "" {
		return fmt.Errorf("unknown switch %q (valid: %s)", key, strings.Join(SwitchNames(), ", "))
	}
	boolean := func(dst *bool) error {
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("switch %s: %q is not true or false", key, value)
		}
		*dst = b
		return nil
	}
	integer := func(dst *int) error {
		n, err := strconv.Atoi(value)
		if err != nil || n < info.Min || n > info.Max {
			return fmt.Errorf("switch %s: %q is not an integer in %d..%d", key, value, info.Min, info.Max)
		}
		*dst = n
		return nil
	}
	switch key {
	case "null":
		switch value {
		case "off":
			o.Null = NullOff
		case "standard", "adaptive":
			o.Null = NullStandard
		case "verified":
			o.Null = NullVerified
		case "nmr":
			o.Null = NullNMR
		default:
			return fmt.Errorf("switch null: unknown value %q (valid: off, standard, adaptive, verified, nmr)", value)
		}
		return nil
	case "r":
		lo, hi, pair := strings.Cut(value, "~")
		if !pair {
			hi = lo
		}
		a, errA := strconv.Atoi(lo)
		b, errB := strconv.Atoi(hi)
		if errA != nil || errB != nil || a < info.Min || b > info.Max || a > b {
			return fmt.Errorf("switch r: %q is not N or N~M with %d <= N <= M <= %d", value, info.Min, info.Max)
		}
		o.NullRMin, o.NullRMax = a, b
		return nil
	case "r-depth":
		return integer(&o.NullRDepth)
	case "dr":
		return integer(&o.NullDR)
	case "null-pawn-endings":
		return boolean(&o.NullPawnEndings)
	case "null-min-depth":
		return integer(&o.NullMinDepth)
	case "fhr":
		return boolean(&o.FHR)
	case "fhr-margin":
		return integer(&o.FHRMargin)
	case "futility":
		return boolean(&o.Futility)
	case "futility-margin":
		return integer(&o.FutilityMargin)
	case "ext-check":
		return boolean(&o.ExtCheck)
	case "ext-recapture":
		return boolean(&o.ExtRecapture)
	case "ext-king-threat":
		return boolean(&o.ExtKingThreat)
	case "ext-attack-evading":
		return boolean(&o.ExtAttackEvading)
	case "ext-single-reply":
		return boolean(&o.ExtSingleReply)
	case "recapture-window":
		return integer(&o.RecaptureWindow)
	case "king-threat-squares":
		return integer(&o.KingThreatSquares)
	}
	return fmt.Errorf("switch %q: listed in Switches but not handled by Set", key)
}

// Validate reports option combinations the search cannot run.
func (o *Options) Validate() error {
	if o.Null != NullOff && (o.NullRMin < 1 || o.NullRMax < o.NullRMin) {
		return fmt.Errorf("null move %s needs r = N or N~M with 1 <= N <= M (got %d~%d)", o.Null, o.NullRMin, o.NullRMax)
	}
	if o.Null == NullNMR && (o.NullDR < 1 || o.NullDR > 4) {
		return fmt.Errorf("nmr needs dr in 1..4 (got %d)", o.NullDR)
	}
	if o.NullMinDepth < 1 || o.NullRDepth < 1 {
		return fmt.Errorf("null-min-depth and r-depth must be >= 1")
	}
	return nil
}

// String lists the switches that define the variant, in canonical order:
// equal Options give equal strings (used in config snapshots and listings).
func (o Options) String() string {
	var parts []string
	add := func(k string, v any) { parts = append(parts, fmt.Sprintf("%s=%v", k, v)) }
	add("null", o.Null)
	if o.Null != NullOff {
		if o.NullRMin == o.NullRMax {
			add("r", o.NullRMin)
		} else {
			add("r", fmt.Sprintf("%d~%d", o.NullRMin, o.NullRMax))
			add("r-depth", o.NullRDepth)
		}
		if o.Null == NullNMR {
			add("dr", o.NullDR)
		}
		add("null-pawn-endings", o.NullPawnEndings)
		add("null-min-depth", o.NullMinDepth)
	}
	add("fhr", o.FHR)
	if o.FHR {
		add("fhr-margin", o.FHRMargin)
	}
	add("futility", o.Futility)
	if o.Futility {
		add("futility-margin", o.FutilityMargin)
	}
	add("ext-check", o.ExtCheck)
	add("ext-recapture", o.ExtRecapture)
	if o.ExtRecapture {
		add("recapture-window", o.RecaptureWindow)
	}
	add("ext-king-threat", o.ExtKingThreat)
	if o.ExtKingThreat {
		add("king-threat-squares", o.KingThreatSquares)
	}
	add("ext-attack-evading", o.ExtAttackEvading)
	add("ext-single-reply", o.ExtSingleReply)
	return strings.Join(parts, " ")
}

// nullR is the null-move depth reduction at this depth.
func (o *Options) nullR(depth int) int {
	if depth > o.NullRDepth {
		return o.NullRMax
	}
	return o.NullRMin
}
