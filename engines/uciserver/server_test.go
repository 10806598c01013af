package uciserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/search"
	"selfplay/internal/sysmem"
)

// session drives a Server through in-memory pipes.
type session struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan string
	done   chan error
	cancel context.CancelFunc
}

func newSession(t *testing.T, spec string) *session {
	t.Helper()
	srv, err := New(spec, 4)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{t: t, in: inW, lines: make(chan string, 100000), done: make(chan error, 1), cancel: cancel}
	go func() {
		err := srv.Run(ctx, inR, outW)
		outW.Close()
		inR.Close()
		s.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			t.Error("server did not end")
		}
	})
	return s
}

func (s *session) send(cmds ...string) {
	s.t.Helper()
	for _, c := range cmds {
		if _, err := io.WriteString(s.in, c+"\n"); err != nil {
			s.t.Fatalf("send %q: %v", c, err)
		}
	}
}

// until returns the first line starting with prefix and the lines before it.
func (s *session) until(prefix string, timeout time.Duration) (string, []string) {
	s.t.Helper()
	var before []string
	t := time.After(timeout)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("output ended waiting for %q; got %q", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-t:
			s.t.Fatalf("no %q within %v; got %q", prefix, timeout, before)
		}
	}
}

// quiet checks that nothing starting with prefix comes within d.
func (s *session) quiet(prefix string, d time.Duration) {
	s.t.Helper()
	t := time.After(d)
	for {
		select {
		case l := <-s.lines:
			if strings.HasPrefix(l, prefix) {
				s.t.Fatalf("unexpected %q", l)
			}
		case <-t:
			return
		}
	}
}

func (s *session) ended(timeout time.Duration) error {
	s.t.Helper()
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		return err
	case <-time.After(timeout):
		s.t.Fatalf("server still running after %v", timeout)
		return nil
	}
}

const second = time.Second

func TestHandshake(t *testing.T) {
	s := newSession(t, "fhr")
	s.send("uci")
	_, lines := s.until("uciok", second)
	for _, want := range []string{
		"id name selfplay fhr",
		"id author selfplay developers",
		"option name Hash type spin default 4 min 1 max 65536",
		"option name Threads type spin default 1 min 1 max 1",
		"option name Variant type combo default fhr var " + strings.Join(search.PresetNames(), " var "),
		"option name null type combo default off var off var standard var adaptive var verified var nmr",
		"option name r type string default <empty>",
		"option name dr type spin default 4 min 1 max 4",
		"option name fhr type check default true",
		"option name fhr-margin type spin default 0 min 0 max 100000",
		"option name king-threat-squares type spin default 3 min 0 max 8",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("uci answer lacks %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	for _, sw := range search.SwitchNames() {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "option name "+sw+" type ") }) {
			t.Errorf("no option for switch %s", sw)
		}
	}
	s.send("isready")
	s.until("readyok", second)
}

// TestSwitchOptions: every switch is offered with the UCI type, range and
// values of its search.SwitchInfo and its current setting as the default,
// in every preset.
func TestSwitchOptions(t *testing.T) {
	for _, p := range search.PresetNames() {
		o, _ := search.Preset(p)
		lines := optionLines(p, o, 7)
		for _, sw := range search.Switches() {
			v, err := o.Get(sw.Name)
			if err != nil {
				t.Fatal(err)
			}
			var want string
			switch sw.Kind {
			case search.SwitchBool:
				want = fmt.Sprintf("option name %s type check default %s", sw.Name, v)
			case search.SwitchInt:
				want = fmt.Sprintf("option name %s type spin default %s min %d max %d", sw.Name, v, sw.Min, sw.Max)
			case search.SwitchChoice:
				want = fmt.Sprintf("option name %s type combo default %s var %s", sw.Name, v, strings.Join(sw.Choices, " var "))
			case search.SwitchString:
				if v == "" {
					v = "<empty>"
				}
				want = fmt.Sprintf("option name %s type string default %s", sw.Name, v)
			}
			if !slices.Contains(lines, want) {
				t.Errorf("%s: no %q among\n%s", p, want, strings.Join(lines, "\n"))
			}
		}
		if n := len(lines); n != 3+len(search.Switches()) {
			t.Errorf("%s: %d option lines", p, n)
		}
	}
}

