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
//
// -ready-delay delays every readyok; -stderr-flood writes that many bytes
// to stderr on each go (in lines of 100 bytes) before answering.
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

// Main runs the fake engine with its command-line arguments (without the
// program name) on the process's standard input and output. It returns
// when the engine quits; the modes that exit or crash end the process.
func Main(args []string) {
	fs := flag.NewFlagSet("fakeengine", flag.ExitOnError)
	mode := fs.String("mode", "legal", "behaviour")
	delay := fs.Duration("delay", 2*time.Second, "slow-start and sleep delay")
	childPID := fs.String("childpid", "", "start a sleeping child and write its pid to this file")
	readyDelay := fs.Duration("ready-delay", 0, "delay of every readyok")
	stderrFlood := fs.Int("stderr-flood", 0, "bytes written to stderr on each go")
	lineSize := fs.Int("line-size", 100<<10, "length of the long-line mode's info line")
	escape := fs.Bool("escape", false, "orphan-crash: the child starts a session of its own")
	var options optionList
	fs.Var(&options, "option", "advertise a spin option of this name (repeatable)")
	fs.Parse(args)

	crashAt := 0
	if n, ok := strings.CutPrefix(*mode, "crash-after="); ok {
		crashAt, _ = strconv.Atoi(n)
		*mode = "crash-after"
	}
	switch *mode {
	case "slow-start":
		time.Sleep(*delay)
	case "sleep":
		time.Sleep(*delay)
		return
	}
	if *childPID != "" {
		// The child is this program again (with its environment, so a
		// re-run test binary is the fake engine again).
		exe, _ := os.Executable()
		c := exec.Command(exe, append(slices.Clone(os.Args[1:len(os.Args)-len(args)]), "-mode", "sleep", "-delay", "60s")...)
		if *mode == "orphan-crash" {
			// The child outlives its parent with the pipes open: the
			// adapter must see the exit, not wait for the end of stdout.
			c.Stdout, c.Stderr = os.Stdout, os.Stderr
			if *escape {
				newSession(c)
			}
		}
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fake: child:", err)
			os.Exit(1)
		}
		_ = os.WriteFile(*childPID, []byte(strconv.Itoa(c.Process.Pid)), 0o644)
	}

	if *mode == "immortal" {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		defer func() {
			for {
				time.Sleep(time.Hour)
			}
		}()
	}
	if *mode == "flood-start" {
		// Like yes(1) in place of an engine: no uciok, ever.
		line := []byte("y\n")
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				return
			}
		}
	}

	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	game := chess.NewGame()
	searches := 0
	waiting := false
	play := func() {
		legal := game.ValidMoves()
		if len(legal) == 0 {
			say("info depth 0 score mate 0")
			say("bestmove (none)")
			return
		}
		m := chess.UCINotation{}.Encode(game.Position(), legal[0])
		say("info depth 1 seldepth 1 multipv 1 score cp 12 nodes 20 nps 20000 time 1 pv %s", m)
		say("info depth 2 currmove %s currmovenumber 1", m)
		say("info depth 2 seldepth 3 multipv 1 score cp 15 upperbound nodes 40 nps 20000 time 2 pv %s", m)
		say("info depth 2 seldepth 3 multipv 1 score cp 15 nodes 57 nps 28500 time 2 pv %s", m)
		say("info string fake engine done")
		say("bestmove %s", m)
	}

	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			if *mode == "control" {
				say("id name fake\x1b[2Jengine\x07")
				say("option name Hash type spin default 16 min 1 max 1024")
				say("uciok")
				continue
			}
			say("id name fake engine")
			if *mode == "no-uciok" {
				say("hello, I am not quite UCI")
				continue
			}
			say("id author the tests")
			say("option name Hash type spin default 16 min 1 max 1024")
			say("option name Threads type spin default 1 min 1 max 64")
			for _, o := range options {
				say("option name %s type spin default 0 min 0 max 20", o)
			}
			say("uciok")
		case "isready":
			time.Sleep(*readyDelay)
			say("readyok")
		case "ucinewgame":
			if *mode == "exit-on-newgame" {
				os.Exit(0)
			}
			game = chess.NewGame()
		case "position":
			// The adapter must only send well-formed positions and legal
			// moves: anything else is a bug that the tests should see, so
			// the fake fails loudly (the adapter reports a crash).
			g, err := position(f[1:])
			if err != nil {
				fmt.Fprintf(os.Stderr, "fake: bad position command %q: %v\n", in.Text(), err)
				os.Exit(4)
			}
			game = g
		case "go":
			searches++
			if *stderrFlood > 0 {
				line := strings.Repeat("e", 99) + "\n"
				w := bufio.NewWriterSize(os.Stderr, 64<<10)
				for n := 0; n < *stderrFlood; n += len(line) {
					w.WriteString(line)
				}
				w.Flush()
			}
			switch *mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "fake: fatal error: boom")
				os.Exit(3)
			case "control":
				os.Stderr.WriteString("fake: \x1b[31mred\x1b[0m bell\x07 nul\x00 del\x7f bad\xff\xfe utf-8 \u202eevil\r\n")
				os.Exit(3)
			case "long-line":
				say("info string %s", strings.Repeat("x", *lineSize))
				play()
			case "orphan-crash":
				fmt.Fprintln(os.Stderr, "fake: exiting, the child keeps stdout")
				os.Exit(4)
			case "crash-after":
				if searches >= crashAt {
					fmt.Fprintln(os.Stderr, "fake: fatal error: boom")
					os.Exit(3)
				}
				play()
			case "hang":
			case "wait-stop":
				waiting = true
			case "garbage":
				for i := 0; i < 500; i++ {
					say("%%%% garbage %d @@", i)
				}
			case "illegal":
				say("bestmove e2e5")
			case "bad-bestmove":
				say("bestmove xyzzy")
			case "none":
				say("bestmove (none)")
			case "null":
				say("bestmove 0000")
			default:
				play()
			}
		case "stop":
			if waiting {
				waiting = false
				play()
			}
		case "quit":
			if *mode != "hang" && *mode != "immortal" {
				return
			}
		}
	}
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
