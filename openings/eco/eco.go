// Package eco names a game's opening as fastchess 1.8.2 does in its PGN's
// ECO and Opening tags: from lichess's chess-openings table (data/, CC0),
// keyed by the position's EPD, the last position of the game found in it
// winning (app/src/game/pgn/pgn_builder.cpp:122-149).
package eco

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"strings"
	"sync"

	"selfplay/engines/board"
)

//go:embed data/*.tsv
var data embed.FS

// files are the table's files in lichess's order; where two lines reach
// the same position the first one's name is kept.
var files = []string{"a.tsv", "b.tsv", "c.tsv", "d.tsv", "e.tsv"}

// Opening is a table entry: the ECO code and lichess's name.
type Opening struct {
	ECO, Name string
}

// table is the EPD-keyed map, built on first use so that runs without the
// fastchess dialect pay nothing: 3,536 lines replayed in about 30 ms, 3.7 MB
// allocated and about 1 MB kept (BenchmarkBuild, on the 2-core CI machine).
var table = sync.OnceValues(func() (map[string]Opening, error) {
	return build(data, files)
})

// Classify returns the opening of a game that starts at startFEN and plays
// the UCI moves: the entry of the last position along the game, the start
// included, that the table holds, as pgn_builder.cpp:136-146 walks it (every
// position, not only the opening's; a move that is not legal ends the walk).
// ok is false when no position is in the table.
func Classify(startFEN string, moves []string) (o Opening, ok bool, err error) {
	byEPD, err := table()
	if err != nil {
		return Opening{}, false, err
	}
	b, err := board.FromFEN(startFEN)
	if err != nil {
		return Opening{}, false, fmt.Errorf("opening classification: %w", err)
	}
	o, ok = byEPD[epd(b)]
	for _, s := range moves {
		m, err := b.ParseUCI(s)
		if err != nil {
			break // pgn_builder.cpp:139: the walk stops at an illegal move
		}
		b.MakeMove(m)
		if found, in := byEPD[epd(b)]; in {
			o, ok = found, true
		}
	}
	return o, ok, nil
}

// epd is the position as chess-library's Board::getFen(false) writes it,
// fastchess's key: FEN without the move counters, castling as KQkq, and the
// en-passant square only when a pawn can legally take there (makeMove<true>
// keeps ep_sq_ only then, chess.hpp:2113-2153, and setFen drops it
// otherwise, chess.hpp:3449-3463); engines/board writes it after every
// double push.
func epd(b *board.Board) string {
	f := strings.Fields(b.FEN())
	if f[3] != "-" {
		var l board.MoveList
		b.Generate(&l, board.Noisy)
		legal := false
		for _, m := range l.Slice() {
			legal = legal || m.IsEnPassant()
		}
		if !legal {
			f[3] = "-"
		}
	}
	return strings.Join(f[:4], " ")
}

// build reads the TSV files (columns eco, name, pgn, a header line) and
// replays each line's moves from the initial position.
func build(fsys embed.FS, names []string) (map[string]Opening, error) {
	byEPD := make(map[string]Opening, 4096)
	for _, name := range names {
		text, err := fsys.ReadFile("data/" + name)
		if err != nil {
			return nil, fmt.Errorf("opening table: %w", err)
		}
		if err := addFile(byEPD, name, text); err != nil {
			return nil, err
		}
	}
	return byEPD, nil
}

func addFile(byEPD map[string]Opening, name string, text []byte) error {
	b := board.New() // one board for the file: each line is taken back
	sc := bufio.NewScanner(bytes.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "\t")
		if line == 1 || sc.Text() == "" {
			continue // the header: eco, name, pgn
		}
		if len(cols) != 3 {
			return fmt.Errorf("opening table %s:%d: want 3 tab-separated columns, got %d", name, line, len(cols))
		}
		key, err := replay(b, cols[2])
		if err != nil {
			return fmt.Errorf("opening table %s:%d: %w", name, line, err)
		}
		if _, dup := byEPD[key]; !dup {
			byEPD[key] = Opening{ECO: cols[0], Name: cols[1]}
		}
	}
	return sc.Err()
}

// replay plays a line's PGN movetext ("1. e4 e5 2. Nf3") on b, which is
// at the initial position, and returns the final position's EPD with b
// back at the initial position.
func replay(b *board.Board, pgn string) (string, error) {
	played := 0
	defer func() {
		for range played {
			b.UnmakeMove()
		}
	}()
	for _, tok := range strings.Fields(pgn) {
		if strings.HasSuffix(tok, ".") {
			continue // a move number
		}
		m, err := sanMove(b, tok)
		if err != nil {
			return "", err
		}
		b.MakeMove(m)
		played++
	}
	return epd(b), nil
}

// sanMove finds the legal move that SAN text names: castling, or a piece
// letter (none for a pawn), optional from-file and from-rank, the target
// square and a promotion; "x", "+" and "#" are ignored.
func sanMove(b *board.Board, san string) (board.Move, error) {
	s := strings.Map(func(r rune) rune {
		if r == 'x' || r == '+' || r == '#' {
			return -1
		}
		return r
	}, san)
	var l board.MoveList
	b.Generate(&l, board.All)
	if s == "O-O" || s == "O-O-O" {
		for _, m := range l.Slice() {
			if m.IsCastle() && (m.To() > m.From()) == (s == "O-O") {
				return m, nil
			}
		}
		return board.NoMove, fmt.Errorf("move %q is not legal in %s", san, b.FEN())
	}
	piece, promo := board.Pawn, board.NoPieceType
	if i := strings.IndexByte("NBRQK", s[0]); i >= 0 {
		piece, s = board.Knight+board.PieceType(i), s[1:]
	}
	if i := strings.IndexByte(s, '='); i >= 0 && i+1 < len(s) {
		promo, s = board.Knight+board.PieceType(strings.IndexByte("NBRQ", s[i+1])), s[:i]
	}
	if len(s) < 2 {
		return board.NoMove, fmt.Errorf("move %q: no target square", san)
	}
	target, from := s[len(s)-2:], s[:len(s)-2]
	found, n := board.NoMove, 0
	for _, m := range l.Slice() {
		if b.PieceAt(m.From()).Type() == piece && m.Promotion() == promo &&
			onSquare(m.To(), target) && onSquare(m.From(), from) {
			found, n = m, n+1
		}
	}
	if n != 1 {
		return board.NoMove, fmt.Errorf("move %q: %d legal moves match in %s", san, n, b.FEN())
	}
	return found, nil
}

// onSquare reports whether sq fits the file and rank letters of SAN's
// text ("", a file, a rank or both).
func onSquare(sq board.Square, text string) bool {
	for _, c := range text {
		switch {
		case c >= 'a' && c <= 'h':
			if sq.File() != int(c-'a') {
				return false
			}
		case c >= '1' && c <= '8':
			if sq.Rank() != int(c-'1') {
				return false
			}
		default:
			return false
		}
	}
	return true
}
