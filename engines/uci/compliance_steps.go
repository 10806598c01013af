package uci

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"selfplay/engines"
)

// The positions of fastchess's compliance steps (compliance.hpp:92, :105).
const (
	complianceFEN      = "3r2k1/p5n1/1pq1p2p/2p3p1/2P1P1n1/1P1P2pP/PN1Q2K1/5R2 w - - 0 27"
	complianceBlackFEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
)

// handshakeSteps: id, options, isready, setoption.
func (c *checker) handshakeSteps() {
	c.step("id name", "83", func() (string, error) {
		if c.idName == "" {
			return "", errors.New("no id name line before uciok")
		}
		return c.idName, nil
	})
	c.step("id author", "84", func() (string, error) {
		if c.idAuthor == "" {
			return "", errors.New("no id author line before uciok")
		}
		return c.idAuthor, nil
	})
	c.step("option lines are well-formed", "", func() (string, error) {
		for _, o := range c.options {
			if o.err != nil {
				return "", fmt.Errorf("%q: %v", o.line, o.err)
			}
		}
		return fmt.Sprintf("%d options", len(c.options)), nil
	})
	c.step("isready", "82", c.ready)
	c.step("setoption of each option at its default, isready", "", func() (string, error) {
		var cmds []string
		for _, o := range c.options {
			if cmd := o.setDefault(); o.err == nil && cmd != "" {
				cmds = append(cmds, cmd)
			}
		}
		if len(cmds) > 0 {
			if err := c.send(cmds...); err != nil {
				return "", err
			}
		}
		d, err := c.ready()
		return fmt.Sprintf("%d options set, %s", len(cmds), d), err
	})
}

// positionSteps: ucinewgame and position commands, each followed by
// isready.
func (c *checker) positionSteps() {
	for _, s := range []struct{ cmd, source string }{
		{"ucinewgame", "85"},
		{"position startpos", "86-88"},
		{"position fen " + complianceFEN, "89-96"},
	} {
		name := s.cmd
		if s.source == "89-96" {
			name = shortPosition(complianceFEN, nil)
		}
		c.step(name+", isready", s.source, func() (string, error) {
			if err := c.send(s.cmd); err != nil {
				return "", err
			}
			return c.ready()
		})
	}
}

// complianceSearch is one search of the compliance check.
type complianceSearch struct {
	fen       string   // "": the start position
	moves     []string // after fen
	goCmd     string
	source    string        // fastchess's lines
	newGame   bool          // ucinewgame (and isready) first
	limit     time.Duration // the search's own time (a clock, movetime); 0: none
	stopAfter time.Duration // stop is sent this long after go; 0: never
}

// searchSteps: the searches of fastchess's check (clocks for either side,
// a simulated game) and go depth, nodes and movetime.
func (c *checker) searchSteps() {
	const clock = 100 * time.Millisecond
	for _, s := range []complianceSearch{
		{fen: complianceFEN, goCmd: "go wtime 100", limit: clock, source: "97-102"},
		{fen: complianceBlackFEN, goCmd: "go btime 100", limit: clock, source: "103-115"},
		{fen: complianceBlackFEN, goCmd: "go wtime 100 winc 100 btime 100 binc 100", limit: 2 * clock, source: "116-125"},
		{fen: complianceBlackFEN, goCmd: "go btime 100 binc 100 wtime 100 winc 100", limit: 2 * clock, source: "126-137"},
		{goCmd: "go wtime 100 btime 100", newGame: true, limit: clock, source: "139-148"},
		{moves: []string{"e2e4", "e7e5"}, goCmd: "go wtime 100 btime 100", limit: clock, source: "149-158"},
		{fen: complianceFEN, goCmd: "go depth 3"},
		{fen: complianceBlackFEN, goCmd: "go nodes 5000"},
		{moves: []string{"d2d4"}, goCmd: "go movetime 100", limit: clock},
	} {
		c.search(s)
	}
}

// stopSteps: searches that only stop ends.
func (c *checker) stopSteps() {
	c.search(complianceSearch{fen: complianceFEN, goCmd: "go infinite", stopAfter: 100 * time.Millisecond})
	c.search(complianceSearch{moves: []string{"g1f3"}, goCmd: "go wtime 600000 btime 600000", stopAfter: 100 * time.Millisecond})
}

