package serve

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/store/record"
)

// replay returns the positions of a game as FENs: the start and after each
// ply. A move that is not legal ends the list there (the error says which),
// so a damaged record still shows what is playable. It uses the engines'
// board: notnil/chess takes seconds for a long game's replay (it checks
// every earlier position for repetitions at each move).
func replay(g record.Game) ([]string, error) {
	b, err := board.FromFEN(g.StartFEN)
	if err != nil {
		return nil, fmt.Errorf("game %d: start position %q: %w", g.ID, g.StartFEN, err)
	}
	out := make([]string, 1, len(g.Moves)+1)
	out[0] = b.FEN()
	for _, m := range g.Moves {
		mv, err := b.ParseUCI(m.UCI)
		if err != nil {
			return out, fmt.Errorf("game %d ply %d %q: %w", g.ID, m.Ply, m.UCI, err)
		}
		b.MakeMove(mv)
		out = append(out, b.FEN())
	}
	return out, nil
}

// fenField returns field i (0: placement, 1: side to move, 5: full-move
// number) of a FEN, or "".
func fenField(fen string, i int) string {
	f := strings.Fields(fen)
	if i < len(f) {
		return f[i]
	}
	return ""
}

// whiteToMove reports whether White moves in the FEN's position.
func whiteToMove(fen string) bool { return fenField(fen, 1) != "b" }

// fullMove is the FEN's full-move number (1 if absent).
func fullMove(fen string) int {
	n, err := strconv.Atoi(fenField(fen, 5))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// Board geometry in SVG user units.
const (
	square      = 44
	boardMargin = 16 // room for the coordinates
	boardSize   = 8*square + 2*boardMargin
)

// glyphs are the solid chess symbols by FEN letter; white pieces are drawn
// filled white with a dark outline, so both sides look alike in any font.
var glyphs = map[byte]string{
	'k': "\u265a", 'q': "\u265b", 'r': "\u265c", 'b': "\u265d", 'n': "\u265e", 'p': "\u265f",
}

// drawBoard draws a position (FEN) from White's side, with the squares of
// the move that led to it (UCI, "" for none) highlighted.
func drawBoard(fen string, lastMove string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="board" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		boardSize, boardSize, boardSize, boardSize, html.EscapeString(fen))
	hl := map[[2]int]bool{}
	if len(lastMove) >= 4 {
		for _, s := range []string{lastMove[0:2], lastMove[2:4]} {
			if s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8' {
				hl[[2]int{int(s[0] - 'a'), int(s[1] - '1')}] = true
			}
		}
	}
	// pieces[rank][file] from the placement field, rank 0 = rank 1.
	var pieces [8][8]byte
	rank, file := 7, 0
	for _, c := range []byte(fenField(fen, 0)) {
		switch {
		case c == '/':
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			if rank >= 0 && rank < 8 && file >= 0 && file < 8 {
				pieces[rank][file] = c
			}
			file++
		}
	}
	for rank := 7; rank >= 0; rank-- {
		for file := 0; file < 8; file++ {
			x, y := boardMargin+file*square, boardMargin+(7-rank)*square
			class := "light"
			if (rank+file)%2 == 0 {
				class = "dark"
			}
			if hl[[2]int{file, rank}] {
				class += " last"
			}
			fmt.Fprintf(&b, `<rect class="%s" x="%d" y="%d" width="%d" height="%d"/>`, class, x, y, square, square)
			c := pieces[rank][file]
			color := "b"
			if c >= 'A' && c <= 'Z' {
				color, c = "w", c+'a'-'A'
			}
			if g, ok := glyphs[c]; ok {
				fmt.Fprintf(&b, `<text class="piece %s" x="%d" y="%d" text-anchor="middle" dominant-baseline="central">%s</text>`,
					color, x+square/2, y+square/2+2, g)
			}
		}
	}
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" text-anchor="middle">%c</text>`, boardMargin+i*square+square/2, boardSize-3, 'a'+i)
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" text-anchor="middle">%d</text>`, boardMargin/2, boardMargin+(7-i)*square+square/2+4, i+1)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// formatScore prints a mover's-view score as engines print it: "+0.35",
// "#3" (mate in 3 for the mover), "#-2".
func formatScore(s int) string {
	sc := engines.Score(s)
	if sc.IsMate() {
		return fmt.Sprintf("#%d", sc.MateMoves())
	}
	return fmt.Sprintf("%+.2f", float64(s)/100)
}

// evalCap bounds the evaluation graph (centipawns); mates sit on it.
const evalCap = 1000

// whiteScore is a move's score from White's view, capped for the graph.
func whiteScore(m record.Move, whiteMoved bool) float64 {
	v := float64(m.Score)
	if engines.Score(m.Score).IsMate() {
		v = evalCap
		if m.Score < 0 {
			v = -evalCap
		}
	}
	v = max(-evalCap, min(evalCap, v))
	if !whiteMoved {
		v = -v
	}
	return v
}

// Evaluation graph geometry.
const (
	evalWidth  = 540
	evalHeight = 150
	evalPad    = 8
)

// drawEval draws the engines' scores (White's view) over the plies, with a
// marker at ply; book moves have no score and are left out.
func drawEval(g record.Game, positions []string, ply int) string {
	n := max(len(g.Moves), 1)
	dx := float64(evalWidth-2*evalPad) / float64(n)
	x := func(p int) float64 { return evalPad + dx*float64(p) }
	y := func(v float64) float64 { return evalHeight/2 - (evalHeight/2-evalPad)*v/evalCap }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="eval" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="evaluation graph, White's view" data-x0="%g" data-dx="%g">`,
		evalWidth, evalHeight, evalWidth, evalHeight, float64(evalPad), dx)
	fmt.Fprintf(&b, `<rect class="plot" x="0" y="0" width="%d" height="%d"/>`, evalWidth, evalHeight)
	fmt.Fprintf(&b, `<line class="zero" x1="%d" y1="%g" x2="%d" y2="%g"/>`, evalPad, y(0), evalWidth-evalPad, y(0))
	var pts []string
	for i, m := range g.Moves {
		if m.Book || i >= len(positions) {
			continue
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i+1), y(whiteScore(m, whiteToMove(positions[i])))))
	}
	if len(pts) > 0 {
		fmt.Fprintf(&b, `<polyline class="line" points="%s"/>`, strings.Join(pts, " "))
	} else {
		fmt.Fprintf(&b, `<text class="note" x="%d" y="%d" text-anchor="middle">no engine scores</text>`, evalWidth/2, evalHeight/2)
	}
	fmt.Fprintf(&b, `<text class="tick" x="%d" y="14">+%d</text><text class="tick" x="%d" y="%d">-%d</text>`,
		evalPad+2, evalCap/100, evalPad+2, evalHeight-4, evalCap/100)
	fmt.Fprintf(&b, `<line id="evalmark" class="mark" x1="%.1f" y1="0" x2="%.1f" y2="%d"/>`, x(ply), x(ply), evalHeight)
	b.WriteString(`</svg>`)
	return b.String()
}
