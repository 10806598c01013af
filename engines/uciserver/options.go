package uciserver

import (
	"fmt"
	"strings"

	"selfplay/engines/search"
)

// Hash option limits, in MiB (the default is search.DefaultHashMiB).
const (
	minHash = 1
	maxHash = 65536
)

// emptyString is how a string option without a value is shown and sent back.
const emptyString = "<empty>"

// presetOf returns the preset part of a variant spec ("fhr" of "fhr:fhr-margin=50").
func presetOf(spec string) string {
	p, _, _ := strings.Cut(spec, ":")
	return p
}

// optionLines are the "option" lines of the uci answer, defaults taken from
// the current settings. Every switch is offered with the type, range and
// values that search.Switches gives it.
func optionLines(spec string, o search.Options, hash int) []string {
	lines := []string{
		fmt.Sprintf("option name Hash type spin default %d min %d max %d", hash, minHash, maxHash),
		"option name Threads type spin default 1 min 1 max 1", // for scripts that always set it
		"option name Variant type combo default " + presetOf(spec) + " var " + strings.Join(search.PresetNames(), " var "),
	}
	for _, sw := range search.Switches() {
		v, _ := o.Get(sw.Name) // Get knows every switch of Switches (tested in package search)
		switch sw.Kind {
		case search.SwitchBool:
			lines = append(lines, fmt.Sprintf("option name %s type check default %s", sw.Name, v))
		case search.SwitchInt:
			lines = append(lines, fmt.Sprintf("option name %s type spin default %s min %d max %d", sw.Name, v, sw.Min, sw.Max))
		case search.SwitchChoice:
			lines = append(lines, fmt.Sprintf("option name %s type combo default %s var %s", sw.Name, v, strings.Join(sw.Choices, " var ")))
		default:
			if v == "" {
				v = emptyString
			}
			lines = append(lines, fmt.Sprintf("option name %s type string default %s", sw.Name, v))
		}
	}
	return lines
}
