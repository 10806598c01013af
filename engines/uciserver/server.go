// Package uciserver makes one variant of the in-process search a UCI engine,
// so selfplay's variants can play in cutechess-cli, fastchess or a GUI. The
// Server reads commands line by line and writes answers; searches run in a
// goroutine so that stop, isready and quit are answered while searching.
//
// Every search switch of search.Switches is a UCI option under its own name
// (setoption name fhr-margin value 50), next to Hash and Variant (which resets
// the switches to the preset's). Bad input never stops the engine: it is
// answered with "info string error: ..." and ignored; a command line longer
// than 1 MiB is read in bounded memory and ignored the same way.
//
// Output is written a line at a time, except the info lines of a search's
// iterations: they are held back for at most 50 ms and written with the
// next other line (bestmove), so a short search costs its GUI one wake-up
// rather than one per iteration.
package uciserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/internal/pipeio"
	"selfplay/engines/search"
	"selfplay/internal/sysmem"
)

// author is the id author line's text.
const author = "selfplay developers"

// Identity is what the server of a variant spec says of itself in answer
// to uci (id name, id author): what fastchess records of an engine run as
// `selfplay uci -variant spec`.
func Identity(spec string) (name, by string) {
	return "selfplay " + spec, author
}

// maxLine is the longest command line the server reads; a longer one is
// ignored with an error (a position command of a 6,000-move game has
// about 60 KB).
const maxLine = 1 << 20

// defaultInfoDelay is the default of Server.infoDelay.
const defaultInfoDelay = 50 * time.Millisecond

// Server is a UCI engine over the in-process search. Use one per connection.
type Server struct {
	// infoDelay is the longest time an iteration's info line is held back
	// before it is written (New sets defaultInfoDelay; 0: written at once).
	infoDelay time.Duration

	spec string         // the variant spec given to New, or set by the Variant option
	opts search.Options // the switches as set (validated when a search starts)
	hash int            // MiB

	s     *search.Searcher // built from sOpts/sHash; nil until needed
	sOpts search.Options
	sHash int

	b   *board.Board // the position of the last good position command
	out *output
	run *running // the search in progress, or nil
}

// running is a search in its goroutine.
type running struct {
	cancel   context.CancelFunc
	done     chan struct{}
	finite   bool // it ends by itself (a limit was given and not infinite)
	searcher *search.Searcher
	failed   bool // the search panicked: its searcher's state is suspect
}

// New returns a server for a variant spec ("fhr", "nmr-r3-4:dr=2") and a
// transposition table size in MiB.
func New(spec string, hashMiB int) (*Server, error) {
	opts, err := search.ParseVariant(spec)
	if err != nil {
		return nil, err
	}
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("variant %q: %w", spec, err)
	}
	if hashMiB < minHash || hashMiB > maxHash {
		return nil, fmt.Errorf("hash %d MiB is outside %d..%d", hashMiB, minHash, maxHash)
	}
	return &Server{infoDelay: defaultInfoDelay, spec: spec, opts: opts, hash: hashMiB, b: board.New()}, nil
}

// output serialises the lines of the command loop and the search goroutine.
// Iteration info lines are held back (info) for at most delay, and written
// before the next other line.
type output struct {
	mu    sync.Mutex
	w     io.Writer
	delay time.Duration
	held  []byte      // lines not yet written
	timer *time.Timer // writes held lines delay after the first one
}

// printf writes a line, after the lines held back.
func (o *output) printf(format string, args ...any) {
	o.add(fmt.Sprintf(format, args...), false)
}

// lines writes lines in one write, after the lines held back.
func (o *output) lines(lines []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, l := range lines {
		o.held = append(append(o.held, l...), '\n')
	}
	o.flushLocked()
}

// info holds back an iteration's info line.
func (o *output) info(line string) { o.add(line, true) }

func (o *output) add(line string, hold bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	first := len(o.held) == 0
	o.held = append(append(o.held, line...), '\n')
	if !hold || o.delay <= 0 {
		o.flushLocked()
		return
	}
	if first {
		if o.timer == nil {
			o.timer = time.AfterFunc(o.delay, o.flush)
		} else {
			o.timer.Reset(o.delay)
		}
	}
}

func (o *output) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
}

func (o *output) flushLocked() {
	if len(o.held) == 0 {
		return
	}
	_, _ = o.w.Write(o.held) // a vanished GUI shows as EOF on stdin
	o.held = o.held[:0]
	if o.timer != nil {
		o.timer.Stop()
	}
}

