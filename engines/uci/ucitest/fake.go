// Package ucitest is a scriptable fake UCI engine for tests: Main runs it
// in the calling process (a test binary re-run as an engine, or
// engines/uci/testdata/fakeengine). Its behaviour is chosen by -mode:
//
//	legal           play the first legal move, after two info lines
//	wait-stop       answer go only when stop comes (then like legal)
//	crash           exit with status 3 on go, after a line on stderr
//	crash-after=N   like legal, but crash on the N-th go
//	hang            ignore go, stop and quit
//	garbage         answer go with a flood of lines that are not UCI
//	illegal         answer go with bestmove e2e5
//	bad-bestmove    answer go with bestmove xyzzy
//	none            answer go with bestmove (none)
//	null            answer go with bestmove 0000
//	slow-start      sleep -delay before reading anything
//	no-uciok        answer uci with id and chatter but no uciok
//	exit-on-newgame exit on ucinewgame
//	newgame-no-readyok
//	                like legal, but leave the isready after ucinewgame
//	                unanswered
//	exit-after-move like legal, but -delay after its first bestmove
//	                exit with status 5, after a line on stderr (reading
//	                nothing meanwhile): a crash between two searches
//	sleep           sleep -delay and exit (the child of -childpid)
//	orphan-crash    start a child (pid to -childpid) that holds stdout and
//	                stderr open, then exit with status 4 on go; with
//	                -escape the child leaves the process group (Unix)
//	long-line       answer go with an info line of -line-size bytes, then as legal
//	flood-start     answer uci with lines that are not UCI, without end
//	control         call itself "fake\x1b[2Jengine\x07" and crash on go
//	                with control bytes and invalid UTF-8 on stderr
//	immortal        like legal, but ignore the end of input, quit and
//	                SIGTERM/SIGHUP/SIGINT: it runs until killed
//	no-author       like legal, without the id author line
//	bad-option      like legal, with a spin option whose default is
//	                outside its min and max
//	bad-info        like legal, with an info line whose score is 0.5
//	mate-as-cp      like legal, with a score cp 31990 (a mate as cp)
//	illegal-pv      like legal, with a pv whose second move is illegal
//	slow-stop       like wait-stop, but answer stop only after -delay
//	late-score      like legal, but a go without a limit due soon (infinite,
//	                or a clock of 10 minutes) runs to stop, and a stop
//	                within -delay of go gets a bare bestmove, as an engine
//	                stopped before its first iteration ends (Stockfish)
//
// -ready-delay delays every readyok; -stderr-flood writes that many bytes
// to stderr on each go (in lines of 100 bytes) before answering. -once FILE
// confines the mode to one process, the one that creates FILE (the first
// started with it): the others, which find it, play as legal (an engine
// whose fault is not repeated after its restart).
//
// In every mode a position command it cannot follow (bad FEN, illegal
// move) makes it exit with status 4, after a line on stderr.
package ucitest

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/notnil/chess"
)

type optionList []string

func (o *optionList) String() string     { return strings.Join(*o, ",") }
func (o *optionList) Set(s string) error { *o = append(*o, s); return nil }

// settings are the fake engine's command-line flags.
type settings struct {
	mode        string
	crashAt     int // the N of crash-after=N
	delay       time.Duration
	childPID    string
	readyDelay  time.Duration
	stderrFlood int
	lineSize    int
	escape      bool
	once        string
	options     optionList
}

func parseSettings(args []string) settings {
	var s settings
	fs := flag.NewFlagSet("fakeengine", flag.ExitOnError)
	fs.StringVar(&s.mode, "mode", "legal", "behaviour")
	fs.DurationVar(&s.delay, "delay", 2*time.Second, "slow-start and sleep delay")
	fs.StringVar(&s.childPID, "childpid", "", "start a sleeping child and write its pid to this file")
	fs.DurationVar(&s.readyDelay, "ready-delay", 0, "delay of every readyok")
	fs.IntVar(&s.stderrFlood, "stderr-flood", 0, "bytes written to stderr on each go")
	fs.IntVar(&s.lineSize, "line-size", 100<<10, "length of the long-line mode's info line")
	fs.BoolVar(&s.escape, "escape", false, "orphan-crash: the child starts a session of its own")
	fs.Var(&s.options, "option", "advertise a spin option of this name (repeatable)")
	fs.StringVar(&s.once, "once", "", "the mode only in the process that creates this file; legal in the others")
	fs.Parse(args)

	if s.once != "" {
		f, err := os.OpenFile(s.once, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			s.mode = "legal" // another process had the fault
		} else {
			f.Close()
		}
	}

	if n, ok := strings.CutPrefix(s.mode, "crash-after="); ok {
		s.crashAt, _ = strconv.Atoi(n)
		s.mode = "crash-after"
	}
	return s
}