// reference searches like the server does, in process.
func reference(t *testing.T, spec string, fen string, moves []string, lim engines.Limits) search.Result {
	t.Helper()
	o, err := search.ParseVariant(spec)
	if err != nil {
		t.Fatal(err)
	}
	sr, err := search.New(o, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.FromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.ApplyUCI(moves); err != nil {
		t.Fatal(err)
	}
	res, err := sr.Search(context.Background(), b, lim)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestGoDepth(t *testing.T) {
	s := newSession(t, "fhr")
	s.send("position startpos moves e2e4 c7c5", "go depth 4")
	best, lines := s.until("bestmove ", 5*second)
	want := reference(t, "fhr", board.StartFEN, []string{"e2e4", "c7c5"}, engines.Limits{Depth: 4})
	if best != "bestmove "+want.Move.UCI() {
		t.Errorf("%q, want bestmove %s", best, want.Move.UCI())
	}
	var depths []int
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 || f[0] != "info" || f[1] != "depth" {
			t.Errorf("unexpected line %q", l)
			continue
		}
		d, _ := strconv.Atoi(f[2])
		depths = append(depths, d)
		for _, key := range []string{" seldepth ", " score ", " nodes ", " nps ", " time ", " pv "} {
			if !strings.Contains(l, key) {
				t.Errorf("info line %q lacks%q", l, key)
			}
		}
	}
	if !slices.Equal(depths, []int{1, 2, 3, 4}) {
		t.Errorf("info depths %v", depths)
	}
	last := lines[len(lines)-1]
	if !strings.Contains(last, fmt.Sprintf(" nodes %d ", want.Info.Nodes)) || !strings.Contains(last, " score "+want.Info.Score.UCI()+" ") {
		t.Errorf("last info %q, want nodes %d score %s", last, want.Info.Nodes, want.Info.Score.UCI())
	}
}

func TestNodeLimitFinalInfo(t *testing.T) {
	// A node budget ends the search inside an iteration: the last info line
	// carries the final node count, as the in-process engine reports it.
	s := newSession(t, "plain")
	s.send("position startpos", "go nodes 3000")
	best, lines := s.until("bestmove ", 5*second)
	want := reference(t, "plain", board.StartFEN, nil, engines.Limits{Nodes: 3000})
	last := lines[len(lines)-1]
	if best != "bestmove "+want.Move.UCI() || !strings.Contains(last, " nodes 3000 ") {
		t.Errorf("%q after %q; want bestmove %s and nodes 3000", best, last, want.Move.UCI())
	}
}

func TestClockAndMoveTime(t *testing.T) {
	s := newSession(t, "plain")
	begin := time.Now()
	s.send("position startpos", "go movetime 150")
	s.until("bestmove ", 2*second)
	if d := time.Since(begin); d < 140*time.Millisecond || d > time.Second {
		t.Errorf("movetime 150 took %v", d)
	}
	begin = time.Now()
	s.send("go wtime 2000 btime 2000 winc 10 binc 10 movestogo 20")
	s.until("bestmove ", 2*second)
	if d := time.Since(begin); d > time.Second {
		t.Errorf("clock search took %v", d)
	}
}

func TestInfinite(t *testing.T) {
	t.Run("stop", func(t *testing.T) {
		s := newSession(t, "plain")
		s.send("position startpos", "go infinite")
		s.quiet("bestmove", 200*time.Millisecond)
		s.send("isready") // answered during the search
		s.until("readyok", second)
		begin := time.Now()
		s.send("stop")
		s.until("bestmove ", second)
		if d := time.Since(begin); d > 200*time.Millisecond {
			t.Errorf("stop took %v", d)
		}
	})
	t.Run("waits for stop", func(t *testing.T) {
		s := newSession(t, "plain")
		s.send("position startpos", "go infinite depth 2")
		s.quiet("bestmove", 300*time.Millisecond)
		s.send("stop")
		s.until("bestmove ", second)
	})
	t.Run("no legal move waits for stop", func(t *testing.T) {
		s := newSession(t, "plain")
		s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go infinite")
		s.quiet("bestmove", 200*time.Millisecond)
		s.send("stop")
		if l, _ := s.until("bestmove ", second); l != "bestmove 0000" {
			t.Errorf("%q", l)
		}
	})
	t.Run("quit", func(t *testing.T) {
		s := newSession(t, "plain")
		s.send("go infinite")
		s.quiet("bestmove", 100*time.Millisecond)
		begin := time.Now()
		s.send("quit")
		if err := s.ended(second); err != nil {
			t.Errorf("Run: %v", err)
		}
		if d := time.Since(begin); d > 300*time.Millisecond {
			t.Errorf("quit took %v", d)
		}
	})
	t.Run("go during a search", func(t *testing.T) {
		s := newSession(t, "plain")
		s.send("go infinite", "position startpos moves e2e4", "go depth 2")
		s.until("bestmove ", second) // the first search's, on being stopped
		s.until("bestmove ", second)
	})
}

func TestEndOfInput(t *testing.T) {
	s := newSession(t, "plain")
	s.send("position startpos", "go depth 5")
	s.in.Close()
	s.until("bestmove ", 5*second) // a finite search completes first
	if err := s.ended(second); err != nil {
		t.Errorf("Run: %v", err)
	}
}

func TestContextCancel(t *testing.T) {
	s := newSession(t, "plain")
	s.send("go infinite")
	s.quiet("bestmove", 50*time.Millisecond)
	s.cancel()
	if err := s.ended(second); !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v", err)
	}
}

