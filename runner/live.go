package runner

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"selfplay/config"
	"selfplay/pgnout"
	"selfplay/store"
	"selfplay/store/record"
)

// live appends a tournament's stored games to its live files (pgn_out,
// epd_out) in schedule order: a game goes out once every game of the share
// before it has, so the files' order does not depend on the concurrency.
// The database stays the source of truth: on start, the games stored but
// not yet in a file are appended to it, after the last game it holds.
type live struct {
	t     *config.Tournament
	sched *schedule // its own: the dealer's is not safe for concurrent use
	share record.Shard
	files []*liveFile
	// ready holds the stored games that a file still waits to write, by
	// their index in the schedule (2*pair + index).
	ready    map[int]*record.Game
	progress io.Writer // for the note of an append = false that a resume ignores
}

// liveFile is one live file and the schedule index of the game it writes
// next.
type liveFile struct {
	f      *pgnout.File
	format pgnout.Format
	next   int
}

// openLive opens the tournament's live files; nil when it has none. A
// tournament that -restart deletes may not have games in them: they would
// stand before the new games of the same rounds. A file with append =
// false of a tournament with no game stored yet, or whose games -restart
// deletes (fresh), is opened unread: startAfresh empties it once the run
// is not refused, as fastchess empties it, whatever it holds.
func openLive(t *config.Tournament, share record.Shard, opts Options, fresh bool) (*live, error) {
	if t.Live.PGN == "" && t.Live.EPD == "" {
		return nil, nil
	}
	sched, err := newSchedule(t)
	if err != nil {
		return nil, err
	}
	l := &live{t: t, sched: sched, share: share, ready: map[int]*record.Game{}, progress: opts.Progress}
	for _, out := range []struct {
		path   string
		format pgnout.Format
		afresh bool
	}{{t.Live.PGN, pgnout.PGN, t.Live.PGNAfresh}, {t.Live.EPD, pgnout.EPD, t.Live.EPDAfresh}} {
		if out.path == "" {
			continue
		}
		open := pgnout.Open
		if fresh && out.afresh {
			open = pgnout.OpenUnread
		}
		f, err := open(out.path, out.format)
		if err != nil {
			l.close()
			return nil, fmt.Errorf("tournament %s: %w", t.Name, err)
		}
		l.files = append(l.files, &liveFile{f: f, format: out.format})
		if f.Cut() > 0 {
			fmt.Fprintf(opts.Progress, "%s: cut off the torn last game of %s (%d bytes, a write that a crash or a full disk interrupted)\n", t.Name, f.Path(), f.Cut())
		}
		if !slices.Contains(opts.Restart, t.Name) {
			continue
		}
		own, err := l.ownKeys(f)
		if err == nil && len(own) > 0 {
			err = fmt.Errorf("tournament %s: -restart: %s holds games of the run it deletes; move it away or name another file", t.Name, f.Path())
		}
		if err != nil {
			l.close()
			return nil, err
		}
	}
	return l, nil
}

// close closes the files.
func (l *live) close() {
	if l == nil {
		return
	}
	for _, lf := range l.files {
		lf.f.Close()
	}
}

// ownKeys are the keys of the tournament's games in the file. The
// dialect is not in the tournament's snapshot, so a resume may find the
// tournament's games in the PGN written in the other one (pgn_out's
// dialect changed, or the same match command line run by a selfplay that
// wrote -pgnout file=F in its own text): it would not know them and would
// append every stored game again, so it refuses the file instead.
func (l *live) ownKeys(f *pgnout.File) ([]pgnout.Key, error) {
	var own []pgnout.Key
	for _, k := range f.Written() {
		if f.Path() == l.t.Live.PGN && l.ownsIn(!l.fastchess(f), k) {
			return nil, l.otherDialect(f, k)
		}
		if l.owns(f, k) {
			own = append(own, k)
		}
	}
	return own, nil
}