func (o *output) errorf(format string, args ...any) {
	o.printf("info string error: "+format, args...)
}

// command is a line of input; a line longer than maxLine comes as its
// start, marked tooLong.
type command struct {
	text    string
	tooLong bool
}

// Run answers the commands read from in until quit, the end of in, or the
// cancellation of ctx. A running search is stopped by quit and ctx; at the
// end of input a search with a limit finishes first, so that
// `echo "go depth 6" | selfplay uci` prints its move. The error is ctx's
// when it was cancelled, else nil.
func (s *Server) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	s.out = &output{w: out, delay: s.infoDelay}
	defer s.out.flush()
	lines := make(chan command)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		defer close(lines)
		r := bufio.NewReaderSize(in, 4096)
		var buf []byte
		for {
			text, long, err := pipeio.ReadLine(r, maxLine, buf)
			buf = text
			if len(text) > 0 || long {
				c := command{tooLong: long}
				if long {
					c.text = string(text[:64])
				} else {
					c.text = string(text)
				}
				select {
				case lines <- c:
				case <-quit:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			s.stop()
			return ctx.Err()
		case line, ok := <-lines:
			if !ok {
				if s.run != nil && s.run.finite {
					<-s.run.done
				}
				s.stop()
				return nil
			}
			if line.tooLong {
				s.out.errorf("a command line longer than %d KiB was ignored (it starts %q)", maxLine>>10, line.text)
				continue
			}
			if !s.handle(ctx, line.text) {
				s.stop()
				return nil
			}
		}
	}
}

var commands = map[string]bool{
	"uci": true, "debug": true, "isready": true, "setoption": true, "register": true,
	"ucinewgame": true, "position": true, "go": true, "stop": true, "ponderhit": true, "quit": true,
}

// handle runs one command line; false on quit.
func (s *Server) handle(ctx context.Context, line string) bool {
	f := strings.Fields(line)
	// UCI: skip unknown tokens before the command ("joho debug on").
	for len(f) > 0 && !commands[f[0]] {
		f = f[1:]
	}
	if len(f) == 0 {
		return true
	}
	cmd, args := f[0], f[1:]
	switch cmd {
	case "quit":
		return false
	case "isready":
		if s.run == nil {
			if err := s.searcher(); err != nil {
				s.out.errorf("%v", err)
			}
		}
		s.out.printf("readyok")
		return true
	case "stop":
		s.stop()
		return true
	case "debug", "register", "ponderhit":
		return true
	}
	// The other commands change the state: a search still running is stopped.
	s.stop()
	switch cmd {
	case "uci":
		name, by := Identity(s.spec)
		reply := []string{"id name " + name, "id author " + by}
		reply = append(reply, optionLines(s.spec, s.opts, s.hash)...)
		s.out.lines(append(reply, "uciok"))
	case "setoption":
		if err := s.setOption(args); err != nil {
			s.out.errorf("%v", err)
		}
	case "ucinewgame":
		if err := s.searcher(); err != nil {
			s.out.errorf("%v", err)
		} else {
			s.s.NewGame()
		}
		s.b = board.New()
	case "position":
		b, err := parsePosition(args)
		if err != nil {
			s.out.errorf("%v (position unchanged)", err)
			return true
		}
		s.b = b
	case "go":
		s.goSearch(ctx, args)
	}
	return true
}

