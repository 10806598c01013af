// Package pgnrate rates the games of PGN files, as Ordo and BayesElo do,
// with the statistics and report of `selfplay report`: games are read one
// at a time (package pgnscan) and counted per pairing as they come, so the
// input is never held in memory, and colour-swapped game pairs are found
// the way the files carry them, so that each pairing gets the pentanomial
// estimate as well as the trinomial one. The report is built by package
// standings from the counts.
//
// # Pairs
//
// cutechess-cli (-repeat) and fastchess play each opening twice with the
// colours swapped and write both games with the same start: the FEN tag of
// an EPD opening, and the opening moves, which they (and selfplay) mark
// with a {book} comment. A rated game completes a pair with an earlier
// game of the same file that is still unpaired when it has the same two
// engines with the colours swapped, the same FEN tag (none counting as the
// initial position) and the same book moves. cutechess writes the two
// games one after the other; fastchess writes games as they finish, so
// with concurrency the two games of a pair may have other games between
// them, but they carry the same Round tag. So the partner is looked for
// among the last Window unpaired games, the one with the same Round tag
// first, else the earliest. A game without a partner there counts as an
// unpaired game (trinomial only).
//
// Without book comments (a minimal PGN) a pair is recognised by the
// engines, the colours and the FEN tag alone. A wrongly matched pair does
// not bias the estimate: two unrelated games make a pentanomial sample
// whose variance is that of two independent games, as in the trinomial
// model; a missed pair only loses the variance reduction of the pairing.
package pgnrate

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strings"

	"selfplay/internal/inputfile"
	"selfplay/outcome"
	"selfplay/pgnscan"
	"selfplay/report"
	"selfplay/standings"
	"selfplay/stats"
)

// DefaultWindow is how many unpaired games back a game's partner is looked
// for: more than twice the concurrency of any practical fastchess run.
const DefaultWindow = 1024

// Bounds of what a pool holds, so that its memory is bounded whatever the
// files: the rating fit is dense in the engines (time grows as their cube:
// 1,000 take 20 s of CPU and 120 MB), and the report has a section per
// pairing (about 3 KB of memory each). Engine tournaments have a few dozen
// engines; a file past these is refused with errTooMany.
const (
	maxEngines      = 1000
	maxPairings     = 10000 // engine pairs that played each other
	maxTerminations = 100   // different Termination tags
)

// errTooMany is wrapped by Add's error for a game past maxEngines,
// maxPairings or maxTerminations; Read stops there.
var errTooMany = errors.New("too many to rate at once")

// startFEN is the initial position's FEN without its clocks.
const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"

// Pool counts the games of one or more PGN files.
type Pool struct {
	window int

	engines []string
	index   map[string]int32

	pairings []*standings.PairingTally
	byEngine map[[2]int32]int // sorted engine indices -> pairings index

	input report.Input
	terms *terminations
	err   error // the first counting error (none is expected: scores are 0, ½ or 1)

	// Complete pairs' scores by pairing and start, when KeepOpenings was
	// called (nil otherwise), at most maxOpenings of them; openingsFull
	// once a pair found no room.
	openings     map[int]map[uint64]OpeningScore // by index in pairings, then start
	nOpenings    int                             // entries in all of them
	maxOpenings  int
	openingsFull bool

	// The current file's unpaired games within the window: by what a
	// partner must match, and in reading order for eviction.
	pending map[pendingKey][]*pendingGame
	queue   []*pendingGame
	head    int // queue[head:] are the games not yet paired or evicted
}

// pendingKey is what a game's partner has: the same engines with the
// colours swapped, and the same start.
type pendingKey struct {
	white, black int32
	start        uint64
}

type pendingGame struct {
	key   pendingKey
	round string
	score float64 // White's points
	done  bool    // paired
}

// NewPool starts an empty pool; window is DefaultWindow when 0.
func NewPool(window int) *Pool {
	if window <= 0 {
		window = DefaultWindow
	}
	return &Pool{
		window: window, index: map[string]int32{}, byEngine: map[[2]int32]int{},
		terms: newTerminations(), pending: map[pendingKey][]*pendingGame{},
	}
}

