// Package serve is the read-only web site of `selfplay serve`: the
// tournaments with their live verdicts, each tournament's report (the same
// tables and SVG charts as `selfplay report -format html`), the game list
// and a game viewer with a server-drawn board. Every page has a JSON twin
// under /api/. It only reads the database (store.Reader), so it runs beside
// a writing `selfplay run`; New returns an http.Handler that a run can
// serve beside itself.
package serve

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log"
	"net/http"
	"strconv"
	"sync"
	"time"

	"selfplay/report"
	"selfplay/standings"
	"selfplay/stats"
	"selfplay/store"
	"selfplay/store/record"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// PollInterval is how often the tournaments page asks for fresh figures.
const PollInterval = 2 * time.Second

// GamesPerPage is the game list's page size.
const GamesPerPage = 50

// Options configure a Server.
type Options struct {
	// Level is the confidence level of every interval (default
	// stats.DefaultLevel).
	Level float64
	// Log receives errors that the client sees only as a 500; nil: the
	// standard logger.
	Log *log.Logger
}

// Server serves one database. It keeps the last report of each tournament
// and rebuilds it only when the tournament changed (games stored, status),
// so polling pages cost a few small queries.
type Server struct {
	db    *store.Reader
	level float64
	log   *log.Logger
	pages map[string]*template.Template
	mux   *http.ServeMux

	mu            sync.Mutex
	cache         map[int64]cachedTournament
	openingsCache map[int64]cachedOpenings
}

type cachedTournament struct {
	key    string
	report report.Tournament
}

// New returns the site over db, which the caller keeps open while the
// server runs and closes afterwards.
func New(db *store.Reader, opt Options) (*Server, error) {
	s := &Server{db: db, level: opt.Level, log: opt.Log, cache: map[int64]cachedTournament{},
		openingsCache: map[int64]cachedOpenings{}}
	if s.level == 0 {
		s.level = stats.DefaultLevel
	}
	if !(s.level > 0 && s.level < 1) {
		return nil, fmt.Errorf("confidence level %v is not in (0, 1)", s.level)
	}
	if s.log == nil {
		s.log = log.Default()
	}
	style, err := report.HTMLStyle()
	if err != nil {
		return nil, err
	}
	funcs := template.FuncMap{
		"reportStyle": func() template.CSS { return template.CSS(style) }, // the report's own CSS, a constant
		"ts":          func(t time.Time) string { return fmtTime(t) },
		"eta":         func(sec *float64) string { return formatETA(*sec) },
		"mul1000":     func(x float64) float64 { return x * 1000 },
	}
	s.pages = map[string]*template.Template{}
	for _, name := range []string{"tournaments", "tournament", "games", "game"} {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("serve: template %s: %w", name, err)
		}
		s.pages[name] = t
	}
	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return nil, err
	}
	m := http.NewServeMux()
	// GET patterns: the mux answers other methods with 405 (HEAD is
	// served as GET without a body). Nothing here writes.
	m.HandleFunc("GET /{$}", s.tournamentsPage)
	m.HandleFunc("GET /api/tournaments", s.tournamentsJSON)
	m.HandleFunc("GET /tournaments/{id}", s.tournamentPage)
	m.HandleFunc("GET /api/tournaments/{id}", s.tournamentJSON)
	m.HandleFunc("GET /tournaments/{id}/games", s.gamesPage)
	m.HandleFunc("GET /api/tournaments/{id}/games", s.gamesJSON)
	m.HandleFunc("GET /games/{id}", s.gamePage)
	m.HandleFunc("GET /games/{id}/board.svg", s.boardSVG)
	m.HandleFunc("GET /games/{id}/pgn", s.gamePGN)
	m.HandleFunc("GET /api/games/{id}", s.gameJSON)
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux = m
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// The pages load nothing from elsewhere and run only /static/ scripts.
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

