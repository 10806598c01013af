package serve

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"selfplay/report"
	"selfplay/standings"
	"selfplay/store"
	"selfplay/store/record"
)

// tournamentState is the server's copy of one tournament's standings. Each
// request brings it up to date by reading only the games stored since the
// last one (game ids grow with every game stored and are never reused), so
// a request costs a few small queries however many games there are; the
// report, and its HTML and JSON, are made again only when the tournament
// changed.
type tournamentState struct {
	mu     sync.Mutex
	live   *standings.Live // nil: count every game again
	lastID int64           // the highest game id counted
	counts int             // times every game was counted (tests)
	rec    record.Tournament

	// The openings of the games in order of first storage, for the game
	// list's filter, each with the least of its games' names, kept up to date.
	openings    [][2]string
	openingsIdx map[string]int

	// The games counted, in schedule order: the game list filters and
	// pages them in memory (a filtered count in SQL reads every game).
	games []*record.Game

	// The report and its renderings for the tournament as key describes
	// it; html and json are made when first asked for.
	key        string
	report     *report.Tournament
	html, json []byte
}

// update brings the state up to date with the database, in one read
// transaction. Updates of a state are serialized (st.mu, held by the
// caller) and each reads a snapshot at least as new as the one before, so
// that the games counted are always a subset of the snapshot's: if the
// snapshot has fewer games than the counted ones plus the new ones, games
// were deleted, and every game is counted again. A tournament that is not
// stored is a 404.
func (s *Server) update(ctx context.Context, id int64, st *tournamentState) error {
	err := s.src(ctx).db.ReadTx(ctx, func(tx *store.Reader) error {
		rec, err := tx.TournamentByID(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return notFound("no tournament with id %d", id)
		}
		if err != nil {
			return err
		}
		if st.live != nil && (rec.Config != st.rec.Config || rec.ConfigHash != st.rec.ConfigHash || !rec.CreatedAt.Equal(st.rec.CreatedAt)) {
			st.live = nil // not the games counted so far (another tournament, or another file written over this one)
		}
		st.rec = rec
		n, err := tx.CountGames(ctx, id)
		if err != nil {
			return err
		}
		if st.live != nil {
			games, err := tx.GamesAfter(ctx, id, st.lastID)
			if err != nil {
				return err
			}
			if st.live.Games()+len(games) == n {
				return st.add(ctx, tx, id, games)
			}
			st.live = nil // games were deleted
		}
		games, err := tx.TournamentGames(ctx, id)
		if err != nil {
			return err
		}
		st.live, st.lastID, st.openings, st.openingsIdx, st.games = standings.NewLive(), 0, nil, map[string]int{}, nil
		st.report = nil
		st.counts++
		return st.add(ctx, tx, id, games)
	})
	// On an error the state is as before the call, or counts fewer games
	// than are stored, which the next call reads.
	return err
}

// add counts games stored after the ones counted (in any order) with
// their search sums.
func (st *tournamentState) add(ctx context.Context, tx *store.Reader, id int64, games []record.Game) error {
	if len(games) == 0 {
		return nil
	}
	sums, err := tx.SearchSumsAfter(ctx, id, st.lastID)
	if err != nil {
		return err
	}
	if err := st.live.Add(games); err != nil {
		return fmt.Errorf("tournament %s: %w", st.rec.Name, err)
	}
	st.live.AddSearch(sums)
	byID := make([]*record.Game, len(games))
	for i := range games {
		byID[i] = &games[i]
	}
	slices.SortFunc(byID, func(a, b *record.Game) int { return cmp.Compare(a.ID, b.ID) })
	for _, g := range byID {
		// An opening's name is the least of its games'.
		if i, ok := st.openingsIdx[g.OpeningID]; !ok {
			st.openingsIdx[g.OpeningID] = len(st.openings)
			st.openings = append(st.openings, [2]string{g.OpeningID, g.OpeningName})
		} else if g.OpeningName < st.openings[i][1] {
			st.openings[i][1] = g.OpeningName
		}
	}
	st.lastID = max(st.lastID, byID[len(byID)-1].ID)
	fresh := make([]*record.Game, len(games))
	for i := range games {
		fresh[i] = &games[i]
	}
	slices.SortFunc(fresh, record.ScheduleCompare)
	st.games = mergeSchedule(st.games, fresh)
	return nil
}

// mergeSchedule merges fresh into games, both in schedule order. Games
// finished out of schedule order (concurrency, a merge) land among the
// last ones: only the games after the first fresh one are moved.
func mergeSchedule(games, fresh []*record.Game) []*record.Game {
	from, _ := slices.BinarySearchFunc(games, fresh[0], record.ScheduleCompare)
	if from == len(games) {
		return append(games, fresh...)
	}
	tail := slices.Clone(games[from:])
	games = games[:from]
	for len(tail) > 0 && len(fresh) > 0 {
		if record.ScheduleCompare(tail[0], fresh[0]) < 0 {
			games, tail = append(games, tail[0]), tail[1:]
		} else {
			games, fresh = append(games, fresh[0]), fresh[1:]
		}
	}
	return append(append(games, tail...), fresh...)
}

// reportOf returns the report of the tournament as the state has it,
// made again only when the tournament changed.
func (s *Server) reportOf(st *tournamentState) (report.Tournament, error) {
	t := st.rec
	key := fmt.Sprintf("%d|%d|%s|%s|%s|%g|%s|%s", st.live.Games(), st.lastID, t.Status, t.UpdatedAt, t.SPRTState, t.SPRTLLR,
		t.FinishedAt, t.ConfigHash)
	if st.report != nil && st.key == key {
		return *st.report, nil
	}
	rt, err := st.live.Report(t, s.level, "")
	if err != nil {
		return report.Tournament{}, err
	}
	st.key, st.report, st.html, st.json = key, &rt, nil, nil
	return rt, nil
}

