package board

// Attack tables, computed once at package initialisation and read-only
// afterwards. Sliding pieces use "fancy" magic bitboards whose magic numbers
// are found at start-up from a fixed-seed generator, so the tables are the
// same on every run without a page of constants in the source.

type magic struct {
	mask   Bitboard
	magic  uint64
	shift  uint8
	offset uint32
}

type attackTables struct {
	knight  [64]Bitboard
	king    [64]Bitboard
	pawn    [2][64]Bitboard // squares attacked by a pawn of the color on the square
	rookM   [64]magic
	bishopM [64]magic
	slider  []Bitboard // shared storage for rook and bishop magic lookups
	between [64][64]Bitboard
	line    [64][64]Bitboard
}

var tables = buildTables()

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return tables.knight[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return tables.king[s] }

// PawnAttacks returns the squares a pawn of color c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return tables.pawn[c][s] }

// RookAttacks returns the squares a rook on s attacks given the occupancy.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &tables.rookM[s]
	return tables.slider[m.offset+uint32((uint64(occ&m.mask)*m.magic)>>m.shift)]
}

// BishopAttacks returns the squares a bishop on s attacks given the occupancy.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &tables.bishopM[s]
	return tables.slider[m.offset+uint32((uint64(occ&m.mask)*m.magic)>>m.shift)]
}

// QueenAttacks returns the squares a queen on s attacks given the occupancy.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// Between returns the squares strictly between a and b when they share a
// rank, file or diagonal, else the empty set.
func Between(a, b Square) Bitboard { return tables.between[a][b] }

// Line returns the whole line (rank, file or diagonal) through a and b, or
// the empty set when they are not aligned.
func Line(a, b Square) Bitboard { return tables.line[a][b] }

// PawnAttacksBB returns the squares attacked by the pawns of color c.
func PawnAttacksBB(c Color, pawns Bitboard) Bitboard {
	if c == White {
		return (pawns&^FileA)<<7 | (pawns&^FileH)<<9
	}
	return (pawns&^FileA)>>9 | (pawns&^FileH)>>7
}

var rookDirs = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
var bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

// slowSlider walks the rays; used only to build the tables.
func slowSlider(s Square, occ Bitboard, dirs *[4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for onBoard(f, r) {
			sq := MakeSquare(f, r)
			att |= SquareBB(sq)
			if occ.Has(sq) {
				break
			}
			f += d[0]
			r += d[1]
		}
	}
	return att
}

// sliderMask is the relevant-occupancy mask: the rays without their last square.
func sliderMask(s Square, dirs *[4][2]int) Bitboard {
	var m Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for onBoard(f+d[0], r+d[1]) {
			m |= SquareBB(MakeSquare(f, r))
			f += d[0]
			r += d[1]
		}
	}
	return m
}

type splitmix struct{ s uint64 }

func (g *splitmix) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func buildTables() *attackTables {
	t := &attackTables{}
	for s := Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if onBoard(f+d[0], r+d[1]) {
				t.knight[s] |= SquareBB(MakeSquare(f+d[0], r+d[1]))
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if (df != 0 || dr != 0) && onBoard(f+df, r+dr) {
					t.king[s] |= SquareBB(MakeSquare(f+df, r+dr))
				}
			}
		}
		t.pawn[White][s] = PawnAttacksBB(White, SquareBB(s))
		t.pawn[Black][s] = PawnAttacksBB(Black, SquareBB(s))
	}
	rng := splitmix{s: 0x5e1f91a7}
	t.slider = make([]Bitboard, 0, 107648)
	for s := Square(0); s < 64; s++ {
		t.rookM[s] = findMagic(t, s, &rookDirs, &rng)
	}
	for s := Square(0); s < 64; s++ {
		t.bishopM[s] = findMagic(t, s, &bishopDirs, &rng)
	}
	for a := Square(0); a < 64; a++ {
		for _, dirs := range []*[4][2]int{&rookDirs, &bishopDirs} {
			for _, d := range dirs {
				var ray Bitboard
				f, r := a.File()+d[0], a.Rank()+d[1]
				for onBoard(f, r) {
					b := MakeSquare(f, r)
					t.between[a][b] = ray
					ray |= SquareBB(b)
					f += d[0]
					r += d[1]
				}
			}
			for b := Square(0); b < 64; b++ {
				if a == b {
					continue
				}
				if slowSlider(a, 0, dirs).Has(b) {
					t.line[a][b] = fullLine(a, b, dirs)
				}
			}
		}
	}
	return t
}

// fullLine is the complete line through a and b in the direction set that joins them.
func fullLine(a, b Square, dirs *[4][2]int) Bitboard {
	for _, d := range dirs {
		var ray Bitboard
		f, r := a.File()+d[0], a.Rank()+d[1]
		hit := false
		for onBoard(f, r) {
			sq := MakeSquare(f, r)
			ray |= SquareBB(sq)
			if sq == b {
				hit = true
			}
			f += d[0]
			r += d[1]
		}
		if !hit {
			continue
		}
		f, r = a.File()-d[0], a.Rank()-d[1]
		for onBoard(f, r) {
			ray |= SquareBB(MakeSquare(f, r))
			f -= d[0]
			r -= d[1]
		}
		return ray | SquareBB(a)
	}
	return 0
}

func findMagic(t *attackTables, s Square, dirs *[4][2]int, rng *splitmix) magic {
	mask := sliderMask(s, dirs)
	n := mask.Count()
	size := 1 << n
	occs := make([]Bitboard, size)
	refs := make([]Bitboard, size)
	var sub Bitboard
	for i := 0; i < size; i++ {
		occs[i] = sub
		refs[i] = slowSlider(s, sub, dirs)
		sub = (sub - mask) & mask
	}
	offset := uint32(len(t.slider))
	t.slider = append(t.slider, make([]Bitboard, size)...)
	table := t.slider[offset:]
	epoch := make([]int, size)
	shift := uint8(64 - n)
	for try := 1; ; try++ {
		cand := rng.next() & rng.next() & rng.next()
		if Bitboard((uint64(mask)*cand)>>56).Count() < 6 {
			continue
		}
		ok := true
		for i := 0; i < size; i++ {
			idx := (uint64(occs[i]) * cand) >> shift
			if epoch[idx] != try {
				epoch[idx] = try
				table[idx] = refs[i]
			} else if table[idx] != refs[i] {
				ok = false
				break
			}
		}
		if ok {
			return magic{mask: mask, magic: cand, shift: shift, offset: offset}
		}
	}
}