// shortPosition is the position command of a step's name, its FEN cut to
// the first two ranks and the side to move.
func shortPosition(fen string, moves []string) string {
	cmd := positionCommand(fen, moves)
	if f := strings.Fields(fen); len(f) > 1 && !isStartFEN(fen) {
		ranks := strings.SplitN(f[0], "/", 3)
		cmd = strings.Replace(cmd, strings.Join(f, " "), strings.Join(ranks[:min(2, len(ranks))], "/")+"/... "+f[1], 1)
	}
	return cmd
}

// searchResult is what a search printed.
type searchResult struct {
	infos   []string // the info lines
	best    string   // bestmove's move ("" if none)
	elapsed time.Duration
	late    time.Duration // how long bestmove came after stop or the limit
}

// search runs one search and reports two steps: its bestmove and its
// info lines.
func (c *checker) search(s complianceSearch) {
	name := shortPosition(s.fen, s.moves) + ", " + s.goCmd
	if s.stopAfter > 0 {
		name += fmt.Sprintf(", stop after %v", s.stopAfter)
	}
	if s.newGame {
		name = "ucinewgame, " + name
	}
	var res searchResult
	var searchErr error
	c.step(name+": a legal bestmove in time", s.source, func() (string, error) {
		if res, searchErr = c.runSearch(s); searchErr != nil {
			return "", searchErr
		}
		return c.checkBestMove(s, res)
	})
	c.step(name+": info lines", s.source, func() (string, error) {
		if searchErr != nil {
			return "", errSkipped // the search failed: its info lines tell nothing more
		}
		return c.checkInfos(s, res)
	})
}

// runSearch sends the position and go, and reads until bestmove: within
// the search's limit plus StopTimeout, or StopTimeout after stop.
func (c *checker) runSearch(s complianceSearch) (searchResult, error) {
	var res searchResult
	if s.newGame {
		if err := c.send("ucinewgame"); err != nil {
			return res, err
		}
		if _, err := c.ready(); err != nil {
			return res, err
		}
	}
	if err := c.send(positionCommand(s.fen, s.moves), s.goCmd); err != nil {
		return res, err
	}
	start := time.Now()
	// The bound: the limit and the margin, or (with stop) the stop and
	// the margin; a search without either gets InitTimeout.
	bound := c.cfg.InitTimeout
	if s.limit > 0 {
		bound = s.limit + c.cfg.StopTimeout
	}
	var stopAt time.Time // zero: no stop due
	if s.stopAfter > 0 {
		stopAt = time.Now().Add(s.stopAfter)
		bound = s.stopAfter + c.cfg.StopTimeout
	}
	limit := time.Now().Add(bound)
	var stopped time.Time
	sendStop := func() error {
		stopAt, stopped = time.Time{}, time.Now()
		return c.send("stop")
	}
	// A stop waits for the search's first score: on a loaded machine the
	// engine may not have run its first iteration when stopAfter is over,
	// and an engine stopped before that has nothing to show (Stockfish
	// then answers with a bare bestmove). An engine that shows no score
	// is stopped StopTimeout later (its info step then fails).
	scored, waitingForScore := false, false
	for {
		f, line, err := c.next(limit, stopAt)
		switch {
		case errors.Is(err, errStopDue) && !scored && !waitingForScore:
			waitingForScore = true
			stopAt = time.Now().Add(c.cfg.StopTimeout)
			limit = time.Now().Add(c.cfg.StopTimeout + bound)
			continue
		case errors.Is(err, errStopDue):
			if err := sendStop(); err != nil {
				return res, err
			}
			continue
		case errors.Is(err, errTimeout):
			return res, c.overdue(bound, stopped)
		case err != nil:
			return res, err
		}
		switch f[0] {
		case "info":
			res.infos = append(res.infos, line)
			scored = scored || parseInfo(f[1:]).hasScore
			if scored && waitingForScore && stopped.IsZero() {
				if err := sendStop(); err != nil {
					return res, err
				}
			}
		case "bestmove":
			res.elapsed = time.Since(start)
			if !stopped.IsZero() {
				res.late = time.Since(stopped)
			}
			if len(f) > 1 {
				res.best = f[1]
			}
			return res, nil
		}
	}
}

