package main

import (
	"context"
	"fmt"
)

// Commands not built yet; each is replaced by its own file as its issue lands.

func notYet(name string) func(context.Context, env, []string) int {
	return func(_ context.Context, e env, _ []string) int {
		fmt.Fprintf(e.stderr, "selfplay %s: not available in this build yet\n", name)
		return exitFailure
	}
}

var cmdSuite = notYet("suite")
