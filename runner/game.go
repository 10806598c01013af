package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/openings"
	"selfplay/outcome"
	"selfplay/store/record"
)

// gameJob is one game of the schedule.
type gameJob struct {
	pair, index, round int
	opening            openings.Opening
	white, black       string // engine names
	// external says which sides (White, Black) are external engines: only
	// they can hang, so only their nodes and depth searches have a
	// move_timeout.
	external [2]bool
}

// errAbandoned marks a game stopped by cancellation: it is not stored.
var errAbandoned = errors.New("game abandoned")

// playGame plays one game between two engines and returns it for storage.
// Engine faults end the game with a recorded reason; only cancellation of
// ctx returns an error (and the game is abandoned).
func playGame(ctx context.Context, t *config.Tournament, job gameJob, white, black, referee engines.Engine) (*record.Game, error) {
	p, err := startGame(t, job, white, black)
	if err != nil {
		return nil, err
	}
	over, err := p.newGame(ctx)
	for err == nil && !over {
		over, err = p.turn(ctx, referee)
	}
	if err != nil {
		return nil, err
	}
	g := p.g
	g.Plies = len(g.Moves) - len(job.opening.Moves)
	g.FinalFEN = p.a.pos.String()
	g.Finished = time.Now()
	return g, nil
}

// gamePlay is a game being played: the record it fills in, the arbiter's
// position, and the players with their clock and adjudicator.
type gamePlay struct {
	t       *config.Tournament
	job     gameJob
	g       *record.Game
	a       *arbiter
	moves   []string // every move from the start position in UCI, opening included
	players [2]engines.Engine
	names   [2]string
	limits  [2]config.Limits // each side's (an engine's own limits give time or node odds)
	clock   *gameClock
	adj     *adjudicator
}

// startGame sets up the game's record and plays the opening's moves.
func startGame(t *config.Tournament, job gameJob, white, black engines.Engine) (*gamePlay, error) {
	start, err := usableEnPassant(job.opening.StartFEN)
	if err != nil {
		return nil, err
	}
	job.opening.StartFEN = start // the record, the arbiter and the engines' position command
	g := &record.Game{
		Pair: job.pair, Index: job.index, Round: job.round,
		OpeningID: job.opening.ID, OpeningName: job.opening.Name,
		StartFEN: job.opening.StartFEN, OpeningMoves: job.opening.Moves,
		White: job.white, Black: job.black, Started: time.Now(),
	}
	a, err := newArbiter(job.opening.StartFEN)
	if err != nil {
		return nil, err
	}
	limits := [2]config.Limits{t.LimitsOf(job.white), t.LimitsOf(job.black)}
	p := &gamePlay{t: t, job: job, g: g, a: a,
		players: [2]engines.Engine{white, black}, names: [2]string{job.white, job.black}, limits: limits,
		clock: newGameClock(limits[0].TC, limits[1].TC), adj: &adjudicator{cfg: t.Adjudication}}
	for _, uci := range job.opening.Moves {
		m := a.find(uci)
		if m == nil {
			return nil, fmt.Errorf("opening %s: move %s is not legal", job.opening.ID, uci)
		}
		san, err := a.play(m)
		if err != nil {
			return nil, err
		}
		p.moves = append(p.moves, uci)
		g.Moves = append(g.Moves, record.Move{Ply: len(p.moves), UCI: uci, SAN: san, Book: true})
	}
	return p, nil
}

// end ends the game.
func (p *gamePlay) end(result outcome.Result, term record.Termination, reason string) {
	p.g.Result, p.g.Termination, p.g.Reason = result, term, reason
}

// fault ends the game by a fault of side's engine, which is charged with
// it (record.Game.Culprit) whatever the result.
// what says what the engine did, after its name ("crashed: EOF").
func (p *gamePlay) fault(side board.Color, result outcome.Result, term record.Termination, what string) {
	p.end(result, term, faultReason(side, p.names[side], result, term, what))
	p.g.Culprit = p.names[side]
}

