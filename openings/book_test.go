package openings

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"selfplay/internal/tooltest"
)

// bookPGN are games whose first plies reach what the committed games do
// not: both castlings of both sides (Polyglot writes them king-takes-rook)
// and an en-passant capture, each in a game its side wins or draws, so
// that make-book gives its moves a weight.
const bookPGN = `[Event "castling short"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O 6. Bg5 d6 1-0

[Event "castling long"]
[Result "1/2-1/2"]

1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O 1/2-1/2

[Event "en passant"]
[Result "1-0"]

1. e4 Nf6 2. e5 d5 3. exd6 e6 1-0

`

// bookMaxPly is make-book's -max-ply for the test book.
const bookMaxPly = 12

// makeBook writes bookPGN and the 50 games of results/fhr-vs-plain.pgn.gz
// to a PGN and has Debian's polyglot make a book of their first
// bookMaxPly plies (-min-game 1: every move played counts). It returns
// the polyglot binary and the book's path.
func makeBook(t *testing.T) (string, string) {
	t.Helper()
	polyglot := tooltest.Find(t, "polyglot", "polyglot")
	dir := t.TempDir()
	pgn := filepath.Join(dir, "games.pgn")
	out, err := os.Create(pgn)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.WriteString(out, bookPGN); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(filepath.Join("..", "results", "fhr-vs-plain.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "games.bin")
	cmd := exec.Command(polyglot, "make-book", "-pgn", pgn, "-bin", bin, "-max-ply", strconv.Itoa(bookMaxPly), "-min-game", "1")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("polyglot make-book: %v\n%s", err, b)
	}
	return polyglot, bin
}

// dumpMoves reads a book through polyglot's own reader: "polyglot
// dump-book -color C" writes every line of the book for side C, each move
// of C with its share of the position's book weight ("e4{39%}"), and the
// opponent's book replies. It returns, by position key (this package's
// polyglotKey of the position the moves were replayed to), the position
// and the moves of the side to move that carry a share, with the share in
// percent.
func dumpMoves(t *testing.T, polyglot, bin string) map[uint64]*dumpPosition {
	t.Helper()
	trans := regexp.MustCompile(`\{(trans|cycle):[^}]*\}`)
	token := regexp.MustCompile(`^([^{]+)(?:\{(\d+)%\})?$`)
	moves := map[uint64]*dumpPosition{}
	for _, color := range []string{"white", "black"} {
		dump := filepath.Join(t.TempDir(), color+".txt")
		cmd := exec.Command(polyglot, "dump-book", "-bin", bin, "-color", color, "-out", dump)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("polyglot dump-book: %v\n%s", err, b)
		}
		text, err := os.ReadFile(dump)
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, line := range strings.Split(string(text), "\n") {
			head, rest, ok := strings.Cut(line, ": ")
			if _, err := strconv.Atoi(head); !ok || err != nil {
				continue // the title line
			}
			lines++
			g := chess.NewGame()
			for _, tok := range strings.Fields(trans.ReplaceAllString(rest, "")) {
				if strings.HasSuffix(tok, ".") {
					continue // a move number
				}
				m := token.FindStringSubmatch(tok)
				if m == nil {
					t.Fatalf("dump-book %s: token %q in %q", color, tok, line)
				}
				pos := g.Position()
				mv, err := chess.AlgebraicNotation{}.Decode(pos, m[1])
				if err != nil {
					t.Fatalf("dump-book %s: %q in %q: %v", color, m[1], line, err)
				}
				if m[2] != "" {
					pct, _ := strconv.Atoi(m[2])
					key := polyglotKey(pos)
					if moves[key] == nil {
						moves[key] = &dumpPosition{pos: pos, moves: map[string]int{}}
					}
					moves[key].moves[mv.String()] = pct
				}
				if err := g.Move(mv); err != nil {
					t.Fatal(err)
				}
			}
		}
		if lines < 10 {
			t.Fatalf("dump-book %s: %d lines, want the book's lines:\n%s", color, lines, text)
		}
	}
	return moves
}

// dumpPosition is a position of polyglot's dump and its book moves (UCI)
// with their shares in percent.
type dumpPosition struct {
	pos   *chess.Position
	moves map[string]int
}