// ReadFile reads a PGN file (gzip or not; "-" is standard input, given as
// stdin) into the pool, see Read.
func (p *Pool) ReadFile(ctx context.Context, path string, stdin io.Reader, problem func(*pgnscan.GameError)) error {
	if path == "-" {
		r, err := inputfile.Decompress(inputfile.NewReader(ctx, stdin), false)
		if err != nil {
			return fmt.Errorf("standard input: %w", err)
		}
		defer r.Close()
		return p.Read(ctx, r, "-", problem)
	}
	f, err := inputfile.OpenText(ctx, path)
	if err != nil {
		return err
	}
	defer f.Close()
	return p.Read(ctx, f, path, problem)
}

// Read counts the games of one PGN stream, named name in the input list
// and in the problems: rated games per pairing, pairs within the stream,
// games without a result (outcome.Unfinished) as unfinished. Each malformed game goes to
// problem (when not nil) and is skipped. The error is the reader's (a
// *pgnscan.InputError for input that is not PGN), one wrapping errTooMany
// that names the game's line, or ctx's when it is cancelled.
func (p *Pool) Read(ctx context.Context, r io.Reader, name string, problem func(*pgnscan.GameError)) error {
	p.input.Files = append(p.input.Files, name)
	defer p.endFile()
	s := pgnscan.NewScanner(r, name, pgnscan.Options{})
	for n := 1; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		g, err := s.Next()
		if err == io.EOF {
			return nil
		}
		var ge *pgnscan.GameError
		if errors.As(err, &ge) {
			p.input.Games++
			p.input.Malformed++
			if problem != nil {
				problem(ge)
			}
			continue
		}
		if err != nil {
			return err
		}
		if err := p.Add(g); errors.Is(err, errTooMany) {
			return fmt.Errorf("%s:%d: %w", name, g.Line, err)
		} else if err != nil {
			p.input.Malformed++
			if problem != nil {
				problem(&pgnscan.GameError{File: name, Line: g.Line, GameLine: g.Line, White: g.White, Black: g.Black,
					Reason: err.Error()})
			}
		}
	}
}

// Add counts a game read from the current stream (Read calls it). An error
// says why the game cannot be rated; it is counted as read, not rated.
func (p *Pool) Add(g *pgnscan.Game) error {
	p.input.Games++
	if g.Marker == outcome.Unfinished || g.Result == outcome.Unfinished {
		p.input.Unfinished++
		return nil
	}
	white, ok := g.Result.Points(outcome.White)
	if !ok {
		return fmt.Errorf("result %q", g.Result)
	}
	if g.White == g.Black {
		return fmt.Errorf("%q plays itself", g.White)
	}
	if err := p.checkBounds(g); err != nil {
		return err
	}
	w, b := p.engine(g.White), p.engine(g.Black)
	p.pairing(w, b) // created by the first game of the two, which gives its orientation
	p.terms.add(g.Termination, w, b, white)
	p.input.Rated++

	pg := &pendingGame{key: pendingKey{white: w, black: b, start: startKey(g)}, round: g.Round, score: white}
	want := pendingKey{white: b, black: w, start: pg.key.start}
	if partner := p.takePartner(want, g.Round); partner != nil {
		p.countPair(partner, pg)
		return nil
	}
	p.pending[pg.key] = append(p.pending[pg.key], pg)
	p.queue = append(p.queue, pg)
	for len(p.queue)-p.head > p.window {
		p.evict()
	}
	return nil
}