// newGame tells both engines that a game starts; an engine that fails
// there loses the game (over).
func (p *gamePlay) newGame(ctx context.Context) (over bool, err error) {
	for _, side := range []board.Color{board.White, board.Black} {
		if err := p.players[side].NewGame(ctx); err != nil {
			if ctx.Err() != nil {
				return false, errAbandoned
			}
			term := faultKind(err, false)
			when := "at the new game"
			if errors.As(err, new(*startError)) {
				when = "at its start"
			}
			p.fault(side, lossFor(side), term, fmt.Sprintf("%s %s: %v", faultVerb(term), when, err))
			return true, nil
		}
	}
	return false, nil
}

// turn ends the game by the rules or at the move limit, or has the side
// to move play; over says the game has ended.
func (p *gamePlay) turn(ctx context.Context, referee engines.Engine) (over bool, err error) {
	a := p.a
	if r := a.rule(); r.over {
		p.end(r.result, r.termination, r.reason)
		return true, nil
	}
	result, reason, atLimit := p.adj.beforeMove(a)
	if result != "" {
		p.end(result, record.Adjudication, reason)
		return true, nil
	}
	if atLimit {
		result, reason := p.adj.atMoveLimit(ctx, a, referee, p.job.opening.StartFEN, p.moves)
		if ctx.Err() != nil {
			return false, errAbandoned
		}
		p.end(result, record.Adjudication, reason)
		return true, nil
	}
	return p.move(ctx)
}

// move has the side to move search and plays its move; an engine fault,
// a time forfeit, an illegal move or resign or draw adjudication after
// the move ends the game (over).
func (p *gamePlay) move(ctx context.Context) (over bool, err error) {
	a, side := p.a, p.a.b.Side()
	us := int(side)
	res, elapsed, timeout, err := p.search(ctx, side)
	if ctx.Err() != nil {
		return false, errAbandoned
	}
	if err != nil {
		p.searchFault(side, err, timeout, elapsed)
		return true, nil
	}
	past := p.clock.overrun(side, elapsed, p.limits[us]) // before spend charges it
	if forfeit := p.clock.spend(side, elapsed, p.limits[us]); forfeit != "" {
		p.timeLoss(side, past, forfeit)
		return true, nil
	}
	m := a.find(res.Move)
	if m == nil {
		p.fault(side, lossFor(side), record.IllegalMove, fmt.Sprintf("plays %q", res.Move))
		return true, nil
	}
	san, err := a.play(m)
	if err != nil {
		return false, err
	}
	p.moves = append(p.moves, res.Move)
	i := res.Info
	// latency= is the move's time less the time the engine last reported
	// (matchmaking/match/match.cpp:508-510); the in-process search's own
	// clock stands in for an in-process engine's report.
	reported := i.EngineTime
	if !p.job.external[us] {
		reported = i.Elapsed
	}
	p.g.Moves = append(p.g.Moves, record.Move{Ply: len(p.moves), UCI: res.Move, SAN: san, Score: int(i.Score),
		Depth: i.Depth, SelDepth: i.SelDepth, Nodes: i.Nodes, Time: elapsed,
		HashFull: i.HashFull, TBHits: i.TBHits, NPS: i.NPS, PV: strings.Join(i.PV, " "),
		TimeLeft: p.clock.left(side, p.limits[us]), Latency: elapsed - reported})
	if p.t.Adjudication.Rules == config.RulesFastchess {
		// An external engine's search without a score line has
		// BoundNone; the in-process search always scores.
		p.adj.fastchessAfterMove(side, i.Score, !p.job.external[us] || i.Bound != engines.BoundNone, a)
	} else if result, reason := p.adj.afterMove(side, i.Score, a); result != "" {
		p.end(result, record.Adjudication, reason)
		return true, nil
	}
	return false, nil
}

