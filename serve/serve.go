// Package serve is the read-only web site of `selfplay serve`: the
// tournaments with their live verdicts, each tournament's report (the same
// tables and SVG charts as `selfplay report -format html`), its results by
// opening, the game list and a game viewer with a server-drawn board. Every
// page has a JSON twin under /api/. No page grows with the games: lists
// come a page at a time, the charts and the JSON's series are thinned
// (report.ThinSeries), and the tournament page shows each opening's score
// rather than every game's result. It only reads the database (store.Reader), so it runs beside
// a writing `selfplay run`. Open returns the site of the database at a
// path, which follows that path: a 503 page while the file is gone, the
// new file when another takes its place (source.go); newReaderServer returns the
// site of a Reader the caller keeps.
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
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"selfplay/report"
	"selfplay/stats"
	"selfplay/store"
	"selfplay/store/record"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFS embed.FS

// pollInterval is how often the tournaments page asks for fresh figures.
const pollInterval = 2 * time.Second

// gamesPerPage is the game list's page size.
const gamesPerPage = 50

// pairsPerOpeningsPage is how many game pairs of the schedule (two games
// each) a page of results by opening shows: every page is at most 1,000
// games, however long the tournament.
const pairsPerOpeningsPage = 500

// openingsOnTournamentPage bounds the openings the tournament page lists per
// pairing (its score per opening); the openings pages have them all.
const openingsOnTournamentPage = 50

// Options configure a Server.
type Options struct {
	// Level is the confidence level of every interval (default
	// stats.DefaultLevel).
	Level float64
	// Log receives errors that the client sees only as a 500; nil: the
	// standard logger.
	Log *log.Logger
}

// Server serves one database. It keeps each tournament's standings and
// counts into them only the games stored since the last request, and
// keeps the last report until the tournament changes, so that polling
// pages cost a few small queries also while a run writes.
type Server struct {
	level float64
	log   *log.Logger
	pages map[string]*template.Template
	mux   *http.ServeMux

	// pairsPerOpeningsPage and openingsOnTournamentPage (tests make them small).
	pairsPerPage, openingsOnPage int

	// The database read (source.go). Servers made by Open follow the
	// file at path; those made by newReaderServer read one Reader (path "").
	path, abs    string
	now          func() time.Time
	checkEvery   time.Duration // CheckInterval (tests: 0, every request looks)
	watchMu      sync.Mutex
	cur          *source     // nil while there is nothing to read
	gone         error       // what requests answer while cur is nil
	checked      time.Time   // the last look at the path
	pending      os.FileInfo // another file at the path, not opened yet
	pendingSince time.Time   // since when pending is unchanged
	last         *source     // the source retired last (its file and states)
	closed       bool
}

// newReaderServer returns the site over db, which the caller keeps open while the
// server runs and closes afterwards. It reads db whatever happens to its
// file; Open makes a site that follows the file at a path.
func newReaderServer(db *store.Reader, opt Options) (*Server, error) {
	return newServer(newSource(db, nil, false, nil), opt)
}

// openingLabel is an opening as the pages name it, its id and name: the id
// alone where the name only repeats it (an EPD line's id is both its
// opening's id and name), as the report's openings tables do.
func openingLabel(id, name string) string {
	if name == id {
		return id
	}
	return id + " " + name
}

func newServer(src *source, opt Options) (*Server, error) {
	s := &Server{cur: src, level: opt.Level, log: opt.Log, now: time.Now, checkEvery: CheckInterval,
		pairsPerPage: pairsPerOpeningsPage, openingsOnPage: openingsOnTournamentPage}
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
		"tstext":      fmtTimeText,
		"eta":         func(sec *float64) string { return formatETA(*sec) },
		"mul1000":     func(x float64) float64 { return x * 1000 },
		"opening":     openingLabel,
	}
	s.pages = map[string]*template.Template{}
	for _, name := range []string{"tournaments", "tournament", "openings", "games", "game", "unavailable"} {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("serve: template %s: %w", name, err)
		}
		s.pages[name] = t
	}
	static, err := fs.Sub(staticFS, "static")
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
	m.HandleFunc("GET /tournaments/{id}/openings", s.openingsHTML)
	m.HandleFunc("GET /api/tournaments/{id}/openings", s.openingsJSON)
	m.HandleFunc("GET /tournaments/{id}/games", s.gamesPage)
	m.HandleFunc("GET /api/tournaments/{id}/games", s.gamesJSON)
	m.HandleFunc("GET /games/{id}", s.gamePage)
	m.HandleFunc("GET /games/{id}/board.svg", s.boardSVG)
	m.HandleFunc("GET /games/{id}/pgn", s.gamePGN)
	m.HandleFunc("GET /api/games/{id}", s.gameJSON)
	m.Handle("GET /static/", http.StripPrefix("/static/", staticFiles(static)))
	s.mux = m
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// The pages load nothing from elsewhere, run only /static/ scripts and
	// are shown in no other site's frame (X-Frame-Options for browsers
	// that predate frame-ancestors).
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if strings.HasPrefix(r.URL.Path, "/static/") {
		s.mux.ServeHTTP(w, r) // no database: also the 503 page has its style
		return
	}
	src, err := s.acquire(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer s.release(src)
	s.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), srcKey{}, src)))
}

