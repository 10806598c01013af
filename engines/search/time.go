package search

import (
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
)

// timeBudget: soft is checked between iterations (do not start another one),
// hard interrupts an iteration. Zero means none.
type timeBudget struct {
	soft, hard time.Duration
}

// moveOverhead is kept back from the clock for the arbiter, the process and
// the operating system's scheduling, which the engine does not control.
const moveOverhead = 50 * time.Millisecond

// allocateTime implements the time manager. As in the FHR paper (§3.2,
// "Timing"), it prefers to stop between two iterations: the soft limit is
// half of the move's share, because the next iteration usually takes longer
// than all earlier ones together; the hard limit cancels an iteration that
// runs far too long, and never uses more than 80% of what is left.
func allocateTime(lim engines.Limits, side board.Color) timeBudget {
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
	reserve := max(moveOverhead, remaining/20)
	usable := max(remaining-reserve, time.Millisecond)
	share := min(usable/time.Duration(movesToGo)+inc*3/4, usable)
	hard := max(min(3*share, usable*4/5), time.Millisecond)
	return timeBudget{soft: min(share, hard) / 2, hard: hard}
}