// owns reports whether the game of key k in file f is the tournament's
// (in the file's dialect). In fastchess's dialect its Event, shared by
// every tournament without an event, is not enough: both players must be
// the tournament's engines.
func (l *live) owns(f *pgnout.File, k pgnout.Key) bool {
	if l.fastchess(f) {
		return l.ownsIn(true, k)
	}
	return k.Event == l.event(f)
}

// ownsIn reports whether a PGN game of key k is the tournament's as
// written in fastchess's dialect (fastchess) or selfplay's, by its Event,
// the form of its Round (a number, or "pair.game") and, in fastchess's,
// its players.
func (l *live) ownsIn(fastchess bool, k pgnout.Key) bool {
	if !fastchess {
		_, ok := scheduleIndex(k.Round)
		return ok && k.Event == l.t.PGNEvent()
	}
	_, err := strconv.Atoi(k.Round)
	return err == nil && k.Event == fastchessEvent(l.t) &&
		slices.Contains(l.t.Engines, k.White) && slices.Contains(l.t.Engines, k.Black)
}

// otherDialect is the error for a live PGN that holds the tournament's
// game of key k in the dialect other than pgn_out's.
func (l *live) otherDialect(f *pgnout.File, k pgnout.Key) error {
	found, has, flag := config.DialectSelfplay, config.DialectFastchess, "-pgnout F"
	if !l.fastchess(f) {
		found, has, flag = has, found, "-pgnout file=F"
	}
	return fmt.Errorf("tournament %s: %s holds its games in the %s dialect (Event %q, Round %q), and pgn_out's dialect is %s: "+
		"move the file away or name another, or keep writing the dialect it has (pgn_out's dialect = %q; in a match, %s)",
		l.t.Name, f.Path(), found, k.Event, k.Round, has, found, flag)
}

// event is the Event of the tournament's games in a live file: the PGN's
// in fastchess's dialect, else the tournament's (the EPD's c0 too).
func (l *live) event(f *pgnout.File) string {
	if l.fastchess(f) {
		return fastchessEvent(l.t)
	}
	return l.t.PGNEvent()
}

// fastchess reports whether f is a PGN file in fastchess's dialect.
func (l *live) fastchess(f *pgnout.File) bool {
	return l.t.Live.Dialect == config.DialectFastchess && f.Path() == l.t.Live.PGN
}

// fileIndex is the schedule index of a game of the tournament in a live
// file, from its Round, given the index of the one before it (last, -1 for
// none); ok false when the Round cannot be one of the tournament's. In
// fastchess's dialect the Round is the pair's number, shared by its two
// games (fastchessRound): the second game of a pair is the one that
// follows the first, or the only one where the first was not played.
func (l *live) fileIndex(f *pgnout.File, round string, last int, done map[gameKey]bool) (int, bool) {
	if !l.fastchess(f) {
		return scheduleIndex(round)
	}
	r, err := strconv.Atoi(round)
	if err != nil || r < 1 {
		return 0, false
	}
	if l.t.OneGamePerOpening {
		return r - 1, true
	}
	i := 2 * (r - 1)
	if last >= i || (!done[gameKey{r - 1, 0}] && done[gameKey{r - 1, 1}]) {
		i++
	}
	return i, true
}

