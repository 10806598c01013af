package serve

import (
	"net/http"
	"net/url"
	"strconv"

	"selfplay/store"
	"selfplay/store/record"
)

// GamesView is a page of a tournament's games (/api/tournaments/{id}/games).
type GamesView struct {
	Tournament TournamentRef       `json:"tournament"`
	Filter     GameFilter          `json:"filter"`
	Page       int                 `json:"page"` // from 1
	PerPage    int                 `json:"per_page"`
	Total      int                 `json:"total"` // games the filter selects
	Pages      int                 `json:"pages"`
	Games      []store.GameSummary `json:"games"`

	// For the HTML page: the filter's choices and the page links.
	Engines      []string    `json:"-"`
	Openings     [][2]string `json:"-"`
	Terminations []string    `json:"-"`
	Results      []string    `json:"-"`
	Prev, Next   string      `json:"-"`
	Title        string      `json:"-"`
}

// TournamentRef names a tournament.
type TournamentRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// GameFilter is the game list's query: engine (either color), result,
// termination, opening id; empty selects all.
type GameFilter struct {
	Engine      string `json:"engine"`
	Result      string `json:"result"`
	Termination string `json:"termination"`
	Opening     string `json:"opening"`
}

func (f GameFilter) query(page int) string {
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

func (s *Server) gamesView(r *http.Request) (GamesView, error) {
	id, err := pathID(r)
	if err != nil {
		return GamesView{}, err
	}
	q := r.URL.Query()
	f := GameFilter{Engine: q.Get("engine"), Result: q.Get("result"), Termination: q.Get("termination"), Opening: q.Get("opening")}
	page := 1
	if p := q.Get("page"); p != "" {
		page, err = strconv.Atoi(p)
		if err != nil || page < 1 || page > 1<<20 {
			return GamesView{}, badRequest("page %q is not a page number (1, 2, ...)", p)
		}
	}
	if f.Result != "" && f.Result != "1-0" && f.Result != "0-1" && f.Result != "1/2-1/2" {
		return GamesView{}, badRequest("result %q is not 1-0, 0-1 or 1/2-1/2", f.Result)
	}
	v := GamesView{Filter: f, Page: page, PerPage: GamesPerPage, Results: []string{"1-0", "0-1", "1/2-1/2"}}
	for _, t := range record.Terminations() {
		v.Terminations = append(v.Terminations, string(t))
	}
	t, openings, err := s.openingsOf(r.Context(), id)
	if err != nil {
		return GamesView{}, err
	}
	v.Tournament, v.Openings = TournamentRef{ID: t.ID, Name: t.Name}, openings
	for _, e := range t.Engines {
		v.Engines = append(v.Engines, e.Name)
	}
	// The count and the page in one snapshot.
	err = s.db.ReadTx(r.Context(), func(tx *store.Reader) error {
		var err error
		v.Games, v.Total, err = tx.ListGames(r.Context(), store.GameQuery{TournamentID: id, Engine: f.Engine, Result: f.Result,
			Termination: f.Termination, Opening: f.Opening, Offset: (page - 1) * GamesPerPage, Limit: GamesPerPage})
		return err
	})
	if err != nil {
		return GamesView{}, err
	}
	v.Pages = max(1, (v.Total+GamesPerPage-1)/GamesPerPage)
	if page > v.Pages {
		return GamesView{}, notFound("page %d of %d", page, v.Pages)
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
