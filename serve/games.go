package serve

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"selfplay/outcome"
	"selfplay/store"
	"selfplay/store/record"
)

// maxOpeningChoices is the most openings the game list's filter offers as
// a menu.
const maxOpeningChoices = 500

// gamesView is a page of a tournament's games (/api/tournaments/{id}/games).
type gamesView struct {
	Tournament tournamentRef `json:"tournament"`
	Filter     gameFilter    `json:"filter"`
	Page       int           `json:"page"` // from 1
	PerPage    int           `json:"per_page"`
	Total      int           `json:"total"` // games the filter selects
	Pages      int           `json:"pages"`
	Games      []gameRow     `json:"games"`

	// For the HTML page: the filter's choices and the page links.
	Engines      []string    `json:"-"`
	Openings     [][2]string `json:"-"`
	OpeningInput bool        `json:"-"` // a text field, not a menu
	Terminations []string    `json:"-"`
	Results      []string    `json:"-"`
	Prev, Next   string      `json:"-"`
	Title        string      `json:"-"`
}

// gameRow is a game of the list. Round is the PGN's Round tag
// (record.PGNRound), in place of the stored round number.
type gameRow struct {
	gameSummary
	Round string `json:"round"`
}

// gameSummary is a game as the game list shows it.
type gameSummary struct {
	ID          int64              `json:"id"`
	Pair        int                `json:"pair"`  // game pair in schedule order, from 0
	Index       int                `json:"index"` // 0: the pairing's first engine has White
	Round       int                `json:"round"`
	OpeningID   string             `json:"opening_id"`
	OpeningName string             `json:"opening_name"`
	White       string             `json:"white"`
	Black       string             `json:"black"`
	Result      string             `json:"result"`
	Termination record.Termination `json:"termination"`
	Culprit     string             `json:"culprit"`
	Plies       int                `json:"plies"`    // after the opening
	Finished    string             `json:"finished"` // as stored (RFC 3339, UTC)
}

// listRow is g (as store.Reader.ListGames reads it) as a row of the list.
func listRow(g record.Game) gameRow {
	finished := ""
	if !g.Finished.IsZero() {
		finished = g.Finished.UTC().Format(time.RFC3339Nano) // the stored text
	}
	return gameRow{gameSummary: gameSummary{ID: g.ID, Pair: g.Pair, Index: g.Index, Round: g.Round,
		OpeningID: g.OpeningID, OpeningName: g.OpeningName, White: g.White, Black: g.Black, Result: g.Result.String(),
		Termination: g.Termination, Culprit: g.Culprit, Plies: g.Plies, Finished: finished},
		Round: record.PGNRound(g.Pair, g.Index)}
}

// tournamentRef names a tournament.
type tournamentRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// gameFilter is the game list's query: engine (either color), result,
// termination, opening id; empty selects all.
type gameFilter struct {
	Engine      string `json:"engine"`
	Result      string `json:"result"`
	Termination string `json:"termination"`
	Opening     string `json:"opening"`
}

// dbFilter is the filter as the database selects games, in tournament id.
func (f gameFilter) dbFilter(id int64) store.GameFilter {
	return store.GameFilter{TournamentID: id, Engine: f.Engine, Result: f.Result, Termination: f.Termination, Opening: f.Opening}
}

func (f gameFilter) query(page int) string {
	v := url.Values{}
	for _, kv := range [][2]string{{"engine", f.Engine}, {"result", f.Result}, {"termination", f.Termination}, {"opening", f.Opening}} {
		if kv[1] != "" {
			v.Set(kv[0], kv[1])
		}
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return ""
	}
	return "?" + v.Encode()
}

func (s *Server) gamesView(r *http.Request) (gamesView, error) {
	id, err := pathID(r)
	if err != nil {
		return gamesView{}, err
	}
	q := r.URL.Query()
	f := gameFilter{Engine: q.Get("engine"), Result: q.Get("result"), Termination: q.Get("termination"), Opening: q.Get("opening")}
	page, err := pageParam(r)
	if err != nil {
		return gamesView{}, err
	}
	v := gamesView{Filter: f, Page: page, PerPage: gamesPerPage}
	for _, r := range outcome.Final() {
		v.Results = append(v.Results, r.String())
	}
	for _, t := range record.Terminations() {
		v.Terminations = append(v.Terminations, string(t))
	}
	// A value that no game can have is a mistake, not an empty list. (An
	// opening id is not checked: one that no game has yet may be played
	// later, and a book has thousands.)
	if err := oneOf("result", f.Result, v.Results); err != nil {
		return gamesView{}, err
	}
	if err := oneOf("termination", f.Termination, v.Terminations); err != nil {
		return gamesView{}, err
	}
	match := func(g *record.Game) bool {
		return (f.Engine == "" || g.White == f.Engine || g.Black == f.Engine) && (f.Result == "" || g.Result.String() == f.Result) &&
			(f.Termination == "" || string(g.Termination) == f.Termination) && (f.Opening == "" || g.OpeningID == f.Opening)
	}
	t, openings, ids, total, known, err := s.gameList(r.Context(), id, match, (page-1)*gamesPerPage, gamesPerPage)
	if err != nil {
		return gamesView{}, err
	}
	v.Tournament, v.Openings = tournamentRef{ID: t.ID, Name: t.Name}, openings
	// A list too long for a menu (a large opening book), or not known yet
	// (nothing counted the games yet): the opening id is typed in.
	v.OpeningInput = !known || len(openings) > maxOpeningChoices
	for _, e := range t.Engines {
		v.Engines = append(v.Engines, e.Name)
	}
	if err := oneOf("engine", f.Engine, v.Engines); err != nil {
		return gamesView{}, err
	}
	var games []record.Game
	if known {
		// Selected from the games counted; only the page's rows are read.
		v.Total = total
		games, err = s.src(r.Context()).db.ListGamesByID(r.Context(), ids)
	} else {
		// The count and the page in one snapshot.
		err = s.src(r.Context()).db.ReadTx(r.Context(), func(tx *store.Reader) error {
			var err error
			games, v.Total, err = tx.ListGames(r.Context(), f.dbFilter(id), (page-1)*gamesPerPage, gamesPerPage)
			return err
		})
	}
	if err != nil {
		return gamesView{}, err
	}
	v.Games = make([]gameRow, len(games))
	for i, g := range games {
		v.Games[i] = listRow(g)
	}
	v.Pages = max(1, (v.Total+gamesPerPage-1)/gamesPerPage)
	if page > v.Pages {
		return gamesView{}, notFound("page %d of %d", page, v.Pages)
	}
	if page > 1 {
		v.Prev = f.query(page - 1)
		if v.Prev == "" {
			v.Prev = "?"
		}
	}
	if page < v.Pages {
		v.Next = f.query(page + 1)
	}
	v.Title = "Games of " + v.Tournament.Name
	return v, nil
}

func (s *Server) gamesPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.gamesView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, "games", v)
}

func (s *Server) gamesJSON(w http.ResponseWriter, r *http.Request) {
	v, err := s.gamesView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.writeJSON(w, r, v)
}

// oneOf checks a filter's value: empty (any) or one of valid, else a 400
// that lists them.
func oneOf(name, value string, valid []string) error {
	if value == "" || slices.Contains(valid, value) {
		return nil
	}
	quoted := make([]string, len(valid))
	for i, v := range valid {
		quoted[i] = strconv.Quote(v)
	}
	return badRequest("%s %q is not one of %s", name, value, strings.Join(quoted, ", "))
}
