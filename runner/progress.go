package runner

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"selfplay/config"
	"selfplay/standings"
	"selfplay/stats"
	"selfplay/store/record"
)

// progress reports a tournament's advance: on a terminal a live line
// rewritten in place and fitted to the terminal's width; otherwise a log
// line every few games or 30 seconds. With game lines on, it also prints
// cutechess-cli's per-game lines (Started game, Finished game, Score of).
//
// It is used from the run's collector goroutine only.
type progress struct {
	w         io.Writer
	terminal  bool
	columns   func() int // the terminal's width; nil or <= 0: unlimited
	gameLines bool
	// output prints a result block every ratingInterval games (0: only
	// at the end) and at the end, with the tournament's engines.
	output         OutputFormat
	ratingInterval int
	// penta: fastchess's report_penta, its block of game pairs, on which
	// -ratinginterval counts pairs (fastchessPenta).
	penta         bool
	scoreInterval int // the Score line every scoreInterval games (0, 1: every game)
	engines       []string
	gauntletSeeds int // a gauntlet's seeds, at least 1; 0: not a gauntlet
	blockAt       int // the tally's games when the last block was printed (-1: none)
	sides         *sideCounts
	name          string
	total         int // games the run's share will hold (the progress line's "of")
	lastGame      int // the highest game number the share plays ("Started game N of lastGame")
	start         time.Time
	startN        int // games already stored when the run began (for the ETA)
	tally         *standings.Tally
	sprt          *sprtState
	lastLog       time.Time
	lastN         int
	shown         int // columns of the live line on the terminal now (0: none)
	now           func() time.Time
}

const logEveryGames = 10
const logEvery = 30 * time.Second

func newProgress(w io.Writer, opts Options, t *config.Tournament, total, lastGame, stored int, tally *standings.Tally, sprt *sprtState) *progress {
	now := time.Now()
	return &progress{w: w, terminal: opts.Terminal, columns: opts.Columns, gameLines: opts.GameLines || opts.Output != outputNone,
		output: opts.Output, ratingInterval: opts.RatingInterval, penta: fastchessPenta(opts.Output, t),
		scoreInterval: opts.ScoreInterval, engines: t.Engines, gauntletSeeds: gauntletSeeds(t), blockAt: -1,
		sides: newSideCounts(),
		name:  t.Name, total: total, lastGame: lastGame, start: now, startN: stored,
		tally: tally, sprt: sprt, lastLog: now, lastN: stored, now: time.Now}
}

// status is what the progress line shows, gathered from the tally.
type status struct {
	name         string
	games, total int
	elapsed      time.Duration
	eta          time.Duration // < 0: unknown or done
	// A match (one pairing): the first engine's results and Elo.
	match     *standings.PairingTally
	estimate  *stats.Estimate // nil: none yet
	sprt      *stats.SPRTResult
	standings []standing // more than one pairing: the engines, best first
}

// standing is an engine's points in a gauntlet or round robin.
type standing struct {
	name   string
	points float64
	games  int
}

func (p *progress) status() status {
	s := status{name: p.name, games: p.tally.Games, total: p.total, eta: -1}
	s.elapsed = p.now().Sub(p.start)
	if played := s.games - p.startN; played > 0 && s.games < s.total {
		s.eta = time.Duration(float64(s.elapsed) / float64(played) * float64(s.total-s.games))
	}
	switch ps := p.tally.Pairings(); {
	case len(ps) == 1:
		s.match = ps[0]
		if e, err := ps[0].Estimate(stats.DefaultLevel); err == nil && ps[0].Games.Games() > 0 {
			s.estimate = &e
		}
	case len(ps) > 1:
		s.standings = standingsOf(ps)
	}
	if p.sprt.enabled() {
		r := p.sprt.result()
		s.sprt = &r
	}
	return s
}

