package engines

import "context"

// Game names the game an engine's commands belong to, for logs of its UCI
// traffic: the runner puts it in the context of NewGame and Search (and,
// with the tournament alone, of the engine's start).
type Game struct {
	Tournament string
	Number     int // the game's place in the schedule, from 1; 0: no game yet
}

type gameKey struct{}

// WithGame returns ctx carrying g.
func WithGame(ctx context.Context, g Game) context.Context {
	return context.WithValue(ctx, gameKey{}, g)
}

// GameOf returns the game that ctx carries (the zero Game if none).
func GameOf(ctx context.Context) Game {
	g, _ := ctx.Value(gameKey{}).(Game)
	return g
}