// A book made by Debian's polyglot gives, in every position polyglot's own
// reader shows, the moves that reader shows with the same shares of the
// weight: the keys, the move decoding (castling and en passant included)
// and the binary search agree with polyglot's.
func TestBookAgainstPolyglot(t *testing.T) {
	polyglot, bin := makeBook(t)
	want := dumpMoves(t, polyglot, bin)
	b, _, err := openBook(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer b.f.Close()
	if _, err := b.scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, special := range []string{"e1g1", "e8g8", "e1c1", "e8c8", "e5d6"} {
		found := false
		for _, d := range want {
			_, ok := d.moves[special]
			found = found || ok
		}
		if !found {
			t.Errorf("polyglot's dump has no %s: the test book misses a case", special)
		}
	}
	for key, d := range want {
		entries, err := b.lookup(key)
		if err != nil {
			t.Fatal(err)
		}
		var total float64
		for _, e := range entries {
			total += float64(e.weight)
		}
		got := map[string]float64{}
		for _, e := range entries {
			if e.weight > 0 {
				got[e.move.uci(d.pos)] = 100 * float64(e.weight) / total
			}
		}
		if len(got) != len(d.moves) {
			t.Errorf("%s: book moves %v, polyglot shows %v", d.pos, got, d.moves)
			continue
		}
		for uci, pct := range d.moves {
			if share, ok := got[uci]; !ok || math.Abs(share-float64(pct)) >= 1 {
				t.Errorf("%s: %s has %.1f%% of the weight here, %d%% in polyglot's dump (book moves %v)", d.pos, uci, share, pct, got)
			}
		}
	}
}

// The openings of a book follow polyglot's book moves: with the best
// choice the line of the largest shares, with the weighted choice distinct
// lines of book moves, the same for the same seed.
func TestBookOpenings(t *testing.T) {
	polyglot, bin := makeBook(t)
	want := dumpMoves(t, polyglot, bin)
	// checkLine checks that every move is one of polyglot's book moves and
	// that the line ends only at plies or where the book does.
	checkLine := func(o Opening, plies int, best bool) {
		t.Helper()
		g := chess.NewGame()
		for _, uci := range o.Moves {
			d := want[polyglotKey(g.Position())]
			if d == nil {
				t.Fatalf("%s: %s: no book moves in %s", o.ID, uci, g.Position())
			}
			pct, ok := d.moves[uci]
			if !ok {
				t.Fatalf("%s: %s is not a book move in %s (%v)", o.ID, uci, g.Position(), d.moves)
			}
			for other, p := range d.moves {
				if best && p > pct {
					t.Errorf("%s: %s (%d%%) chosen over %s (%d%%)", o.ID, uci, pct, other, p)
				}
			}
			if _, err := playUCI(g, uci); err != nil {
				t.Fatal(err)
			}
		}
		if len(o.Moves) < plies && want[polyglotKey(g.Position())] != nil {
			t.Errorf("%s: stops after %d plies where the book goes on", o.ID, len(o.Moves))
		}
	}
	best, hash, err := loadHashed(Spec{File: bin, Plies: 8, Choice: ChoiceBest})
	if err != nil {
		t.Fatal(err)
	}
	if len(best) != 1 || len(best[0].Moves) < 4 || best[0].ID != "games.bin#1" || len(hash) != 64 {
		t.Fatalf("best: %+v, hash %q", best, hash)
	}
	checkLine(best[0], 8, true)

	spec := Spec{File: bin, Plies: 10, Choice: ChoiceWeighted, Count: 30, Seed: 1}
	list, err := Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 30 {
		t.Fatalf("%d openings, want 30", len(list))
	}
	lines := map[string]bool{}
	for i, o := range list {
		if o.ID != fmt.Sprintf("games.bin#%d", i+1) || o.StartFEN != StandardStartFEN || len(o.SAN) != len(o.Moves) {
			t.Errorf("opening %d: %+v", i, o)
		}
		line := strings.Join(o.Moves, " ")
		if lines[line] {
			t.Errorf("%s: line %s twice", o.ID, line)
		}
		lines[line] = true
		checkLine(o, 10, false)
	}
	again, err := Load(spec)
	if err != nil || !reflect.DeepEqual(again, list) {
		t.Errorf("the same seed gave other openings (%v)", err)
	}
	spec.Seed = 2
	other, err := Load(spec)
	if err != nil || reflect.DeepEqual(other, list) {
		t.Errorf("seed 2 gave the openings of seed 1 (%v)", err)
	}
	// A book with fewer lines than asked for gives the lines it has.
	spec.Plies, spec.Count = 1, 100
	firsts, err := Load(spec)
	if err != nil || len(firsts) != len(want[polyglotKey(chess.StartingPosition())].moves) {
		t.Errorf("plies 1: %d openings (%v), want one per first move %v", len(firsts), err, want[polyglotKey(chess.StartingPosition())].moves)
	}
}
