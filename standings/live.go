package standings

import (
	"fmt"
	"slices"

	"selfplay/config/snapshot"
	"selfplay/report"
	"selfplay/stats"
	"selfplay/store/record"
)

// Live is a tournament's standings kept current while its games are
// stored (selfplay serve over a writing run): Add counts games as they
// come, in batches and in any order, and Report builds the report of every
// game added so far. The expensive figures (the running estimate and the
// SPRT's LLR after each pair: an SPRT evaluation per pair) are kept from
// one Report to the next and recomputed only from the first pair that new
// games changed, which for a run's new games is near the end of the
// schedule; tournamentReport is a Live that counts all games at once. Counting
// and reporting do not depend on the order games are added: Report gives
// what tournamentReport gives for the same games in schedule order.
//
// A Live is not safe for concurrent use; the reports it returns share
// nothing with it.
type Live struct {
	pairings map[[2]string]*livePairing
	games    int
	terms    terminationTally
	played   *report.TimeRange
	sums     map[string]record.SearchSums

	// keep: figures are kept for the next Report (false for tournamentReport's
	// one report, which would only pay their memory).
	keep bool
	// What the cached figures were computed with (Report's level, the
	// snapshot's SPRT): a change drops them.
	level float64
	test  *stats.SPRT
}

// livePairing is one pairing's games in schedule order, each with the
// pairing's counts after it, and the figures computed so far.
type livePairing struct {
	first, second string
	steps         []pairingStep
	// evals[i] holds what was computed for steps[i]; it is as long as the
	// prefix of steps whose figures are still current (at most len(steps)).
	evals []stepEval
	keep  bool // Live.keep
}

// pairingStep is one game of a pairing, with the pairing's counts after
// it (the games before it in schedule order and it): what the report's
// running figures (Elo progress, LLR path) and opening table are made of.
type pairingStep struct {
	game      *record.Game
	score     float64           // the pairing's first engine's points in the game
	paired    bool              // the game completed a pair
	games     stats.Trinomial   // the pairing's game counts after the game
	pairs     stats.Pentanomial // its complete pairs after the game
	pairGames stats.Trinomial   // the games of those pairs (for the bayesian SPRT)
}

// stepEval caches the figures of one step, computed when first needed.
type stepEval struct {
	progress    report.Progress
	hasProgress bool
	llr         stats.SPRTResult
	llrErr      error
	hasLLR      bool
}

// counts is the pairing's tally after the step (names and counts only), so
// that PairingTally.Estimate picks the model as it does for the totals.
func (s pairingStep) counts() *PairingTally {
	return &PairingTally{Games: s.games, Pairs: s.pairs}
}

// NewLive returns standings without games.
func NewLive() *Live {
	return &Live{pairings: map[[2]string]*livePairing{}, sums: map[string]record.SearchSums{}, keep: true}
}

// Games is the number of games counted.
func (l *Live) Games() int { return l.games }

// Add counts games that were not counted before, in any order. Live keeps
// pointers into games: the caller must not change them afterwards. A game
// with an unknown result, or one whose pair and index were counted already,
// is an error, and then nothing of games is counted.
func (l *Live) Add(games []record.Game) error {
	batches := map[[2]string][]*record.Game{}
	var keys [][2]string
	for i := range games {
		g := &games[i]
		key, _, err := PairingOf(g)
		if err != nil {
			return err
		}
		if batches[key] == nil {
			keys = append(keys, key)
		}
		batches[key] = append(batches[key], g)
	}
	for _, key := range keys {
		b := batches[key]
		slices.SortStableFunc(b, record.ScheduleCompare)
		p := l.pairings[key]
		for i, g := range b {
			twice := i > 0 && record.ScheduleCompare(b[i-1], g) >= 0
			if p != nil && !twice {
				j := p.search(g)
				twice = j < len(p.steps) && record.ScheduleCompare(g, p.steps[j].game) >= 0
			}
			if twice {
				return fmt.Errorf("game %s (%s vs %s) counted twice", record.PGNRound(g.Pair, g.Index), g.White, g.Black)
			}
		}
	}
	for _, key := range keys {
		p := l.pairings[key]
		if p == nil {
			p = &livePairing{first: key[0], second: key[1], keep: l.keep}
			l.pairings[key] = p
		}
		p.insert(batches[key])
	}
	for i := range games {
		g := &games[i]
		l.terms.add(g)
		l.played = extendPlayed(l.played, g)
	}
	l.games += len(games)
	return nil
}

// AddSearch adds the search sums of games counted (or to be counted) with
// Add, per engine.
func (l *Live) AddSearch(sums map[string]record.SearchSums) {
	for e, s := range sums {
		t := l.sums[e]
		t.Add(s)
		l.sums[e] = t
	}
}

