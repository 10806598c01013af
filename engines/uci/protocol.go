package uci

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
)

// parseBestMove parses the text after "bestmove": the move, or "0000" for
// the null move and "(none)".
func parseBestMove(rest []string) (string, error) {
	if len(rest) == 0 {
		return "", fmt.Errorf("bestmove without a move")
	}
	m := rest[0]
	if m == "0000" || m == "(none)" {
		return "0000", nil
	}
	if len(m) == 5 && m[4] >= 'A' && m[4] <= 'Z' {
		m = m[:4] + strings.ToLower(m[4:]) // e7e8Q, seen in the wild
	}
	if !engines.IsMoveText(m) {
		return "", fmt.Errorf("bestmove %s is not a move", quote(rest[0])) // sanitized: not %q
	}
	return m, nil
}

// infoLine is what the adapter takes from one "info" line.
type infoLine struct {
	depth, selDepth, multiPV int
	hasDepth, hasSelDepth    bool
	score                    engines.Score
	bound                    engines.Bound
	hasScore                 bool
	nodes                    int64
	hasNodes                 bool
	pv                       []string
	hasPV                    bool
	hashFull                 int
	tbHits                   int64
	nps                      int64
	time                     time.Duration
	hasTime                  bool
}

// infoArgs is the number of values that follow each keyword of an info
// line that the adapter skips; the keywords it reads are handled in
// parseInfo.
var infoArgs = map[string]int{
	"currmovenumber": 1, "sbhits": 1,
	"cpuload": 1, "wdl": 3,
}

// parseInfo parses the fields after "info". Unknown tokens and unparsable
// values are skipped; "string" swallows the rest of the line.
func parseInfo(f []string) infoLine {
	var l infoLine
	atoi := func(i int) (int64, bool) {
		if i >= len(f) {
			return 0, false
		}
		n, err := strconv.ParseInt(f[i], 10, 64)
		return n, err == nil
	}
	moves := func(i int) (int, []string) {
		var mv []string
		for i < len(f) && engines.IsMoveText(f[i]) {
			mv = append(mv, f[i])
			i++
		}
		return i, mv
	}
	for i := 0; i < len(f); {
		key := f[i]
		i++
		switch key {
		case "string":
			return l
		case "depth", "seldepth", "nodes", "multipv", "hashfull", "tbhits", "nps", "time":
			n, ok := atoi(i)
			if !ok {
				continue
			}
			i++
			if n < 0 {
				continue // a count cannot be negative: garbage, not a figure to store
			}
			switch key {
			case "depth":
				l.depth, l.hasDepth = int(n), true
			case "seldepth":
				l.selDepth, l.hasSelDepth = int(n), true
			case "nodes":
				l.nodes, l.hasNodes = n, true
			case "multipv":
				l.multiPV = int(n)
			case "hashfull":
				l.hashFull = int(n)
			case "tbhits":
				l.tbHits = n
			case "nps":
				l.nps = n
			case "time":
				l.time, l.hasTime = time.Duration(n)*time.Millisecond, true
			}
		case "score":
		scoreTokens:
			for i < len(f) {
				switch f[i] {
				case "cp", "mate":
					n, ok := atoi(i + 1)
					if !ok {
						i++
						continue
					}
					if f[i] == "cp" {
						l.score = engines.Score(n)
					} else {
						l.score = engines.MateIn(int(n))
					}
					l.hasScore = true
					if l.bound == engines.BoundNone {
						l.bound = engines.BoundExact
					}
					i += 2
					continue
				case "lowerbound":
					l.bound = engines.BoundLower
					i++
					continue
				case "upperbound":
					l.bound = engines.BoundUpper
					i++
					continue
				}
				break scoreTokens
			}
		case "pv":
			i, l.pv = moves(i)
			l.hasPV = true
		case "currmove", "refutation":
			i, _ = moves(i)
		case "currline":
			if _, ok := atoi(i); ok {
				i++ // cpu number
			}
			i, _ = moves(i)
		default:
			if n, ok := infoArgs[key]; ok {
				i += n
			}
		}
	}
	return l
}

// searchInfo keeps what fastchess takes from a search's info lines: every
// figure of the move (depth, seldepth, score, nodes, pv, hashfull, tbhits, nps)
// comes from one line, the last main-line line with an exact score, or
// while there is none the last with a bound (lowerbound, upperbound: an
// aspiration window failed); a field that line lacks is zero
// (engine/uci_engine.cpp:389-418 lastInfoLine, matchmaking/match/
// match.cpp:286-306 addMoveData). Lines without a score give nothing but
// their time.
type searchInfo struct {
	exact, bound       infoLine // the last main-line line with an exact score, with a bound
	sawExact, sawBound bool
	// nodes is the node count of the line info reports (what the move
	// stores, and what OnIteration shows).
	nodes int64
	time  time.Duration // the last time any info line reported
}

