package engines

import "context"

type cpusKey struct{}

// WithCPUs returns ctx carrying the CPUs an engine started with it may run
// on (fastchess's -use-affinity: the runner pins each game slot's engines).
func WithCPUs(ctx context.Context, cpus []int) context.Context {
	return context.WithValue(ctx, cpusKey{}, cpus)
}

// CPUsOf returns the CPUs that ctx carries; nil: any.
func CPUsOf(ctx context.Context) []int {
	c, _ := ctx.Value(cpusKey{}).([]int)
	return c
}