// Main runs the fake engine with its command-line arguments (without the
// program name) on the process's standard input and output. It returns
// when the engine quits; the modes that exit or crash end the process.
func Main(args []string) {
	s := parseSettings(args)
	switch s.mode {
	case "slow-start":
		time.Sleep(s.delay)
	case "sleep":
		time.Sleep(s.delay)
		return
	}
	if s.childPID != "" {
		startChild(s, args)
	}

	if s.mode == "immortal" {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		defer func() {
			for {
				time.Sleep(time.Hour)
			}
		}()
	}
	if s.mode == "flood-start" {
		// Like yes(1) in place of an engine: no uciok, ever.
		line := []byte("y\n")
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				return
			}
		}
	}
	f := &fake{settings: s, out: bufio.NewWriter(os.Stdout), game: chess.NewGame()}
	f.run(bufio.NewScanner(os.Stdin))
}

// startChild starts a sleeping child and writes its pid to s.childPID.
func startChild(s settings, args []string) {
	// The child is this program again (with its environment, so a
	// re-run test binary is the fake engine again).
	exe, _ := os.Executable()
	c := exec.Command(exe, append(slices.Clone(os.Args[1:len(os.Args)-len(args)]), "-mode", "sleep", "-delay", "60s")...)
	if s.mode == "orphan-crash" {
		// The child outlives its parent with the pipes open: the
		// adapter must see the exit, not wait for the end of stdout.
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if s.escape {
			newSession(c)
		}
	}
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "fake: child:", err)
		os.Exit(1)
	}
	_ = os.WriteFile(s.childPID, []byte(strconv.Itoa(c.Process.Pid)), 0o644)
}

// fake is the engine's state while it reads commands.
type fake struct {
	settings
	out      *bufio.Writer
	game     *chess.Game
	searches int  // go commands so far
	waiting  bool // wait-stop: a go awaits its stop
	mute     bool // newgame-no-readyok: the next isready is not answered
	goAt     time.Time
}

func (f *fake) say(format string, args ...any) {
	fmt.Fprintf(f.out, format+"\n", args...)
	f.out.Flush()
}

// run answers the commands until quit or the end of input.
func (f *fake) run(in *bufio.Scanner) {
	for in.Scan() {
		w := strings.Fields(in.Text())
		if len(w) == 0 {
			continue
		}
		switch w[0] {
		case "uci":
			f.uci()
		case "isready":
			if f.mute {
				f.mute = false
				continue
			}
			time.Sleep(f.readyDelay)
			f.say("readyok")
		case "ucinewgame":
			if f.mode == "exit-on-newgame" {
				os.Exit(0)
			}
			f.mute = f.mode == "newgame-no-readyok"
			f.game = chess.NewGame()
		case "position":
			// The adapter must only send well-formed positions and legal
			// moves: anything else is a bug that the tests should see, so
			// the fake fails loudly (the adapter reports a crash).
			g, err := position(w[1:])
			if err != nil {
				fmt.Fprintf(os.Stderr, "fake: bad position command %q: %v\n", in.Text(), err)
				os.Exit(4)
			}
			f.game = g
		case "go":
			f.goSearch(w[1:])
		case "stop":
			if f.waiting {
				f.waiting = false
				if f.mode == "slow-stop" {
					time.Sleep(f.delay)
				}
				if f.mode == "late-score" && time.Since(f.goAt) < f.delay {
					f.say("bestmove %s", chess.UCINotation{}.Encode(f.game.Position(), f.game.ValidMoves()[0]))
					continue
				}
				f.play()
			}
		case "quit":
			if f.mode != "hang" && f.mode != "immortal" {
				return
			}
		}
	}
}

// uci answers uci: the id, the options and uciok, as the mode has it.
func (f *fake) uci() {
	if f.mode == "control" {
		f.say("id name fake\x1b[2Jengine\x07")
		f.say("option name Hash type spin default 16 min 1 max 1024")
		f.say("uciok")
		return
	}
	f.say("id name fake engine")
	if f.mode == "no-uciok" {
		f.say("hello, I am not quite UCI")
		return
	}
	if f.mode != "no-author" {
		f.say("id author the tests")
	}
	if f.mode == "bad-option" {
		f.say("option name Bad type spin default 5 min 10 max 20")
	}
	f.say("option name Hash type spin default 16 min 1 max 1024")
	f.say("option name Threads type spin default 1 min 1 max 64")
	for _, o := range f.options {
		f.say("option name %s type spin default 0 min 0 max 20", o)
	}
	f.say("uciok")
}

