package serve

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"strconv"

	"selfplay/report"
)

// openingsView is a page of a tournament's results by opening
// (/api/tournaments/{id}/openings): the games of a stretch of the
// schedule's pairs, per pairing in the FHR paper's Table 2 layout.
type openingsView struct {
	Tournament   tournamentRef `json:"tournament"`
	Page         int           `json:"page"` // from 1
	Pages        int           `json:"pages"`
	PairsPerPage int           `json:"pairs_per_page"`
	// FirstPair and LastPair are the page's pairs as the PGN's Round tag
	// numbers them (from 1): games FirstPair.1 to LastPair.2.
	FirstPair int               `json:"first_pair"`
	LastPair  int               `json:"last_pair"`
	Pairings  []openingsPairing `json:"pairings"`

	Title      string        `json:"-"`
	Tables     template.HTML `json:"-"`
	Prev, Next string        `json:"-"`
	Links      []pageLink    `json:"-"`
}

// openingsPairing is a pairing's results by opening over the page's games
// (report.Openings: each game's result, White-Black, with the first engine
// as White and as Black).
type openingsPairing struct {
	First    string          `json:"first"`
	Second   string          `json:"second"`
	Openings report.Openings `json:"openings"`
}

// pageLink is a numbered link of a pager; Current is the page shown.
type pageLink struct {
	N       int
	URL     string
	Current bool
	Gap     bool // "…" before it
}

// pager numbers the first, the last and the pages around the current one.
func pager(page, pages int, url func(int) string) []pageLink {
	var out []pageLink
	last := 0
	for n := 1; n <= pages; n++ {
		if n != 1 && n != pages && (n < page-3 || n > page+3) {
			continue
		}
		out = append(out, pageLink{N: n, URL: url(n), Current: n == page, Gap: last > 0 && n > last+1})
		last = n
	}
	return out
}

func (s *Server) openingsView(r *http.Request, withHTML bool) (openingsView, error) {
	id, err := pathID(r)
	if err != nil {
		return openingsView{}, err
	}
	page, err := pageParam(r)
	if err != nil {
		return openingsView{}, err
	}
	l, ps, pages, span, err := s.openingsPage(r.Context(), id, page)
	if err != nil {
		return openingsView{}, err
	}
	from := (page - 1) * s.pairsPerPage
	v := openingsView{Tournament: tournamentRef{ID: l.rec.ID, Name: l.rec.Name}, Page: page, Pages: pages,
		PairsPerPage: s.pairsPerPage, FirstPair: from + 1, LastPair: max(from+1, min(span, from+s.pairsPerPage)),
		Pairings: []openingsPairing{}}
	for _, p := range ps {
		v.Pairings = append(v.Pairings, openingsPairing{First: p.First, Second: p.Second, Openings: p.Openings})
	}
	if !withHTML {
		return v, nil
	}
	url := func(n int) string {
		if n == 1 {
			return "?"
		}
		return "?page=" + strconv.Itoa(n)
	}
	if page > 1 {
		v.Prev = url(page - 1)
	}
	if page < pages {
		v.Next = url(page + 1)
	}
	v.Links = pager(page, pages, url)
	v.Title = "Results by opening of " + l.rec.Name
	if len(ps) > 0 {
		var b bytes.Buffer
		title := fmt.Sprintf("Games %d.1 to %d.2", v.FirstPair, v.LastPair)
		if err := report.WriteOpeningsHTML(&b, title, ps); err != nil {
			return openingsView{}, err
		}
		v.Tables = template.HTML(b.String()) // escaped by package report
	}
	return v, nil
}

func (s *Server) openingsHTML(w http.ResponseWriter, r *http.Request) {
	v, err := s.openingsView(r, true)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, "openings", v)
}

func (s *Server) openingsJSON(w http.ResponseWriter, r *http.Request) {
	v, err := s.openingsView(r, false)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.writeJSON(w, r, v)
}
