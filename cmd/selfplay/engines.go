package main

import (
	"context"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/runner"
)

// newEngine creates the players of a run: in-process variants here;
// external UCI engines through the UCI adapter.
func newEngine(_ env) func(context.Context, config.Engine) (engines.Engine, error) {
	return runner.NewEngine
}