// setOption handles "name <id...> [value <x...>]".
func (s *Server) setOption(args []string) error {
	if len(args) < 2 || args[0] != "name" {
		return fmt.Errorf("setoption: want setoption name <id> [value <x>]")
	}
	var name, value []string
	rest := args[1:]
	for i, t := range rest {
		if t == "value" {
			name, value = rest[:i], rest[i+1:]
			break
		}
	}
	if name == nil {
		name = rest
	}
	id, v := strings.Join(name, " "), strings.Join(value, " ")
	switch {
	case strings.EqualFold(id, "Hash"):
		n, err := strconv.Atoi(v)
		if err != nil || n < minHash || n > maxHash {
			return fmt.Errorf("setoption Hash: %q is not an integer in %d..%d", v, minHash, maxHash)
		}
		// The table is allocated at the next isready or go, where a size
		// past the machine's memory kills the process (Go's out of memory
		// cannot be caught): the same bound as a config's hash.
		if err := sysmem.Fits(int64(n), sysmem.PhysicalMiB()); err != nil {
			return fmt.Errorf("setoption Hash: %w; the table stays %d MiB", err, s.hash)
		}
		s.hash = n
		return nil
	case strings.EqualFold(id, "Threads"):
		if v != "1" {
			return fmt.Errorf("setoption Threads: %q: the search is single-threaded (1)", v)
		}
		return nil
	case strings.EqualFold(id, "Variant"):
		o, err := search.ParseVariant(strings.ToLower(v))
		if err != nil {
			return fmt.Errorf("setoption Variant: %w", err)
		}
		s.spec, s.opts = strings.ToLower(v), o
		return nil
	}
	for _, sw := range search.Switches() {
		if !strings.EqualFold(id, sw.Name) {
			continue
		}
		if v == emptyString && sw.Kind == search.SwitchString {
			if cur, _ := s.opts.Get(sw.Name); cur == "" {
				return nil // a GUI sending back the empty default
			}
		}
		val := v
		if sw.Kind == search.SwitchBool || sw.Kind == search.SwitchChoice {
			val = strings.ToLower(v)
		}
		o := s.opts
		if err := o.Set(sw.Name, val); err != nil {
			return fmt.Errorf("setoption %s: %w", sw.Name, err)
		}
		s.opts = o
		return nil
	}
	names := []string{"Hash", "Threads", "Variant"}
	names = append(names, search.SwitchNames()...)
	return fmt.Errorf("setoption: no option %q (options: %s)", id, strings.Join(names, ", "))
}

// searcher makes s.s match the options, building a new one (and a new
// transposition table) when they changed; search.New rejects options the
// search cannot run with.
func (s *Server) searcher() error {
	if s.s != nil && s.sOpts == s.opts && s.sHash == s.hash {
		return nil
	}
	sr, err := search.New(s.opts, s.hash)
	if err != nil {
		return fmt.Errorf("options: %w", err)
	}
	s.s, s.sOpts, s.sHash = sr, s.opts, s.hash
	return nil
}

// parsePosition parses "startpos|fen <fen> [moves ...]".
func parsePosition(args []string) (*board.Board, error) {
	if len(args) == 0 {
		return nil, errors.New("position: want startpos or fen")
	}
	var fen string
	i := 1
	switch args[0] {
	case "startpos":
		fen = board.StartFEN
	case "fen":
		for i < len(args) && args[i] != "moves" {
			i++
		}
		fen = strings.Join(args[1:i], " ")
	default:
		return nil, fmt.Errorf("position: %q is not startpos or fen", args[0])
	}
	b, err := board.FromFEN(fen)
	if err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	if i < len(args) {
		if args[i] != "moves" {
			return nil, fmt.Errorf("position: unexpected %q", args[i])
		}
		if err := b.ApplyUCI(args[i+1:]); err != nil {
			return nil, fmt.Errorf("position: %w", err)
		}
	}
	return b, nil
}

// goArgs are the parsed arguments of go.
type goArgs struct {
	lim      engines.Limits
	infinite bool
}

// parseGo parses the go arguments. Unknown tokens are skipped; bad numbers
// are reported and the token skipped.
func parseGo(args []string) (goArgs, []error) {
	var g goArgs
	var errs []error
	var clock engines.Clock
	haveClock := false
	num := func(i int) (int64, bool) {
		if i+1 >= len(args) {
			errs = append(errs, fmt.Errorf("go: %s without a value", args[i]))
			return 0, false
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("go: %s %q is not a number", args[i], args[i+1]))
			return 0, false
		}
		return n, true
	}
	ms := func(n int64) time.Duration { return time.Duration(max(n, 0)) * time.Millisecond }
	for i := 0; i < len(args); i++ {
		key := args[i]
		switch key {
		case "infinite":
			g.infinite = true
			continue
		case "ponder":
			continue // Ponder is not offered; search normally
		case "searchmoves":
			for i+1 < len(args) && engines.IsMoveText(args[i+1]) {
				i++
			}
			errs = append(errs, errors.New("go: searchmoves is not supported; searching all moves"))
			continue
		case "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate":
		default:
			continue
		}
		n, ok := num(i)
		if !ok {
			continue
		}
		i++
		// A limit below 1 is a GUI's mistake: said, and searched as 1 rather
		// than unbounded (a search without its limit may never end).
		switch key {
		case "depth", "nodes", "movetime", "mate":
			if n < 1 {
				errs = append(errs, fmt.Errorf("go: %s %d is out of range (at least 1); searching with %s 1", key, n, key))
			}
		}
		switch key {
		case "depth":
			g.lim.Depth = int(max(n, 1))
		case "nodes":
			g.lim.Nodes = max(n, 1)
		case "movetime":
			g.lim.MoveTime = max(ms(n), time.Millisecond)
		case "wtime":
			clock.WhiteTime, haveClock = ms(n), true
		case "btime":
			clock.BlackTime, haveClock = ms(n), true
		case "winc":
			clock.WhiteInc = ms(n)
		case "binc":
			clock.BlackInc = ms(n)
		case "movestogo":
			clock.MovesToGo = int(max(n, 0))
		case "mate":
			g.lim.Depth = int(max(2*n-1, 1)) // a mate in n is found at depth 2n-1
		}
	}
	if haveClock {
		g.lim.Clock = &clock
	}
	return g, errs
}