// search runs side's search for the next move under the move's limits and
// returns it with the time it took and the move's timeout (0: none). A
// move that came after the deadline is an error; the caller checks ctx.
func (p *gamePlay) search(ctx context.Context, side board.Color) (engines.Result, time.Duration, time.Duration, error) {
	us := int(side)
	external := p.job.external[us]
	lim, timeout := moveLimits(p.limits[us], p.t.Seed, p.job.pair, len(p.moves), side, p.clock, external)
	mctx, cancel := context.WithCancel(ctx)
	if timeout > 0 {
		mctx, cancel = context.WithTimeout(ctx, timeout)
	}
	start := time.Now()
	res, err := safeSearch(mctx, p.players[us], p.job.opening.StartFEN, p.moves, lim)
	elapsed := time.Since(start)
	// Past the deadline by the clock as well as by the context: the
	// context's timer runs its cancel on another goroutine, which under
	// load may not have run yet when a late answer arrives.
	late := mctx.Err() != nil || (timeout > 0 && elapsed >= timeout)
	if e := res.Info.Elapsed; external && e > 0 && e < elapsed {
		// The UCI adapter's time from go to bestmove: the move's clock
		// starts at go, and the ping before it does not count, for the
		// clock nor for the deadline (which the adapter measures from
		// go as well).
		elapsed = e
		late = late && elapsed >= timeout
	}
	cancel()
	if err == nil && late {
		// A move that came after the deadline, from a search the
		// deadline cut short, is never taken as a normal move.
		err = fmt.Errorf("the search was stopped at the deadline and answered after %v: %w",
			elapsed.Round(time.Millisecond), context.DeadlineExceeded)
	}
	return res, elapsed, timeout, err
}

// searchFault ends the game by side's failed search, by the kind of fault;
// elapsed is the time from go to the search's end.
func (p *gamePlay) searchFault(side board.Color, err error, timeout, elapsed time.Duration) {
	l := p.limits[side]
	switch term := faultKind(err, l.TC != nil || l.MoveTime > 0); {
	case term == record.TimeForfeit:
		p.timeLoss(side, p.clock.overrun(side, elapsed, l), fmt.Sprintf("timed out: %v", err))
	case term == record.EngineTimeout && errors.Is(err, engines.ErrBeforeSearch):
		p.fault(side, lossFor(side), term, fmt.Sprintf("timed out before its search: %v", err))
	case term == record.EngineTimeout:
		p.fault(side, lossFor(side), term, fmt.Sprintf("gave no move within %v: %v", timeout, err))
	default:
		p.fault(side, lossFor(side), term, fmt.Sprintf("%s: %v", faultVerb(term), err))
	}
}

// timeLoss ends the game by side's time forfeit: over is how far past its
// time its move came (gameClock.overrun). A loss's reason starts with
// fastchess's text, "White loses on time (100ms overrun)"; a draw (the
// opponent cannot mate) is "Draw by timeout", which fastchess, scoring
// it a loss, has not.
func (p *gamePlay) timeLoss(side board.Color, over time.Duration, what string) {
	result := timeLossFor(side, p.a)
	p.fault(side, result, record.TimeForfeit, what)
	if result != outcome.Draw {
		field := sideName(side) + " loses on time"
		p.g.Reason = fmt.Sprintf("%s (%dms overrun)%s", field, fastchessOverrun(over, p.limits[side].TimeMargin),
			strings.TrimPrefix(p.g.Reason, field))
	}
}

// fastchessOverrun is the overrun in fastchess's "loses on time (Nms
// overrun)": its whole milliseconds past the time left (match.cpp:516-521,
// 838-841), which it measures only up to the time left plus the margin
// and 100ms, where it stops waiting for bestmove (timecontrol.cpp:27-29,
// timecontrol.hpp:63 MARGIN): an engine that answers later or never is
// 100ms over with no margin.
func fastchessOverrun(over, margin time.Duration) int64 {
	ms := max(over.Milliseconds(), 0) // Milliseconds cuts toward zero, as duration_cast
	return min(ms, margin.Milliseconds()+100)
}

