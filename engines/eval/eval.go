package eval

import "selfplay/engines/board"

// Mobility: per piece type, weight per reachable square and the count that
// scores zero (an average piece).
var mobilityMG = [7]int{0, 0, 4, 5, 2, 1, 0}
var mobilityEG = [7]int{0, 0, 4, 5, 4, 2, 0}
var mobility = func() (m [7]score) { // the two, packed
	for pt := range m {
		m[pt] = pack(mobilityMG[pt], mobilityEG[pt])
	}
	return m
}()
var mobilityBase = [7]int{0, 0, 4, 6, 6, 12, 0}

// kingAttackWeight counts how dangerous a piece type is near the enemy king.
var kingAttackWeight = [7]int{0, 0, 2, 2, 3, 5, 0}

// Pawn structure, by relative rank (0 = own first rank) for passed pawns.
var passedMG = [8]int{0, 5, 8, 14, 28, 50, 80, 0}
var passedEG = [8]int{0, 10, 14, 24, 45, 75, 120, 0}

const (
	doubledMG, doubledEG   = 10, 20
	isolatedMG, isolatedEG = 12, 14
	bishopPairMG           = 30
	bishopPairEG           = 45
	shieldMissingMG        = 12
	tempo                  = 10
	maxKingDanger          = 400

	// Threat terms of e: a side that attacks enemy pieces gains.
	threatByPawnMG, threatByPawnEG   = 40, 28
	threatByMinorMG, threatByMinorEG = 25, 18 // on rooks and queens
	threatByRookMG, threatByRookEG   = 20, 15 // on queens
	hangingMG, hangingEG             = 18, 14
	hangingPawnMG, hangingPawnEG     = 4, 8
	threatPassed6th, threatPassed7th = 60, 150 // in t: enemy passed pawns close to promotion
)

// The pawn, bishop-pair and threat terms above as pack packs them
// (constants, so written out).
const (
	doubled           = score(doubledMG)<<32 + doubledEG
	isolated          = score(isolatedMG)<<32 + isolatedEG
	bishopPair        = score(bishopPairMG)<<32 + bishopPairEG
	threatByPawn      = score(threatByPawnMG)<<32 + threatByPawnEG
	threatByMinor     = score(threatByMinorMG)<<32 + threatByMinorEG
	threatByRook      = score(threatByRookMG)<<32 + threatByRookEG
	threatHanging     = score(hangingMG)<<32 + hangingEG
	threatHangingPawn = score(hangingPawnMG)<<32 + hangingPawnEG
)

// masks used by the pawn evaluation, read-only after init.
type pawnMasks struct {
	passed   [2][64]board.Bitboard // squares in front on own and adjacent files
	front    [2][64]board.Bitboard // squares in front on the own file
	adjacent [8]board.Bitboard     // the files next to a file
	shield   [2][64]board.Bitboard // two ranks in front of a king, three files
}

var masks = func() *pawnMasks {
	m := &pawnMasks{}
	for f := 0; f < 8; f++ {
		if f > 0 {
			m.adjacent[f] |= board.FileMask(f - 1)
		}
		if f < 7 {
			m.adjacent[f] |= board.FileMask(f + 1)
		}
	}
	for sq := board.Square(0); sq < 64; sq++ {
		f, r := sq.File(), sq.Rank()
		files := board.FileMask(f) | m.adjacent[f]
		var aboveW, belowB board.Bitboard
		for rr := r + 1; rr < 8; rr++ {
			aboveW |= board.RankMask(rr)
		}
		for rr := r - 1; rr >= 0; rr-- {
			belowB |= board.RankMask(rr)
		}
		m.passed[board.White][sq] = files & aboveW
		m.passed[board.Black][sq] = files & belowB
		m.front[board.White][sq] = board.FileMask(f) & aboveW
		m.front[board.Black][sq] = board.FileMask(f) & belowB
		var wShield, bShield board.Bitboard
		for rr := r + 1; rr <= r+2 && rr < 8; rr++ {
			wShield |= board.RankMask(rr)
		}
		for rr := r - 1; rr >= r-2 && rr >= 0; rr-- {
			bShield |= board.RankMask(rr)
		}
		m.shield[board.White][sq] = files & wShield
		m.shield[board.Black][sq] = files & bShield
	}
	return m
}()