func TestNoLegalMove(t *testing.T) {
	s := newSession(t, "plain")
	s.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 3") // checkmate
	best, lines := s.until("bestmove ", second)
	if best != "bestmove 0000" || !slices.Contains(lines, "info depth 0 score mate 0") {
		t.Errorf("%q after %q", best, lines)
	}
}

func TestSetOption(t *testing.T) {
	s := newSession(t, "plain")
	nodes := func(spec string) string {
		t.Helper()
		s.send("ucinewgame", "position startpos moves d2d4 d7d5", "go depth 5")
		_, lines := s.until("bestmove ", 5*second)
		want := reference(t, spec, board.StartFEN, []string{"d2d4", "d7d5"}, engines.Limits{Depth: 5})
		last := lines[len(lines)-1]
		if !strings.Contains(last, fmt.Sprintf(" nodes %d ", want.Info.Nodes)) {
			t.Errorf("%s: last info %q, want nodes %d", spec, last, want.Info.Nodes)
		}
		return last
	}
	plain := nodes("plain")
	s.send("setoption name Variant value fhr")
	if fhr := nodes("fhr"); fhr == plain {
		t.Errorf("fhr searched like plain: %q", fhr)
	}
	s.send("setoption name variant value NMR-R3-4", "setoption name DR value 2", "setoption name Hash value 8", "setoption name Threads value 1")
	nodes("nmr-r3-4:dr=2")
	s.send("setoption name Variant value plain", "setoption name fhr value true", "setoption name fhr-margin value 50")
	nodes("plain:fhr=true:fhr-margin=50")
	s.send("uci")
	_, lines := s.until("uciok", second)
	for _, want := range []string{
		"option name Hash type spin default 8 min 1 max 65536",
		"option name fhr type check default true",
		"option name fhr-margin type spin default 50 min 0 max 100000",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("uci after setoption lacks %q", want)
		}
	}
}