// current brings the tournament's state up to date and returns it, locked
// (the caller unlocks st.mu), with its report.
func (s *Server) current(ctx context.Context, id int64) (*tournamentState, report.Tournament, error) {
	st := s.src(ctx).stateOf(id)
	st.mu.Lock()
	if err := s.update(ctx, id, st); err != nil {
		st.mu.Unlock()
		return nil, report.Tournament{}, err
	}
	rt, err := s.reportOf(st)
	if err != nil {
		st.mu.Unlock()
		return nil, report.Tournament{}, err
	}
	return st, rt, nil
}

// tournament returns the tournament as stored now and its report.
func (s *Server) tournament(ctx context.Context, id int64) (loaded, error) {
	st, rt, err := s.current(ctx, id)
	if err != nil {
		return loaded{}, err
	}
	defer st.mu.Unlock()
	return loaded{st.rec, rt}, nil
}

// rendered returns the tournament with its report and the report rendered
// by render (HTML or JSON), which is made once per change of the report.
func (s *Server) rendered(ctx context.Context, id int64, asJSON bool) (loaded, []byte, error) {
	st, rt, err := s.current(ctx, id)
	if err != nil {
		return loaded{}, nil, err
	}
	defer st.mu.Unlock()
	out := &st.html
	if asJSON {
		out = &st.json
	}
	if *out == nil {
		var b bytes.Buffer
		var err error
		if asJSON {
			err = report.WriteJSON(&b, report.Report{Level: s.level, Tournaments: []report.Tournament{siteTournament(rt)}})
		} else {
			err = report.WriteHTMLSections(&b, report.Report{Level: s.level, Tournaments: []report.Tournament{rt}},
				report.SectionOptions{OpeningsURL: fmt.Sprintf("/tournaments/%d/openings", id), MaxOpenings: s.openingsOnPage})
		}
		if err != nil {
			return loaded{}, nil, err
		}
		*out = b.Bytes()
	}
	return loaded{st.rec, rt}, *out, nil
}

// siteTournament is the tournament as /api/tournaments/{id} has it: the
// report without what grows with every game, so that its size is bounded:
// the running estimate and the SPRT path thinned to the points the charts
// draw (report.ThinSeries), and the openings' per-game results left out
// (their lists are empty; /api/tournaments/{id}/openings has them, page
// by page).
func siteTournament(rt report.Tournament) report.Tournament {
	rt = report.ThinSeries(rt)
	for i, p := range rt.Pairings {
		rows := make([]report.OpeningRow, len(p.Openings.Rows))
		for j, r := range p.Openings.Rows {
			r.FirstWhite, r.FirstBlack = nil, nil
			rows[j] = r
		}
		p.Openings.Rows = rows
		rt.Pairings[i] = p // ThinSeries gave rt its own pairings
	}
	return rt
}

// gameList returns the tournament and, when the server has counted its
// games already (ok), the openings for the game list's filter, the ids of
// the games that match from the offset-th on (at most limit) and how many
// match, selected from the games in memory. A first visit to a game list
// does not count every game for its filter (seconds at 100,000 games): it
// reads the tournament alone.
func (s *Server) gameList(ctx context.Context, id int64, match func(*record.Game) bool, offset, limit int) (
	t record.Tournament, openings [][2]string, ids []int64, total int, ok bool, err error) {
	src := s.src(ctx)
	st := src.stateOf(id)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.live == nil {
		t, err = src.db.TournamentByID(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			err = notFound("no tournament with id %d", id)
		}
		return t, nil, nil, 0, false, err
	}
	if err := s.update(ctx, id, st); err != nil {
		return record.Tournament{}, nil, nil, 0, false, err
	}
	if match != nil {
		for _, g := range st.games {
			if match(g) {
				if total >= offset && total < offset+limit {
					ids = append(ids, g.ID)
				}
				total++
			}
		}
	}
	return st.rec, slices.Clone(st.openings), ids, total, true, nil
}

// openingsPage returns a page of the tournament's results by opening: the
// games of pairs (page-1)·pairsPerOpeningsPage up to the next page's, per
// pairing in the report's order, the number of pages and the pairs they
// span (PairSpan).
func (s *Server) openingsPage(ctx context.Context, id int64, page int) (l loaded, ps []report.Pairing, pages, span int, err error) {
	st, rt, err := s.current(ctx, id)
	if err != nil {
		return loaded{}, nil, 0, 0, err
	}
	defer st.mu.Unlock()
	span = st.live.PairSpan()
	pages = max(1, (span+s.pairsPerPage-1)/s.pairsPerPage)
	if page > pages {
		return loaded{}, nil, 0, 0, notFound("page %d of %d", page, pages)
	}
	from := (page - 1) * s.pairsPerPage
	byKey := st.live.Openings(from, from+s.pairsPerPage)
	for _, p := range rt.Pairings {
		if o, ok := byKey[[2]string{p.First, p.Second}]; ok {
			ps = append(ps, report.Pairing{First: p.First, Second: p.Second, Openings: o})
		}
	}
	return loaded{st.rec, rt}, ps, pages, span, nil
}

// load reads the tournaments and their reports.
func (s *Server) load(ctx context.Context) ([]loaded, error) {
	src := s.src(ctx)
	ts, err := src.db.Tournaments(ctx)
	if err != nil {
		return nil, err
	}
	src.forgetDeleted(ts)
	var out []loaded
	for _, t := range ts {
		// Read again inside the tournament's update: the snapshot its
		// games are counted in.
		l, err := s.tournament(ctx, t.ID)
		var he *httpError
		if errors.As(err, &he) && he.status == 404 {
			continue // deleted since
		}
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}