// faultReason is the reason of a game side lost (or drew) by its engine's
// fault: cutechess-cli's and fastchess's text for the kind ("White loses
// on time", "Draw by timeout", "White makes an illegal move", "White
// disconnects", "White's connection stalls"; cutechess-cli
// projects/lib/src/board/result.cpp, fastchess
// app/src/matchmaking/match/match.hpp), then ": ", the engine's name and
// what it did. An engine error, which neither has, is "White (NAME) WHAT".
func faultReason(side board.Color, name string, result outcome.Result, term record.Termination, what string) string {
	s := sideName(side)
	var field string
	switch term {
	case record.TimeForfeit:
		field = s + " loses on time"
		if result == outcome.Draw {
			field = "Draw by timeout"
		}
	case record.IllegalMove:
		field = s + " makes an illegal move"
	case record.EngineCrash:
		field = s + " disconnects"
	case record.EngineTimeout:
		field = s + "'s connection stalls"
	default:
		return fmt.Sprintf("%s (%s) %s", s, name, what)
	}
	return fmt.Sprintf("%s: %s %s", field, name, what)
}

// faultKind classifies an engine's error by the contract's fault kinds: a
// timeout is a time forfeit when the game has a clock (clocked) and the
// engine's search had started, else an engine timeout; a crash is a crash;
// anything else is an engine error.
func faultKind(err error, clocked bool) record.Termination {
	timedOut := errors.Is(err, context.DeadlineExceeded) || errors.Is(err, engines.ErrTimeout)
	switch {
	case timedOut && clocked && !errors.Is(err, engines.ErrBeforeSearch):
		return record.TimeForfeit
	case timedOut:
		return record.EngineTimeout
	case errors.Is(err, engines.ErrCrashed):
		return record.EngineCrash
	}
	return record.EngineError
}

// faultVerb says what the engine did, for the reason text of a fault.
func faultVerb(term record.Termination) string {
	switch term {
	case record.EngineCrash:
		return "crashed"
	case record.EngineTimeout, record.TimeForfeit:
		return "timed out"
	}
	return "failed"
}

// safeSearch calls the engine and turns a panic into an error, so a faulty
// engine loses its game instead of taking the tournament down.
func safeSearch(ctx context.Context, e engines.Engine, fen string, moves []string, lim engines.Limits) (res engines.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return e.Search(ctx, fen, moves, lim)
}

func sideName(c board.Color) string {
	if c == board.White {
		return "White"
	}
	return "Black"
}

// lossFor is the result when side loses.
func lossFor(side board.Color) outcome.Result { return outcome.Loss(sideOf(side)) }

// sideOf is the outcome's name of a board colour.
func sideOf(c board.Color) outcome.Side {
	if c == board.White {
		return outcome.White
	}
	return outcome.Black
}

// timeLossFor is the result when side oversteps its time: a loss, or a draw
// when the opponent has no mating material (FIDE Laws 6.9).
func timeLossFor(side board.Color, a *arbiter) outcome.Result {
	if !a.canMate(side.Other()) {
		return outcome.Draw
	}
	return lossFor(side)
}

// moveLimits returns the engine limits for the next move under the side's
// limits l and the wall-clock timeout after which the move is abandoned
// (0: none). Under a nodes or depth limit only an external engine gets
// move_timeout: an in-process search cannot hang and always runs to its
// limit, so the games do not depend on the machine's speed.
func moveLimits(l config.Limits, seed uint64, pair, ply int, side board.Color, clock *gameClock, external bool) (engines.Limits, time.Duration) {
	timeout := time.Duration(0)
	if external {
		timeout = l.MoveTimeout
	}
	switch {
	case l.Nodes > 0:
		return engines.Limits{Nodes: jitteredNodes(l.Nodes, l.NodesJitter, seed, pair, ply)}, timeout
	case l.Depth > 0:
		return engines.Limits{Depth: l.Depth}, timeout
	case l.MoveTime > 0:
		return engines.Limits{MoveTime: l.MoveTime}, l.MoveTime + l.TimeMargin
	default:
		c := clock.engineClock(side)
		return engines.Limits{Clock: &c}, max(clock.remaining[side], 0) + l.TimeMargin
	}
}