// standingsOf adds up each engine's points over the pairings, best score
// (points per game) first; engines with equal scores by points, then name.
func standingsOf(ps []*standings.PairingTally) []standing {
	by := map[string]*standing{}
	var out []*standing
	add := func(name string, points float64, games int) {
		st := by[name]
		if st == nil {
			st = &standing{name: name}
			by[name] = st
			out = append(out, st)
		}
		st.points += points
		st.games += games
	}
	for _, p := range ps {
		g := p.Games
		add(p.First, g.Points(), g.Games())
		add(p.Second, g.Swapped().Points(), g.Games())
	}
	frac := func(s *standing) float64 { return s.points / float64(max(s.games, 1)) }
	slices.SortStableFunc(out, func(a, b *standing) int {
		switch {
		case frac(a) != frac(b):
			if frac(a) > frac(b) {
				return -1
			}
			return 1
		case a.points != b.points:
			if a.points > b.points {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	res := make([]standing, len(out))
	for i, s := range out {
		res[i] = *s
	}
	return res
}

// field is one part of the progress line in its forms, longest first; a
// form "" leaves the field out.
type field struct {
	forms []string
	form  int // the form shown
}

func (f *field) text() string { return f.forms[f.form] }

// progressLine renders the status in at most width columns (width <= 0:
// no limit, every field in its longest form). When the full line is too
// wide, the fields give way in a fixed order, the least useful first:
// elapsed time, the SPRT bounds, words such as "games" and "score", the
// Elo's decimals, the tournament's name, the standings but the leader,
// the engine's name, the leader's points, the ETA, then the score, the
// Elo, W/L/D, the leader, the LLR; the games count goes last, and a line
// that is still too wide is cut.
func progressLine(s status, width int) string {
	fields := map[string]*field{}
	var order []string // in the line
	add := func(key string, forms ...string) {
		fields[key] = &field{forms: append(forms, "")}
		order = append(order, key)
	}
	add("name", s.name+":")
	add("games", fmt.Sprintf("%d/%d games", s.games, s.total), fmt.Sprintf("%d/%d", s.games, s.total))
	if m := s.match; m != nil {
		g := m.Games
		add("wld", fmt.Sprintf("%s +%d -%d =%d", m.First, g.Wins, g.Losses, g.Draws), fmt.Sprintf("+%d -%d =%d", g.Wins, g.Losses, g.Draws))
		score := fmt.Sprintf("%.1f%%", 100*g.Points()/float64(max(g.Games(), 1)))
		add("score", "score "+score, score)
		if e := s.estimate; e != nil {
			long, short := stats.FormatEloInterval(*e), shortElo(*e)
			// The pentanomial estimate counts complete pairs only: say so
			// when that is not every game of the score.
			switch {
			case e.Pairs > 0 && 2*e.Pairs != g.Games():
				long += fmt.Sprintf(" (of %d paired games)", 2*e.Pairs)
				short += fmt.Sprintf(" (%d paired)", 2*e.Pairs)
			case e.Model == stats.ModelTrinomial:
				// No pair complete yet: the games' trinomial estimate.
				long += " (trinomial, no pair complete)"
				short += " (trinomial)"
			}
			add("elo", long, short)
		}
	}
	if len(s.standings) > 0 {
		add("standings", standingsForms(s.standings)...)
	}
	if r := s.sprt; r != nil {
		add("llr", fmt.Sprintf("LLR %.2f [%.2f, %.2f]", r.LLR, r.Lower, r.Upper), fmt.Sprintf("LLR %.2f", r.LLR))
	}
	add("elapsed", "elapsed "+s.elapsed.Round(time.Second).String())
	if s.eta >= 0 {
		add("eta", "ETA "+s.eta.Round(time.Second).String())
	}

	render := func() string {
		var sb strings.Builder
		prev := ""
		for _, k := range order {
			t := fields[k].text()
			if t == "" {
				continue
			}
			switch prev {
			case "":
			case "name":
				sb.WriteString(" ")
			default:
				sb.WriteString(", ")
			}
			sb.WriteString(t)
			prev = k
		}
		return sb.String()
	}
	line := render()
	if width <= 0 {
		return line
	}
	// Each step shortens one field to its next form.
	steps := []string{"elapsed", "llr", "games", "score", "elo", "name", "standings", "wld", "standings",
		"eta", "score", "elo", "wld", "standings", "llr", "games"}
	for _, k := range steps {
		if columns(line) <= width {
			return line
		}
		if f := fields[k]; f != nil && f.form < len(f.forms)-1 {
			f.form++
			line = render()
		}
	}
	return truncate(line, width)
}

// shortElo is "+157 ± 186 Elo": the estimate without decimals.
func shortElo(e stats.Estimate) string {
	if math.IsInf(e.Elo, 0) || math.IsInf(e.EloLow, 0) || math.IsInf(e.EloHigh, 0) {
		return stats.FormatEloInterval(e)
	}
	return fmt.Sprintf("%s ± %s Elo", stats.FormatSigned(e.Elo, 0), stats.FormatFloat(e.HalfWidth(), 0))
}

// standingsForms are the forms of a gauntlet's or round robin's standings:
// the top three with points and games, then the leader alone, then the
// leader's name.
func standingsForms(st []standing) []string {
	entry := func(s standing) string {
		return fmt.Sprintf("%s %s/%d", s.name, strconv.FormatFloat(s.points, 'f', -1, 64), s.games)
	}
	var top []string
	for _, s := range st[:min(3, len(st))] {
		top = append(top, entry(s))
	}
	return []string{"top " + strings.Join(top, ", "), "lead " + entry(st[0]), "lead " + st[0].name}
}

// columns counts the line's characters (the line is printed on one row).
func columns(s string) int { return utf8.RuneCountInString(s) }

// truncate cuts s to at most width characters (width > 0: progressLine
// returns the whole line for an unknown width before it gets here).
func truncate(s string, width int) string {
	if columns(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width])
}

// width is the live line's limit: one less than the terminal's width, so
// that writing the last column never wraps.
func (p *progress) width() int {
	if p.columns == nil {
		return 0
	}
	c := p.columns()
	if c <= 0 {
		return 0
	}
	return max(c-1, 1)
}

// gameStarted prints "Started game N of M (White vs Black)": N is the
// game's place in the schedule (from 1), M the last place this run plays.
func (p *progress) gameStarted(j gameJob) {
	if !p.gameLines {
		return
	}
	n := gameNumber(j.pair, j.index)
	if n > p.lastGame { // a knockout's tie-break, beyond the games known before
		p.lastGame, p.total = n, max(p.total, n)
	}
	p.printLines(fmt.Sprintf("Started game %d of %d (%s vs %s)", n, p.lastGame, j.white, j.black))
}

// countStored counts the games stored before the run for the result
// blocks, as the tally did.
func (p *progress) countStored(stored []record.Game) {
	if p.output == outputNone {
		return
	}
	for i := range stored {
		p.sides.add(&stored[i])
	}
}

// gameNumber is a game's place in the schedule, counted from 1.
func gameNumber(pair, index int) int { return 2*pair + index + 1 }

// gameDone reports a game the tally has counted: its Finished and Score
// lines, then the live line or, every few games, the log line.
func (p *progress) gameDone(g *record.Game) {
	p.total = max(p.total, p.tally.Games) // a knockout's tie-breaks
	pairDone := false
	if p.output != outputNone {
		pairDone = p.sides.add(g)
	}
	if p.gameLines {
		reason := g.Reason
		if p.output.fastchessOutput() {
			reason = fastchessReason(g) // without selfplay's detail, as fastchess's endGame prints it
		}
		lines := []string{fmt.Sprintf("Finished game %d (%s vs %s): %s {%s}",
			gameNumber(g.Pair, g.Index), g.White, g.Black, g.Result, sanitizeComment(reason))}
		// cutechess-cli prints the Score line only when the tournament has
		// two players (enginematch.cpp:132, playerCount() == 2); fastchess
		// prints none (output_fastchess.hpp:30), but in its cutechess
		// format one of the game's pairing whatever the players
		// (roundrobin.cpp:122-124, output_cutechess.hpp:25-31).
		if key, _, err := standings.PairingOf(g); err == nil && (len(p.engines) == 2 || p.output == outputFastchessCutechess) {
			if pt := p.tally.Pairing(key[0], key[1]); pt != nil && p.output != outputFastchess && p.scoreDue() {
				lines = append(lines, scoreLine(pt))
			}
		}
		if p.output != outputNone && p.ratingDue(g, pairDone) {
			lines = append(lines, resultBlock(p.output, p.tally, p.sides, p.engines, p.gauntletSeeds, p.sprt, p.penta)...)
			p.blockAt = p.tally.Games
		}
		p.printLines(lines...)
	}
	if p.terminal {
		p.redraw()
		return
	}
	if p.tally.Games-p.lastN >= logEveryGames || p.now().Sub(p.lastLog) >= logEvery || p.tally.Games >= p.total {
		p.log()
	}
}

// ratingDue reports whether the game just counted (pairDone: it completed
// its pair) prints the result block. -ratinginterval N counts games, as
// cutechess-cli does and fastchess without pentanomial statistics; with
// them (penta) fastchess prints it when the game that completes pair p
// (its pairing_id, counted from 0 over the schedule, stored games
// included) ends and p+1 is a multiple of N (roundrobin.cpp:126-127 and
// 167-174).
func (p *progress) ratingDue(g *record.Game, pairDone bool) bool {
	switch {
	case p.ratingInterval <= 0:
		return false
	case p.penta:
		return pairDone && (g.Pair+1)%p.ratingInterval == 0
	}
	return p.tally.Games%p.ratingInterval == 0
}

// fastchessPenta tells fastchess's report_penta for output f of
// tournament t: its default, on unless a game is not a pair (-games 1) or
// the SPRT's model is bayesian (cli/sanitize.cpp:34, sprt.cpp:65-70).
func fastchessPenta(f OutputFormat, t *config.Tournament) bool {
	return f == outputFastchess && !t.OneGamePerOpening && (t.SPRT == nil || t.SPRT.Model != stats.BayesianElo)
}

// scoreDue reports whether the game just counted gets its Score line:
// fastchess prints it when the games played, counting those before a
// resume, are a multiple of -scoreinterval, and after the last game
// (matchmaking/tournament/roundrobin/roundrobin.cpp:122-124, 176-182).
func (p *progress) scoreDue() bool {
	n := p.tally.Games
	return p.scoreInterval <= 1 || n%p.scoreInterval == 0 || n == p.total
}

// scoreLine is cutechess-cli's "Score of A vs B: W - L - D  [score] N",
// from the pairing's first engine's view.
func scoreLine(pt *standings.PairingTally) string {
	g := pt.Games
	n := g.Games()
	return fmt.Sprintf("Score of %s vs %s: %d - %d - %d  [%.3f] %d", pt.First, pt.Second, g.Wins, g.Losses, g.Draws,
		g.Points()/float64(max(n, 1)), n)
}

// printLines prints whole lines; on a terminal above the live line, which
// is cleared first and drawn again after them.
func (p *progress) printLines(lines ...string) {
	var sb strings.Builder
	if p.terminal && p.shown > 0 {
		sb.WriteString("\r" + strings.Repeat(" ", p.shown) + "\r")
		p.shown = 0
	}
	for _, l := range lines {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	io.WriteString(p.w, sb.String())
}

func (p *progress) tick() {
	if p.terminal {
		p.redraw()
	} else if p.now().Sub(p.lastLog) >= logEvery {
		p.log()
	}
}

// redraw rewrites the live line in place: carriage return, the line, and
// spaces over what is left of the previous one.
func (p *progress) redraw() {
	w := p.width()
	l := progressLine(p.status(), w)
	n := columns(l)
	pad := p.shown - n
	if w > 0 {
		pad = min(pad, w-n)
	}
	fmt.Fprintf(p.w, "\r%s%s", l, strings.Repeat(" ", max(pad, 0)))
	p.shown = n
}

func (p *progress) log() {
	fmt.Fprintln(p.w, progressLine(p.status(), 0))
	p.lastLog, p.lastN = p.now(), p.tally.Games
}

// finish ends the live line; with an output format, it prints the result
// block (unless the last game printed it) and the format's last line.
func (p *progress) finish() {
	if p.terminal {
		p.redraw()
		fmt.Fprintln(p.w)
		p.shown = 0
	} else if p.tally.Games != p.lastN {
		p.log()
	}
	if p.output == outputNone {
		return
	}
	var lines []string
	block := func() []string {
		return resultBlock(p.output, p.tally, p.sides, p.engines, p.gauntletSeeds, p.sprt, p.penta)
	}
	sprtEnd := p.output.fastchessOutput() && p.sprt.decided()
	if p.tally.Games > 0 && p.blockAt != p.tally.Games && (!sprtEnd || p.tally.Games >= p.total) {
		lines = block() // the last game's (fastchess: allMatchesPlayed, roundrobin.cpp:126-130)
	}
	if sprtEnd && p.tally.Games > 0 {
		// fastchess ends a decided SPRT with its Score line (its
		// cutechess format's only) and the block, after those the
		// game printed (roundrobin.cpp:132, 151-163).
		if p.output == outputFastchessCutechess && len(p.engines) == 2 {
			if pt := p.tally.Pairing(p.engines[0], p.engines[1]); pt != nil {
				lines = append(lines, scoreLine(pt))
			}
		}
		lines = append(lines, block()...)
	}
	p.printLines(append(lines, endLines(p.output, p.sprt)...)...)
}
