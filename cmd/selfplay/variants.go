package main

import (
	"context"
	"fmt"

	"selfplay/engines/search"
)

// cmdVariants lists the presets with their switches, then every switch.
func cmdVariants(_ context.Context, e env, args []string) error {
	fs := newFlagSet(e, "variants", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "presets (use as -variant NAME or NAME:switch=value:...; in tournaments.toml: preset = \"NAME\" plus switch keys):")
	presets := search.Presets()
	width := 0
	for _, p := range presets {
		width = max(width, len(p.Name))
	}
	for _, p := range presets {
		fmt.Fprintf(e.stdout, "  %-*s %s\n  %-*s %s\n", width, p.Name, p.Doc, width, "", p.Switches)
	}
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, "switches:")
	for _, s := range search.Switches() {
		fmt.Fprintf(e.stdout, "  %-20s %-36s %s\n", s.Name, s.Values, s.Doc)
	}
	return nil
}
