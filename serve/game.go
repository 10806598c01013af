package serve

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"selfplay/store"
	"selfplay/store/record"
)

// gameView is one game with its moves (/api/games/{id}).
type gameView struct {
	ID          int64         `json:"id"`
	Tournament  tournamentRef `json:"tournament"`
	Pair        int           `json:"pair"`
	Index       int           `json:"index"`
	Round       string        `json:"round"` // the PGN's Round tag: pair.game from 1 (Pair and Index count from 0)
	OpeningID   string        `json:"opening_id"`
	OpeningName string        `json:"opening_name"`
	StartFEN    string        `json:"start_fen"`
	White       string        `json:"white"`
	Black       string        `json:"black"`
	Result      string        `json:"result"`
	Termination string        `json:"termination"`
	Reason      string        `json:"reason"`
	Culprit     string        `json:"culprit"`
	FinalFEN    string        `json:"final_fen"`
	Started     time.Time     `json:"started"`
	Finished    time.Time     `json:"finished"`
	PGN         string        `json:"pgn"`
	Moves       []moveView    `json:"moves"`
	ReplayError string        `json:"replay_error,omitempty"` // a stored move the board could not play
	Ply         int           `json:"-"`                      // shown position (HTML)
	Board       template.HTML `json:"-"`
	Eval        template.HTML `json:"-"`
	Title       string        `json:"-"`
	Prev, Next  int           `json:"-"`
	LastPly     int           `json:"-"`
	MovesPlayed int           `json:"-"`
}

// moveView is one ply with the mover's search figures.
type moveView struct {
	Ply       int     `json:"ply"` // from 1, opening moves included
	Number    string  `json:"number"`
	UCI       string  `json:"uci"`
	SAN       string  `json:"san"`
	Engine    string  `json:"engine"` // who played it
	Book      bool    `json:"book"`
	Score     int     `json:"score"` // mover's view: centipawns or ±(32000 - plies to mate)
	ScoreText string  `json:"score_text"`
	Depth     int     `json:"depth"`
	SelDepth  int     `json:"seldepth"`
	Nodes     int64   `json:"nodes"`
	TimeMS    float64 `json:"time_ms"`
	FEN       string  `json:"fen"` // position after the move
}

func (s *Server) readGame(r *http.Request) (record.Game, string, error) {
	id, err := pathID(r)
	if err != nil {
		return record.Game{}, "", err
	}
	var g record.Game
	var tname string
	err = s.src(r.Context()).db.ReadTx(r.Context(), func(tx *store.Reader) error {
		var err error
		if g, err = tx.GameByID(r.Context(), id); err != nil {
			return err
		}
		ts, err := tx.Tournaments(r.Context())
		for _, t := range ts {
			if t.ID == g.TournamentID {
				tname = t.Name
			}
		}
		return err
	})
	if errors.Is(err, store.ErrNoGame) {
		return g, "", notFound("no game with id %d", id)
	}
	return g, tname, err
}

func (s *Server) gameView(r *http.Request) (gameView, record.Game, []string, error) {
	g, tname, err := s.readGame(r)
	if err != nil {
		return gameView{}, g, nil, err
	}
	positions, rerr := replay(g)
	v := gameView{ID: g.ID, Tournament: tournamentRef{g.TournamentID, tname}, Pair: g.Pair, Index: g.Index, Round: record.PGNRound(g.Pair, g.Index),
		OpeningID: g.OpeningID, OpeningName: g.OpeningName, StartFEN: g.StartFEN, White: g.White, Black: g.Black,
		Result: g.Result.String(), Termination: string(g.Termination), Reason: g.Reason, Culprit: g.Culprit, FinalFEN: g.FinalFEN,
		Started: g.Started.UTC(), Finished: g.Finished.UTC(), PGN: g.PGN, Moves: []moveView{}}
	if rerr != nil {
		v.ReplayError = rerr.Error()
	}
	for i, m := range g.Moves {
		mv := moveView{Ply: m.Ply, UCI: m.UCI, SAN: m.SAN, Book: m.Book, Score: m.Score, Depth: m.Depth, SelDepth: m.SelDepth,
			Nodes: m.Nodes, TimeMS: float64(m.Time) / float64(time.Millisecond)}
		if !m.Book {
			mv.ScoreText = formatScore(m.Score)
		}
		if i < len(positions) {
			// Move numbers and the mover follow the position, whoever
			// starts.
			before := positions[i]
			if whiteToMove(before) {
				mv.Engine, mv.Number = g.White, strconv.Itoa(fullMove(before))+"."
			} else {
				mv.Engine, mv.Number = g.Black, strconv.Itoa(fullMove(before))+"..."
			}
		}
		if i+1 < len(positions) {
			mv.FEN = positions[i+1]
		}
		v.Moves = append(v.Moves, mv)
	}
	v.LastPly = len(positions) - 1
	v.MovesPlayed = len(g.Moves)
	return v, g, positions, nil
}

// plyParam reads ?ply= (default: the last position) within [0, last].
func plyParam(r *http.Request, last int) (int, error) {
	p := r.URL.Query().Get("ply")
	if p == "" {
		return last, nil
	}
	n, ok := decimal(p)
	if !ok || n > int64(last) {
		return 0, badRequest("ply %q is not in 0..%d", p, last)
	}
	return int(n), nil
}

func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	v, g, positions, err := s.gameView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(positions) == 0 {
		s.fail(w, r, fmt.Errorf("game %d: %s", g.ID, v.ReplayError))
		return
	}
	if v.Ply, err = plyParam(r, v.LastPly); err != nil {
		s.fail(w, r, err)
		return
	}
	last := ""
	if v.Ply > 0 {
		last = v.Moves[v.Ply-1].UCI
	}
	v.Board = template.HTML(drawBoard(positions[v.Ply], last)) // every text in it escaped by drawBoard
	v.Eval = template.HTML(drawEval(g, positions, v.Ply))
	v.Prev, v.Next = max(v.Ply-1, 0), min(v.Ply+1, v.LastPly)
	v.Title = fmt.Sprintf("%s - %s %s", v.White, v.Black, v.Result)
	s.render(w, r, "game", v)
}

func (s *Server) boardSVG(w http.ResponseWriter, r *http.Request) {
	g, _, err := s.readGame(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	positions, _ := replay(g)
	if len(positions) == 0 {
		s.fail(w, r, notFound("game %d has no playable start position", g.ID))
		return
	}
	ply, err := plyParam(r, len(positions)-1)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	last := ""
	if ply > 0 {
		last = g.Moves[ply-1].UCI
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "max-age=60") // a stored game never changes
	fmt.Fprint(w, drawBoard(positions[ply], last))
}

func (s *Server) gamePGN(w http.ResponseWriter, r *http.Request) {
	g, _, err := s.readGame(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	if r.URL.Query().Get("download") != "" {
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="game-%d.pgn"`, g.ID))
	}
	fmt.Fprint(w, g.PGN)
}

func (s *Server) gameJSON(w http.ResponseWriter, r *http.Request) {
	v, _, _, err := s.gameView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.writeJSON(w, r, v)
}
