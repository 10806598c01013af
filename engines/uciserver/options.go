package uciserver

import (
	"fmt"
	"strconv"
	"strings"

	"selfplay/engines/search"
)

// Hash option limits, in MiB.
const (
	DefaultHash = 16
	MinHash     = 1
	MaxHash     = 65536
)

// optionKind is a UCI option type.
type optionKind uint8

const (
	kindString optionKind = iota // fallback for switches not in switchKinds
	kindCheck
	kindSpin
	kindCombo
)

// switchKind says how a search switch is offered as a UCI option.
type switchKind struct {
	kind     optionKind
	min, max int
	vars     []string
}

// switchKinds gives every switch of search.Switches a UCI type. A switch
// missing here is offered as a string option (still set through
// Options.Set); the tests insist that none is missing.
var switchKinds = map[string]switchKind{
	"null":                {kind: kindCombo, vars: []string{"off", "standard", "adaptive", "verified", "nmr"}},
	"r":                   {kind: kindString}, // "3" or "3~4"
	"r-depth":             {kind: kindSpin, min: 1, max: search.MaxPly},
	"dr":                  {kind: kindSpin, min: 1, max: 4},
	"null-pawn-endings":   {kind: kindCheck},
	"null-min-depth":      {kind: kindSpin, min: 1, max: search.MaxPly},
	"fhr":                 {kind: kindCheck},
	"fhr-margin":          {kind: kindSpin, min: 0, max: 100000},
	"futility":            {kind: kindCheck},
	"futility-margin":     {kind: kindSpin, min: 0, max: 100000},
	"ext-check":           {kind: kindCheck},
	"ext-recapture":       {kind: kindCheck},
	"ext-king-threat":     {kind: kindCheck},
	"ext-attack-evading":  {kind: kindCheck},
	"ext-single-reply":    {kind: kindCheck},
	"recapture-window":    {kind: kindSpin, min: 0, max: 100000},
	"king-threat-squares": {kind: kindSpin, min: 0, max: 8},
}

// switchValue returns a switch's current setting in the form Options.Set
// accepts; "" when it has none (r while null move is off) or is unknown.
func switchValue(o search.Options, name string) string {
	b := strconv.FormatBool
	i := strconv.Itoa
	switch name {
	case "null":
		return o.Null.String()
	case "r":
		switch {
		case o.NullRMin < 1:
			return ""
		case o.NullRMin == o.NullRMax:
			return i(o.NullRMin)
		}
		return fmt.Sprintf("%d~%d", o.NullRMin, o.NullRMax)
	case "r-depth":
		return i(o.NullRDepth)
	case "dr":
		return i(o.NullDR)
	case "null-pawn-endings":
		return b(o.NullPawnEndings)
	case "null-min-depth":
		return i(o.NullMinDepth)
	case "fhr":
		return b(o.FHR)
	case "fhr-margin":
		return i(o.FHRMargin)
	case "futility":
		return b(o.Futility)
	case "futility-margin":
		return i(o.FutilityMargin)
	case "ext-check":
		return b(o.ExtCheck)
	case "ext-recapture":
		return b(o.ExtRecapture)
	case "ext-king-threat":
		return b(o.ExtKingThreat)
	case "ext-attack-evading":
		return b(o.ExtAttackEvading)
	case "ext-single-reply":
		return b(o.ExtSingleReply)
	case "recapture-window":
		return i(o.RecaptureWindow)
	case "king-threat-squares":
		return i(o.KingThreatSquares)
	}
	return ""
}

// presetOf returns the preset part of a variant spec ("fhr" of "fhr:fhr-margin=50").
func presetOf(spec string) string {
	p, _, _ := strings.Cut(spec, ":")
	return p
}

// optionLines are the "option" lines of the uci answer, defaults taken from
// the current settings.
func optionLines(spec string, o search.Options, hash int) []string {
	lines := []string{
		fmt.Sprintf("option name Hash type spin default %d min %d max %d", hash, MinHash, MaxHash),
		"option name Threads type spin default 1 min 1 max 1", // for scripts that always set it
		"option name Variant type combo default " + presetOf(spec) + " var " + strings.Join(search.PresetNames(), " var "),
	}
	for _, sw := range search.Switches() {
		v := switchValue(o, sw.Name)
		k := switchKinds[sw.Name]
		switch k.kind {
		case kindCheck:
			lines = append(lines, fmt.Sprintf("option name %s type check default %s", sw.Name, v))
		case kindSpin:
			lines = append(lines, fmt.Sprintf("option name %s type spin default %s min %d max %d", sw.Name, v, k.min, k.max))
		case kindCombo:
			lines = append(lines, fmt.Sprintf("option name %s type combo default %s var %s", sw.Name, v, strings.Join(k.vars, " var ")))
		default:
			if v == "" {
				v = "<empty>"
			}
			lines = append(lines, fmt.Sprintf("option name %s type string default %s", sw.Name, v))
		}
	}
	return lines
}