// resume places each file after the last of the tournament's games it
// holds, which must be stored games in schedule order, and appends the
// stored games of the share that come after it.
func (l *live) resume(ctx context.Context, st *store.Store, stored []record.Game) error {
	if l == nil {
		return nil
	}
	done := make(map[gameKey]bool, len(stored))
	players := make(map[gameKey][2]string, len(stored))
	for _, g := range stored {
		done[gameKey{g.Pair, g.Index}] = true
		players[gameKey{g.Pair, g.Index}] = [2]string{g.White, g.Black}
	}
	if err := l.startAfresh(len(stored)); err != nil {
		return err
	}
	first := l.nextShareGame(-1)
	for _, lf := range l.files {
		own, err := l.ownKeys(lf.f)
		if err != nil {
			return err
		}
		lf.next = first
		last := -1
		for _, k := range own {
			i, ok := l.fileIndex(lf.f, k.Round, last, done)
			var wrong, advice string
			switch {
			case !ok:
				wrong = fmt.Sprintf("round %q", k.Round)
			case i <= last:
				wrong = fmt.Sprintf("round %s after round %s", k.Round, l.roundText(lf.f, last))
			case !done[gameKey{i / 2, i % 2}]:
				wrong, advice = fmt.Sprintf("round %s is not in the database", k.Round), "; move the file away or name another"
			case l.fastchess(lf.f) && players[gameKey{i / 2, i % 2}] != [2]string{k.White, k.Black}:
				p := players[gameKey{i / 2, i % 2}]
				wrong = fmt.Sprintf("round %s is %s against %s, the database's %s against %s", k.Round, k.White, k.Black, p[0], p[1])
				advice = "; move the file away or name another"
			}
			if wrong != "" {
				return l.foreign(lf.f, wrong, advice)
			}
			last = i
			lf.next = l.nextShareGame(i)
		}
	}
	minNext := l.minNext()
	for i := range stored {
		g := &stored[i]
		idx := 2*g.Pair + g.Index
		if idx < minNext || !l.share.Contains(g.Pair) {
			continue
		}
		full, err := st.GameByID(ctx, g.ID)
		if err != nil {
			return err
		}
		l.ready[idx] = &full
	}
	return l.drain(false)
}

// foreign is the error for a live file whose games of the tournament are
// not its stored games in schedule order (wrong says which is not, advice
// what to do). In
// fastchess's dialect, games of another match between the same engines
// under the same Event look like the tournament's: the file cannot tell
// whose they are, and the error says so rather than guess.
func (l *live) foreign(f *pgnout.File, wrong, advice string) error {
	err := fmt.Errorf("tournament %s: %s: %s: %w%s", l.t.Name, f.Path(), wrong, pgnout.ErrForeign, advice)
	if l.fastchess(f) {
		err = fmt.Errorf("%w (in fastchess's dialect, the games of matches between the same engines under the same Event %q cannot be told apart: give each match its own event, -event in a match, or its own file)", err, fastchessEvent(l.t))
	}
	return err
}

// startAfresh empties the PGN and EPD files of a tournament with
// pgn_out's and epd_out's append = false and no games stored yet, as
// fastchess does (openLive did, unless -restart has just deleted them); a
// resume (games stored) appends as ever and says so, in fastchess's words
// (matchmaking/tournament/base/tournament.cpp:41-45).
func (l *live) startAfresh(stored int) error {
	for _, lf := range l.files {
		key, afresh := "pgn_out", l.t.Live.PGNAfresh
		if lf.format != pgnout.PGN {
			key, afresh = "epd_out", l.t.Live.EPDAfresh
		}
		switch {
		case !afresh:
		case stored > 0:
			if l.progress != nil {
				fmt.Fprintf(l.progress, "Resuming from %d games, ignoring %s append = false.\n", stored, key)
			}
		default:
			if err := lf.f.Empty(); err != nil {
				return fmt.Errorf("tournament %s: %w", l.t.Name, err)
			}
		}
	}
	return nil
}

// add takes a game just stored and writes what is ready.
func (l *live) add(g *record.Game) error {
	if l == nil || !l.share.Contains(g.Pair) {
		return nil
	}
	l.ready[2*g.Pair+g.Index] = g
	return l.drain(false)
}

