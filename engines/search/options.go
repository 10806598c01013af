package search

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"selfplay/engines"
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

	// Quiescence and ordering by static exchange evaluation (SEE): QSEE
	// skips captures that lose material in quiescence (not in check);
	// SEEOrder puts captures that lose material after the quiet moves.
	// Delta pruning skips a quiescence capture when the stand pat plus the
	// captured piece plus DeltaMargin cannot reach alpha.
	QSEE        bool
	SEEOrder    bool
	Delta       bool
	DeltaMargin int

	// FALCON's search components (NMR paper §4: "internal iterative
	// deepening, ... multi-cut pruning, selective extensions (consisting of
	// check, one-reply, mate-threat, recapture, and passed pawn extensions),
	// ... futility pruning near leaf nodes"), each a switch of its own.
	//
	// IID: a node with no transposition-table move, at depth >= IIDDepth
	// on the principal variation, first searches itself IIDReduction plies
	// shallower to find one (Anantharaman; Scott).
	IID          bool
	IIDDepth     int
	IIDReduction int
	// Aspiration windows: from the second iteration the root is searched
	// with [v - AspirationWindow, v + AspirationWindow] around the previous
	// iteration's value v, re-searched with the failing side open.
	Aspiration       bool
	AspirationWindow int
	// Multi-cut (Björnsson & Marsland): at an expected cut node with depth >
	// MultiCutR, the first MultiCutMoves moves are searched MultiCutR plies
	// shallower (depth - 1 - MultiCutR); MultiCutCuts fail-highs prune the node.
	MultiCut      bool
	MultiCutMoves int
	MultiCutCuts  int
	MultiCutR     int
	// Mate-threat extension: the node is searched one ply deeper when its
	// null-move search returns a mate score against the side to move.
	ExtMateThreat bool
	// Passed-pawn extension: a pawn push to the 7th rank.
	ExtPassedPawn bool
	// Extended futility pruning (Heinz): the futility cutoff at pre-frontier
	// nodes (depth 2) with the larger ExtFutilityMargin.
	ExtFutility       bool
	ExtFutilityMargin int
}

// Defaults shared by every preset: the numeric parameters, and the rules
// every variant has (check extension, SEE in quiescence and ordering, delta
// pruning), so that variants differ only in their papers' rules.
func baseOptions() Options {
	return Options{
		NullRDepth:        6,
		NullDR:            4,
		NullMinDepth:      1,
		FutilityMargin:    300,
		RecaptureWindow:   100,
		KingThreatSquares: 3,
		ExtCheck:          true,
		QSEE:              true,
		SEEOrder:          true,
		Delta:             true,
		DeltaMargin:       200,
		IIDDepth:          4,
		IIDReduction:      2,
		AspirationWindow:  50,
		MultiCutMoves:     6,
		MultiCutCuts:      3,
		MultiCutR:         2,
		ExtFutilityMargin: 500,
	}
}

