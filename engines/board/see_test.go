package board

import (
	"math/rand/v2"
	"testing"
)

// seeValues are the values the tests count in (the evaluation's plain
// material values; the board package itself knows none).
var seeValues = PieceValues{0, 100, 320, 330, 500, 950, 0}

// TestSEEHandWorked checks SEE against exchanges worked out by hand, each
// built so that a missing rule (x-rays, promotions, en passant, the king
// rule) gives a different number.
func TestSEEHandWorked(t *testing.T) {
	tests := []struct {
		name, fen, move string
		want            int
	}{
		{"undefended pawn", "1k6/8/8/4p3/8/8/8/1K2R3 w - - 0 1", "e1e5", 100},
		{"pawn defended by a pawn", "1k6/8/3p4/4p3/8/8/8/1K2R3 w - - 0 1", "e1e5", 100 - 500},
		{"equal trade", "1k6/8/3p4/4n3/8/5N2/8/1K6 w - - 0 1", "f3e5", 0},
		{"bishop for knight, defended", "1k6/8/3p4/4n3/8/8/1B6/1K6 w - - 0 1", "b2e5", 320 - 330},
		// R e2 with Q e1 behind: RxP RxR QxR, black out of attackers.
		{"x-ray: own queen behind the rook", "1k2r3/8/8/4p3/8/8/4R3/1K2Q3 w - - 0 1", "e2e5", 100},
		// Black's queen behind its rook: RxP RxR RxR QxR, white stops before.
		{"x-ray on both sides", "1k2q3/4r3/8/4p3/8/8/4R3/1K2R3 w - - 0 1", "e2e5", 100 - 500},
		// The black rook on e1 sees e5 once the white rook has left e2.
		{"x-ray through the capturing enemy piece", "4k3/8/8/4p3/8/8/K3R3/4r3 w - - 0 1", "e2e5", 100 - 500},
		// A pawn takes first and uncovers the bishop behind it: PxP NxP BxN.
		{"pawn and bishop battery", "1k6/8/2n5/4p3/3P4/2B5/8/1K6 w - - 0 1", "d4e5", 100},
		// The d6 pawn is pinned to the king on f8 by the bishop on a3; SEE ignores pins.
		{"pinned defender still counts", "5k2/8/3p4/4p3/8/B7/8/1K2R3 w - - 0 1", "e1e5", 100 - 500},
		{"capture promotion to a queen, undefended", "r7/1P6/8/8/8/8/8/K6k w - - 0 1", "b7a8q", 500 + 950 - 100},
		{"capture underpromotion to a knight", "r7/1P6/8/8/8/8/8/K6k w - - 0 1", "b7a8n", 500 + 320 - 100},
		{"capture promotion, then the queen is taken", "r7/1P6/1n6/8/8/8/8/K6k w - - 0 1", "b7a8q", 500 - 100},
		{"capture underpromotion, then the knight is taken", "r7/1P6/1n6/8/8/8/8/K6k w - - 0 1", "b7a8n", 500 - 100},
		{"push promotion onto an attacked square", "7r/1P6/8/8/8/8/8/K6k w - - 0 1", "b7b8q", -100},
		// QxN on b8, and the a7 pawn recaptures with promotion.
		{"recapture that promotes", "1N5k/P7/8/8/8/8/7K/1q6 b - - 0 1", "b1b8", 320 - 950 - 850},
		// exd6 e.p. NxP, and the rook on d1 sees d6 through the emptied d5.
		{"en passant opens the file", "k7/1n6/8/3pP3/8/8/8/K2R4 w - d6 0 1", "e5d6", 100},
		{"en passant, defended", "k7/2p5/8/3pP3/8/8/8/K7 w - d6 0 1", "e5d6", 0},
		// RxP, and the king may not take back: the rook on e8 x-rays e2.
		{"king may not recapture a defended piece", "4r2k/4r3/8/8/8/8/4P3/3K4 b - - 0 1", "e7e2", 100},
		{"king recaptures", "7k/4r3/8/8/8/8/4P3/3K4 b - - 0 1", "e7e2", 100 - 500},
		{"king captures", "7k/8/8/8/8/8/4p3/3K4 w - - 0 1", "d1e2", 100},
		{"quiet move onto a square a pawn attacks", "1k6/8/3p4/8/8/5N2/8/1K6 w - - 0 1", "f3e5", -320},
		{"quiet move onto a safe square", "1k6/8/8/8/8/5N2/8/1K6 w - - 0 1", "f3e5", 0},
		{"castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := FromFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := b.ParseUCI(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := b.SEE(m, &seeValues); got != tc.want {
				t.Errorf("SEE(%s) = %d, want %d", tc.move, got, tc.want)
			}
			if got := bruteSEE(mailboxOf(b), m, &seeValues); got != tc.want {
				t.Errorf("brute-force SEE(%s) = %d, want %d (the reference itself is wrong)", tc.move, got, tc.want)
			}
		})
	}
}

