package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"selfplay/config"
	"selfplay/knockout"
	"selfplay/openings"
	"selfplay/outcome"
	"selfplay/store/record"
)

// errShardedKnockout refuses -shard and -pairs for a knockout.
var errShardedKnockout = errors.New("a knockout cannot be sharded or played in part (-shard, -pairs): " +
	"the pairings of each round depend on the results of the round before; play it on one machine")

// knockoutSettings are the tournament's bracket settings.
func knockoutSettings(t *config.Tournament) knockout.Settings {
	return knockout.Settings{Players: t.Engines, Seeds: t.Knockout.Seeds, Games: t.Knockout.Games, Seed: t.Seed}
}

// bracket holds a knockout's stored results, which decide what is
// played next. The collector adds each game as it is stored; the dealer
// plans from them and waits on changed.
type bracket struct {
	settings knockout.Settings
	mu       sync.Mutex
	white    map[gameKey]float64 // White's points of each stored game
	changed  chan struct{}       // a game was added (buffered: one pending signal)
}

func newBracket(t *config.Tournament, stored []record.Game) *bracket {
	b := &bracket{settings: knockoutSettings(t), white: map[gameKey]float64{}, changed: make(chan struct{}, 1)}
	for i := range stored {
		b.add(&stored[i])
	}
	return b
}

func (b *bracket) add(g *record.Game) {
	w, ok := g.Result.Points(outcome.White)
	if !ok {
		return // not a finished game: no result for the bracket
	}
	b.mu.Lock()
	b.white[gameKey{g.Pair, g.Index}] = w
	b.mu.Unlock()
	select {
	case b.changed <- struct{}{}:
	default:
	}
}

// plan is the bracket as the stored results have it.
func (b *bracket) plan() knockout.Bracket {
	b.mu.Lock()
	defer b.mu.Unlock()
	return knockout.Plan(b.settings, func(pair, index int) (float64, bool) {
		w, ok := b.white[gameKey{pair, index}]
		return w, ok
	})
}

// knockoutTotal is the games of the knockout as far as it is known
// (knockout.Bracket.Games).
func knockoutTotal(t *config.Tournament, kb knockout.Bracket) int {
	return kb.Games(knockoutSettings(t))
}

// knockoutJob is a game of a knockout's pair: the K-th pair of an
// encounter in knockout round r takes opening r*games/2+K of the
// openings in the round's order (reshuffled each round for a random
// order), so that the encounters of a round play the same openings.
func knockoutJob(t *config.Tournament, sl knockout.Slot, index int) (gameJob, error) {
	seed := t.Seed
	if t.Openings.Order.PerRound() {
		seed += uint64(sl.Round)
	}
	ordered, err := openings.Order(t.Openings.List, t.Openings.Order, seed, t.Openings.Offset+1)
	if err != nil {
		return gameJob{}, err
	}
	o := ordered[(sl.Round*t.Knockout.Games/2+sl.K)%len(ordered)]
	j := gameJob{pair: sl.Pair, index: index, round: sl.Round, opening: o, white: sl.First, black: sl.Second}
	if index == 1 {
		j.white, j.black = sl.Second, sl.First
	}
	return j, nil
}

// dealKnockout hands out the games the bracket needs now (a round's
// pairs, then its tie-break pairs), each once, and waits for their
// results before it plans the next; it returns when the knockout has a
// winner or runCtx ends. The games dealt are a function of the stored
// results alone, so a resumed or rerun knockout plays the same games.
func (r *run) dealKnockout(runCtx context.Context, done map[gameKey]bool, jobs chan<- gameJob, finished chan<- workerEvent) {
	sent := map[gameKey]bool{}
	for {
		kb := r.bracket.plan()
		if kb.Winner != "" || len(kb.Pending) == 0 {
			return
		}
		for _, sl := range kb.Pending {
			for index := 0; index < 2; index++ {
				k := gameKey{sl.Pair, index}
				if done[k] || sent[k] {
					continue
				}
				j, err := knockoutJob(r.t, sl, index)
				if err != nil {
					finished <- workerEvent{err: fmt.Errorf("tournament %s: %w", r.t.Name, err)}
					return
				}
				select {
				case jobs <- j:
					sent[k] = true
				case <-runCtx.Done():
					return
				}
			}
		}
		select {
		case <-r.bracket.changed:
		case <-runCtx.Done():
			return
		}
	}
}
