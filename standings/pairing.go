package standings

import (
	"fmt"

	"selfplay/report"
	"selfplay/stats"
	"selfplay/store/record"
)

// storedSPRT is the SPRT state stored with a tournament, if there is
// one: the runner's decision (Tournament.SPRTState "H0" or "H1" and the LLR
// at which it decided), or "continue" with the LLR where the runner found
// no decision in a complete tournament, or where a merge of shards found
// none in the games before the first missing one (so that the games
// present after a gap, in whatever order, cannot make a decision that
// filling the gap would undo).
func storedSPRT(t record.Tournament) (stats.SPRTResult, bool) {
	state, ok := stats.ParseSPRTState(t.SPRTState)
	if !ok {
		return stats.SPRTResult{}, false
	}
	return stats.SPRTResult{LLR: t.SPRTLLR, State: state}, true
}

// pairingReport computes a pairing's statistics from its tally (pt, which
// has no games when the pairing has not played yet) and its games in
// schedule order (lp; nil for counts without games): counts, both models' estimates and the verdict
// (PairingTally.Estimate's model: pentanomial when there is a complete
// pair, fishtest's rule), the running estimate, the SPRT when one is
// configured (with the runner's stored decision, if any), and the results
// per opening.
func pairingReport(pt *PairingTally, lp *livePairing, level float64, test *stats.SPRT,
	decision *stats.SPRTResult) (report.Pairing, error) {
	tri, penta := pt.Games, pt.Pairs
	p := report.Pairing{
		First: pt.First, Second: pt.Second,
		Games: tri.Games(), Wins: tri.Wins, Losses: tri.Losses, Draws: tri.Draws,
		Points: report.Float(tri.Points()),
		Pairs:  penta.Pairs(), Ptnml: penta.Counts(), UnpairedGames: tri.Games() - penta.Games(),
	}
	verdict, err := pt.Estimate(level)
	if err != nil {
		return report.Pairing{}, err
	}
	triEst := verdict
	if verdict.Model != stats.ModelTrinomial {
		if triEst, err = stats.AnalyzeTrinomial(tri, level); err != nil {
			return report.Pairing{}, err
		}
	}
	if tri.Games() > 0 { // no games: no score nor draw ratio (rather than the estimate's neutral 0.5)
		p.Score, p.DrawRatio = report.Float(triEst.Score), report.Float(triEst.DrawRatio)
	}
	p.Estimates = []report.Estimate{estimateReport(triEst)}
	if verdict.Model != stats.ModelTrinomial {
		p.Estimates = append(p.Estimates, estimateReport(verdict))
	}
	p.VerdictModel = verdict.Model.String()
	p.Verdict = stats.Verdict(p.First, p.Second, verdict)

	// The running estimate and the LLR path, in one pass over the steps:
	// after each complete pair when there is one (pentanomial), else after
	// each game. Each step's figures are computed once (livePairing.eval).
	var path *llrPath
	if test != nil {
		path = newLLRPath(*test, decision)
	}
	var steps []pairingStep
	if lp != nil {
		steps = lp.steps
	}
	for i, s := range steps {
		if p.Pairs > 0 && !s.paired {
			continue
		}
		e, err := lp.eval(i, level, test)
		if err != nil {
			return report.Pairing{}, err
		}
		p.Progress = append(p.Progress, e.progress)
		if path != nil && s.paired {
			path.add(s.pairs, e.llr, e.llrErr)
		}
	}
	if path != nil {
		p.SPRT = path.report()
	}
	p.Openings = openingsReport(steps)
	return p, nil
}

// estimateReport converts a stats.Estimate.
func estimateReport(e stats.Estimate) report.Estimate {
	return report.Estimate{
		Model: e.Model.String(), Games: e.Games, Pairs: e.Pairs, Points: report.Float(e.Points),
		Score: report.Float(e.Score), ScoreLow: report.Float(e.ScoreLow), ScoreHigh: report.Float(e.ScoreHigh),
		DrawRatio: report.Float(e.DrawRatio),
		Elo:       report.Float(e.Elo), EloLow: report.Float(e.EloLow), EloHigh: report.Float(e.EloHigh),
		EloError: report.Float(e.HalfWidth()), LOS: report.Float(e.LOS),
		NElo: report.Float(e.NElo), NEloLow: report.Float(e.NEloLow), NEloHigh: report.Float(e.NEloHigh),
		Exact: e.Exact,
	}
}

// llrPath follows the SPRT after each complete pair as the runner does
// (pentanomial), and draws its LLR path. Bounds too extreme for the result
// make the LLR undefined; such pairs are left off the path and, if the
// last one is, the verdict says so instead of failing the whole report.
type llrPath struct {
	run    *stats.SPRTRun
	points []report.LLRPoint
	pairs  int // complete pairs so far
}

// newLLRPath starts the path of test; a stored state (decision, when not
// nil) is the test's result whatever the pairs say: a decision is final,
// as in fishtest, and so is the state a merge settled on the games before
// a gap (storedSPRT).
func newLLRPath(test stats.SPRT, decision *stats.SPRTResult) *llrPath {
	l := &llrPath{run: stats.NewSPRTRun(test)}
	if decision != nil {
		l.run.Restore(decision.State, decision.LLR)
	}
	return l
}

// add takes the test's result on the pairs so far (r, or err where the
// LLR is undefined).
func (l *llrPath) add(pairs stats.Pentanomial, r stats.SPRTResult, err error) {
	l.pairs = pairs.Pairs()
	l.run.Step(r, err)
	if err == nil {
		l.points = append(l.points, report.LLRPoint{Pairs: pairs.Pairs(), Games: pairs.Games(), LLR: report.Float(r.LLR)})
	}
}

// report is the SPRT's state: the stored one, or else the first point of
// the path outside the bounds, whatever games were stored after it;
// without one, the LLR after the last pair with a defined LLR.
func (l *llrPath) report() *report.SPRT {
	res := l.run.Result()
	var note string
	if err := l.run.Err(); err != nil {
		note = fmt.Sprintf(" (LLR of all %d pairs undefined: %v)", l.pairs, err)
	}
	t := l.run.Test()
	return &report.SPRT{
		Elo0: report.Float(t.Elo0), Elo1: report.Float(t.Elo1),
		Alpha: report.Float(t.Alpha), Beta: report.Float(t.Beta), Model: t.Model.String(),
		Lower: report.Float(res.Lower), Upper: report.Float(res.Upper),
		LLR: report.Float(res.LLR), State: res.State.String(),
		Verdict: stats.SPRTVerdict(t, res) + note,
		Path:    l.points,
	}
}

// openingsReport tabulates the results per opening, openings in order of
// first play.
func openingsReport(steps []pairingStep) report.Openings {
	var o report.Openings
	index := map[string]int{}
	for _, s := range steps {
		g := s.game
		i, ok := index[g.OpeningID]
		if !ok {
			i = len(o.Rows)
			index[g.OpeningID] = i
			o.Rows = append(o.Rows, report.OpeningRow{ID: g.OpeningID, Name: g.OpeningName})
		}
		row := &o.Rows[i]
		row.Games++
		row.FirstPoints += report.Float(s.score)
		if g.Index == 0 {
			row.FirstWhite = append(row.FirstWhite, g.Result)
			o.FirstWhiteGames++
			o.FirstWhitePoints += report.Float(s.score)
		} else {
			row.FirstBlack = append(row.FirstBlack, g.Result)
			o.FirstBlackGames++
			o.FirstBlackPoints += report.Float(s.score)
		}
	}
	return o
}