// mainLine tells a line that fastchess's lastInfoLine considers: one
// without multipv, or whose " multipv 1" its text search finds, which also
// matches multipv 10 to 19, 100 and so on.
func mainLine(l infoLine) bool {
	return l.multiPV == 0 || strings.HasPrefix(strconv.Itoa(l.multiPV), "1")
}

// add takes an info line. It reports whether the line changed what info
// returns as an iteration's result (to pass on to OnIteration): an exact
// main-line score, or a bound while no line was exact.
func (s *searchInfo) add(l infoLine) bool {
	if l.hasTime {
		s.time = l.time // fastchess's UciEngine::lastTime (engine/uci_engine.cpp:474-493): any info line with a time
	}
	if !l.hasScore || !mainLine(l) {
		return false
	}
	if l.bound == engines.BoundExact {
		s.exact, s.sawExact = l, true
		s.nodes = l.nodes
		return true
	}
	s.bound, s.sawBound = l, true
	if s.sawExact {
		return false
	}
	s.nodes = l.nodes
	return true
}

// info is what the search reported: the last exact line's figures, or the
// last bound's while no line was exact, nothing without a scored line.
func (s *searchInfo) info() engines.Info {
	var l infoLine
	switch {
	case s.sawExact:
		l = s.exact
	case s.sawBound:
		l = s.bound
	default:
		return engines.Info{}
	}
	return engines.Info{Depth: l.depth, SelDepth: l.selDepth, Score: l.score, Bound: l.bound, Nodes: l.nodes,
		PV: l.pv, HashFull: l.hashFull, TBHits: l.tbHits, NPS: l.nps}
}

// isStartFEN reports whether fen is the standard initial position.
func isStartFEN(fen string) bool {
	f := strings.Fields(fen)
	if fen == "" || fen == "startpos" {
		return true
	}
	s := strings.Fields(board.StartFEN)
	if len(f) < 4 || len(f) > 6 || !slices.Equal(f[:4], s[:4]) {
		return false
	}
	return (len(f) < 5 || f[4] == "0") && (len(f) < 6 || f[5] == "1")
}

// positionCommand is the UCI position command for a game position.
func positionCommand(startFEN string, moves []string) string {
	var b strings.Builder
	if isStartFEN(startFEN) {
		b.WriteString("position startpos")
	} else {
		b.WriteString("position fen ")
		b.WriteString(strings.Join(strings.Fields(startFEN), " "))
	}
	if len(moves) > 0 {
		b.WriteString(" moves ")
		b.WriteString(strings.Join(moves, " "))
	}
	return b.String()
}

func millis(d time.Duration) int64 { return max(d.Milliseconds(), 0) }

// goCommand is the UCI go command for the limits; "go infinite" if none.
func goCommand(lim engines.Limits) string {
	parts := []string{"go"}
	if c := lim.Clock; c != nil {
		parts = append(parts, "wtime", fmt.Sprint(millis(c.WhiteTime)), "btime", fmt.Sprint(millis(c.BlackTime)))
		if c.WhiteInc > 0 {
			parts = append(parts, "winc", fmt.Sprint(millis(c.WhiteInc)))
		}
		if c.BlackInc > 0 {
			parts = append(parts, "binc", fmt.Sprint(millis(c.BlackInc)))
		}
		if c.MovesToGo > 0 {
			parts = append(parts, "movestogo", fmt.Sprint(c.MovesToGo))
		}
	}
	if lim.MoveTime > 0 {
		parts = append(parts, "movetime", fmt.Sprint(max(millis(lim.MoveTime), 1)))
	}
	if lim.Depth > 0 {
		parts = append(parts, "depth", fmt.Sprint(lim.Depth))
	}
	if lim.Nodes > 0 {
		parts = append(parts, "nodes", fmt.Sprint(lim.Nodes))
	}
	if len(parts) == 1 {
		parts = append(parts, "infinite")
	}
	return strings.Join(parts, " ")
}

// blackToMove reports whether black is to move after moves from startFEN.
func blackToMove(startFEN string, moves []string) bool {
	f := strings.Fields(startFEN)
	black := len(f) >= 2 && f[1] == "b"
	return black != (len(moves)%2 == 1)
}

// watchdog is when the adapter sends stop by itself: at the move time or at
// the end of the mover's clock, whichever comes first; 0 if the limits have
// no time.
func watchdog(startFEN string, moves []string, lim engines.Limits) time.Duration {
	d := lim.MoveTime
	if c := lim.Clock; c != nil {
		own := c.WhiteTime
		if blackToMove(startFEN, moves) {
			own = c.BlackTime
		}
		own = max(own, time.Millisecond)
		if d <= 0 || own < d {
			d = own
		}
	}
	return d
}

// optionName extracts the name from the fields after "option":
// "name Skill Level type spin ..." gives "Skill Level".
func optionName(f []string) string {
	if len(f) == 0 || f[0] != "name" {
		return ""
	}
	var name []string
	for _, t := range f[1:] {
		if t == "type" {
			break
		}
		name = append(name, t)
	}
	return strings.Join(name, " ")
}