// staticFiles serves the files of fsys and nothing else: a folder (the
// root included) is a 404, not a listing.
func staticFiles(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fi, err := fs.Stat(fsys, r.URL.Path); err != nil || fi.IsDir() {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
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
	if errors.As(err, &he) && he.status == http.StatusServiceUnavailable {
		s.unavailable(w, r, he.msg)
		return
	}
	if errors.As(err, &he) {
		http.Error(w, he.msg, he.status)
		return
	}
	if errors.Is(err, context.Canceled) {
		return // the client left
	}
	if s.changedUnder(r.Context()) {
		// A reading error met while the file at the path was being
		// replaced (a new connection can open the new file, or none) is
		// the replacement's doing, not the site's: a 503 like the others.
		s.log.Printf("selfplay serve: %s %s: the database %s changed while it was read: %v", r.Method, r.URL.Path, s.path, err)
		s.unavailable(w, r, fmt.Sprintf("The database %s changed while this page was being read; the site reads it again shortly.", s.path))
		return
	}
	s.log.Printf("selfplay serve: %s %s: %v", r.Method, r.URL.Path, err)
	http.Error(w, "internal error (see the server's log)", http.StatusInternalServerError)
}

// changedUnder reports whether the file at the watched path is no longer
// the one the request's source opened, as it was then (gone, another
// file, or written since).
func (s *Server) changedUnder(ctx context.Context) bool {
	src := s.src(ctx)
	if s.abs == "" || src == nil || src.file == nil {
		return false
	}
	fi, err := os.Stat(s.abs)
	return err != nil || !sameStat(fi, src.file)
}

// render executes a page into a buffer first, so that a failing template
// gives a clean 500 rather than half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, page string, data any) {
	s.renderStatus(w, r, http.StatusOK, page, data)
}

func (s *Server) renderStatus(w http.ResponseWriter, r *http.Request, status int, page string, data any) {
	var b bytes.Buffer
	if err := s.pages[page].Execute(&b, data); err != nil {
		s.fail(w, r, fmt.Errorf("rendering %s: %w", page, err))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// unavailable answers 503 while there is no database to read: a page
// that reloads itself (and so shows the site again when the database is
// back), or {"error": msg} under /api/.
func (s *Server) unavailable(w http.ResponseWriter, r *http.Request, msg string) {
	retry := int(pollInterval.Seconds())
	w.Header().Set("Retry-After", strconv.Itoa(retry))
	if strings.HasPrefix(r.URL.Path, "/api/") {
		b, _ := json.Marshal(struct {
			Error string `json:"error"`
		}{msg})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write(append(b, '\n'))
		return
	}
	s.renderStatus(w, r, http.StatusServiceUnavailable, "unavailable", struct {
		Title, Message string
		Refresh        int
	}{"Database unavailable", msg, retry})
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

// decimal reads a number written the one way the site writes it: decimal
// digits without a sign or leading zeros ("0", "7", "12"). Every page has
// one address, so that links, caches and logs agree; "+1" or "01" are not
// another name of page 1 (a redirect would make them part of the site for
// good, and the site never writes them).
func decimal(s string) (int64, bool) {
	if s == "" || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	var n int64
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// pathID reads a positive integer path value.
func pathID(r *http.Request) (int64, error) {
	id, ok := decimal(r.PathValue("id"))
	if !ok || id <= 0 {
		return 0, notFound("no such id %q (ids are written 1, 2, ...)", r.PathValue("id"))
	}
	return id, nil
}

// pageParam reads ?page= (default 1).
func pageParam(r *http.Request) (int, error) {
	p := r.URL.Query().Get("page")
	if p == "" {
		return 1, nil
	}
	page, ok := decimal(p)
	if !ok || page < 1 || page > 1<<20 {
		return 0, badRequest("page %q is not a page number (1, 2, ...)", p)
	}
	return int(page), nil
}

// loaded is a stored tournament with its report.
type loaded struct {
	rec record.Tournament
	rep report.Tournament
}

// fmtTimeText is fmtTime of a time as the store's text (RFC 3339, as the
// games list's JSON keeps it); a text that is no time is shown as it is.
func fmtTimeText(s string) string {
	if s == "" {
		return "-"
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return fmtTime(t)
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
