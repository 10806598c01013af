package runner

import (
	"fmt"

	"selfplay/report"
	"selfplay/runner/store"
	"selfplay/stats"
)

// pairingGame is a stored game seen from its pairing's first engine.
type pairingGame struct {
	game  *store.Game
	score float64 // the first engine's points
}

// gamesOf returns the games of the pairing first-second in schedule order.
func gamesOf(key [2]string, games []store.Game) ([]pairingGame, error) {
	var out []pairingGame
	for i := range games {
		g := &games[i]
		w, err := whiteScore(g.Result)
		if err != nil {
			return nil, fmt.Errorf("game %d.%d: %w", g.Pair, g.Index, err)
		}
		first, second, score := g.White, g.Black, w
		if g.Index == 1 {
			first, second, score = g.Black, g.White, 1-w
		}
		if first == key[0] && second == key[1] {
			out = append(out, pairingGame{game: g, score: score})
		}
	}
	return out, nil
}

// completePairs returns the first engine's scores in the pairs whose two
// games are both stored, in schedule order.
func completePairs(games []pairingGame) [][2]float64 {
	var out [][2]float64
	for i := 0; i+1 < len(games); i++ {
		a, b := games[i], games[i+1]
		if a.game.Pair == b.game.Pair && a.game.Index == 0 && b.game.Index == 1 {
			out = append(out, [2]float64{a.score, b.score})
			i++
		}
	}
	return out
}

// pairingReport computes a pairing's statistics: counts, both models'
// estimates and the verdict (pentanomial when there is a complete pair,
// fishtest's rule: unpaired games are left out), the SPRT when one is
// configured, the results per opening and the running estimate.
func pairingReport(key [2]string, all []store.Game, level float64, test *stats.SPRT) (report.Pairing, error) {
	games, err := gamesOf(key, all)
	if err != nil {
		return report.Pairing{}, err
	}
	var tri stats.Trinomial
	for _, g := range games {
		if err := tri.Add(g.score); err != nil {
			return report.Pairing{}, err
		}
	}
	pairs := completePairs(games)
	var penta stats.Pentanomial
	for _, p := range pairs {
		if err := penta.AddPair(p[0], p[1]); err != nil {
			return report.Pairing{}, err
		}
	}
	p := report.Pairing{
		First: key[0], Second: key[1],
		Games: tri.Games(), Wins: tri.Wins, Losses: tri.Losses, Draws: tri.Draws,
		Points: report.Float(tri.Points()),
		Pairs:  penta.Pairs(), Ptnml: penta.Counts(), UnpairedGames: tri.Games() - penta.Games(),
	}
	triEst, err := stats.AnalyzeTrinomial(tri, level)
	if err != nil {
		return report.Pairing{}, err
	}
	p.Score, p.DrawRatio = report.Float(triEst.Score), report.Float(triEst.DrawRatio)
	if tri.Games() == 0 {
		p.Score = 0 // no games: no score, rather than the estimate's neutral 0.5
	}
	p.Estimates = []report.Estimate{estimateReport(triEst)}
	verdict := triEst
	if penta.Pairs() > 0 {
		pentaEst, err := stats.AnalyzePentanomial(penta, level)
		if err != nil {
			return report.Pairing{}, err
		}
		p.Estimates = append(p.Estimates, estimateReport(pentaEst))
		verdict = pentaEst
	}
	p.VerdictModel = verdict.Model.String()
	p.Verdict = stats.Verdict(p.First, p.Second, verdict)
	if p.Progress, err = progressReport(games, pairs, level); err != nil {
		return report.Pairing{}, err
	}
	if test != nil {
		p.SPRT = sprtReport(*test, pairs)
	}
	p.Openings = openingsReport(games)
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

// progressReport is the running estimate in schedule order: after each
// complete pair when there is one (pentanomial), else after each game.
func progressReport(games []pairingGame, pairs [][2]float64, level float64) ([]report.Progress, error) {
	out := []report.Progress{}
	point := func(games int, e stats.Estimate) report.Progress {
		return report.Progress{Games: games, Elo: report.Float(e.Elo), EloLow: report.Float(e.EloLow), EloHigh: report.Float(e.EloHigh)}
	}
	if len(pairs) > 0 {
		var penta stats.Pentanomial
		for _, p := range pairs {
			if err := penta.AddPair(p[0], p[1]); err != nil {
				return nil, err
			}
			e, err := stats.AnalyzePentanomial(penta, level)
			if err != nil {
				return nil, err
			}
			out = append(out, point(penta.Games(), e))
		}
		return out, nil
	}
	var tri stats.Trinomial
	for _, g := range games {
		if err := tri.Add(g.score); err != nil {
			return nil, err
		}
		e, err := stats.AnalyzeTrinomial(tri, level)
		if err != nil {
			return nil, err
		}
		out = append(out, point(tri.Games(), e))
	}
	return out, nil
}

// sprtReport evaluates the SPRT over the complete pairs as the runner does
// (pentanomial), with its LLR after each pair. Bounds too extreme for the
// result make the LLR undefined; the verdict then says so instead of
// failing the whole report.
func sprtReport(test stats.SPRT, pairs [][2]float64) *report.SPRT {
	lower, upper := test.Bounds()
	s := &report.SPRT{
		Elo0: report.Float(test.Elo0), Elo1: report.Float(test.Elo1),
		Alpha: report.Float(test.Alpha), Beta: report.Float(test.Beta), Model: test.Model.String(),
		Lower: report.Float(lower), Upper: report.Float(upper), Path: []report.LLRPoint{},
	}
	var penta stats.Pentanomial
	res := stats.SPRTResult{Lower: lower, Upper: upper}
	var evalErr error
	for i, p := range pairs {
		if err := penta.AddPair(p[0], p[1]); err != nil {
			evalErr = err
			break
		}
		r, err := test.Pentanomial(penta)
		if err != nil {
			evalErr = err
			continue
		}
		res, evalErr = r, nil
		s.Path = append(s.Path, report.LLRPoint{Pairs: i + 1, Games: 2 * (i + 1), LLR: report.Float(r.LLR)})
	}
	s.LLR, s.State = report.Float(res.LLR), res.State.String()
	s.Verdict = stats.SPRTVerdict(test, res)
	if evalErr != nil {
		s.Verdict += fmt.Sprintf(" (LLR of all %d pairs undefined: %v)", len(pairs), evalErr)
	}
	return s
}

// openingsReport tabulates the results per opening, openings in order of
// first play.
func openingsReport(games []pairingGame) report.Openings {
	o := report.Openings{Rows: []report.OpeningRow{}}
	index := map[string]int{}
	for _, pg := range games {
		g := pg.game
		i, ok := index[g.OpeningID]
		if !ok {
			i = len(o.Rows)
			index[g.OpeningID] = i
			o.Rows = append(o.Rows, report.OpeningRow{ID: g.OpeningID, Name: g.OpeningName,
				FirstWhite: []string{}, FirstBlack: []string{}})
		}
		row := &o.Rows[i]
		row.Games++
		row.FirstPoints += report.Float(pg.score)
		if g.Index == 0 {
			row.FirstWhite = append(row.FirstWhite, g.Result)
			o.FirstWhiteGames++
			o.FirstWhitePoints += report.Float(pg.score)
		} else {
			row.FirstBlack = append(row.FirstBlack, g.Result)
			o.FirstBlackGames++
			o.FirstBlackPoints += report.Float(pg.score)
		}
	}
	return o
}