// search is the index of the first step not before g in schedule order.
func (p *livePairing) search(g *record.Game) int {
	i, _ := slices.BinarySearchFunc(p.steps, g, func(s pairingStep, g *record.Game) int {
		return record.ScheduleCompare(s.game, g)
	})
	return i
}

// insert merges b (sorted, none counted yet) into the steps and recounts
// from the first step that moved: the steps before it, and their figures,
// stay as they are.
func (p *livePairing) insert(b []*record.Game) {
	from := p.search(b[0])
	tail := slices.Clone(p.steps[from:])
	p.steps = p.steps[:from]
	for i, j := 0, 0; i < len(tail) || j < len(b); {
		if j == len(b) || i < len(tail) && record.ScheduleCompare(tail[i].game, b[j]) < 0 {
			p.steps = append(p.steps, pairingStep{game: tail[i].game})
			i++
		} else {
			p.steps = append(p.steps, pairingStep{game: b[j]})
			j++
		}
	}
	for k := from; k < len(p.steps); k++ {
		p.recount(k)
	}
	p.evals = p.evals[:min(len(p.evals), from)]
}

// recount sets step k's counts from step k-1's. A game completes a pair
// when the pairing's game before it in schedule order has the same pair
// number and did not complete a pair itself: Tally.Add's rule (a pair
// completes with the second of its games counted), in schedule order.
func (p *livePairing) recount(k int) {
	s := &p.steps[k]
	_, s.score, _ = PairingOf(s.game) // checked by Add
	var prev pairingStep
	if k > 0 {
		prev = p.steps[k-1]
	}
	s.games, s.pairs, s.pairGames = prev.games, prev.pairs, prev.pairGames
	s.games.Add(s.score)
	s.paired = k > 0 && prev.game.Pair == s.game.Pair && !prev.paired
	if s.paired {
		s.pairs.AddPair(prev.score, s.score)
		s.pairGames.Add(prev.score)
		s.pairGames.Add(s.score)
	}
}

// tally is the pairing's totals: the counts after its last step.
func (p *livePairing) tally() *PairingTally {
	pt := &PairingTally{First: p.first, Second: p.second}
	if n := len(p.steps); n > 0 {
		pt.Games, pt.Pairs = p.steps[n-1].games, p.steps[n-1].pairs
	}
	return pt
}

// eval returns step i's figures: the running estimate and, with test,
// the LLR. With keep they are computed once and kept; evals are computed
// in order, so the kept prefix grows to i.
func (p *livePairing) eval(i int, level float64, test *stats.SPRT) (stepEval, error) {
	var e *stepEval
	if p.keep {
		for len(p.evals) <= i {
			p.evals = append(p.evals, stepEval{})
		}
		e = &p.evals[i]
	} else {
		e = new(stepEval) // stays on the stack: returned by value
	}
	s := p.steps[i]
	if !e.hasProgress {
		est, err := s.counts().Estimate(level)
		if err != nil {
			return stepEval{}, err
		}
		e.progress = report.Progress{Games: est.Games, Elo: report.Float(est.Elo), EloLow: report.Float(est.EloLow),
			EloHigh: report.Float(est.EloHigh)}
		e.hasProgress = true
	}
	if test != nil && s.paired && !e.hasLLR {
		e.llr, e.llrErr = test.Paired(s.pairs, s.pairGames)
		e.hasLLR = true
	}
	return *e, nil
}

