package main

import (
	"fmt"
	"slices"

	"selfplay/config"
	"selfplay/engines/uci"
)

// yieldToEngines runs the runner's threads under SCHED_BATCH when the
// tournaments to play (only: their names; empty: all) have an external
// engine, so that the runner's wakeups do not preempt the engines (see
// uci.YieldToEngines). A failure is a note: the run goes on as it would
// have before.
func yieldToEngines(e env, cfg *config.File, only []string) {
	if !playsExternal(cfg, only) {
		return
	}
	if err := uci.YieldToEngines(); err != nil {
		fmt.Fprintf(e.stderr, "note: the runner keeps its normal scheduling: %v\n", err)
	}
}

// playsExternal says whether one of the tournaments to play has an
// external engine.
func playsExternal(cfg *config.File, only []string) bool {
	for _, t := range cfg.Tournaments {
		if len(only) > 0 && !slices.Contains(only, t.Name) {
			continue
		}
		for _, name := range t.Engines {
			if en, ok := cfg.Engine(name); ok && en.External() {
				return true
			}
		}
	}
	return false
}
