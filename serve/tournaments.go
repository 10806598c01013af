package serve

import (
	"html/template"
	"math"
	"net/http"
	"time"

	"selfplay/report"
	"selfplay/stats"
)

// tournamentSummary is a tournament as the tournaments page and
// /api/tournaments show it.
type tournamentSummary struct {
	ID             int64  `json:"id"`
	Name           string `json:"name"`
	Format         string `json:"format"`
	Status         string `json:"status"` // running or complete
	GamesStored    int    `json:"games_stored"`
	GamesScheduled int    `json:"games_scheduled"`
	// LastWrite is when the run last stored a game or changed the
	// tournament: a running tournament whose last write is old has a
	// stopped run.
	LastWrite time.Time `json:"last_write"`
	// ETASeconds estimates the time to the last scheduled game from the
	// rate so far; null when not running or not yet known.
	ETASeconds *float64 `json:"eta_seconds"`
	// Stalled: the tournament is running but nothing was stored for much
	// longer than games took so far (10 times the mean interval, at least
	// a minute): the run was probably stopped. No ETA then.
	Stalled bool `json:"stalled"`
	// StoppedBySPRT: the SPRT decided before every game was played.
	StoppedBySPRT bool             `json:"stopped_by_sprt"`
	Pairings      []pairingSummary `json:"pairings"`
}

// pairingSummary is a pairing's live verdict.
type pairingSummary struct {
	First   string `json:"first"`
	Second  string `json:"second"`
	Games   int    `json:"games"`
	Verdict string `json:"verdict"` // report's verdict line: Elo ± interval, LOS, significance
	// Estimate is the verdict's estimate (null without games).
	Estimate *report.Estimate `json:"estimate"`
	// SPRT is null without an SPRT; SPRTVerdict its line (LLR with bounds).
	SPRT        *sprtSummary `json:"sprt"`
	SPRTVerdict string       `json:"sprt_verdict"`
}

// sprtSummary is the SPRT's state without its path.
type sprtSummary struct {
	LLR   report.Float `json:"llr"`
	Lower report.Float `json:"lower"`
	Upper report.Float `json:"upper"`
	State string       `json:"state"` // continue, H0 or H1
}

// tournamentsView is /api/tournaments.
type tournamentsView struct {
	Updated     time.Time           `json:"updated"` // when the server read the database
	PollSeconds float64             `json:"poll_seconds"`
	Tournaments []tournamentSummary `json:"tournaments"`
}

// stallAfter is how long a running tournament may store nothing before
// the page says its run has probably stopped, given the mean interval
// between stored games so far.
func stallAfter(meanInterval time.Duration) time.Duration {
	return max(time.Minute, 10*meanInterval)
}

func summarize(l loaded, now time.Time) tournamentSummary {
	t := l.rep
	ts := tournamentSummary{ID: l.rec.ID, Name: t.Name, Format: t.Format, Status: t.Status, GamesStored: t.GamesStored,
		GamesScheduled: t.GamesScheduled, LastWrite: l.rec.UpdatedAt.UTC(), Pairings: []pairingSummary{}}
	sprt := t.SPRT()
	ts.StoppedBySPRT = sprt != nil && sprt.State != "continue" && t.GamesStored < t.GamesScheduled
	if t.Status == "running" && !ts.StoppedBySPRT && t.Played != nil && t.GamesStored > 0 && t.GamesScheduled > t.GamesStored {
		elapsed := t.Played.End.Sub(t.Played.Start).Seconds()
		mean := time.Duration(elapsed / float64(t.GamesStored) * float64(time.Second))
		ts.Stalled = now.Sub(l.rec.UpdatedAt) > stallAfter(mean)
		if elapsed > 0 && !ts.Stalled {
			eta := elapsed / float64(t.GamesStored) * float64(t.GamesScheduled-t.GamesStored)
			if !math.IsInf(eta, 0) && !math.IsNaN(eta) {
				ts.ETASeconds = &eta
			}
		}
	}
	for _, p := range t.Pairings {
		ps := pairingSummary{First: p.First, Second: p.Second, Games: p.Games, Verdict: p.Verdict}
		if e, ok := p.Estimate(p.VerdictModel); ok && p.Games > 0 {
			ps.Estimate = &e
		}
		if p.SPRT != nil {
			ps.SPRT = &sprtSummary{LLR: p.SPRT.LLR, Lower: p.SPRT.Lower, Upper: p.SPRT.Upper, State: p.SPRT.State}
			ps.SPRTVerdict = p.SPRT.Verdict
		}
		ts.Pairings = append(ts.Pairings, ps)
	}
	return ts
}

func (s *Server) tournamentsView(r *http.Request) (tournamentsView, error) {
	all, err := s.load(r.Context())
	if err != nil {
		return tournamentsView{}, err
	}
	v := tournamentsView{Updated: time.Now().UTC(), PollSeconds: pollInterval.Seconds(), Tournaments: []tournamentSummary{}}
	for _, l := range all {
		v.Tournaments = append(v.Tournaments, summarize(l, v.Updated))
	}
	return v, nil
}

func (s *Server) tournamentsJSON(w http.ResponseWriter, r *http.Request) {
	v, err := s.tournamentsView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.writeJSON(w, r, v)
}

func (s *Server) tournamentsPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.tournamentsView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, "tournaments", struct {
		Title string
		tournamentsView
	}{"Tournaments", v})
}

// tournamentView is the tournament page's data.
type tournamentView struct {
	Title   string
	Summary tournamentSummary
	Level   string
	Report  template.HTML // the report's sections, rendered and escaped by package report
}

func (s *Server) tournamentPage(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l, sections, err := s.rendered(r.Context(), id, false)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, "tournament", tournamentView{
		Title:   "Tournament " + l.rep.Name,
		Summary: summarize(l, time.Now()),
		Level:   stats.FormatLevel(s.level),
		Report:  template.HTML(sections), // html/template-escaped by report.WriteHTMLSections
	})
}

// tournamentJSON is the tournament as `selfplay report -format json
// -tournament NAME` writes it (without suite runs), plus the database id.
func (s *Server) tournamentJSON(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	_, doc, err := s.rendered(r.Context(), id, true)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(doc)
}
