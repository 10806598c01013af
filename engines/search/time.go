package search

import (
	"time"

	"selfplay/engines/board"
)

// timeBudget: soft is checked between iterations (do not start another one),
// hard interrupts an iteration. Zero means none.
type timeBudget struct {
	soft, hard time.Duration
}

// moveOverhead is kept back from the clock for the arbiter and the process.
const moveOverhead = 20 * time.Millisecond

// allocateTime implements the time manager. As in the FHR paper (§3.2,
// "Timing"), it prefers to stop between two iterations: the soft limit is
// half of the move's share, because the next iteration usually takes longer
// than all earlier ones together; the hard limit cancels an iteration that
// runs far too long.
func allocateTime(lim Limits, side board.Color) timeBudget {
	if lim.MoveTime > 0 {
		return timeBudget{hard: lim.MoveTime}
	}
	c := lim.Clock
	if c == nil {
		return timeBudget{}
	}
	remaining, inc := c.WhiteTime, c.WhiteInc
	if side == board.Black {
		remaining, inc = c.BlackTime, c.BlackInc
	}
	movesToGo := c.MovesToGo
	if movesToGo <= 0 {
		movesToGo = 30 // sudden death: plan for 30 more moves
	}
	usable := max(remaining-moveOverhead, remaining/10, time.Millisecond)
	share := usable/time.Duration(movesToGo) + inc*3/4
	hard := min(share*4, usable/2)
	if movesToGo == 1 {
		hard = min(share, usable)
	}
	share = min(share, hard)
	return timeBudget{soft: share / 2, hard: max(hard, time.Millisecond)}
}