// TestSEEAllocatesNothing: SEE is called at most nodes of the search.
func TestSEEAllocatesNothing(t *testing.T) {
	b, err := FromFEN("1k2q3/4r3/8/4p3/8/8/4R3/1K2R3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := b.ParseUCI("e2e5")
	if n := testing.AllocsPerRun(100, func() { b.SEE(m, &seeValues) }); n != 0 {
		t.Errorf("SEE allocates %.0f times per call", n)
	}
}

// TestSEEBruteForce compares SEE, for every legal move of many random
// positions, with an independent reference: a recursive minimax over the
// capture sequence on a mailbox board, walking rays square by square, with
// the same rules (least valuable attacker, lower square first among equals,
// either side may stop, promotion to a queen, the king rule). The positions
// are random playouts (real games' structures, en passant) and random piece
// placements (batteries and x-rays in numbers games rarely have).
func TestSEEBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 2024))
	var (
		l                                      MoveList
		moves, captures, ep, promos            int
		xrays, kingStops, recapturePromos, any int
	)
	check := func(b *Board) {
		b.Generate(&l, All)
		mb := mailboxOf(b)
		for _, m := range l.Slice() {
			got := b.SEE(m, &seeValues)
			want := bruteSEE(mb, m, &seeValues)
			if got != want {
				t.Fatalf("%s: SEE(%s) = %d, brute force %d", b.FEN(), m, got, want)
			}
			moves++
			if b.PieceAt(m.To()) != NoPiece || m.IsEnPassant() {
				captures++
				if anyOrderSEE(mb, m, &seeValues) != want {
					any++
				}
			}
			if m.IsEnPassant() {
				ep++
			}
			if m.Promotion() != NoPieceType {
				promos++
			}
			st := exchangeStats(mb, m, &seeValues)
			xrays += st.xrays
			kingStops += st.kingStops
			recapturePromos += st.promotions
		}
	}
	for game := 0; game < 300; game++ {
		b, err := FromFEN(perftPositions[game%len(perftPositions)].fen)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 120; ply++ {
			check(b)
			if t.Failed() || l.N == 0 {
				break
			}
			b.MakeMove(l.Moves[rng.IntN(l.N)])
		}
	}
	for i := 0; i < 20000; i++ {
		check(randomPlacement(rng))
		if t.Failed() {
			return
		}
	}
	t.Logf("%d moves: %d captures (%d en passant), %d promotions; %d x-ray attackers, %d king stops, %d promoting recaptures; "+
		"%d captures (%.2f%%) where the best order of recaptures differs from least valuable first",
		moves, captures, ep, promos, xrays, kingStops, recapturePromos, any, 100*float64(any)/float64(max(captures, 1)))
	// The positions must exercise every rule, or the agreement proves little.
	for _, c := range []struct {
		what     string
		n, least int
	}{{"captures", captures, 100000}, {"en passant captures", ep, 200}, {"promotions", promos, 5000},
		{"x-ray attackers", xrays, 20000}, {"king stops", kingStops, 1000}, {"promoting recaptures", recapturePromos, 1000}} {
		if c.n < c.least {
			t.Errorf("only %d %s compared, want at least %d", c.n, c.what, c.least)
		}
	}
}