func TestBadInput(t *testing.T) {
	s := newSession(t, "plain")
	errLine := func(cmd, want string) {
		t.Helper()
		s.send(cmd, "isready")
		_, lines := s.until("readyok", second)
		if !slices.ContainsFunc(lines, func(l string) bool {
			return strings.HasPrefix(l, "info string error: ") && strings.Contains(l, want)
		}) {
			t.Errorf("%q: got %q, want an info string error with %q", cmd, lines, want)
		}
	}
	errLine("setoption name Contempt value 10", `no option "Contempt"`)
	errLine("setoption name Hash value 0", "Hash")
	errLine("setoption name Hash value lots", "Hash")
	if phys := sysmem.PhysicalMiB(); phys > 0 && phys < 65536 {
		// Past the machine's memory: refused, not allocated at isready
		// (Go's out of memory kills the process).
		errLine(fmt.Sprintf("setoption name Hash value %d", phys+1), "more than this machine's physical memory")
	}
	errLine("setoption name dr value 9", "dr")
	errLine("setoption name Threads value 4", "single-threaded")
	errLine("setoption name fhr value maybe", "fhr")
	errLine("setoption name Variant value best", "best")
	errLine("setoption", "setoption")
	errLine("position fen not/a/fen w - -", "position unchanged")
	errLine("position startpos moves e2e4 e2e4", "position unchanged")
	errLine("position sideways", "position unchanged")

	s.send("position startpos moves e2e4")
	errLine("position startpos moves e2e5", "position unchanged")
	s.send("go depth 1")
	best, _ := s.until("bestmove ", second)
	b := board.New()
	_ = b.ApplyUCI([]string{"e2e4"})
	if _, err := b.ParseUCI(strings.TrimPrefix(best, "bestmove ")); err != nil {
		t.Errorf("after a bad position command: %q is not a move of the previous position: %v", best, err)
	}

	s.send("go depth x nodes 50")
	_, lines := s.until("bestmove ", second)
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, `depth "x" is not a number`) }) {
		t.Errorf("go depth x: %q", lines)
	}

	// Options the search cannot run with: reported, and no search.
	s.send("setoption name null value standard", "go depth 2")
	best, lines = s.until("bestmove ", second)
	if best != "bestmove 0000" || !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info string error: options") }) {
		t.Errorf("invalid options: %q after %q", best, lines)
	}
	s.send("setoption name r value 2~3", "go depth 2")
	if best, _ = s.until("bestmove ", second); best == "bestmove 0000" {
		t.Errorf("after fixing r: %q", best)
	}

	// Unknown commands and tokens are ignored.
	s.send("", "   ", "xyzzy", "joho isready")
	s.until("readyok", second)
	s.send("stop", "ponderhit", "debug on", "isready")
	s.until("readyok", second)
}

func TestNewRejects(t *testing.T) {
	if _, err := New("best", 16); err == nil {
		t.Error("New(best): no error")
	}
	if _, err := New("plain", 0); err == nil {
		t.Error("New(plain, 0): no error")
	}
	if _, err := New("plain:null=standard", 16); err == nil {
		t.Error("New with null move and no r: no error")
	}
}

func TestParseGo(t *testing.T) {
	g, errs := parseGo(strings.Fields("wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 0 nodes 12 movetime 0 ponder infinite searchmoves e2e4 d2d4 mate 2"))
	c := g.lim.Clock
	if c == nil || c.WhiteTime != time.Second || c.BlackTime != 0 || c.WhiteInc != 10*time.Millisecond || c.BlackInc != 20*time.Millisecond || c.MovesToGo != 7 {
		t.Errorf("clock %+v", c)
	}
	if g.lim.Depth != 3 || g.lim.Nodes != 12 || g.lim.MoveTime != time.Millisecond || !g.infinite || len(errs) != 3 ||
		!strings.Contains(errs[0].Error(), "depth 0 is out of range") || !strings.Contains(errs[1].Error(), "movetime 0 is out of range") ||
		!strings.Contains(errs[2].Error(), "searchmoves is not supported") {
		t.Errorf("parseGo: %+v, %v", g, errs)
	}
}

// Limits below 1 are reported and searched as 1, never silently and never
// as an unbounded search.
func TestParseGoOutOfRange(t *testing.T) {
	cases := []struct {
		args string
		want engines.Limits
	}{
		{"nodes -1", engines.Limits{Nodes: 1}},
		{"nodes 0", engines.Limits{Nodes: 1}},
		{"depth -3", engines.Limits{Depth: 1}},
		{"movetime -10", engines.Limits{MoveTime: time.Millisecond}},
		{"mate 0", engines.Limits{Depth: 1}},
	}
	for _, c := range cases {
		g, errs := parseGo(strings.Fields(c.args))
		if g.lim.Depth != c.want.Depth || g.lim.Nodes != c.want.Nodes || g.lim.MoveTime != c.want.MoveTime {
			t.Errorf("parseGo(%q) = %+v, want %+v", c.args, g.lim, c.want)
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "out of range") {
			t.Errorf("parseGo(%q): errors %v, want one saying out of range", c.args, errs)
		}
	}
}