// checkBounds returns an error wrapping errTooMany when counting g would
// pass maxEngines, maxPairings or maxTerminations.
func (p *Pool) checkBounds(g *pgnscan.Game) error {
	w, wok := p.index[g.White]
	b, bok := p.index[g.Black]
	newEngines := 0
	for _, ok := range []bool{wok, bok} {
		if !ok {
			newEngines++
		}
	}
	if len(p.engines)+newEngines > maxEngines {
		return fmt.Errorf("more than %d engines: %w", maxEngines, errTooMany)
	}
	if _, ok := p.byEngine[[2]int32{min(w, b), max(w, b)}]; (newEngines > 0 || !ok) && len(p.pairings) == maxPairings {
		return fmt.Errorf("more than %d pairings (pairs of engines that played each other): %w", maxPairings, errTooMany)
	}
	term := g.Termination
	if term == "" {
		term = noTag
	}
	if _, ok := p.terms.index[term]; !ok && len(p.terms.rows) == maxTerminations {
		return fmt.Errorf("more than %d different Termination tags: %w", maxTerminations, errTooMany)
	}
	return nil
}

// engine interns a name.
func (p *Pool) engine(name string) int32 {
	i, ok := p.index[name]
	if !ok {
		i = int32(len(p.engines))
		p.index[name] = i
		p.engines = append(p.engines, name)
	}
	return i
}

// pairing returns the tally of engines a and b, created with a as its
// first engine if there is none yet.
func (p *Pool) pairing(a, b int32) *standings.PairingTally {
	key := [2]int32{min(a, b), max(a, b)}
	i, ok := p.byEngine[key]
	if !ok {
		i = len(p.pairings)
		p.byEngine[key] = i
		p.pairings = append(p.pairings, &standings.PairingTally{First: p.engines[a], Second: p.engines[b]})
	}
	return p.pairings[i]
}

// firstScore is the points of pt's first engine in a game whose White has
// index white and scored whiteScore.
func (p *Pool) firstScore(pt *standings.PairingTally, white int32, whiteScore float64) float64 {
	if pt.First == p.engines[white] {
		return whiteScore
	}
	return 1 - whiteScore
}

// takePartner removes and returns the pending game matching want, the one
// with the same round first, else the earliest; nil if there is none.
func (p *Pool) takePartner(want pendingKey, round string) *pendingGame {
	list := p.pending[want]
	if len(list) == 0 {
		return nil
	}
	k := 0
	if round != "" {
		for i, c := range list {
			if c.round == round {
				k = i
				break
			}
		}
	}
	partner := list[k]
	list = append(list[:k], list[k+1:]...)
	if len(list) == 0 {
		delete(p.pending, want)
	} else {
		p.pending[want] = list
	}
	partner.done = true
	return partner
}

// countPair counts two games of a pair, a read before b.
func (p *Pool) countPair(a, b *pendingGame) {
	pt := p.pairing(a.key.white, a.key.black)
	sa := p.firstScore(pt, a.key.white, a.score)
	sb := p.firstScore(pt, b.key.white, b.score)
	p.keep(pt.Games.Add(sa))
	p.keep(pt.Games.Add(sb))
	p.keep(pt.Pairs.AddPair(sa, sb))
	p.input.Pairs++
	if p.openings != nil {
		i := p.byEngine[[2]int32{min(a.key.white, a.key.black), max(a.key.white, a.key.black)}]
		byStart := p.openings[i]
		if byStart == nil {
			byStart = map[uint64]OpeningScore{}
			p.openings[i] = byStart
		}
		o, ok := byStart[a.key.start]
		if !ok {
			if p.nOpenings == p.maxOpenings {
				p.openingsFull = true
				return
			}
			p.nOpenings++
		}
		byStart[a.key.start] = OpeningScore{Sum: o.Sum + sa + sb, Pairs: o.Pairs + 1}
	}
}

// DefaultMaxOpenings bounds the starts KeepOpenings remembers by default
// (53 MiB of map for 2^20 of them, measured with runtime.MemStats).
const DefaultMaxOpenings = 1 << 20

// OpeningScore is what the complete pairs of one pairing that began from
// one start (FEN and book moves) scored: the first engine's points, 0 to 2
// per pair, summed, and the number of pairs.
type OpeningScore struct {
	Sum   float64
	Pairs int
}

// KeepOpenings makes the pool remember every complete pair's score by its
// start from now on, for Openings; memory then grows with the starts, up
// to limit of them (DefaultMaxOpenings when limit <= 0).
func (p *Pool) KeepOpenings(limit int) {
	if limit <= 0 {
		limit = DefaultMaxOpenings
	}
	p.maxOpenings = limit
	if p.openings == nil {
		p.openings = map[int]map[uint64]OpeningScore{}
	}
}

