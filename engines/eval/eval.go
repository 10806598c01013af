package eval

import "selfplay/engines/board"

// Mobility: per piece type, weight per reachable square and the count that
// scores zero (an average piece).
var mobilityMG = [7]int{0, 0, 4, 5, 2, 1, 0}
var mobilityEG = [7]int{0, 0, 4, 5, 4, 2, 0}
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
	mg, eg int32 // white minus black
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
func (ev *Evaluator) pawnStructure(b *board.Board) (mg, eg int, passed [2]board.Bitboard) {
	var entry *pawnEntry
	if ev != nil {
		key := b.PawnHash()
		entry = &ev.pawns[key&(pawnCacheEntries-1)]
		if entry.key == key {
			return int(entry.mg), int(entry.eg), entry.passed
		}
		entry.key = key
	}
	var m, g [2]int
	for c := board.White; c <= board.Black; c++ {
		passed[c] = evalPawns(b, c, &m[c], &g[c])
	}
	mg, eg = m[board.White]-m[board.Black], g[board.White]-g[board.Black]
	if entry != nil {
		entry.mg, entry.eg, entry.passed = int32(mg), int32(eg), passed
	}
	return mg, eg, passed
}

func evaluate(b *board.Board, ev *Evaluator, withThreat bool) (e, t int) {
	var att [2][7]board.Bitboard // attacks by color and piece type; [c][0] = all
	var mg, eg [2]int
	var kingAttackers, kingDanger [2]int
	phase := 0
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
		for pt := board.Knight; pt <= board.Queen; pt++ {
			for pcs := b.Pieces(c, pt); pcs != 0; pcs &= pcs - 1 {
				sq := pcs.First()
				mg[c] += psq.mg[c][pt][sq]
				eg[c] += psq.eg[c][pt][sq]
				phase += phaseWeight[pt]
				// The switch on the loop's piece type is written out here rather
				// than calling board.Attacks: this is the evaluation's inner
				// loop, and the call costs about 3% of all search instructions.
				var a board.Bitboard
				switch pt {
				case board.Knight:
					a = board.KnightAttacks(sq)
				case board.Bishop:
					a = board.BishopAttacks(sq, occ)
				case board.Rook:
					a = board.RookAttacks(sq, occ)
				default:
					a = board.QueenAttacks(sq, occ)
				}
				att[c][pt] |= a
				mob := (a & mobilityArea).Count() - mobilityBase[pt]
				mg[c] += mobilityMG[pt] * mob
				eg[c] += mobilityEG[pt] * mob
				if z := a & kingZone[them]; z != 0 {
					kingAttackers[c]++
					kingDanger[c] += kingAttackWeight[pt] * z.Count()
				}
			}
		}
		if b.Pieces(c, board.Bishop).More() {
			mg[c] += bishopPairMG
			eg[c] += bishopPairEG
		}
		mg[c] += psq.mg[c][board.King][kings[c]]
		eg[c] += psq.eg[c][board.King][kings[c]]
	}
	pawnMG, pawnEG, passed := ev.pawnStructure(b)
	mg[board.White] += pawnMG
	eg[board.White] += pawnEG
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
			mg[c] += min(d, maxKingDanger)
		}
		k := kings[c]
		if f := k.File(); (f <= 2 || f >= 5) && relRank(c, k) <= 1 {
			have := (masks.shield[c][k] & b.Pieces(c, board.Pawn)).Count()
			mg[c] -= shieldMissingMG * max(0, 3-have)
		}
		// Threats: enemy pieces attacked by our cheaper pieces or left hanging.
		enemyPieces := b.Occupancy(them) &^ b.Pieces(them, board.Pawn) &^ b.Pieces(them, board.King)
		byPawn := (att[c][board.Pawn] & enemyPieces).Count()
		mg[c] += threatByPawnMG * byPawn
		eg[c] += threatByPawnEG * byPawn
		majors := b.Pieces(them, board.Rook) | b.Pieces(them, board.Queen)
		byMinor := ((att[c][board.Knight] | att[c][board.Bishop]) & majors).Count()
		mg[c] += threatByMinorMG * byMinor
		eg[c] += threatByMinorEG * byMinor
		byRook := (att[c][board.Rook] & b.Pieces(them, board.Queen)).Count()
		mg[c] += threatByRookMG * byRook
		eg[c] += threatByRookEG * byRook
		hanging := att[c][0] &^ att[them][0]
		hp := (hanging & enemyPieces).Count()
		mg[c] += hangingMG * hp
		eg[c] += hangingEG * hp
		hpawn := (hanging & b.Pieces(them, board.Pawn)).Count()
		mg[c] += hangingPawnMG * hpawn
		eg[c] += hangingPawnEG * hpawn
	}

	if phase > maxPhase {
		phase = maxPhase
	}
	mgScore := mg[board.White] - mg[board.Black]
	egScore := eg[board.White] - eg[board.Black]
	score := (mgScore*phase + egScore*(maxPhase-phase)) / maxPhase
	us := b.Side()
	if us == board.Black {
		score = -score
	}
	score += tempo
	if b.IsInsufficientMaterial() {
		score = 0
	}
	if !withThreat {
		return score, 0
	}
	return score, threat(b, us, &att, passed[us.Other()], kings[us])
}

// evalPawns scores c's pawns (material, tables, structure) into mg/eg and
// returns c's passed pawns.
func evalPawns(b *board.Board, c board.Color, mg, eg *int) board.Bitboard {
	own := b.Pieces(c, board.Pawn)
	enemy := b.Pieces(c.Other(), board.Pawn)
	var passed board.Bitboard
	for p := own; p != 0; p &= p - 1 {
		sq := p.First()
		*mg += psq.mg[c][board.Pawn][sq]
		*eg += psq.eg[c][board.Pawn][sq]
		if masks.front[c][sq]&own != 0 {
			*mg -= doubledMG
			*eg -= doubledEG
		}
		if masks.adjacent[sq.File()]&own == 0 {
			*mg -= isolatedMG
			*eg -= isolatedEG
		}
		if masks.passed[c][sq]&enemy == 0 && masks.front[c][sq]&own == 0 {
			passed |= board.SquareBB(sq)
			r := relRank(c, sq)
			*mg += passedMG[r]
			*eg += passedEG[r]
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