// httpError is an error with the status the client gets.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func notFound(format string, args ...any) error {
	return &httpError{http.StatusNotFound, fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// fail answers an error: its own status and message for an httpError, a
// logged 500 without details otherwise.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var he *httpError
	if errors.As(err, &he) {
		http.Error(w, he.msg, he.status)
		return
	}
	if errors.Is(err, context.Canceled) {
		return // the client left
	}
	s.log.Printf("selfplay serve: %s %s: %v", r.Method, r.URL.Path, err)
	http.Error(w, "internal error (see the server's log)", http.StatusInternalServerError)
}

// render executes a page into a buffer first, so that a failing template
// gives a clean 500 rather than half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, page string, data any) {
	var b bytes.Buffer
	if err := s.pages[page].Execute(&b, data); err != nil {
		s.fail(w, r, fmt.Errorf("rendering %s: %w", page, err))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b.Bytes())
}

func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		s.fail(w, r, fmt.Errorf("encoding JSON: %w", err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(append(b, '\n'))
}

// pathID reads a positive integer path value.
func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, notFound("no such id %q", r.PathValue("id"))
	}
	return id, nil
}

// tournamentReport returns the report of one stored tournament, rebuilt
// only when the tournament changed since the cached one. It reads in one
// snapshot.
func (s *Server) tournamentReport(ctx context.Context, tx *store.Reader, t record.Tournament) (report.Tournament, error) {
	n, err := tx.CountGames(ctx, t.ID)
	if err != nil {
		return report.Tournament{}, err
	}
	key := fmt.Sprintf("%d|%s|%s|%s|%g|%s|%s", n, t.Status, t.UpdatedAt, t.SPRTState, t.SPRTLLR, t.FinishedAt, t.ConfigHash)
	s.mu.Lock()
	c, ok := s.cache[t.ID]
	s.mu.Unlock()
	if ok && c.key == key {
		return c.report, nil
	}
	games, err := tx.TournamentGames(ctx, t.ID)
	if err != nil {
		return report.Tournament{}, fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	sums, err := tx.SearchSums(ctx, t.ID)
	if err != nil {
		return report.Tournament{}, fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	rt, err := standings.Tournament(t, games, sums, s.level, "")
	if err != nil {
		return report.Tournament{}, fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	s.mu.Lock()
	s.cache[t.ID] = cachedTournament{key: key, report: rt}
	s.mu.Unlock()
	return rt, nil
}

// loaded is a stored tournament with its report.
type loaded struct {
	rec record.Tournament
	rep report.Tournament
}

// load reads the tournaments (all, or the one with id) and their reports
// in one snapshot.
func (s *Server) load(ctx context.Context, id int64) ([]loaded, error) {
	var out []loaded
	err := s.db.ReadTx(ctx, func(tx *store.Reader) error {
		ts, err := tx.Tournaments(ctx)
		if err != nil {
			return err
		}
		if id == 0 {
			s.forgetDeleted(ts)
		}
		for _, t := range ts {
			if id != 0 && t.ID != id {
				continue
			}
			rt, err := s.tournamentReport(ctx, tx, t)
			if err != nil {
				return err
			}
			out = append(out, loaded{t, rt})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if id != 0 && len(out) == 0 {
		return nil, notFound("no tournament with id %d", id)
	}
	return out, nil
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

// formatETA prints seconds as "2h 05m", "4m 10s" or "12s".
func formatETA(sec float64) string {
	d := time.Duration(sec) * time.Second
	switch {
	case d >= time.Hour:
		return fmt.Sprintf("%dh %02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm %02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

// forgetDeleted drops the cached reports of tournaments that are no longer
// stored (run -restart deletes one).
func (s *Server) forgetDeleted(ts []record.Tournament) {
	stored := make(map[int64]bool, len(ts))
	for _, t := range ts {
		stored[t.ID] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := range s.cache {
		if !stored[id] {
			delete(s.cache, id)
			delete(s.openingsCache, id)
		}
	}
}