// overdue is the error of a search with no bestmove within its bound: if
// stop was not sent yet it is, and bestmove awaited StopTimeout more (so
// the engine can go on), else the failure is fatal.
func (c *checker) overdue(bound time.Duration, stopped time.Time) error {
	if !stopped.IsZero() {
		return fatalf("no bestmove %v after stop", c.cfg.StopTimeout)
	}
	if err := c.send("stop"); err != nil {
		return err
	}
	if err := c.until(c.cfg.StopTimeout, "bestmove", nil); err != nil {
		return fatalf("no bestmove within %v of go, nor %v after a stop then", bound, c.cfg.StopTimeout)
	}
	return fmt.Errorf("no bestmove within %v of go (bestmove came after a stop sent then)", bound)
}

// checkBestMove: the bestmove is legal in the position.
func (c *checker) checkBestMove(s complianceSearch, res searchResult) (string, error) {
	if res.best == "" {
		return "", errors.New("bestmove without a move")
	}
	g, err := gameAt(s.fen, s.moves)
	if err != nil {
		return "", fmt.Errorf("the test's position: %v", err)
	}
	if err := playUCI(g, res.best); err != nil {
		return "", fmt.Errorf("bestmove %s: %v", res.best, err)
	}
	d := fmt.Sprintf("bestmove %s after %v", res.best, roundDuration(res.elapsed))
	if s.stopAfter > 0 {
		d += fmt.Sprintf(", %v after stop", roundDuration(res.late))
	}
	return d, nil
}

// checkInfos: at least one info line with a score (compliance.hpp:99,
// :101), every info line well-formed (:17-41 checks that time, nps and
// score are integers; here every key's value is checked), scores within
// bounds, PVs legal.
func (c *checker) checkInfos(s complianceSearch, res searchResult) (string, error) {
	if len(res.infos) == 0 {
		return "", errors.New("no info line")
	}
	g, err := gameAt(s.fen, s.moves)
	if err != nil {
		return "", fmt.Errorf("the test's position: %v", err)
	}
	scores := 0
	for _, line := range res.infos {
		f := strings.Fields(line)[1:]
		if err := checkInfoLine(f); err != nil {
			return "", fmt.Errorf("%q: %v", line, err)
		}
		l := parseInfo(f)
		if l.hasScore {
			scores++
		}
		if p := pvProblem(g, l.pv, l.score, l.bound, false); l.hasPV && p != "" {
			return "", fmt.Errorf("%q: %s", line, p)
		}
	}
	if scores == 0 {
		return "", fmt.Errorf("no info line with a score (the last: %q)", res.infos[len(res.infos)-1])
	}
	return fmt.Sprintf("%d info lines, %d with a score", len(res.infos), scores), nil
}

// Bounds of a score in an info line: a centipawn score beyond maxCP is
// almost always a mate score printed as cp; a mate beyond maxMate moves,
// or mate 0 in a position with legal moves, is no mate.
const (
	maxCP   = 20000
	maxMate = 500
)

// infoIntKeys are the info keys followed by one integer.
var infoIntKeys = map[string]bool{
	"depth": true, "seldepth": true, "time": true, "nodes": true, "multipv": true, "currmovenumber": true,
	"hashfull": true, "nps": true, "tbhits": true, "sbhits": true, "cpuload": true,
}

// checkInfoLine checks the words after "info": each key of the UCI
// protocol with values of the right form ("string" ends the line).
func checkInfoLine(f []string) error {
	integer := func(i int, key string) (int64, error) {
		if i >= len(f) {
			return 0, fmt.Errorf("%s without a value", key)
		}
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s %q is not an integer", key, f[i])
		}
		return n, nil
	}
	for i := 0; i < len(f); {
		key := f[i]
		i++
		switch {
		case key == "string":
			return nil
		case infoIntKeys[key]:
			n, err := integer(i, key)
			if err != nil {
				return err
			}
			if n < 0 {
				return fmt.Errorf("%s %d is negative", key, n)
			}
			i++
		case key == "score":
			var err error
			if i, err = checkScore(f, i); err != nil {
				return err
			}
		case key == "wdl":
			for k := 0; k < 3; k++ {
				if _, err := integer(i+k, key); err != nil {
					return err
				}
			}
			i += 3
		case key == "pv" || key == "currmove" || key == "refutation" || key == "currline":
			if key == "currline" {
				if _, err := integer(i, key); err == nil {
					i++ // the cpu number
				}
			}
			j := i
			for j < len(f) && engines.IsMoveText(f[j]) {
				j++
			}
			if j == i {
				return fmt.Errorf("%s without a move", key)
			}
			if key == "currmove" && j > i+1 {
				j = i + 1
			}
			i = j
		default:
			return fmt.Errorf("unknown key %q", key)
		}
	}
	return nil
}