// goSearch starts a search in a goroutine.
func (s *Server) goSearch(ctx context.Context, args []string) {
	g, errs := parseGo(args)
	for _, err := range errs {
		s.out.errorf("%v", err)
	}
	if err := s.searcher(); err != nil {
		s.out.errorf("%v; not searching", err)
		s.out.printf("bestmove 0000")
		return
	}
	sctx, cancel := context.WithCancel(ctx)
	lim := g.lim
	r := &running{
		cancel:   cancel,
		done:     make(chan struct{}),
		finite:   !g.infinite && (lim.Depth > 0 || lim.Nodes > 0 || lim.MoveTime > 0 || lim.Clock != nil),
		searcher: s.s,
	}
	s.run = r
	b := s.b.Clone()
	go func() {
		defer close(r.done)
		defer cancel()
		move := s.think(sctx, r, b, lim)
		if g.infinite {
			<-sctx.Done() // UCI: in infinite mode bestmove waits for stop
		}
		s.out.printf("bestmove %s", move)
	}()
}

// think runs the search, printing an info line per iteration and a final
// one when the search went on after its last iteration.
func (s *Server) think(ctx context.Context, r *running, b *board.Board, lim engines.Limits) (move string) {
	defer func() {
		if p := recover(); p != nil {
			s.out.errorf("search failed: %v", p)
			move = "0000"
			r.failed = true
		}
	}()
	var last *engines.Info
	lim.OnIteration = func(i engines.Info) {
		s.out.info(FormatInfo(i))
		last = &i
	}
	res, err := r.searcher.Search(ctx, b, lim)
	if errors.Is(err, search.ErrNoLegalMove) {
		score := "cp 0"
		if b.InCheck() {
			score = "mate 0"
		}
		s.out.printf("info depth 0 score %s", score)
		return "0000"
	}
	if err != nil {
		s.out.errorf("search: %v", err)
		return "0000"
	}
	i := res.Info
	if last == nil || last.Nodes != i.Nodes || last.SelDepth != i.SelDepth || last.Depth != i.Depth {
		s.out.info(FormatInfo(i))
	}
	return res.Move.UCI()
}

// FormatInfo is the UCI info line (without end of line) of a search
// iteration: depth, seldepth, score, nodes, nps, time and, if any, pv.
func FormatInfo(i engines.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d score %s nodes %d nps %d time %d",
		i.Depth, i.SelDepth, i.Score.UCI(), i.Nodes, NPS(i.Nodes, i.Elapsed), i.Elapsed.Milliseconds())
	if len(i.PV) > 0 {
		b.WriteString(" pv ")
		b.WriteString(strings.Join(i.PV, " "))
	}
	return b.String()
}

// NPS is nodes per second over d; 0 when d is not positive.
func NPS(nodes int64, d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64(float64(nodes) / d.Seconds())
}

// stop ends the search in progress, if any, once its bestmove is out.
func (s *Server) stop() {
	if s.run == nil {
		return
	}
	s.run.cancel()
	<-s.run.done
	if s.run.failed {
		s.s = nil // rebuilt by the next search
	}
	s.run = nil
}

// Stdio returns the process's standard input and output for Run. When they
// are pipes (a GUI, a tournament runner) they are read and written with raw
// system calls on Linux, which spares the Go runtime's system monitor the
// wake-ups that each command would otherwise cost (engines/internal/pipeio).
// Call restore before the process exits: it puts the descriptors back in
// blocking mode for whoever shares them.
func Stdio() (in io.Reader, out io.Writer, restore func()) { return pipeio.Stdio() }