// drain writes each file's games that are next in order; with all, also
// those after a game that will not come (the run is over: an SPRT
// decision left games unplayed), in schedule order.
func (l *live) drain(all bool) error {
	if l == nil {
		return nil
	}
	var waiting []int
	if all {
		for i := range l.ready {
			waiting = append(waiting, i)
		}
		slices.Sort(waiting)
	}
	for _, lf := range l.files {
		for {
			g, ok := l.ready[lf.next]
			if !ok && all {
				// The first waiting game at or after next.
				k, _ := slices.BinarySearch(waiting, lf.next)
				if k == len(waiting) {
					break
				}
				lf.next, g, ok = waiting[k], l.ready[waiting[k]], true
			}
			if !ok {
				break
			}
			if err := l.write(lf, g); err != nil {
				return err
			}
			lf.next = l.nextShareGame(lf.next)
		}
	}
	minNext := l.minNext()
	for i := range l.ready {
		if i < minNext {
			delete(l.ready, i)
		}
	}
	return nil
}

// write appends a game to a file.
func (l *live) write(lf *liveFile, g *record.Game) error {
	var text string
	var err error
	key := pgnout.Key{Event: l.t.PGNEvent(), Round: record.PGNRound(g.Pair, g.Index)}
	switch {
	case lf.format == pgnout.EPD:
		text, err = pgnout.EPDLine(g.FinalFEN, key)
	case l.fastchess(lf.f):
		text, err = l.fastchessPGN(g)
	case l.t.Live.Plain():
		text = g.PGN // the stored text: what export writes
	default:
		text, err = l.pgnWithFields(g)
	}
	if err == nil {
		err = lf.f.Append(text)
	}
	if err != nil {
		return fmt.Errorf("tournament %s: game %s: %w", l.t.Name, key.Round, err)
	}
	return nil
}

// pgnWithFields renders a game's PGN as the runner stored it, with the
// per-move fields of pgn_out added to its comments.
func (l *live) pgnWithFields(g *record.Game) (string, error) {
	j, err := l.sched.job(2*g.Pair + g.Index)
	if err != nil {
		return "", err
	}
	h, err := pgnHeaderFor(l.t, j.white, j.black, j.opening)
	if err != nil {
		return "", err
	}
	h.fields, h.notation = l.t.Live.Fields, l.t.Live.Notation
	return writePGN(g, h), nil
}

// fastchessPGN renders a game's PGN in fastchess's dialect.
func (l *live) fastchessPGN(g *record.Game) (string, error) {
	fg := fastchessGame{event: fastchessEvent(l.t), site: fastchessSite(l.t), round: fastchessRound(l.t, g.Pair, g.Index),
		tc:     [2]string{fastchessTimeControl(l.t.LimitsOf(g.White)), fastchessTimeControl(l.t.LimitsOf(g.Black))},
		fields: l.t.Live.Fields, notation: l.t.Live.Notation, min: l.t.Live.Min}
	return writeFastchessPGN(g, fg)
}

// roundText is the Round of the game at schedule index i in the file.
func (l *live) roundText(f *pgnout.File, i int) string {
	if l.fastchess(f) {
		return strconv.Itoa(fastchessRound(l.t, i/2, i%2))
	}
	return record.PGNRound(i/2, i%2)
}

// minNext is the least schedule index that a file still waits for.
func (l *live) minNext() int {
	m := -1
	for _, lf := range l.files {
		if m < 0 || lf.next < m {
			m = lf.next
		}
	}
	return m
}

// nextShareGame is the schedule index of the share's first game after
// game i (i = -1: the share's first game).
func (l *live) nextShareGame(i int) int {
	if i >= 0 && i%2 == 0 && l.share.Contains(i/2) {
		return i + 1
	}
	n := max(l.share.Count, 1)
	p := i/2 + 1
	if i < 0 {
		p = 0
	}
	return 2 * (p + (l.share.Index-p%n+n)%n)
}

// scheduleIndex reads a Round tag ("pair.game", from 1) as the game's
// index in the schedule.
func scheduleIndex(round string) (int, bool) {
	ps, gs, ok := strings.Cut(round, ".")
	p, perr := strconv.Atoi(ps)
	g, gerr := strconv.Atoi(gs)
	if !ok || perr != nil || gerr != nil || p < 1 || g < 1 || g > 2 {
		return 0, false
	}
	return 2*(p-1) + g - 1, true
}
