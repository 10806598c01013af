package runner

import (
	"fmt"
	"io"
	"strings"
	"time"

	"selfplay/standings"
	"selfplay/stats"
)

// progress reports a tournament's advance: on a terminal a live line
// rewritten in place; otherwise a log line every few games or 30 seconds.
type progress struct {
	w        io.Writer
	terminal bool
	name     string
	total    int
	start    time.Time
	startN   int // games already stored when the run began (for the ETA)
	tally    *standings.Tally
	sprt     *sprtState
	lastLog  time.Time
	lastN    int
	width    int
}

const logEveryGames = 10
const logEvery = 30 * time.Second

func newProgress(w io.Writer, terminal bool, name string, total, stored int, tally *standings.Tally, sprt *sprtState) *progress {
	now := time.Now()
	return &progress{w: w, terminal: terminal, name: name, total: total, start: now, startN: stored,
		tally: tally, sprt: sprt, lastLog: now, lastN: stored}
}

// line is the progress text: games, W-L-D and score of the first pairing's
// first engine, Elo ± interval, LLR, elapsed and ETA.
func (p *progress) line() string {
	var sb strings.Builder
	n := p.tally.Games
	fmt.Fprintf(&sb, "%s: %d/%d games", p.name, n, p.total)
	if ps := p.tally.Pairings(); len(ps) == 1 {
		pt := ps[0]
		g := pt.Games
		fmt.Fprintf(&sb, ", %s +%d -%d =%d, score %.1f%%", pt.First, g.Wins, g.Losses, g.Draws, 100*g.Points()/float64(max(g.Games(), 1)))
		if e, err := pt.Estimate(stats.DefaultLevel); err == nil && g.Games() > 0 {
			fmt.Fprintf(&sb, ", %s", stats.FormatEloInterval(e))
		}

	}
	if p.sprt.enabled() {
		r := p.sprt.result
		fmt.Fprintf(&sb, ", LLR %.2f [%.2f, %.2f]", r.LLR, r.Lower, r.Upper)
	}
	elapsed := time.Since(p.start)
	fmt.Fprintf(&sb, ", elapsed %s", elapsed.Round(time.Second))
	if played := n - p.startN; played > 0 && n < p.total {
		eta := time.Duration(float64(elapsed) / float64(played) * float64(p.total-n))
		fmt.Fprintf(&sb, ", ETA %s", eta.Round(time.Second))
	}
	return sb.String()
}

func (p *progress) gameDone() {
	if p.terminal {
		p.redraw()
		return
	}
	if p.tally.Games-p.lastN >= logEveryGames || time.Since(p.lastLog) >= logEvery || p.tally.Games == p.total {
		p.log()
	}
}

func (p *progress) tick() {
	if p.terminal {
		p.redraw()
	} else if time.Since(p.lastLog) >= logEvery {
		p.log()
	}
}

func (p *progress) redraw() {
	l := p.line()
	pad := max(0, p.width-len(l))
	fmt.Fprintf(p.w, "\r%s%s", l, strings.Repeat(" ", pad))
	p.width = len(l)
}

func (p *progress) log() {
	fmt.Fprintln(p.w, p.line())
	p.lastLog, p.lastN = time.Now(), p.tally.Games
}

// finish ends the live line.
func (p *progress) finish() {
	if p.terminal {
		p.redraw()
		fmt.Fprintln(p.w)
	} else if p.tally.Games != p.lastN {
		p.log()
	}
}
