// Package standings turns stored records into results: the tally of a
// tournament's games (the scoreboard the runner keeps while it plays, for
// its SPRT and progress line), and the report model of package report
// built from records — ratings, pairings with their estimates, Elo progress
// and LLR path, openings, terminations, search averages and suite runs.
// Building is a pure function of the records; Load reads them from a
// Source such as the store.
package standings

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"selfplay/config/snapshot"
	"selfplay/report"
	"selfplay/stats"
	"selfplay/store/record"
)

// Options select the tournaments of a report and its statistics.
type Options struct {
	Tournament string  // only this tournament; "" for all of them
	Level      float64 // confidence level of the intervals; 0 for stats.DefaultLevel
	// Anchor is rated 0 in the rating table of every tournament it plays
	// in (the others are rated with the average at 0); "" for the average.
	Anchor string
	// SkipSuiteRuns leaves the stored suite runs out of the report without
	// reading them (Report.SuiteRuns is nil); the zero value includes them.
	SkipSuiteRuns bool
}

// Source is where Load reads records: *store.Store, or records in memory.
type Source interface {
	// Tournaments returns every tournament with its engines, in creation order.
	Tournaments(ctx context.Context) ([]record.Tournament, error)
	// TournamentGames returns a tournament's games in schedule order. Load
	// reads their pair and index, opening, players, result, termination,
	// culprit and times, not their moves, PGN or reason, which a source may
	// leave out.
	TournamentGames(ctx context.Context, tournamentID int64) ([]record.Game, error)
	// SearchSums returns, per engine, its search figures summed over the
	// moves it chose in the tournament (record.SumSearch of the games with moves).
	SearchSums(ctx context.Context, tournamentID int64) (map[string]record.SearchSums, error)
	// SuiteRuns returns every suite run with its rows, oldest first.
	SuiteRuns(ctx context.Context) ([]record.SuiteRun, error)
}

// ErrNotFound is wrapped by Load's error for a tournament or anchor that
// is not in the source.
var ErrNotFound = errors.New("not found")

// Load builds the report of the selected tournaments (in creation order)
// and, unless opt.SkipSuiteRuns, of every suite run. A tournament or anchor
// that is not in the source is an error wrapping ErrNotFound whose message
// lists what is there.
func Load(ctx context.Context, src Source, opt Options) (report.Report, error) {
	level := opt.Level
	if level == 0 {
		level = stats.DefaultLevel
	}
	if !(level > 0 && level < 1) {
		return report.Report{}, fmt.Errorf("confidence level %v is not in (0, 1)", level)
	}
	all, err := src.Tournaments(ctx)
	if err != nil {
		return report.Report{}, err
	}
	selected := all
	if opt.Tournament != "" {
		i := slices.IndexFunc(all, func(t record.Tournament) bool { return t.Name == opt.Tournament })
		if i < 0 {
			return report.Report{}, fmt.Errorf("tournament %q: %w (stored tournaments: %s)", opt.Tournament,
				ErrNotFound, tournamentNames(all))
		}
		selected = all[i : i+1]
	}
	r := report.Report{Level: level, Anchor: opt.Anchor}
	anchored := false
	for _, t := range selected {
		games, err := src.TournamentGames(ctx, t.ID)
		if err != nil {
			return report.Report{}, fmt.Errorf("tournament %s: %w", t.Name, err)
		}
		sums, err := src.SearchSums(ctx, t.ID)
		if err != nil {
			return report.Report{}, fmt.Errorf("tournament %s: %w", t.Name, err)
		}
		anchor := ""
		if slices.ContainsFunc(t.Engines, func(e record.Engine) bool { return e.Name == opt.Anchor }) {
			anchor, anchored = opt.Anchor, true
		}
		rt, err := tournamentReport(t, games, sums, level, anchor)
		if err != nil {
			return report.Report{}, err
		}
		r.Tournaments = append(r.Tournaments, rt)
	}
	if opt.Anchor != "" && !anchored {
		return report.Report{}, fmt.Errorf("anchor %q: %w in the reported tournaments (engines: %s)", opt.Anchor,
			ErrNotFound, engineNames(selected))
	}
	if !opt.SkipSuiteRuns {
		runs, err := src.SuiteRuns(ctx)
		if err != nil {
			return report.Report{}, err
		}
		r.SuiteRuns = suiteRunsReport(runs)
	}
	return r, nil
}

