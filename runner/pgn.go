package runner

import (
	"fmt"
	"strings"
	"time"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/internal/termtext"
	"selfplay/openings"
	"selfplay/store/record"
)

// pgnHeader is what the PGN needs beyond the stored game.
type pgnHeader struct {
	event, site string // the Event and Site tags
	timeControl string // PGN TimeControl value
	// odds holds White's and Black's TimeControl values and limits in
	// words when the sides' limits differ (an engine's own limits), nil
	// when they are the same.
	odds       *[2][2]string
	standard   bool // the game starts from the initial position (no SetUp/FEN tags)
	startMove  int  // FEN move number of StartFEN
	blackFirst bool // Black moves first from StartFEN
	// fields are pgn_out's per-move comment fields and notation its
	// moves'; the zero values (the stored PGN's) add none and write SAN.
	fields   config.PGNFields
	notation config.Notation
}

// pgnHeaderFor is the header of a game of the tournament between white and
// black from the opening.
func pgnHeaderFor(t *config.Tournament, white, black string, o openings.Opening) (pgnHeader, error) {
	b, err := board.FromFEN(o.StartFEN)
	if err != nil {
		return pgnHeader{}, fmt.Errorf("opening %s: %w", o.ID, err)
	}
	h := pgnHeader{event: t.PGNEvent(), site: t.PGNSite(), timeControl: "-", standard: o.IsStandardStart(),
		startMove: b.FullmoveNumber(), blackFirst: b.Side() == board.Black}
	limits := [2]config.Limits{t.LimitsOf(white), t.LimitsOf(black)}
	h.timeControl = pgnTimeControlOf(limits[0])
	// Limits that differ only in their time margin make no odds tags:
	// the tags cannot say the margin.
	odds := [2][2]string{
		{h.timeControl, limits[0].String()},
		{pgnTimeControlOf(limits[1]), limits[1].String()},
	}
	if odds[0] != odds[1] {
		h.odds = &odds
	}
	return h, nil
}

// pgnTimeControlOf is the TimeControl tag's value for limits: the clock's,
// or "-" for limits without one.
func pgnTimeControlOf(l config.Limits) string {
	if tc := l.TC; tc != nil {
		return pgnTimeControl(tc.Moves, tc.Base, tc.Increment)
	}
	return "-"
}

// writePGN renders a game in PGN export format: the Seven Tag Roster,
// TimeControl, PlyCount, Termination, Opening (and SetUp/FEN for a
// non-standard start), moves from the start position with opening moves
// commented {book} and engine moves {score/depth nodesN time}, wrapped at
// 79 columns, ended by the result and the reason as a comment.
func writePGN(g *record.Game, h pgnHeader) string {
	var sb strings.Builder
	tag := func(name, value string) {
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", name, pgnTagValue(value))
	}
	tag("Event", h.event)
	tag("Site", h.site)
	tag("Date", g.Started.Local().Format("2006.01.02"))
	tag("Round", record.PGNRound(g.Pair, g.Index))
	tag("White", g.White)
	tag("Black", g.Black)
	tag("Result", g.Result.String())
	if !h.standard {
		tag("SetUp", "1")
		tag("FEN", g.StartFEN)
	}
	if o := h.odds; o != nil {
		// The tag names of fastchess's PGN builder and cutechess-cli's
		// when the sides' time controls differ; the Limit tags say the
		// budgets that a TimeControl cannot (nodes, depth, movetime).
		tag("WhiteTimeControl", o[0][0])
		tag("BlackTimeControl", o[1][0])
		tag("WhiteLimit", o[0][1])
		tag("BlackLimit", o[1][1])
	} else {
		tag("TimeControl", h.timeControl)
	}
	tag("PlyCount", fmt.Sprint(len(g.Moves)))
	tag("Termination", string(g.Termination))
	opening := g.OpeningName
	if opening == "" {
		opening = g.OpeningID
	}
	tag("Opening", opening)
	sb.WriteByte('\n')

	var tokens []string
	moveNo := h.startMove
	whiteToMove := !h.blackFirst
	for _, m := range g.Moves {
		// Every move carries a comment, so Black's moves need their
		// number ("N...") too.
		if whiteToMove {
			tokens = append(tokens, fmt.Sprintf("%d.", moveNo))
		} else {
			tokens = append(tokens, fmt.Sprintf("%d...", moveNo))
		}
		tokens = append(tokens, moveText(m, h.notation), moveComment(m, h.fields))
		if !whiteToMove {
			moveNo++
		}
		whiteToMove = !whiteToMove
	}
	tokens = append(tokens, g.Result.String())
	if g.Reason != "" {
		tokens = append(tokens, "{"+sanitizeComment(g.Reason)+"}")
	}
	wrap(&sb, tokens, 79)
	sb.WriteString("\n\n")
	return sb.String()
}

// pgnTagValue is a tag's value as a PGN string. PGN strings hold no
// control characters; an opening's name comes from a file.
func pgnTagValue(value string) string {
	value = termtext.Escape(value)
	return strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), `"`, `\"`)
}