// randomPlacement returns a random position: two kings and up to 24 other
// pieces anywhere (pawns off the back ranks), a third of the time with an
// en-passant capture ready; retried until FromFEN accepts it.
func randomPlacement(rng *rand.Rand) *Board {
	for {
		var sq [64]Piece
		var reserved Bitboard // squares that stay empty
		place := func(p Piece, s Square) bool {
			if sq[s] != NoPiece || reserved.Has(s) || p.Type() == Pawn && (s.Rank() == 0 || s.Rank() == 7) {
				return false
			}
			sq[s] = p
			return true
		}
		side := Color(rng.IntN(2))
		ep := "-"
		if rng.IntN(3) == 0 {
			// An en-passant capture ready: the opponent's pawn has just
			// crossed two empty squares next to a pawn of the side to move.
			file := rng.IntN(8)
			by := file + 1
			if file == 7 || file > 0 && rng.IntN(2) == 0 {
				by = file - 1
			}
			rank, dir := 4, 1 // white to move: the black pawn stands on rank 5, came from rank 7
			if side == Black {
				rank, dir = 3, -1
			}
			place(makePiece(side.Other(), Pawn), MakeSquare(file, rank))
			place(makePiece(side, Pawn), MakeSquare(by, rank))
			behind := MakeSquare(file, rank+dir)
			reserved |= SquareBB(behind) | SquareBB(MakeSquare(file, rank+2*dir))
			ep = behind.String()
		}
		for _, p := range []Piece{makePiece(White, King), makePiece(Black, King)} {
			for !place(p, Square(rng.IntN(64))) {
			}
		}
		for n := 2 + rng.IntN(23); n > 0; n-- {
			place(makePiece(Color(rng.IntN(2)), PieceType(1+rng.IntN(5))), Square(rng.IntN(64)))
		}
		fen := placementFEN(&sq) + map[Color]string{White: " w ", Black: " b "}[side] + "- " + ep + " 0 1"
		if b, err := FromFEN(fen); err == nil {
			return b
		}
	}
}

func placementFEN(sq *[64]Piece) string {
	var out []byte
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			p := sq[MakeSquare(file, rank)]
			if p == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				out = append(out, byte('0'+empty))
				empty = 0
			}
			out = append(out, p.letter())
		}
		if empty > 0 {
			out = append(out, byte('0'+empty))
		}
		if rank > 0 {
			out = append(out, '/')
		}
	}
	return string(out)
}

// The reference: a mailbox board and ray walking, sharing nothing with the
// bitboard code but the move encoding and the piece types.

type mailbox [64]Piece

func mailboxOf(b *Board) mailbox {
	var mb mailbox
	for s := Square(0); s < 64; s++ {
		mb[s] = b.PieceAt(s)
	}
	return mb
}

func (mb *mailbox) at(file, rank int) (Piece, bool) {
	if file < 0 || file > 7 || rank < 0 || rank > 7 {
		return NoPiece, false
	}
	return mb[MakeSquare(file, rank)], true
}

// attackers lists the squares of c's pieces that attack to.
func (mb *mailbox) attackers(to Square, c Color) []Square {
	var out []Square
	f, r := to.File(), to.Rank()
	add := func(file, rank int, types ...PieceType) {
		p, ok := mb.at(file, rank)
		if !ok || p == NoPiece || p.Color() != c {
			return
		}
		for _, t := range types {
			if p.Type() == t {
				out = append(out, MakeSquare(file, rank))
			}
		}
	}
	for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
		add(f+d[0], r+d[1], Knight)
	}
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			if df != 0 || dr != 0 {
				add(f+df, r+dr, King)
			}
		}
	}
	pawnRank := r - 1 // a white pawn attacks from one rank below
	if c == Black {
		pawnRank = r + 1
	}
	add(f-1, pawnRank, Pawn)
	add(f+1, pawnRank, Pawn)
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		slider := Rook
		if d[0] != 0 && d[1] != 0 {
			slider = Bishop
		}
		for file, rank := f+d[0], r+d[1]; ; file, rank = file+d[0], rank+d[1] {
			p, ok := mb.at(file, rank)
			if !ok {
				break
			}
			if p != NoPiece {
				add(file, rank, slider, Queen)
				break
			}
		}
	}
	return out
}

// leastValuable picks the attacker SEE's rules take: the lowest piece type,
// then the lowest square.
func (mb *mailbox) leastValuable(squares []Square) Square {
	best := squares[0]
	for _, s := range squares[1:] {
		if t, bt := mb[s].Type(), mb[best].Type(); t < bt || t == bt && s < best {
			best = s
		}
	}
	return best
}