// tournamentNames lists tournaments for an error message.
func tournamentNames(ts []record.Tournament) string {
	if len(ts) == 0 {
		return "none"
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// engineNames lists the distinct engines of tournaments for an error message.
func engineNames(ts []record.Tournament) string {
	names := record.EngineNames(ts)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// tournamentReport computes a tournament's report from its games (moves are not
// read) and each engine's search sums, at the confidence level, its
// ratings anchored at anchor ("" for the average). Running figures follow
// the schedule's order (pair, then index), whatever the order of games.
func tournamentReport(t record.Tournament, games []record.Game, sums map[string]record.SearchSums, level float64,
	anchor string) (report.Tournament, error) {
	l := NewLive()
	l.keep = false
	if err := l.Add(games); err != nil {
		return report.Tournament{}, fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	l.AddSearch(sums)
	return l.Report(t, level, anchor)
}

// shareReport describes the share of a tournament's schedule of
// totalGames games that a database plays.
func shareReport(sh record.Shard, totalGames int) *report.Share {
	return &report.Share{Shard: sh.Index, Shards: max(sh.Count, 1), Pairs: sh.Pairs, Games: 2 * sh.PairsOf(totalGames/2)}
}

// shardSPRT states that a shard's games do not decide its tournament's
// SPRT: the state is "continue" with the LLR of the shard's games, and the
// verdict says where the decision is taken.
func shardSPRT(pairings []report.Pairing, sh record.Shard) {
	for i := range pairings {
		s := pairings[i].SPRT
		if s == nil {
			continue
		}
		s.State = stats.SPRTContinue.String()
		s.LLR = 0
		if n := len(s.Path); n > 0 {
			s.LLR = s.Path[n-1].LLR
		}
		s.Verdict = fmt.Sprintf("shard %d of %d: LLR %.2f over this shard's games, which alone do not decide the test; "+
			"merge the shards (selfplay merge) and report the merged database", sh.Index, sh.Count, float64(s.LLR))
	}
}

// pairingOrder lists the pairings as the schedule plays them (from the
// snapshot's format and players, or a knockout's bracket, so that a
// pairing without games yet still shows), then any others found among the
// games.
func pairingOrder(snap snapshot.Snapshot, ko *report.Knockout, tally *Tally) [][2]string {
	var keys [][2]string
	if ko != nil {
		keys = knockoutPairings(ko)
	} else {
		keys = snapshot.Pairings(snap.Format, snap.Players, snap.GauntletSeeds)
	}
	for _, p := range tally.Pairings() {
		if k := [2]string{p.First, p.Second}; !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// ratingsReport is the Bradley-Terry table of the tally.
func ratingsReport(names []string, tally *Tally, level float64, anchor string) ([]report.Rating, error) {
	table, err := tally.ratings(names, level, anchor)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	rows := make([]report.Rating, len(table.Rows))
	for i, r := range table.Rows {
		rows[i] = report.Rating{
			Rank: i + 1, Engine: r.Player, Status: r.Status.String(),
			Rating: report.Float(r.Rating), Low: report.Float(r.Low), High: report.Float(r.High),
			Error: report.Float((r.High - r.Low) / 2),
			Games: r.Games, Points: report.Float(r.Points), Score: report.Float(r.Score),
		}
		if r.Status == stats.Unconnected {
			rows[i].Rating = report.Float(math.NaN()) // null in JSON: no rating, not 0
		}
		if r.Games == 0 {
			rows[i].Score = report.Float(math.NaN())
		}
		if los, ok := table.LOS(i, i+1); ok {
			v := report.Float(los)
			rows[i].LOSNext = &v
		}
	}
	return rows, nil
}

// suiteRunsReport is the report of suite runs.
func suiteRunsReport(runs []record.SuiteRun) []report.SuiteRun {
	var out []report.SuiteRun
	for _, run := range runs {
		r := report.SuiteRun{ID: run.ID, Suite: run.Suite, LimitKind: run.LimitKind, Settings: run.Settings,
			Created: run.Created.UTC()}
		for _, row := range run.Rows {
			r.Rows = append(r.Rows, report.SuiteRow{Variant: row.Variant, Limit: row.Limit, Positions: row.Positions,
				Solved: row.Solved, Nodes: row.Nodes, MainNodes: row.MainNodes, QNodes: row.QNodes,
				TimeMS: report.Float(row.Time.Seconds() * 1000)})
		}
		out = append(out, r)
	}
	return out
}
