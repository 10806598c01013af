package openings

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"selfplay/engines/board"
)

// sameAsNotnil checks that the fast path, where it takes a game, makes the
// opening notnil's path makes, and reports whether it took it.
func sameAsNotnil(t *testing.T, pg *pgnGame, id string, plies int) bool {
	t.Helper()
	fast, ok := fastPGNOpening(pg.text.String(), id, plies)
	slow, err := pg.notnilOpening(id, plies)
	if !ok {
		return false
	}
	if err != nil {
		t.Errorf("%s plies %d: the fast path made %q; notnil: %v\n%s", id, plies, fast.Name, err, pg.text.String())
	} else if !reflect.DeepEqual(fast, slow) {
		t.Errorf("%s plies %d:\nfast   %#v\nnotnil %#v\n%s", id, plies, fast, slow, pg.text.String())
	}
	return true
}

// eachGame passes the games of a PGN text to f as splitPGN cuts them for
// plies.
func eachGame(t *testing.T, text []byte, plies int, f func(*pgnGame)) {
	t.Helper()
	err := splitPGN(bytes.NewReader(text), "test.pgn", plies, func(pg *pgnGame) error {
		f(pg)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The fast path makes notnil's openings from the committed games (engine
// games from the initial position and from FENs, with mates, promotions
// and draws by rule): every 40th game whole, every 8th at 16 and 0 plies.
func TestFastPGNAsNotnil(t *testing.T) {
	files, err := filepath.Glob("../results/*.pgn.gz")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../results/*/*.pgn.gz")
	files = append(files, more...)
	if len(files) < 8 {
		t.Fatalf("%d results PGNs: the results were not found", len(files))
	}
	// notnil takes about 15 ms a whole game: a sample of them here (all
	// 9,572 agreed when this test was written with every = 1, and all
	// 9,630 once the 2×2 was final).
	every := map[int]int{AllPlies: 40, 16: 8, 0: 8}
	for _, plies := range []int{AllPlies, 16, 0} {
		games, fast := 0, 0
		for _, file := range files {
			text := gunzip(t, file)
			eachGame(t, text, plies, func(pg *pgnGame) {
				if pg.num%every[plies] != 1%every[plies] {
					return
				}
				games++
				if sameAsNotnil(t, pg, fmt.Sprintf("%s#%d", filepath.Base(file), pg.num), plies) {
					fast++
				}
			})
		}
		t.Logf("plies %d: the fast path took %d of %d games", plies, fast, games)
		// Whole games often end in mate or a draw by rule, which the
		// fast path leaves to notnil; their openings do not.
		if want := games * 9 / 10; plies != AllPlies && fast < want || fast < games/4 {
			t.Errorf("plies %d: the fast path took %d of %d games", plies, fast, games)
		}
	}
}

// Games written to try each rule of notnil's reading: the fast path takes
// those it can read exactly as notnil does (fast: true) and gives up on the
// rest, which notnil reads or refuses.
func TestFastPGNCases(t *testing.T) {
	cases := []struct {
		name, pgn string
		fast      bool
	}{
		{"plain", "1. e4 e5 2. Nf3 Nc6 *", true},
		{"numbers glued and black's dots", "1.e4 1...e5 2.Nf3 2... Nc6 *", true},
		{"number without a dot", "1 e4 e5 *", true},
		{"digits glued to a move", "1e4 e5 *", false},
		{"annotations and NAGs", "1. e4! e5?! $1 2. Nf3 += Nc6 -/+ !? *", true},
		// A mate ends every line that writes one: the fast path leaves it.
		{"mate sign as given", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", false},
		{"mate sign left out", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0", false},
		{"check sign left out", "1. e4 f5 2. Qh5 *", true},
		{"mate written as check", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ 1-0", false},
		{"check sign where there is none", "1. e4+ e5 *", false},
		{"check written as mate", "1. e4 f5 2. Qh5# *", false},
		{"check written as check", "1. e4 f5 2. Qh5+ *", true},
		{"castling with a sign it does not give", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O+ *", true},
		{"castling with zeros", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *", true},
		{"long algebraic", "1. e2e4 e7e5 *", false},
		{"piece in long algebraic", "1. Ng1f3 *", false},
		{"promotion without =", "[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. a8Q *", false},
		{"promotion", "[FEN \"8/P6k/8/8/8/8/6r1/K7 w - - 0 1\"]\n\n1. a8=Q *", true},
		{"underpromotion with check", "[FEN \"8/P7/1k6/8/8/8/6r1/K7 w - - 0 1\"]\n\n1. a8=N+ *", true},
		{"underpromotion", "[FEN \"8/P6p/8/8/8/2k5/6r1/K7 w - - 0 1\"]\n\n1. a8=N *", true},
		{"promotion with mate", "[FEN \"k7/4P3/1K6/8/8/8/8/8 w - - 0 1\"]\n\n1. e8=Q# *", false},
		{"en passant", "1. e4 a6 2. e5 d5 3. exd6 *", true},
		{"en passant marked", "1. e4 a6 2. e5 d5 3. exd6e.p. *", false},
		{"knights on one file", "[FEN \"4k3/p7/8/1N6/8/1N6/8/4K3 w - - 0 1\"]\n\n1. N3d4 Kd7 *", true},
		{"knights on one rank", "[FEN \"4k3/p7/8/8/8/1N3N2/8/4K3 w - - 0 1\"]\n\n1. Nbd4 Kd7 *", true},
		{"knights elsewhere", "[FEN \"4k3/p7/8/2N5/8/8/8/4N1K1 w - - 0 1\"]\n\n1. Ncd3 Kd7 *", true},
		{"knights elsewhere, no origin", "[FEN \"4k3/p7/8/2N5/8/8/8/4N1K1 w - - 0 1\"]\n\n1. Nd3 Kd7 *", false},
		{"queens on a file and a rank", "[FEN \"6k1/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1\"]\n\n1. Qa4d4 Kf8 *", true},
		{"queens, origin file only", "[FEN \"6k1/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1\"]\n\n1. Qad4 Kf8 *", false},
		{"unneeded origin", "1. Ngf3 *", false},
		{"pinned knight needs no origin", "[FEN \"4k3/p7/8/8/1b6/2N3N1/8/4K3 w - - 0 1\"]\n\n1. Ne4 Kd7 *", true},
		{"first FEN tag", "[fen \"4k3/8/8/8/8/8/4P3/4K2R w K - 0 1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. O-O *", true},
		{"bad FEN tag", "[FEN \"4k3/8/8 w - - 0 1\"]\n\n1. e4 *", false},
		{"variation", "1. e4 (1. d4 d5) e5 *", false},
		{"illegal move", "1. e5 *", false},
		{"moves after the mate", "1. f3 e5 2. g4 Qh4# 3. a3 *", false},
		{"no queen, rook or pawn", "[FEN \"4k3/8/8/8/8/8/8/2B1K1N1 w - - 0 1\"]\n\n1. Nf3 *", false},
		{"clock near 75 moves", "[FEN \"4k3/8/8/8/8/8/4P3/R3K3 w - - 139 80\"]\n\n1. Ra2 *", false},
		{"third time", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			games := 0
			// fast is for the whole game; a first move alone (plies 1,
			// the rest cut) may be fast where the whole game is not.
			for _, plies := range []int{AllPlies, 1} {
				eachGame(t, []byte(c.pgn+"\n"), plies, func(pg *pgnGame) {
					games++
					if got := sameAsNotnil(t, pg, "case", plies); plies == AllPlies && got != c.fast {
						_, err := pg.notnilOpening("case", plies)
						t.Errorf("fast path %v, want %v (notnil: %v)", got, c.fast, err)
					}
				})
			}
			if games != 2 {
				t.Fatalf("%d games read", games)
			}
		})
	}
}

// newOpening's fast path makes notnil's openings from UCI lines: random
// legal lines of up to 300 plies from positions with castling, en passant
// and promotions near, plus a move that is not legal or not in notnil's
// UCI form at a random ply of every tenth line.
func TestFastOpeningAsNotnil(t *testing.T) {
	starts := []string{
		StandardStartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 60",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	lines, fast := 0, 0
	for i := range 600 {
		start := starts[i%len(starts)]
		b, err := board.FromFEN(start)
		if err != nil {
			t.Fatal(err)
		}
		var uci []string
		var list board.MoveList
		for range rng.IntN(300) {
			b.Generate(&list, board.All)
			if list.N == 0 {
				break
			}
			m := list.Moves[rng.IntN(list.N)]
			uci = append(uci, m.UCI())
			b.MakeMove(m)
		}
		if i%10 == 9 && len(uci) > 0 {
			bad := []string{"e2e5", "E2E4", "e7e8Q", "e1h1", "0000", "a1a1"}
			uci[rng.IntN(len(uci))] = bad[rng.IntN(len(bad))]
		}
		for _, plies := range []int{len(uci), min(len(uci), 8)} {
			lines++
			var on *board.Board // a board of its own, or parseStartFEN's
			if lines%2 == 0 {
				if _, on, err = parseStartFEN(start); err != nil {
					t.Fatal(err)
				}
			}
			o, ok := fastOpening(on, "line", "", start, uci[:plies])
			want, err := notnilOpening("line", "", start, uci[:plies])
			if !ok {
				continue
			}
			fast++
			if err != nil {
				t.Errorf("%s %s: the fast path made %q; notnil: %v", start, uci[:plies], o.Name, err)
			} else if !reflect.DeepEqual(o, want) {
				t.Errorf("%s %s:\nfast   %#v\nnotnil %#v", start, uci[:plies], o, want)
			}
		}
	}
	t.Logf("the fast path took %d of %d lines", fast, lines)
	if fast < lines/3 {
		t.Errorf("the fast path took %d of %d lines", fast, lines)
	}
}

// FuzzFastPGN checks the fast path against notnil on any PGN text that
// splitPGN accepts.
func FuzzFastPGN(f *testing.F) {
	for _, s := range []string{
		"1. e4 e5 2. Nf3 Nc6 *",
		"1.e4 1...e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
		"[FEN \"8/P6k/8/8/8/8/6r1/K7 w - - 0 1\"]\n\n1. a8=Q+ *",
		"1. e4 a6 2. e5 d5 3. exd6 $2 !? 4. O-O+ *",
		"[FEN \"4k3/8/8/1N6/8/1N6/8/4K3 w - - 0 1\"]\n\n1. N3d4 Kd7 *",
	} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, pgn string, plies int) {
		if plies < AllPlies || plies > 40 {
			return
		}
		_ = splitPGN(strings.NewReader(pgn), "fuzz.pgn", plies, func(pg *pgnGame) error {
			if pg.hasMoves {
				sameAsNotnil(t, pg, "fuzz", plies)
			}
			return nil
		})
	})
}

// plainToken accepts only tokens that movetextToken matches (every string
// of up to 5 characters of an alphabet of SAN's kinds of characters), and
// accepts the common ones; isMoveToken, which takes plain tokens without
// the regexp, tells a move from a number as the regexp does.
func TestPlainToken(t *testing.T) {
	const alphabet = "Nae18x=Q+#.9O-!"
	var try func(prefix string)
	accepted := 0
	try = func(prefix string) {
		if plainToken(prefix) {
			accepted++
			m := movetextToken.FindStringSubmatch(prefix)
			if m == nil {
				t.Errorf("plainToken(%q), which movetextToken does not match", prefix)
			} else if isMoveToken(prefix) != (m[2] != "") {
				t.Errorf("isMoveToken(%q) = %v, but movetextToken's move is %q", prefix, isMoveToken(prefix), m[2])
			}
		}
		if len(prefix) == 5 {
			return
		}
		for i := range len(alphabet) {
			try(prefix + alphabet[i:i+1])
		}
	}
	try("")
	for _, tok := range []string{"1.", "12...", "e4", "exd5", "Nf3", "Nbd7", "R1e2", "Qh4e1", "Nxe5+", "e8=Q#", "bxa1=N+", "Kxh8"} {
		if !plainToken(tok) {
			t.Errorf("plainToken(%q) = false", tok)
		}
	}
	if accepted < 500 { // 582 when written
		t.Errorf("plainToken accepted %d tokens of the alphabet's", accepted)
	}
}

// parseStartFEN writes a FEN as notnil does whether or not it takes the
// shortcut past notnil: the positions of the committed games (every 8th
// game after 0 to 40 plies) and FENs written otherwise than canonically.
func TestStartFENAsNotnil(t *testing.T) {
	fens := []string{
		"4k3/8/8/8/8/8/8/4K2R w K - 0 1",
		"4k3/8/8/8/8/8/8/4K2R w K - 00 1",
		"4k3/8/8/8/8/8/8/4K2R w K - 0 01",
		"4k3/8/8/8/8/8/8/4K2R w K - +3 1",
		"22k3/8/8/8/8/8/8/4K2R w K - 0 1",
		"4k3/8/8/8/8/8/8/4K2R w - - 0 1",
		"r3k2r/8/8/8/8/8/8/R3K2R b qkQK - 7 40",
		"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
	}
	text := gunzip(t, "../results/nmr-vs-adaptive.pgn.gz")
	for _, plies := range []int{0, 1, 9, 16, 40} {
		eachGame(t, text, plies, func(pg *pgnGame) {
			if pg.num%8 != 1 {
				return
			}
			o, err := pg.opening("g", plies)
			if err != nil {
				t.Fatal(err)
			}
			fen, err := o.FEN()
			if err != nil {
				t.Fatal(err)
			}
			fens = append(fens, fen)
		})
	}
	shortcuts := 0
	for _, fen := range fens {
		got, _, err := parseStartFEN(fen)
		if err != nil {
			t.Errorf("%s: %v", fen, err)
			continue
		}
		f := strings.Fields(fen)
		f[2] = canonicalCastling(f[2])
		want, err := notnilFEN(strings.Join(f, " "))
		if err != nil || got != want {
			t.Errorf("%s: got %q, notnil %q (%v)", fen, got, want, err)
		}
		if got == strings.Join(f, " ") {
			shortcuts++
		}
	}
	if shortcuts < len(fens)*9/10 {
		t.Errorf("%d of %d FENs came back as written", shortcuts, len(fens))
	}
}

// The fast path copies private behaviour of notnil/chess v1.10.0 (its
// movetext and tag regexps, its SAN variants, its castling rights): a
// change of version must be checked against the whole differential first
// (TestFastPGNAsNotnil with every = 1, FuzzFastPGN) and this test updated.
func TestNotnilVersionOfTheFastPath(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var required []string
	for line := range strings.Lines(string(mod)) {
		f := strings.Fields(line)
		if slices.Contains(f, "github.com/notnil/chess") {
			required = append(required, strings.Join(f, " "))
		}
	}
	if len(required) != 1 || !strings.HasSuffix(required[0], "github.com/notnil/chess v1.10.0") {
		t.Fatalf("go.mod's lines for notnil/chess: %q; the fast path was checked against v1.10.0 alone", required)
	}
}