// relRank is the rank counted from c's own side (0..7).
func relRank(c board.Color, sq board.Square) int {
	if c == board.White {
		return sq.Rank()
	}
	return 7 - sq.Rank()
}

// Evaluator evaluates with a cache of pawn-structure scores keyed by the
// board's pawn hash. It belongs to one searcher (not safe for concurrent
// use); the cache changes speed, never values.
type Evaluator struct {
	pawns []pawnEntry
}

type pawnEntry struct {
	key    uint64
	sc     score // white minus black
	passed [2]board.Bitboard
}

const pawnCacheEntries = 1 << 13 // 256 KiB

// NewEvaluator returns an evaluator with an empty pawn cache.
func NewEvaluator() *Evaluator {
	return &Evaluator{pawns: make([]pawnEntry, pawnCacheEntries)}
}

// Evaluate is evaluateUncached with the pawn cache.
func (ev *Evaluator) Evaluate(b *board.Board) (e, t int) { return evaluate(b, ev, true) }

// Score is Evaluate's e alone. It skips the threat function, which only
// fail-high reductions read (4.5% of a non-FHR search's time in a CPU
// profile).
func (ev *Evaluator) Score(b *board.Board) int {
	e, _ := evaluate(b, ev, false)
	return e
}

// evaluateUncached returns the static evaluation e from the side to move's
// point of view and the threat value t >= 0 against the side to move
// (Feldmann's t(v)): threatInCheck when in check, otherwise the scored
// threats the evaluation detected. It allocates nothing.
func evaluateUncached(b *board.Board) (e, t int) { return evaluate(b, nil, true) }

// pawnStructure returns the pawns' score (white minus black) and passed pawns.
func (ev *Evaluator) pawnStructure(b *board.Board) (sc score, passed [2]board.Bitboard) {
	var entry *pawnEntry
	if ev != nil {
		key := b.PawnHash()
		entry = &ev.pawns[key&(pawnCacheEntries-1)]
		if entry.key == key {
			return entry.sc, entry.passed
		}
		entry.key = key
	}
	var side [2]score
	for c := board.White; c <= board.Black; c++ {
		passed[c] = evalPawns(b, c, &side[c])
	}
	sc = side[board.White] - side[board.Black]
	if entry != nil {
		entry.sc, entry.passed = sc, passed
	}
	return sc, passed
}

// pieceSums are one side's knight, bishop, rook and queen terms: three
// words, so the compiler keeps them in registers through the loops.
type pieceSums struct {
	sc                score
	attackers, danger int
}

// plus adds a piece of type pt on sq that attacks a, given the side's rows
// of psq, its mobility area and the enemy king's zone.
func (s pieceSums) plus(pt board.PieceType, sq board.Square, a board.Bitboard, row *[7][64]score, area, zone board.Bitboard) pieceSums {
	mob := (a & area).Count() - mobilityBase[pt]
	n := (a & zone).Count()
	return pieceSums{
		sc:        s.sc + row[pt][sq] + mobility[pt]*score(mob),
		attackers: s.attackers + min(n, 1),
		danger:    s.danger + kingAttackWeight[pt]*n,
	}
}