// Report is the tournament's report (as tournamentReport builds it) from the
// games added so far, at the confidence level, its ratings anchored at
// anchor ("" for the average). t is the tournament as stored now (status,
// SPRT decision, schedule, config snapshot).
func (l *Live) Report(t record.Tournament, level float64, anchor string) (report.Tournament, error) {
	rt, err := l.report(t, level, anchor)
	if err != nil {
		return report.Tournament{}, fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	return rt, nil
}

func (l *Live) report(t record.Tournament, level float64, anchor string) (report.Tournament, error) {
	text, err := t.Snapshot()
	if err != nil {
		return report.Tournament{}, err
	}
	snap, err := snapshot.Parse(text)
	if err != nil {
		return report.Tournament{}, fmt.Errorf("reading its config snapshot: %w", err)
	}
	test, err := snap.MatchSPRT()
	if err != nil {
		return report.Tournament{}, err
	}
	if level != l.level || !sameTest(test, l.test) {
		for _, p := range l.pairings {
			p.evals = nil
		}
		l.level, l.test = level, test
	}
	names := make([]string, len(t.Engines))
	for i, e := range t.Engines {
		names[i] = e.Name
	}
	// The pairings in the order a count in schedule order meets them.
	lps := make([]*livePairing, 0, len(l.pairings))
	for _, p := range l.pairings {
		if len(p.steps) > 0 {
			lps = append(lps, p)
		}
	}
	slices.SortFunc(lps, func(a, b *livePairing) int { return record.ScheduleCompare(a.steps[0].game, b.steps[0].game) })
	tally := NewTally()
	byTally := map[*PairingTally]*livePairing{}
	for _, p := range lps {
		pt := p.tally()
		tally.byKey[[2]string{p.first, p.second}] = pt
		tally.pairings = append(tally.pairings, pt)
		byTally[pt] = p
	}
	tally.Games = l.games
	var decision *stats.SPRTResult
	if d, ok := storedSPRT(t); ok {
		decision = &d
	}
	rt := report.Tournament{
		Name: t.Name, Format: snap.Format, Status: string(t.Status),
		GamesStored: l.games, GamesScheduled: t.TotalGames,
		Engines: names, RatingAnchor: anchor,
	}
	if snap.Format == snapshot.FormatKnockout { // the map of every game only where it is used
		if k, games := knockoutReport(snap, l.whitePoints()); k != nil {
			rt.Knockout, rt.GamesScheduled = k, games
		}
	}
	rt.Limits = engineLimits(snap, names)
	if l.played != nil {
		played := *l.played
		rt.Played = &played
	}
	if rt.Ratings, err = ratingsReport(names, tally, level, anchor); err != nil {
		return report.Tournament{}, err
	}
	for _, key := range pairingOrder(snap, rt.Knockout, tally) {
		pt := tally.Pairing(key[0], key[1])
		if pt == nil { // scheduled, not played yet
			pt = &PairingTally{First: key[0], Second: key[1]}
		}
		p, err := pairingReport(pt, byTally[pt], level, test, decision)
		if err != nil {
			return report.Tournament{}, fmt.Errorf("pairing %s vs %s: %w", key[0], key[1], err)
		}
		rt.Pairings = append(rt.Pairings, p)
	}
	if !t.Shard.Whole() {
		rt.Share = shareReport(t.Shard, t.TotalGames)
		if t.Shard.Sharded() {
			shardSPRT(rt.Pairings, t.Shard)
		}
	}
	rt.Terminations = l.terms.report(names)
	rt.Search = searchReport(names, l.sums)
	return rt, nil
}

// sameTest reports whether two SPRTs (nil: none) are the same test.
func sameTest(a, b *stats.SPRT) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// extendPlayed widens r (nil: none yet) to the earliest start and the
// latest finish with g's.
func extendPlayed(r *report.TimeRange, g *record.Game) *report.TimeRange {
	if r == nil {
		return &report.TimeRange{Start: g.Started.UTC(), End: g.Finished.UTC()}
	}
	if g.Started.Before(r.Start) {
		r.Start = g.Started.UTC()
	}
	if g.Finished.After(r.End) {
		r.End = g.Finished.UTC()
	}
	return r
}

// PairSpan is one more than the highest pair number counted (0 without
// games): the pairs 0..PairSpan()-1 hold every game counted.
func (l *Live) PairSpan() int {
	n := 0
	for _, p := range l.pairings {
		if k := len(p.steps); k > 0 {
			n = max(n, p.steps[k-1].game.Pair+1)
		}
	}
	return n
}

// Openings returns each pairing's results by opening (report.Openings,
// the FHR paper's Table 2 layout) over the games of pairs from..to-1 only,
// keyed by the pairing's engines (first, second) as the report names
// them; pairings without such games are left out. It reads only those
// games, so a site can page a long tournament's table.
func (l *Live) Openings(from, to int) map[[2]string]report.Openings {
	out := map[[2]string]report.Openings{}
	for key, p := range l.pairings {
		a, _ := slices.BinarySearchFunc(p.steps, from, func(s pairingStep, pair int) int { return s.game.Pair - pair })
		b, _ := slices.BinarySearchFunc(p.steps, to, func(s pairingStep, pair int) int { return s.game.Pair - pair })
		if a < b {
			out[key] = openingsReport(p.steps[a:b])
		}
	}
	return out
}

// engineLimits is each engine's limit from the snapshot when any engine
// has limits of its own, else nil (the report says nothing of limits).
func engineLimits(snap snapshot.Snapshot, names []string) []report.EngineLimit {
	own := false
	for _, n := range names {
		own = own || snap.Engines[n].Limits != nil
	}
	if !own {
		return nil
	}
	out := make([]report.EngineLimit, len(names))
	for i, n := range names {
		out[i] = report.EngineLimit{Engine: n, Limit: snap.LimitsOf(n).String()}
	}
	return out
}
