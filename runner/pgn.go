package runner

import (
	"fmt"
	"strings"
	"time"

	"selfplay/engines/search"
	"selfplay/runner/store"
)

// pgnHeader is what the PGN needs beyond the stored game.
type pgnHeader struct {
	event       string
	timeControl string // PGN TimeControl value
	standard    bool   // the game starts from the initial position (no SetUp/FEN tags)
	startMove   int    // FEN move number of StartFEN
	blackFirst  bool   // Black moves first from StartFEN
}

// writePGN renders a game in PGN export format: the Seven Tag Roster,
// TimeControl, PlyCount, Termination, Opening (and SetUp/FEN for a
// non-standard start), moves from the start position with opening moves
// commented {book} and engine moves {score/depth nodesN time}, wrapped at
// 79 columns, ended by the result and the reason as a comment.
func writePGN(g *store.Game, h pgnHeader) string {
	var sb strings.Builder
	tag := func(name, value string) {
		value = strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), `"`, `\"`)
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", name, value)
	}
	tag("Event", h.event)
	tag("Site", "selfplay")
	tag("Date", g.Started.Local().Format("2006.01.02"))
	tag("Round", fmt.Sprintf("%d.%d", g.Pair+1, g.Index+1))
	tag("White", g.White)
	tag("Black", g.Black)
	tag("Result", g.Result)
	if !h.standard {
		tag("SetUp", "1")
		tag("FEN", g.StartFEN)
	}
	tag("TimeControl", h.timeControl)
	tag("PlyCount", fmt.Sprint(len(g.Moves)))
	tag("Termination", g.Termination)
	opening := g.OpeningName
	if opening == "" {
		opening = g.OpeningID
	}
	tag("Opening", opening)
	sb.WriteByte('\n')

	var tokens []string
	moveNo := h.startMove
	whiteToMove := !h.blackFirst
	needNumber := true // a move number is due: start, White's move, or after a comment
	for _, m := range g.Moves {
		if whiteToMove {
			tokens = append(tokens, fmt.Sprintf("%d.", moveNo))
		} else if needNumber {
			tokens = append(tokens, fmt.Sprintf("%d...", moveNo))
		}
		tokens = append(tokens, m.SAN)
		tokens = append(tokens, moveComment(m))
		needNumber = true // every move carries a comment
		if !whiteToMove {
			moveNo++
		}
		whiteToMove = !whiteToMove
	}
	tokens = append(tokens, g.Result)
	if g.Reason != "" {
		tokens = append(tokens, "{"+sanitizeComment(g.Reason)+"}")
	}
	wrap(&sb, tokens, 79)
	sb.WriteString("\n\n")
	return sb.String()
}

// moveComment is "{book}" or "{+0.31/12 8123N 0.042s}" (score from the
// mover's view in pawns, depth, nodes, time).
func moveComment(m store.Move) string {
	if m.Book {
		return "{book}"
	}
	return fmt.Sprintf("{%s/%d %dN %.3fs}", search.Score(m.Score).Pawns(), m.Depth, m.Nodes, m.Time.Seconds())
}

// sanitizeComment keeps a reason text valid inside a PGN comment.
func sanitizeComment(s string) string {
	s = strings.NewReplacer("{", "(", "}", ")", "\n", " ", "\r", " ").Replace(s)
	return strings.TrimSpace(s)
}

// wrap writes space-separated tokens in lines of at most width columns.
// Comments are split at their spaces too, so no line exceeds the width
// unless a single word does.
func wrap(sb *strings.Builder, tokens []string, width int) {
	col := 0
	for _, tok := range tokens {
		for _, word := range strings.Fields(tok) {
			if col > 0 && col+1+len(word) > width {
				sb.WriteByte('\n')
				col = 0
			}
			if col > 0 {
				sb.WriteByte(' ')
				col++
			}
			sb.WriteString(word)
			col += len(word)
		}
	}
}

// pgnTimeControl is the TimeControl tag: "moves/seconds+inc" style for a
// clock, "-" otherwise (node, depth and fixed-time limits have no PGN form;
// fixed move time is written as the PGN "*" form would be misleading).
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