// pieceTerms sums c's knights, bishops, rooks and queens and records their
// attacks by type in att. It is the evaluation's hottest code, so: a
// function of its own, whose few live values stay in registers (inside
// evaluate they did not); one loop per piece type, so that plus inlines
// with the type's table offsets as constants; squares masked with 63, which
// changes nothing but lets the compiler drop the tables' bounds checks.
func pieceTerms(b *board.Board, c board.Color, occ, mobilityArea, zone board.Bitboard, att *[7]board.Bitboard) (ps pieceSums) {
	row := &psq[c]
	for pcs := b.Pieces(c, board.Knight); pcs != 0; pcs &= pcs - 1 {
		sq := pcs.First() & 63
		a := board.KnightAttacks(sq)
		att[board.Knight] |= a
		ps = ps.plus(board.Knight, sq, a, row, mobilityArea, zone)
	}
	for pcs := b.Pieces(c, board.Bishop); pcs != 0; pcs &= pcs - 1 {
		sq := pcs.First() & 63
		a := board.BishopAttacks(sq, occ)
		att[board.Bishop] |= a
		ps = ps.plus(board.Bishop, sq, a, row, mobilityArea, zone)
	}
	for pcs := b.Pieces(c, board.Rook); pcs != 0; pcs &= pcs - 1 {
		sq := pcs.First() & 63
		a := board.RookAttacks(sq, occ)
		att[board.Rook] |= a
		ps = ps.plus(board.Rook, sq, a, row, mobilityArea, zone)
	}
	for pcs := b.Pieces(c, board.Queen); pcs != 0; pcs &= pcs - 1 {
		sq := pcs.First() & 63
		a := board.QueenAttacks(sq, occ)
		att[board.Queen] |= a
		ps = ps.plus(board.Queen, sq, a, row, mobilityArea, zone)
	}
	return ps
}

func evaluate(b *board.Board, ev *Evaluator, withThreat bool) (e, t int) {
	var att [2][7]board.Bitboard // attacks by color and piece type; [c][0] = all
	var sc [2]score              // each side's terms, packed
	var kingAttackers, kingDanger [2]int
	phase := 0
	for pt := board.Knight; pt <= board.Queen; pt++ {
		phase += phaseWeight[pt] * (b.Pieces(board.White, pt) | b.Pieces(board.Black, pt)).Count()
	}
	occ := b.Occupied()
	kings := [2]board.Square{b.King(board.White), b.King(board.Black)}
	var kingZone [2]board.Bitboard
	for c := board.White; c <= board.Black; c++ {
		att[c][board.Pawn] = board.PawnAttacksBB(c, b.Pieces(c, board.Pawn))
		att[c][board.King] = board.KingAttacks(kings[c])
		kingZone[c] = att[c][board.King] | board.SquareBB(kings[c])
	}

	for c := board.White; c <= board.Black; c++ {
		them := c.Other()
		mobilityArea := ^b.Occupancy(c) &^ att[them][board.Pawn]
		ps := pieceTerms(b, c, occ, mobilityArea, kingZone[them], &att[c])
		kingAttackers[c], kingDanger[c] = ps.attackers, ps.danger
		sc[c] += ps.sc + psq[c][board.King][kings[c]]
		if b.Pieces(c, board.Bishop).More() {
			sc[c] += bishopPair
		}
	}
	pawns, passed := ev.pawnStructure(b)
	sc[board.White] += pawns
	for c := board.White; c <= board.Black; c++ {
		att[c][0] = att[c][board.Pawn] | att[c][board.Knight] | att[c][board.Bishop] |
			att[c][board.Rook] | att[c][board.Queen] | att[c][board.King]
	}

	for c := board.White; c <= board.Black; c++ {
		them := c.Other()
		// King safety (middlegame): attacks on the zone around the enemy king,
		// counted only when two or more pieces join in; a missing pawn shield.
		if kingAttackers[c] >= 2 {
			d := kingDanger[c] * kingDanger[c] / 4
			sc[c] += pack(min(d, maxKingDanger), 0)
		}
		k := kings[c]
		if f := k.File(); (f <= 2 || f >= 5) && relRank(c, k) <= 1 {
			have := (masks.shield[c][k] & b.Pieces(c, board.Pawn)).Count()
			sc[c] -= pack(shieldMissingMG*max(0, 3-have), 0)
		}
		// Threats: enemy pieces attacked by our cheaper pieces or left hanging.
		enemyPieces := b.Occupancy(them) &^ b.Pieces(them, board.Pawn) &^ b.Pieces(them, board.King)
		byPawn := (att[c][board.Pawn] & enemyPieces).Count()
		majors := b.Pieces(them, board.Rook) | b.Pieces(them, board.Queen)
		byMinor := ((att[c][board.Knight] | att[c][board.Bishop]) & majors).Count()
		byRook := (att[c][board.Rook] & b.Pieces(them, board.Queen)).Count()
		hanging := att[c][0] &^ att[them][0]
		hp := (hanging & enemyPieces).Count()
		hpawn := (hanging & b.Pieces(them, board.Pawn)).Count()
		sc[c] += threatByPawn*score(byPawn) + threatByMinor*score(byMinor) + threatByRook*score(byRook) +
			threatHanging*score(hp) + threatHangingPawn*score(hpawn)
	}

	if phase > maxPhase {
		phase = maxPhase
	}
	total := sc[board.White] - sc[board.Black]
	v := (total.mg()*phase + total.eg()*(maxPhase-phase)) / maxPhase
	us := b.Side()
	if us == board.Black {
		v = -v
	}
	v += tempo
	if b.IsInsufficientMaterial() {
		v = 0
	}
	if !withThreat {
		return v, 0
	}
	return v, threat(b, us, &att, passed[us.Other()], kings[us])
}