// capture takes on to with the piece on from; it reports the material won
// and whether the capture is allowed (a king may not capture a defended piece).
func (mb *mailbox) capture(from, to Square, v *PieceValues) (gain int, ok bool) {
	p := mb[from]
	gain = v[mb[to].Type()]
	mb[from], mb[to] = NoPiece, p
	if p.Type() == Pawn && (to.Rank() == 0 || to.Rank() == 7) {
		mb[to] = makePiece(p.Color(), Queen)
		gain += v[Queen] - v[Pawn]
	}
	if p.Type() == King && len(mb.attackers(to, p.Color().Other())) > 0 {
		return 0, false
	}
	return gain, true
}

// exchange is what side c can still win on to, capturing first (or not at
// all), by minimax over the capture sequence. With all set, every attacker
// is tried, not only the least valuable.
func (mb mailbox) exchange(to Square, c Color, v *PieceValues, all bool) int {
	atts := mb.attackers(to, c)
	if len(atts) == 0 {
		return 0
	}
	if !all {
		atts = []Square{mb.leastValuable(atts)}
	}
	best := 0 // stop capturing
	for _, from := range atts {
		next := mb
		gain, ok := next.capture(from, to, v)
		if ok {
			best = max(best, gain-next.exchange(to, c.Other(), v, all))
		}
	}
	return best
}

// play makes m's first step on the mailbox and returns the material it wins.
func (mb *mailbox) play(m Move, v *PieceValues) int {
	from, to := m.From(), m.To()
	p := mb[from]
	gain := v[mb[to].Type()]
	if m.IsEnPassant() {
		victim := MakeSquare(to.File(), from.Rank())
		gain = v[mb[victim].Type()]
		mb[victim] = NoPiece
	}
	mb[from], mb[to] = NoPiece, p
	if promo := m.Promotion(); promo != NoPieceType {
		mb[to] = makePiece(p.Color(), promo)
		gain += v[promo] - v[Pawn]
	}
	return gain
}

func bruteSEE(mb mailbox, m Move, v *PieceValues) int {
	return seeBy(mb, m, v, false)
}

// anyOrderSEE is the exchange's value when each side may recapture with any
// of its attackers (SEE's least-valuable-first rule is a heuristic).
func anyOrderSEE(mb mailbox, m Move, v *PieceValues) int {
	return seeBy(mb, m, v, true)
}

func seeBy(mb mailbox, m Move, v *PieceValues, all bool) int {
	if m.IsCastle() {
		return 0
	}
	side := mb[m.From()].Color()
	gain := mb.play(m, v)
	return gain - mb.exchange(m.To(), side.Other(), v, all)
}

// seeStats counts what an exchange exercised, so the random test can prove
// its coverage.
type seeStats struct{ xrays, kingStops, promotions int }

// exchangeStats plays the least-valuable-first sequence to its end (no
// stopping) and counts attackers that were hidden at the start, king
// captures refused, and promoting recaptures.
func exchangeStats(mb mailbox, m Move, v *PieceValues) seeStats {
	var st seeStats
	if m.IsCastle() {
		return st
	}
	to := m.To()
	side := mb[m.From()].Color()
	seen := map[Square]bool{}
	for _, c := range []Color{White, Black} {
		for _, s := range mb.attackers(to, c) {
			seen[s] = true
		}
	}
	mb.play(m, v)
	for c := side.Other(); ; c = c.Other() {
		atts := mb.attackers(to, c)
		if len(atts) == 0 {
			return st
		}
		for _, s := range atts {
			if !seen[s] {
				seen[s] = true
				st.xrays++
			}
		}
		from := mb.leastValuable(atts)
		if mb[from].Type() == Pawn && (to.Rank() == 0 || to.Rank() == 7) {
			st.promotions++
		}
		if _, ok := mb.capture(from, to, v); !ok {
			st.kingStops++
			return st
		}
	}
}

// BenchmarkSEE measures SEE over every capture of the perft positions.
func BenchmarkSEE(b *testing.B) {
	type cs struct {
		board *Board
		moves []Move
	}
	var all []cs
	n := 0
	for _, p := range perftPositions {
		bd, err := FromFEN(p.fen)
		if err != nil {
			b.Fatal(err)
		}
		var l MoveList
		bd.Generate(&l, Noisy)
		all = append(all, cs{bd, append([]Move(nil), l.Slice()...)})
		n += l.N
	}
	b.ResetTimer()
	sum := 0
	for i := 0; i < b.N; i++ {
		for _, c := range all {
			for _, m := range c.moves {
				sum += c.board.SEE(m, &seeValues)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/see")
	_ = sum
}