// falcon turns on FALCON's components (NMR paper §4) that ours lacked:
// internal iterative deepening, aspiration windows, multi-cut, the
// one-reply, mate-threat, recapture and passed-pawn extensions (check
// extension is on everywhere) and futility pruning at frontier and
// pre-frontier nodes. Blockage detection in pawn endings (David-Tabibi,
// Felner & Netanyahu 2004) is not among them: the paper gives no rule
// exact enough to implement.
func falcon(o Options) Options {
	o.IID = true
	o.Aspiration = true
	o.MultiCut = true
	o.ExtSingleReply = true
	o.ExtMateThreat = true
	o.ExtRecapture = true
	o.ExtPassedPawn = true
	o.Futility = true
	o.ExtFutility = true
	return o
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
		{"falcon", "plain + FALCON's components: IID, aspiration, multi-cut, one-reply/mate-threat/recapture/passed-pawn extensions, futility near the leaves (NMR paper §4)",
			func() Options { return falcon(baseOptions()) }},
		{"falcon-null-r3", "falcon + standard null move, R = 3", func() Options { return falcon(null(NullStandard, 3, 3)()) }},
		{"falcon-adaptive-r2-3", "falcon + adaptive null move, R = 2~3 (the NMR paper's Table 6 opponent)", func() Options { return falcon(null(NullStandard, 2, 3)()) }},
		{"falcon-nmr-r3-4", "falcon + extended null-move reductions, R = 3~4, DR = 4 (the NMR paper's FALCON)", func() Options { return falcon(null(NullNMR, 3, 4)()) }},
		{"falcon-fhr", "falcon + fail-high reductions, margin 0", func() Options {
			o := falcon(baseOptions())
			o.FHR = true
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

// switchDef is one switch, whole: what it is, how it reads and writes its
// Options field, and when the canonical form (Options.String) lists it. Set,
// Get, String, Switches and everything built on them (config keys, UCI
// options, selfplay variants) come from the one table of switchDefs, so a
// new switch is one entry.
type switchDef struct {
	SwitchInfo
	get func(o *Options) string
	// set checks value and stores it; o is unchanged when value is invalid.
	set func(o *Options, value string) error
	// listed reports whether String shows the switch (nil: always); a
	// parameter is listed only while the rule it tunes is on.
	listed func(o *Options) bool
}

func boolSwitch(name, doc string, field func(*Options) *bool) switchDef {
	return switchDef{
		SwitchInfo: SwitchInfo{Name: name, Values: "true|false", Doc: doc, Kind: SwitchBool},
		get:        func(o *Options) string { return strconv.FormatBool(*field(o)) },
		set: func(o *Options, value string) error {
			b, err := strconv.ParseBool(value)
			if err != nil {
				return fmt.Errorf("switch %s: %q is not true or false", name, value)
			}
			*field(o) = b
			return nil
		},
	}
}

func intSwitch(name, values string, lo, hi int, doc string, field func(*Options) *int, listed func(*Options) bool) switchDef {
	return switchDef{
		SwitchInfo: SwitchInfo{Name: name, Values: values, Doc: doc, Kind: SwitchInt, Min: lo, Max: hi},
		get:        func(o *Options) string { return strconv.Itoa(*field(o)) },
		set: func(o *Options, value string) error {
			n, err := strconv.Atoi(value)
			if err != nil || n < lo || n > hi {
				return fmt.Errorf("switch %s: %q is not an integer in %d..%d", name, value, lo, hi)
			}
			*field(o) = n
			return nil
		},
		listed: listed,
	}
}

// nullChoices are the values of the null switch; adaptive is standard with
// r = N~M, so it reads back as standard.
var nullChoices = []string{"off", "standard", "adaptive", "verified", "nmr"}

func nullSwitch() switchDef {
	return switchDef{
		SwitchInfo: SwitchInfo{Name: "null", Values: strings.Join(nullChoices, "|"),
			Doc:  "null-move rule on fail-high (adaptive = standard, with r=N~M)",
			Kind: SwitchChoice, Choices: nullChoices},
		get: func(o *Options) string { return o.Null.String() },
		set: func(o *Options, value string) error {
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
				return fmt.Errorf("switch null: unknown value %q (valid: %s)", value, strings.Join(nullChoices, ", "))
			}
			return nil
		},
	}
}

// rSwitch is the null-move reduction, "N" or "N~M" (adaptive: R = depth >
// r-depth ? M : N); it reads as "" while no reduction is set (null move off
// in the zero Options).
func rSwitch() switchDef {
	const lo, hi = 1, 6
	return switchDef{
		SwitchInfo: SwitchInfo{Name: "r", Values: "N or N~M (1..6)",
			Doc:  "null-move reduction R; N~M: R = depth > r-depth ? M : N",
			Kind: SwitchString, Min: lo, Max: hi},
		get: func(o *Options) string {
			switch {
			case o.NullRMin < 1:
				return ""
			case o.NullRMin == o.NullRMax:
				return strconv.Itoa(o.NullRMin)
			}
			return strconv.Itoa(o.NullRMin) + "~" + strconv.Itoa(o.NullRMax)
		},
		set: func(o *Options, value string) error {
			a, b, pair := strings.Cut(value, "~")
			if !pair {
				b = a
			}
			n, errN := strconv.Atoi(a)
			m, errM := strconv.Atoi(b)
			if errN != nil || errM != nil || n < lo || m > hi || n > m {
				return fmt.Errorf("switch r: %q is not N or N~M with %d <= N <= M <= %d", value, lo, hi)
			}
			o.NullRMin, o.NullRMax = n, m
			return nil
		},
		listed: nullOn,
	}
}

func nullOn(o *Options) bool { return o.Null != NullOff }

// switchTable is every switch, in the order of the canonical form. It is
// built once and only read afterwards.
var switchTable = []switchDef{
	nullSwitch(),
	rSwitch(),
	intSwitch("r-depth", "integer >= 1", 1, engines.MaxPly, "depth threshold of adaptive R (papers: 6)",
		func(o *Options) *int { return &o.NullRDepth }, func(o *Options) bool { return nullOn(o) && o.NullRMin != o.NullRMax }),
	intSwitch("dr", "1..4", 1, 4, "NMR depth reduction DR on a null-move fail-high",
		func(o *Options) *int { return &o.NullDR }, func(o *Options) bool { return o.Null == NullNMR }),
	listedIf(boolSwitch("null-pawn-endings", "allow null moves with only king and pawns",
		func(o *Options) *bool { return &o.NullPawnEndings }), nullOn),
	intSwitch("null-min-depth", "integer >= 1", 1, engines.MaxPly, "smallest remaining depth for a null move (2 = interior nodes only)",
		func(o *Options) *int { return &o.NullMinDepth }, nullOn),
	boolSwitch("fhr", "fail-high reductions (Feldmann)", func(o *Options) *bool { return &o.FHR }),
	intSwitch("fhr-margin", "centipawns >= 0", 0, maxCentipawns, "FHR margin: reduce when e - t >= beta - margin",
		func(o *Options) *int { return &o.FHRMargin }, func(o *Options) bool { return o.FHR }),
	boolSwitch("futility", "futility cutoff at frontier nodes (Ye & Marsland)", func(o *Options) *bool { return &o.Futility }),
	intSwitch("futility-margin", "centipawns >= 0", 0, maxCentipawns, "maximum positional gain assumed by the futility test",
		func(o *Options) *int { return &o.FutilityMargin }, func(o *Options) bool { return o.Futility }),
	boolSwitch("ext-check", "extend checking moves", func(o *Options) *bool { return &o.ExtCheck }),
	boolSwitch("ext-recapture", "extend recaptures back into the root's material window", func(o *Options) *bool { return &o.ExtRecapture }),
	intSwitch("recapture-window", "centipawns >= 0", 0, maxCentipawns, "material window around the root for recapture extensions",
		func(o *Options) *int { return &o.RecaptureWindow }, func(o *Options) bool { return o.ExtRecapture }),
	boolSwitch("ext-king-threat", "extend moves that attack many squares around the enemy king", func(o *Options) *bool { return &o.ExtKingThreat }),
	intSwitch("king-threat-squares", "0..8", 0, 8, "king threat: extend when more than this many squares are attacked",
		func(o *Options) *int { return &o.KingThreatSquares }, func(o *Options) bool { return o.ExtKingThreat }),
	boolSwitch("ext-attack-evading", "extend a rook or queen escaping the last-moved piece's attack", func(o *Options) *bool { return &o.ExtAttackEvading }),
	boolSwitch("ext-single-reply", "extend the only legal move", func(o *Options) *bool { return &o.ExtSingleReply }),
	boolSwitch("qsee", "quiescence skips captures that lose material by static exchange evaluation (not in check)",
		func(o *Options) *bool { return &o.QSEE }),
	boolSwitch("see-order", "order captures that lose material by static exchange evaluation after the quiet moves",
		func(o *Options) *bool { return &o.SEEOrder }),
	boolSwitch("delta", "delta pruning in quiescence: skip captures that cannot lift the stand pat to alpha",
		func(o *Options) *bool { return &o.Delta }),
	intSwitch("delta-margin", "centipawns >= 0", 0, maxCentipawns, "delta pruning: positional gain assumed on top of the captured piece",
		func(o *Options) *int { return &o.DeltaMargin }, func(o *Options) bool { return o.Delta }),
	// FALCON's components. Unlike the switches above they are listed only
	// while on, so that the canonical form of every earlier variant, stored
	// in the snapshots of published tournaments, is unchanged.
	onSwitch("iid", "internal iterative deepening: a PV node without a hash move searches itself shallower first",
		func(o *Options) *bool { return &o.IID }),
	intSwitch("iid-depth", "integer >= 2", 2, engines.MaxPly, "smallest depth for internal iterative deepening",
		func(o *Options) *int { return &o.IIDDepth }, func(o *Options) bool { return o.IID }),
	intSwitch("iid-reduction", "1..8", 1, 8, "internal iterative deepening searches this many plies shallower",
		func(o *Options) *int { return &o.IIDReduction }, func(o *Options) bool { return o.IID }),
	onSwitch("aspiration", "aspiration windows at the root around the previous iteration's value",
		func(o *Options) *bool { return &o.Aspiration }),
	intSwitch("aspiration-window", "centipawns >= 1", 1, maxCentipawns, "half-width of the root's aspiration window",
		func(o *Options) *int { return &o.AspirationWindow }, func(o *Options) bool { return o.Aspiration }),
	onSwitch("multi-cut", "multi-cut pruning at expected cut nodes (Björnsson & Marsland)",
		func(o *Options) *bool { return &o.MultiCut }),
	intSwitch("mc-moves", "1..32", 1, 32, "multi-cut: moves searched shallower (M)",
		func(o *Options) *int { return &o.MultiCutMoves }, func(o *Options) bool { return o.MultiCut }),
	intSwitch("mc-cuts", "1..32", 1, 32, "multi-cut: fail-highs that prune the node (C)",
		func(o *Options) *int { return &o.MultiCutCuts }, func(o *Options) bool { return o.MultiCut }),
	intSwitch("mc-r", "1..6", 1, 6, "multi-cut: depth reduction of the shallower searches (R)",
		func(o *Options) *int { return &o.MultiCutR }, func(o *Options) bool { return o.MultiCut }),
	onSwitch("ext-mate-threat", "extend a node whose null-move search finds a mate against the side to move",
		func(o *Options) *bool { return &o.ExtMateThreat }),
	onSwitch("ext-passed-pawn", "extend a pawn push to the 7th rank",
		func(o *Options) *bool { return &o.ExtPassedPawn }),
	onSwitch("ext-futility", "extended futility pruning at pre-frontier nodes (depth 2, Heinz)",
		func(o *Options) *bool { return &o.ExtFutility }),
	intSwitch("ext-futility-margin", "centipawns >= 0", 0, maxCentipawns, "maximum positional gain assumed by the pre-frontier futility test",
		func(o *Options) *int { return &o.ExtFutilityMargin }, func(o *Options) bool { return o.ExtFutility }),
}

// onSwitch is a boolean switch listed in the canonical form only while on.
func onSwitch(name, doc string, field func(*Options) *bool) switchDef {
	return listedIf(boolSwitch(name, doc, field), func(o *Options) bool { return *field(o) })
}

func listedIf(d switchDef, listed func(*Options) bool) switchDef {
	d.listed = listed
	return d
}

// lookup returns the switch named key.
func lookup(key string) (*switchDef, error) {
	for i := range switchTable {
		if switchTable[i].Name == key {
			return &switchTable[i], nil
		}
	}
	return nil, fmt.Errorf("unknown switch %q (valid: %s)", key, strings.Join(SwitchNames(), ", "))
}

// Switches lists every switch accepted by Options.Set.
func Switches() []SwitchInfo {
	out := make([]SwitchInfo, len(switchTable))
	for i := range switchTable {
		out[i] = switchTable[i].SwitchInfo
		out[i].Choices = slices.Clone(out[i].Choices)
	}
	return out
}

// SwitchNames lists the switch names.
func SwitchNames() []string {
	out := make([]string, len(switchTable))
	for i := range switchTable {
		out[i] = switchTable[i].Name
	}
	return out
}

// Get returns a switch's setting in the form Set accepts, so that
// o.Set(key, v) with v from o.Get(key) leaves o unchanged. The null rule
// reads back as off, standard, verified or nmr (adaptive is standard with
// r=N~M); r is "" while no reduction is set (null move off in the zero
// Options).
func (o Options) Get(key string) (string, error) {
	sw, err := lookup(key)
	if err != nil {
		return "", err
	}
	return sw.get(&o), nil
}

// Set changes one switch; key and value as in Switches, whose ranges it
// enforces. On error o is unchanged.
func (o *Options) Set(key, value string) error {
	sw, err := lookup(key)
	if err != nil {
		return err
	}
	return sw.set(o, value)
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
	if o.MultiCut && (o.MultiCutCuts < 1 || o.MultiCutCuts > o.MultiCutMoves || o.MultiCutR < 1) {
		return fmt.Errorf("multi-cut needs 1 <= mc-cuts <= mc-moves and mc-r >= 1 (got C=%d, M=%d, R=%d)", o.MultiCutCuts, o.MultiCutMoves, o.MultiCutR)
	}
	if o.IID && (o.IIDReduction < 1 || o.IIDDepth <= o.IIDReduction) {
		return fmt.Errorf("iid needs iid-depth > iid-reduction >= 1 (got %d and %d)", o.IIDDepth, o.IIDReduction)
	}
	if o.Aspiration && o.AspirationWindow < 1 {
		return fmt.Errorf("aspiration needs aspiration-window >= 1 (got %d)", o.AspirationWindow)
	}
	return nil
}

// String lists the switches that define the variant, in canonical order:
// equal Options give equal strings (used in config snapshots and listings).
// A parameter appears only while the rule it tunes is on.
func (o Options) String() string {
	var sb strings.Builder
	for i := range switchTable {
		sw := &switchTable[i]
		if sw.listed != nil && !sw.listed(&o) {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(sw.Name)
		sb.WriteByte('=')
		sb.WriteString(sw.get(&o))
	}
	return sb.String()
}

// nullR is the null-move depth reduction at this depth.
func (o *Options) nullR(depth int) int {
	if depth > o.NullRDepth {
		return o.NullRMax
	}
	return o.NullRMin
}