// jitteredNodes draws a move's node budget uniformly within ±jitter of nodes
// from a generator seeded by the tournament seed, the pair and the ply: both
// games of a pair get the same budgets, and the same config the same games.
func jitteredNodes(nodes int64, jitter float64, seed uint64, pair, ply int) int64 {
	if jitter <= 0 {
		return nodes
	}
	r := rand.New(rand.NewPCG(seed, uint64(pair)<<20|uint64(ply)))
	f := 1 + jitter*(2*r.Float64()-1)
	return max(1, int64(math.Round(float64(nodes)*f)))
}

// gameClock keeps the time of the sides under a tc limit, each side by
// its own time control (nil: that side has no clock).
type gameClock struct {
	tc        [2]*config.TimeControl // White's, Black's
	remaining [2]time.Duration
	moves     [2]int
}

func newGameClock(white, black *config.TimeControl) *gameClock {
	c := &gameClock{tc: [2]*config.TimeControl{white, black}}
	for side, tc := range c.tc {
		if tc != nil {
			c.remaining[side] = tc.Base
		}
	}
	return c
}

// engineClock is the clock as the side to move's engine sees it (the side
// has a clock). An opponent without a clock (a nodes, depth or movetime
// limit) is shown with the mover's own time and increment: UCI's go has
// no way to say "none", and a clock like its own leaves the engine's time
// management as it is in an even game.
func (c *gameClock) engineClock(side board.Color) engines.Clock {
	own := c.tc[side]
	left, inc := c.remaining, [2]time.Duration{own.Increment, own.Increment}
	if other := side.Other(); c.tc[other] != nil {
		inc[other] = c.tc[other].Increment
	} else {
		left[other] = left[side]
	}
	ec := engines.Clock{WhiteTime: left[0], BlackTime: left[1], WhiteInc: inc[0], BlackInc: inc[1]}
	if own.Moves > 0 {
		ec.MovesToGo = own.Moves - c.moves[side]%own.Moves
	}
	return ec
}

// left is side's time left after its move (spend): fastchess's timeleft
// (game/timecontrol/timecontrol.cpp:28-57): the clock, the move time of a
// fixed-time move, 0 without either.
func (c *gameClock) left(side board.Color, l config.Limits) time.Duration {
	switch {
	case l.MoveTime > 0:
		return l.MoveTime
	case c.tc[side] != nil:
		return c.remaining[side]
	}
	return 0
}

// overrun is how far a move that took elapsed is past side's time (l: its
// limits), before spend charges it: the move time or the clock left.
func (c *gameClock) overrun(side board.Color, elapsed time.Duration, l config.Limits) time.Duration {
	switch {
	case l.MoveTime > 0:
		return elapsed - l.MoveTime
	case c.tc[side] != nil:
		return elapsed - c.remaining[side]
	}
	return 0
}

// spend charges a move's time; it returns a non-empty reason when the side
// overstepped its time (with the margin of its limits l).
func (c *gameClock) spend(side board.Color, elapsed time.Duration, l config.Limits) string {
	switch tc := c.tc[side]; {
	case l.MoveTime > 0:
		if elapsed > l.MoveTime+l.TimeMargin {
			return fmt.Sprintf("took %v for a %v move (margin %v)", elapsed.Round(time.Millisecond), l.MoveTime, l.TimeMargin)
		}
	case tc != nil:
		c.remaining[side] -= elapsed
		if c.remaining[side] < -l.TimeMargin {
			return fmt.Sprintf("was %v over its time (margin %v)", (-c.remaining[side]).Round(time.Millisecond), l.TimeMargin)
		}
		c.remaining[side] += tc.Increment
		c.moves[side]++
		if tc.Moves > 0 && c.moves[side]%tc.Moves == 0 {
			c.remaining[side] += tc.Base
		}
	}
	return ""
}
