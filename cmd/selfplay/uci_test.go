package main

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/local"
	"selfplay/engines/search"
	"selfplay/engines/uci"
)

func TestUCICommand(t *testing.T) {
	var out, errOut bytes.Buffer
	in := strings.NewReader("uci\nisready\nposition startpos\ngo depth 3\n")
	code := dispatch(context.Background(), env{stdin: in, stdout: &out, stderr: &errOut}, []string{"uci", "-variant", "nmr-r3-4:dr=2", "-hash", "2"})
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	for _, want := range []string{"id name selfplay nmr-r3-4:dr=2\n", "id author selfplay developers\n", "option name Hash type spin default 2 ", "uciok\n", "readyok\n", "info depth 3 ", "bestmove "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, args := range [][]string{{"-variant", "best"}, {"-hash", "0"}, {"extra"}} {
		errOut.Reset()
		if code := dispatch(context.Background(), env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}, append([]string{"uci"}, args...)); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestUCIMatchesInProcess is the protocol's acceptance test: the variant
// played as an external engine through the uci adapter gives exactly the
// moves, scores and node counts of the in-process engine, over successive
// moves of games (transposition table kept within a game, cleared between).
func TestUCIMatchesInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the selfplay binary")
	}
	bin := selfplayBinary(t)
	ctx := context.Background()
	ext, err := uci.Start(ctx, uci.Config{Name: "fhr", Command: bin, Args: []string{"uci", "-variant", "fhr"}, StopTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer ext.Close()
	// The adapter read the server's id name and options: its option check
	// names the engine and lists them.
	_, err = uci.Start(ctx, uci.Config{Name: "fhr", Command: bin, Args: []string{"uci", "-variant", "fhr"},
		Options: []uci.Option{{Name: "Contempt", Value: "1"}}})
	if !errors.Is(err, uci.ErrOption) || !strings.Contains(err.Error(), "is not an option of selfplay fhr") ||
		!strings.Contains(err.Error(), "Hash, Threads, Variant, null, r, ") {
		t.Errorf("unknown option: %v", err)
	}
	loc, err := local.NewVariant("fhr", "fhr", search.DefaultHashMiB) // the server's default
	if err != nil {
		t.Fatal(err)
	}

	games := []struct {
		fen   string
		plies int
		lim   engines.Limits
		mate  int // the first move's score is a mate in this many moves
	}{
		{board.StartFEN, 8, engines.Limits{Nodes: 4000}, 0},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6, engines.Limits{Nodes: 6000}, 0},
		{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, engines.Limits{Nodes: 5000}, 0},
		{"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 2, engines.Limits{Depth: 5}, 1}, // then no legal move
	}
	for _, g := range games {
		ext.NewGame(context.Background())
		loc.NewGame(context.Background())
		var moves []string
		for ply := 0; ply < g.plies; ply++ {
			want, err := loc.Search(ctx, g.fen, moves, g.lim)
			got, extErr := ext.Search(ctx, g.fen, moves, g.lim)
			if extErr != nil {
				t.Fatalf("external %q %v: %v", g.fen, moves, extErr)
			}
			if errors.Is(err, search.ErrNoLegalMove) {
				if got.Move != "0000" {
					t.Errorf("%q after %v: no legal move, but the external engine played %q", g.fen, moves, got.Move)
				}
				break
			}
			if err != nil {
				t.Fatalf("in-process %q %v: %v", g.fen, moves, err)
			}
			w, x := want.Info, got.Info
			if got.Move != want.Move || x.Score != w.Score || x.Nodes != w.Nodes || x.Depth != w.Depth || x.SelDepth != w.SelDepth || !slices.Equal(x.PV, w.PV) {
				t.Fatalf("%q after %v:\nexternal   %s %s nodes %d depth %d/%d pv %v\nin-process %s %s nodes %d depth %d/%d pv %v",
					g.fen, moves, got.Move, x.Score.Pawns(), x.Nodes, x.Depth, x.SelDepth, x.PV,
					want.Move, w.Score.Pawns(), w.Nodes, w.Depth, w.SelDepth, w.PV)
			}
			if ply == 0 && g.mate != 0 && (!x.Score.IsMate() || x.Score.MateMoves() != g.mate) {
				t.Errorf("%q: score %s, want mate %d", g.fen, x.Score.Pawns(), g.mate)
			}
			moves = append(moves, want.Move)
		}
	}
	if n := ext.Restarts(); n != 0 {
		t.Errorf("Restarts = %d", n)
	}
}