// evalPawns adds c's pawns (material, tables, structure) to sc and returns
// c's passed pawns.
func evalPawns(b *board.Board, c board.Color, sc *score) board.Bitboard {
	own := b.Pieces(c, board.Pawn)
	enemy := b.Pieces(c.Other(), board.Pawn)
	var passed board.Bitboard
	for p := own; p != 0; p &= p - 1 {
		sq := p.First()
		*sc += psq[c][board.Pawn][sq]
		if masks.front[c][sq]&own != 0 {
			*sc -= doubled
		}
		if masks.adjacent[sq.File()]&own == 0 {
			*sc -= isolated
		}
		if masks.passed[c][sq]&enemy == 0 && masks.front[c][sq]&own == 0 {
			passed |= board.SquareBB(sq)
			r := relRank(c, sq)
			*sc += pack(passedMG[r], passedEG[r])
		}
	}
	return passed
}

// threat is Feldmann's t(v) for the side to move us, scored from the attack
// maps the evaluation already built: our pieces attacked by cheaper enemy
// pieces (the difference in value) or attacked and undefended (the full
// value); when two or more are threatened at once, the second threat is
// added too (a double attack cannot be parried with one move); plus enemy
// passed pawns on their 6th and 7th ranks.
func threat(b *board.Board, us board.Color, att *[2][7]board.Bitboard, enemyPassed board.Bitboard, king board.Square) int {
	them := us.Other()
	if att[them][0].Has(king) {
		return threatInCheck
	}
	first, second := 0, 0
	targets := b.Occupancy(us) &^ b.Pieces(us, board.King) & att[them][0]
	for ; targets != 0; targets &= targets - 1 {
		sq := targets.First()
		v := pieceValue[b.PieceAt(sq).Type()]
		th := 0
		var cheapest int
		switch {
		case att[them][board.Pawn].Has(sq):
			cheapest = pieceValue[board.Pawn]
		case (att[them][board.Knight] | att[them][board.Bishop]).Has(sq):
			cheapest = pieceValue[board.Knight]
		case att[them][board.Rook].Has(sq):
			cheapest = pieceValue[board.Rook]
		case att[them][board.Queen].Has(sq):
			cheapest = pieceValue[board.Queen]
		default: // only the king attacks it
			cheapest = v
		}
		if cheapest < v {
			th = v - cheapest
		}
		if !att[us][0].Has(sq) {
			th = v
		}
		if th > first {
			first, second = th, first
		} else if th > second {
			second = th
		}
	}
	t := first + second
	for p := enemyPassed; p != 0; p &= p - 1 {
		switch relRank(them, p.First()) {
		case 5:
			t += threatPassed6th
		case 6:
			t += threatPassed7th
		}
	}
	return t
}

// Material returns the plain material balance from the side to move's point
// of view (Ye & Marsland's "material merit").
func Material(b *board.Board) int {
	s := 0
	for pt := board.Pawn; pt <= board.Queen; pt++ {
		s += pieceValue[pt] * (b.Pieces(board.White, pt).Count() - b.Pieces(board.Black, pt).Count())
	}
	if b.Side() == board.Black {
		return -s
	}
	return s
}