// moveComment is "{book}" or "{+0.31/12 8123N 0.042s}" (score from the
// mover's view in pawns, depth, nodes, time), followed by the fields asked
// for in fastchess's words and order (game/pgn/pgn_builder.cpp:181-189:
// tl, latency, n, sd, nps, hashfull, tbhits, pv; times as seconds with 3
// decimals, pgn_builder.hpp:52-56): "{+0.31/12 8123N 0.042s, n=8123,
// sd=15, nps=193404}".
func moveComment(m record.Move, fields config.PGNFields) string {
	if m.Book {
		return "{book}"
	}
	return fmt.Sprintf("{%s/%d %dN %.3fs", engines.Score(m.Score).Pawns(), m.Depth, m.Nodes, m.Time.Seconds()) + moveFields(m, fields) + "}"
}

// moveFields is the part of a move's comment that pgn_out's fields add:
// ", n=8123, sd=15, nps=193404".
func moveFields(m record.Move, fields config.PGNFields) string {
	var sb strings.Builder
	for _, f := range []struct {
		on     bool
		format string
		value  any
	}{
		{fields.TimeLeft, ", tl=%s", fastchessSeconds(m.TimeLeft)},
		{fields.Latency, ", latency=%s", fastchessSeconds(m.Latency)},
		{fields.Nodes, ", n=%d", m.Nodes},
		{fields.SelDepth, ", sd=%d", m.SelDepth},
		{fields.NPS, ", nps=%d", movesNPS(m)},
		{fields.HashFull, ", hashfull=%d", m.HashFull},
		{fields.TBHits, ", tbhits=%d", m.TBHits},
		{fields.PV, `, pv="%s"`, m.PV},
	} {
		if f.on {
			fmt.Fprintf(&sb, f.format, f.value)
		}
	}
	return sb.String()
}

// fastchessSeconds is a time as fastchess's formatTime writes its whole
// milliseconds (pgn_builder.hpp:52-56; its times are integer milliseconds,
// cut toward zero by duration_cast): "1.682s", and "0.000s", never
// "-0.000s", for a latency under a millisecond below zero.
func fastchessSeconds(d time.Duration) string {
	ms := d.Truncate(time.Millisecond).Milliseconds()
	return fmt.Sprintf("%.3fs", float64(ms)/1000)
}

// movesNPS is the nps the engine reported on the move's info line, as
// fastchess writes it, or where there is none (an in-process engine, an
// engine that does not say, a game stored before schema 10) the move's
// nodes over its time (0 for no time).
func movesNPS(m record.Move) int64 {
	switch {
	case m.NPS > 0:
		return m.NPS
	case m.Time <= 0:
		return 0
	}
	return int64(float64(m.Nodes) / m.Time.Seconds())
}

// moveText is a move in the live PGN's notation: SAN as stored, UCI, or
// fastchess's long algebraic notation (third_party/chess.hpp:5685-5722,
// moveToRep<true>): the piece letter but for a pawn, the from square, x
// for a capture, the to square, =Q for a promotion and SAN's check sign;
// castling as in SAN.
func moveText(m record.Move, n config.Notation) string {
	switch {
	case n == config.NotationUCI:
		return m.UCI
	case n != config.NotationLAN || strings.HasPrefix(m.SAN, "O-O") || len(m.UCI) < 4:
		return m.SAN
	}
	var sb strings.Builder
	if c := m.SAN[0]; strings.IndexByte("KQRBN", c) >= 0 {
		sb.WriteByte(c)
	}
	sb.WriteString(m.UCI[:2])
	if strings.Contains(m.SAN, "x") {
		sb.WriteByte('x')
	}
	sb.WriteString(m.UCI[2:4])
	if i := strings.IndexByte(m.SAN, '='); i >= 0 && i+1 < len(m.SAN) {
		sb.WriteString(m.SAN[i : i+2])
	}
	if c := m.SAN[len(m.SAN)-1]; c == '+' || c == '#' {
		sb.WriteByte(c)
	}
	return sb.String()
}

// sanitizeComment keeps a reason text valid inside a PGN comment and safe
// on a terminal (the game lines print it too).
func sanitizeComment(s string) string {
	s = strings.NewReplacer("{", "(", "}", ")", "\n", " ", "\r", " ").Replace(s)
	return termtext.Escape(strings.TrimSpace(s))
}

// wrap writes space-separated tokens in lines of at most width columns.
// Comments are split at their spaces too, so no line exceeds the width
// unless a single word does.
func wrap(sb *strings.Builder, tokens []string, width int) {
	w := lineFiller{sb: sb, width: width}
	for _, tok := range tokens {
		for _, word := range strings.Fields(tok) {
			w.put(word)
		}
	}
}

// lineFiller writes texts separated by spaces, starting a new line before
// a text that would pass width columns (a text longer than that gets a
// line of its own).
type lineFiller struct {
	sb         *strings.Builder
	col, width int
}

func (w *lineFiller) put(text string) {
	if w.col > 0 && w.col+1+len(text) > w.width {
		w.sb.WriteByte('\n')
		w.col = 0
	}
	if w.col > 0 {
		w.sb.WriteByte(' ')
		w.col++
	}
	w.sb.WriteString(text)
	w.col += len(text)
}

// pgnTimeControl is the TimeControl tag of a clock: "moves/seconds+inc",
// without "moves/" for a whole-game period and without "+inc" for no
// increment. Tournaments without a clock (node, depth and fixed move-time
// limits, which PGN cannot express) get "-" from pgnHeaderFor.
func pgnTimeControl(moves int, base, inc time.Duration) string {
	secs := func(d time.Duration) string {
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".")
	}
	s := secs(base)
	if moves > 0 {
		s = fmt.Sprintf("%d/%s", moves, s)
	}
	if inc > 0 {
		s += "+" + secs(inc)
	}
	return s
}