// searchmoves skips the moves after it and nothing else: the keywords that
// follow (some of which start with a file letter) still count.
func TestParseGoSearchMoves(t *testing.T) {
	cases := []struct {
		args string
		want goArgs
	}{
		{"searchmoves e2e4 depth 3", goArgs{lim: engines.Limits{Depth: 3}}},
		{"searchmoves e2e4 d7d8q g1f3 depth 5 nodes 9", goArgs{lim: engines.Limits{Depth: 5, Nodes: 9}}},
		{"searchmoves e1g1 btime 900 binc 30 wtime 800 winc 20", goArgs{lim: engines.Limits{Clock: &engines.Clock{
			WhiteTime: 800 * time.Millisecond, BlackTime: 900 * time.Millisecond, WhiteInc: 20 * time.Millisecond, BlackInc: 30 * time.Millisecond}}}},
		{"searchmoves depth 4", goArgs{lim: engines.Limits{Depth: 4}}},
		{"depth 2 searchmoves a2a4 h7h8n infinite", goArgs{lim: engines.Limits{Depth: 2}, infinite: true}},
		{"searchmoves e2e4 movetime 40", goArgs{lim: engines.Limits{MoveTime: 40 * time.Millisecond}}},
	}
	for _, c := range cases {
		g, errs := parseGo(strings.Fields(c.args))
		gc, wc := g.lim.Clock, c.want.lim.Clock
		g.lim.Clock, c.want.lim.Clock = nil, nil
		if (gc == nil) != (wc == nil) || (gc != nil && *gc != *wc) {
			t.Errorf("parseGo(%q): clock %+v, want %+v", c.args, gc, wc)
		}
		if g.infinite != c.want.infinite || g.lim.Depth != c.want.lim.Depth || g.lim.Nodes != c.want.lim.Nodes || g.lim.MoveTime != c.want.lim.MoveTime {
			t.Errorf("parseGo(%q) = %+v, want %+v", c.args, g, c.want)
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "searchmoves") {
			t.Errorf("parseGo(%q): errors %v, want the one on searchmoves", c.args, errs)
		}
	}
}

// go searchmoves e2e4 depth 3 searches to depth 3 (and not without limit).
func TestGoSearchMovesDepth(t *testing.T) {
	s := newSession(t, "plain")
	s.send("position startpos", "go searchmoves e2e4 depth 3")
	best, lines := s.until("bestmove ", 5*second)
	want := reference(t, "plain", board.StartFEN, nil, engines.Limits{Depth: 3})
	if best != "bestmove "+want.Move.UCI() {
		t.Errorf("%q, want bestmove %s", best, want.Move.UCI())
	}
	if !slices.Contains(lines, "info string error: go: searchmoves is not supported; searching all moves") {
		t.Errorf("no error line for searchmoves: %q", lines)
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "info depth 3 ") || !strings.Contains(last, fmt.Sprintf(" nodes %d ", want.Info.Nodes)) {
		t.Errorf("last info %q, want depth 3 and nodes %d", last, want.Info.Nodes)
	}
}

func TestFormatInfo(t *testing.T) {
	i := engines.Info{Depth: 7, SelDepth: 11, Score: 35, Nodes: 30000, Elapsed: 1500 * time.Millisecond, PV: []string{"e2e4", "e7e5"}}
	if got, want := FormatInfo(i), "info depth 7 seldepth 11 score cp 35 nodes 30000 nps 20000 time 1500 pv e2e4 e7e5"; got != want {
		t.Errorf("FormatInfo = %q, want %q", got, want)
	}
	i.PV, i.Elapsed = nil, 0
	if got, want := FormatInfo(i), "info depth 7 seldepth 11 score cp 35 nodes 30000 nps 0 time 0"; got != want {
		t.Errorf("FormatInfo without pv = %q, want %q", got, want)
	}
	if n := NPS(1000, -time.Second); n != 0 {
		t.Errorf("NPS over a negative time = %d", n)
	}
}

// A GUI sends back the empty default of r unchanged: accepted while r has no
// value, an error once it has one.
func TestEmptyStringOption(t *testing.T) {
	s := newSession(t, "plain")
	s.send("setoption name r value <empty>", "isready")
	if _, lines := s.until("readyok", second); len(lines) != 0 {
		t.Errorf("r = <empty> with null move off: %q", lines)
	}
	s.send("setoption name Variant value null-r3", "setoption name r value <empty>", "isready")
	if _, lines := s.until("readyok", second); !slices.ContainsFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "info string error: setoption r: ")
	}) {
		t.Errorf("r = <empty> with r = 3: %q", lines)
	}
	s.send("uci")
	if _, lines := s.until("uciok", second); !slices.Contains(lines, "option name r type string default 3") {
		t.Errorf("r changed by a rejected setoption: %q", lines)
	}
}