// Openings returns the complete pairs' scores by start (a hash of the FEN
// and book moves) of the pairing with index i in Pairings' order, from its
// first engine's view (the pool's own map: read it, do not change it); ok
// is false when KeepOpenings was not called or a pair found no room within
// its limit.
func (p *Pool) Openings(i int) (scores map[uint64]OpeningScore, ok bool) {
	if p.openings == nil || p.openingsFull {
		return nil, false
	}
	if scores = p.openings[i]; scores == nil {
		scores = map[uint64]OpeningScore{}
	}
	return scores, true
}

// countSingle counts an unpaired game.
func (p *Pool) countSingle(g *pendingGame) {
	pt := p.pairing(g.key.white, g.key.black)
	p.keep(pt.Games.Add(p.firstScore(pt, g.key.white, g.score)))
	p.input.Unpaired++
}

// keep remembers the first counting error for Report.
func (p *Pool) keep(err error) {
	if err != nil && p.err == nil {
		p.err = err
	}
}

// evict counts the oldest pending game as unpaired (or drops it from the
// queue when it has been paired since).
func (p *Pool) evict() {
	g := p.queue[p.head]
	p.queue[p.head] = nil
	p.head++
	if p.head > 4096 && p.head*2 > len(p.queue) { // keep the queue's memory bounded
		p.queue = append(p.queue[:0:0], p.queue[p.head:]...)
		p.head = 0
	}
	if g.done {
		return
	}
	list := p.pending[g.key]
	for i, c := range list {
		if c == g {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(p.pending, g.key)
	} else {
		p.pending[g.key] = list
	}
	p.countSingle(g)
}

// endFile counts the file's games still unpaired: pairs do not span files.
func (p *Pool) endFile() {
	for p.head < len(p.queue) {
		p.evict()
	}
	p.queue, p.head = p.queue[:0], 0
}

// startKey identifies a game's start: its FEN tag (the initial position
// when there is none) and its book moves.
func startKey(g *pgnscan.Game) uint64 {
	h := fnv.New64a()
	fen := strings.Join(strings.Fields(g.FEN), " ")
	if fields := strings.Fields(fen); len(fields) >= 4 && strings.Join(fields[:4], " ") == startFEN {
		fen = ""
	}
	h.Write([]byte(fen))
	for _, m := range g.FirstMoves[:min(g.Book, len(g.FirstMoves))] {
		h.Write([]byte{0})
		h.Write([]byte(m))
	}
	return h.Sum64()
}

// Pairings are copies of the pool's pairings so far, each with its counts,
// in the order their first games were read.
func (p *Pool) Pairings() ([]standings.PairingTally, error) {
	if p.err != nil {
		return nil, fmt.Errorf("counting the games: %w", p.err)
	}
	out := make([]standings.PairingTally, len(p.pairings))
	for i, pt := range p.pairings {
		out[i] = *pt
	}
	return out, nil
}

// Input is what the pool has read so far.
func (p *Pool) Input() report.Input { return p.input }

// Report is the pool's report at the confidence level (0 for the
// default), its ratings anchored at anchor ("" for the average; an engine
// that is not in the pool is an error wrapping standings.ErrNotFound).
func (p *Pool) Report(level float64, anchor string) (report.Report, error) {
	if p.err != nil {
		return report.Report{}, fmt.Errorf("counting the games: %w", p.err)
	}
	if level == 0 {
		level = stats.DefaultLevel
	}
	input := p.input
	input.Files = append([]string(nil), input.Files...)
	t, err := standings.FromCounts(standings.Counts{
		Name: strings.Join(input.Files, ", "), Engines: p.engines, Pairings: p.pairings, Input: input,
		Terminations: p.terms.report(p.engines),
	}, level, anchor)
	if err != nil {
		return report.Report{}, err
	}
	return report.Report{Level: level, Anchor: anchor, Tournaments: []report.Tournament{t}}, nil
}
