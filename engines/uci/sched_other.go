//go:build !linux

package uci

// YieldToEngines does nothing: SCHED_BATCH is Linux's (see the Linux
// version).
func YieldToEngines() error { return nil }