// checkScore checks "cp N" or "mate N" and an optional bound at f[i:],
// and returns the index after them.
func checkScore(f []string, i int) (int, error) {
	if i+1 >= len(f) || f[i] != "cp" && f[i] != "mate" {
		return i, errors.New("score without cp N or mate N")
	}
	n, err := strconv.ParseInt(f[i+1], 10, 64)
	if err != nil {
		return i, fmt.Errorf("score %s %q is not an integer", f[i], f[i+1])
	}
	switch {
	case f[i] == "cp" && (n > maxCP || n < -maxCP):
		return i, fmt.Errorf("score cp %d is beyond ±%d (a mate printed as cp?)", n, maxCP)
	case f[i] == "mate" && (n == 0 || n > maxMate || n < -maxMate):
		return i, fmt.Errorf("score mate %d: want 1..%d moves or their negatives", n, maxMate)
	}
	i += 2
	if i < len(f) && (f[i] == "lowerbound" || f[i] == "upperbound") {
		i++
	}
	return i, nil
}

// uciOption is an option line of the uci reply.
type uciOption struct {
	line, name, typ, def string
	hasDef               bool
	err                  error
}

// parseOption reads "option name N type T [default D] [min M] [max M]
// [var V]..." and checks it.
func parseOption(line string) uciOption {
	o := uciOption{line: line}
	f := strings.Fields(line)[1:]
	fields := map[string][]string{}
	var key string
	for _, w := range f {
		switch w {
		case "name", "type", "default", "min", "max", "var":
			key = w
			if w == "var" || w == "default" {
				fields[w] = append(fields[w], "")
			}
			if _, ok := fields[w]; !ok {
				fields[w] = nil
			}
			continue
		}
		if key == "" {
			o.err = fmt.Errorf("%q before name", w)
			return o
		}
		vals := fields[key]
		if len(vals) == 0 {
			vals = append(vals, w)
		} else if last := vals[len(vals)-1]; last == "" {
			vals[len(vals)-1] = w
		} else {
			vals[len(vals)-1] = last + " " + w
		}
		fields[key] = vals
	}
	o.err = o.check(fields)
	return o
}

// check checks an option's fields by its type.
func (o *uciOption) check(fields map[string][]string) error {
	one := func(k string) string {
		if v := fields[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	o.name, o.typ = one("name"), one("type")
	d, hasDef := fields["default"]
	o.hasDef = hasDef
	if hasDef && len(d) > 0 {
		o.def = d[0]
	}
	if o.name == "" {
		return errors.New("no name")
	}
	switch o.typ {
	case "check":
		if o.def != "true" && o.def != "false" {
			return fmt.Errorf("check option with default %q (want true or false)", o.def)
		}
	case "spin":
		return checkSpin(one("default"), one("min"), one("max"))
	case "combo":
		vars := fields["var"]
		for _, v := range vars {
			if strings.EqualFold(v, o.def) {
				return nil
			}
		}
		return fmt.Errorf("combo option whose default %q is none of its vars %q", o.def, vars)
	case "button", "string":
	default:
		return fmt.Errorf("type %q (want check, spin, combo, button or string)", o.typ)
	}
	return nil
}

func checkSpin(def, lo, hi string) error {
	var n [3]int64
	for i, v := range []string{def, lo, hi} {
		x, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("spin option's %s %q is not an integer", []string{"default", "min", "max"}[i], v)
		}
		n[i] = x
	}
	if n[1] > n[0] || n[0] > n[2] {
		return fmt.Errorf("spin option's default %d is not within min %d and max %d", n[0], n[1], n[2])
	}
	return nil
}

// setDefault is the setoption command that sets the option to its
// default; "" for a button (pressing it is no default) and a string
// without a default or with "<empty>" (engines read that differently).
func (o uciOption) setDefault() string {
	switch {
	case o.typ == "button", !o.hasDef, o.typ == "string" && (o.def == "" || o.def == "<empty>"):
		return ""
	}
	return "setoption name " + o.name + " value " + o.def
}