// goSearch answers go as the mode has it.
func (f *fake) goSearch(args []string) {
	f.searches++
	f.goAt = time.Now()
	if f.stderrFlood > 0 {
		line := strings.Repeat("e", 99) + "\n"
		w := bufio.NewWriterSize(os.Stderr, 64<<10)
		for n := 0; n < f.stderrFlood; n += len(line) {
			w.WriteString(line)
		}
		w.Flush()
	}
	switch f.mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "fake: fatal error: boom")
		os.Exit(3)
	case "control":
		os.Stderr.WriteString("fake: \x1b[31mred\x1b[0m bell\x07 nul\x00 del\x7f bad\xff\xfe utf-8 \u202eevil\r\n")
		os.Exit(3)
	case "long-line":
		f.say("info string %s", strings.Repeat("x", f.lineSize))
		f.play()
	case "long-garbage":
		f.say("%s", strings.Repeat("x", f.lineSize))
		f.play()
	case "orphan-crash":
		fmt.Fprintln(os.Stderr, "fake: exiting, the child keeps stdout")
		os.Exit(4)
	case "crash-after":
		if f.searches >= f.crashAt {
			fmt.Fprintln(os.Stderr, "fake: fatal error: boom")
			os.Exit(3)
		}
		f.play()
	case "exit-after-move":
		f.play()
		time.Sleep(f.delay)
		fmt.Fprintln(os.Stderr, "fake: exiting after its move")
		os.Exit(5)
	case "hang":
	case "wait-stop", "slow-stop":
		f.waiting = true
	case "late-score":
		f.waiting = slices.Contains(args, "infinite") || slices.Contains(args, "600000")
		if !f.waiting {
			f.play()
		}
	case "garbage":
		for i := 0; i < 500; i++ {
			f.say("%%%% garbage %d @@", i)
		}
	case "illegal":
		f.say("bestmove e2e5")
	case "bad-bestmove":
		f.say("bestmove xyzzy")
	case "none":
		f.say("bestmove (none)")
	case "null":
		f.say("bestmove 0000")
	default:
		f.play()
	}
}

// play plays the first legal move, after info lines of two iterations.
func (f *fake) play() {
	legal := f.game.ValidMoves()
	if len(legal) == 0 {
		f.say("info depth 0 score mate 0")
		f.say("bestmove (none)")
		return
	}
	m := chess.UCINotation{}.Encode(f.game.Position(), legal[0])
	switch f.mode {
	case "bad-info":
		f.say("info depth 1 score cp 0.5 pv %s", m)
	case "mate-as-cp":
		f.say("info depth 1 score cp 31990 pv %s", m)
	case "illegal-pv":
		f.say("info depth 2 score cp 10 pv %s e2e5", m)
	}
	f.say("info depth 1 seldepth 1 multipv 1 score cp 12 nodes 20 nps 20000 time 1 pv %s", m)
	f.say("info depth 2 currmove %s currmovenumber 1", m)
	f.say("info depth 2 seldepth 3 multipv 1 score cp 15 upperbound nodes 40 nps 20000 time 2 pv %s", m)
	f.say("info depth 2 seldepth 3 multipv 1 score cp 15 nodes 57 nps 28500 time 2 pv %s", m)
	f.say("info string fake engine done")
	f.say("bestmove %s", m)
}

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// position parses the arguments of a position command. The fake uses the
// arbiter's library rather than engines/board: board's tables take a
// noticeable time to build at start, and the tests start many fakes.
func position(f []string) (*chess.Game, error) {
	if len(f) == 0 {
		return nil, fmt.Errorf("position: nothing")
	}
	var fen []string
	i := 1
	switch f[0] {
	case "startpos":
		fen = strings.Fields(startFEN)
	case "fen":
		for ; i < len(f) && f[i] != "moves"; i++ {
			fen = append(fen, f[i])
		}
	default:
		return nil, fmt.Errorf("position %q", f[0])
	}
	if len(fen) < 4 || len(fen) > 6 {
		return nil, fmt.Errorf("FEN %q has %d fields", strings.Join(fen, " "), len(fen))
	}
	for len(fen) < 6 {
		fen = append(fen, []string{"0", "1"}[len(fen)-4])
	}
	opt, err := chess.FEN(strings.Join(fen, " "))
	if err != nil {
		return nil, err
	}
	g := chess.NewGame(opt)
	if i < len(f) {
		if f[i] != "moves" {
			return nil, fmt.Errorf("%q after the position", f[i])
		}
		for _, s := range f[i+1:] {
			m, err := chess.UCINotation{}.Decode(g.Position(), s)
			if err != nil {
				return nil, err
			}
			if err := g.Move(m); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}
