package openings

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/notnil/chess"

	"selfplay/epd"
	"selfplay/internal/inputfile"
	"selfplay/outcome"
)

// loadPGN reads a PGN file; see ParsePGN.
func loadPGN(path string, plies int) ([]Opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	defer f.Close()
	return ParsePGN(f, path, plies)
}

// AllPlies as a PGN file's plies takes every move of each game (fastchess's
// -openings format=pgn without plies=).
const AllPlies = -1

// ParsePGN makes one opening of every game in a PGN file: the game's start
// position (the FEN tag if there is one, else the initial position) and its
// first plies moves, all of them in a shorter game or with AllPlies. Every
// game must parse completely as notnil/chess parses it (up to the moves
// past plies, which are not decoded, see keepMovetext). plies = 0 gives
// the games' start positions.
//
// Openings get the ID "<base name of name>#<game number>" and a name such as
// "1. d4 Nf6 2. c4 e6". The name is used in errors, which look like
// "openings: book.pgn:17: game 3: ...", 17 being the game's first line.
//
// The file is split into games here rather than with notnil's Scanner, which
// skips games without tags, merges a game having no movetext with the next
// one, returns an empty extra game after a trailing blank line, and does not
// report line numbers. Before a game goes to notnil, comments ({} and ';')
// and '%' escape lines are removed and castling written with zeros ("0-0")
// is rewritten as "O-O", which notnil would otherwise skip silently.
//
// Games are parsed as they end, so that the first problem in the file is
// the one reported. A NUL byte (binary data), a line longer than 1 MiB, a
// game longer than 1 MiB without its comments and a game past MaxOpenings
// are errors naming their line.
func ParsePGN(r io.Reader, name string, plies int) ([]Opening, error) {
	return parsePGN(r, name, plies, pgnBounds{MaxOpenings, maxOpeningMoves})
}

// maxOpeningMoves is the most moves the openings of a PGN file may hold
// together. A move costs about 83 bytes in memory (its UCI and SAN text
// and its share of the opening's name; measured over the 800 games of
// results/nmr-vs-adaptive.pgn.gz at 40 plies), so the bound keeps a book
// near MaxOpenings' gigabyte; without it, plies = "all" over long games
// (up to 1 MiB of movetext each) could ask for hundreds of gigabytes.
const maxOpeningMoves = 10_000_000

// pgnBounds are the most openings, and moves in all, parsePGN takes.
type pgnBounds struct{ openings, moves int }

// parsePGN is ParsePGN within the bounds.
func parsePGN(r io.Reader, name string, plies int, limit pgnBounds) ([]Opening, error) {
	if plies < 0 && plies != AllPlies {
		return nil, fmt.Errorf("openings: %s: plies is %d, want >= 0", name, plies)
	}
	base := filepath.Base(name)
	var list []Opening
	moves := 0
	// Each game is made an opening as soon as it ends: the file is never
	// held whole.
	err := splitPGN(r, name, plies, func(pg *pgnGame) error {
		if len(list) == limit.openings {
			return tooMany(name, pg.line, limit.openings)
		}
		o, err := pg.opening(fmt.Sprintf("%s#%d", base, pg.num), plies)
		if err != nil {
			return fmt.Errorf("openings: %s:%d: game %d: %w", name, pg.line, pg.num, err)
		}
		if moves += len(o.Moves); moves > limit.moves {
			return fmt.Errorf("openings: %s:%d: game %d: the openings so far hold more than %d moves in all: "+
				"take fewer plies of each game (plies = 16) or a sample of the file", name, pg.line, pg.num, limit.moves)
		}
		list = append(list, o)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("openings: %s: %w (no PGN games)", name, ErrNoOpenings)
	}
	return list, nil
}

// maxGame bounds the text of one game (its tags and movetext, comments
// left out): real games have a few KB.
const maxGame = 1 << 20

// pgnGame is the text of one game of a PGN file, cleaned for notnil, up to
// the last move an opening takes.
type pgnGame struct {
	num, line  int // game number and first line, both from 1
	text       strings.Builder
	size       int // of the game's text, also what is not kept
	hasTags    bool
	hasMoves   bool // movetext seen
	blank      bool // blank line after the tags, before any movetext
	ended      bool // game termination marker seen
	moves      int  // moves kept, outside variations
	depth      int  // of variations, at the end of the text read
	cut        bool // the text holds all the moves an opening takes
	unbalanced bool // a ')' without its '(': the text is kept whole
}

// keepMovetext adds a clean movetext line to the text, up to the keep-th
// move outside variations (keep: AllPlies for every move). Every move
// kept is decoded (by a fastLine, or by notnil at about 50 µs a move:
// BenchmarkParsePGN before the cut, 6.5 ms per game of 133 plies on
// average), so a book of whole games at 8 plies would spend nearly all
// its time on moves it never uses; fastchess's reader also stops at its
// plies. The moves are counted as notnil reads them: variations left out
// (its stripVariations drops every character between '(' and its ')',
// wherever in a token they are), one move per SAN token (cleanMovetext
// refuses any other token, and allows parentheses only at a token's
// ends). A ')' without its '(' stops the cutting: notnil gets the whole
// game, and refuses it.
func (pg *pgnGame) keepMovetext(clean string, keep int) {
	pg.size += len(clean) + 1
	if pg.cut {
		return
	}
	if keep == AllPlies || pg.unbalanced {
		pg.text.WriteString(clean + "\n")
		return
	}
	parens := func(s string) {
		for _, c := range s {
			if c == '(' {
				pg.depth++
			} else if pg.depth--; pg.depth < 0 {
				pg.unbalanced = true
			}
		}
	}
	rest := clean
	for !pg.unbalanced {
		i := strings.IndexFunc(rest, func(r rune) bool { return r != ' ' && r != '\t' })
		if i < 0 {
			break
		}
		j := strings.IndexAny(rest[i:], " \t")
		if j < 0 {
			j = len(rest) - i
		}
		tok := rest[i : i+j]
		rest = rest[i+j:]
		core := strings.Trim(tok, "()")
		if core == "" {
			parens(tok)
			continue
		}
		lead := len(tok) - len(strings.TrimLeft(tok, "()"))
		parens(tok[:lead])
		if pg.depth == 0 && isMoveToken(core) {
			pg.moves++
		}
		parens(tok[lead+len(core):])
		if pg.moves >= keep && pg.depth == 0 && !pg.unbalanced {
			pg.text.WriteString(clean[:len(clean)-len(rest)] + " *\n")
			pg.cut = true
			return
		}
	}
	pg.text.WriteString(clean + "\n")
}

// isMoveToken reports whether a movetext token (without parentheses)
// holds a move: movetextToken's SAN part, after any move number.
func isMoveToken(tok string) bool {
	if plainToken(tok) {
		return !isDigit(tok[0]) // a plain SAN move, not a move number
	}
	m := movetextToken.FindStringSubmatch(tok)
	return m != nil && m[2] != ""
}

func (pg *pgnGame) opening(id string, plies int) (Opening, error) {
	if !pg.hasMoves {
		return Opening{}, fmt.Errorf("no movetext after the tags (a game needs at least a result such as *)")
	}
	if o, ok := fastPGNOpening(pg.text.String(), id, plies); ok {
		return o, nil
	}
	return pg.notnilOpening(id, plies)
}

// notnilOpening is opening with notnil's PGN decoder: the reference, and
// the path of every game a fastLine gives up on.
func (pg *pgnGame) notnilOpening(id string, plies int) (Opening, error) {
	read, err := chess.PGN(strings.NewReader(pg.text.String()))
	if err != nil {
		return Opening{}, epd.ClipError(err) // notnil may quote a long token
	}
	g := chess.NewGame(read)
	moves := g.Moves()
	if plies == AllPlies || plies > len(moves) {
		plies = len(moves) // a shorter game gives all it has, as in fastchess and cutechess-cli
	}
	start := StandardStartFEN
	for _, tp := range g.TagPairs() {
		if strings.EqualFold(tp.Key, "FEN") {
			if start, _, err = parseStartFEN(tp.Value); err != nil {
				return Opening{}, fmt.Errorf("FEN tag %q: %w", tp.Value, err)
			}
			break // notnil uses the first FEN tag too
		}
	}
	uci := make([]string, plies)
	for i := range uci {
		uci[i] = moves[i].String()
	}
	return notnilOpening(id, "", start, uci)
}

// movetextToken matches a movetext token other than a result, with the
// parentheses of variations trimmed: a move number, a move in SAN (also
// after its number, "1.e4"; long forms such as Ng1f3 too), a NAG, an
// annotation glyph such as "!?" or "+/-" (not "--", a null move), or
// nothing (a lone parenthesis).
var movetextToken = regexp.MustCompile(`^(\d+\.*)?((O-O(-O)?|[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBN])?)[+#]?[!?]*(e\.p\.)?)?$|^\$\d+$|^([!?]+|[+=][+=/-]*|-[+/][+=/-]*)$`)

// plainToken reports whether a token is a move number ("12.", "12...")
// or a plain SAN move ("e4", "Nbxd7+", "e8=Q#"), which movetextToken
// matches: most tokens are, and this is about 20 times faster than the
// regexp, which takes the rest.
func plainToken(tok string) bool {
	if digits := leadingDigits(tok); digits > 0 {
		return len(tok) > digits && strings.TrimLeft(tok[digits:], ".") == ""
	}
	if tok != "" && strings.IndexByte("KQRBN", tok[0]) >= 0 {
		tok = tok[1:]
	}
	if n := len(tok); n > 0 && (tok[n-1] == '+' || tok[n-1] == '#') {
		tok = tok[:n-1]
	}
	if n := len(tok); n > 2 && tok[n-2] == '=' && strings.IndexByte("QRBN", tok[n-1]) >= 0 {
		tok = tok[:n-2]
	}
	n := len(tok)
	if n < 2 || !isFile(tok[n-2]) || !isRank(tok[n-1]) {
		return false
	}
	from := tok[:n-2] // [a-h]?[1-8]?x?
	if from != "" && isFile(from[0]) {
		from = from[1:]
	}
	if from != "" && isRank(from[0]) {
		from = from[1:]
	}
	return from == "" || from == "x"
}

// leadingDigits is how many digits a token starts with (a move number's).
func leadingDigits(tok string) int { return len(tok) - len(strings.TrimLeft(tok, "0123456789")) }

func isFile(c byte) bool  { return c >= 'a' && c <= 'h' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isRank(c byte) bool  { return c >= '1' && c <= '8' }

// zeroCastling matches castling written with zeros.
var zeroCastling = regexp.MustCompile(`\b0-0(-0)?\b`)

// splitPGN splits PGN text into games and passes each to game as soon as
// it ends, in file order; game's error stops the split. A game starts at
// its first tag line or, without tags, at its first movetext line. It ends
// before the next tag line that follows movetext (or a blank line after
// tags), or at its result ("1-0", "0-1", "1/2-1/2", "*").
// Errors name the file (name) and the line. Each game keeps the text of
// its first keep moves (see keepMovetext); the rest is read and checked
// all the same.
func splitPGN(r io.Reader, name string, keep int, game func(*pgnGame) error) error {
	in := &inputfile.Latch{R: r}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	var cur *pgnGame
	games := 0
	start := func(line int) error {
		if cur != nil {
			if err := game(cur); err != nil {
				return err
			}
		}
		games++
		cur = &pgnGame{num: games, line: line}
		return nil
	}
	inBrace := false
	n := 0
	for sc.Scan() && !in.Failed() {
		n++
		if bytes.IndexByte(sc.Bytes(), 0) >= 0 {
			return fmt.Errorf("openings: %s:%d: %w", name, n, errNUL)
		}
		raw := sc.Text()
		if n == 1 {
			raw = strings.TrimPrefix(raw, "\ufeff")
		}
		if !inBrace && strings.HasPrefix(raw, "%") {
			continue // escape line
		}
		line := strings.TrimSpace(raw)
		continued := inBrace // the line continues a {} comment
		switch {
		case line == "" && !inBrace:
			if cur != nil && cur.hasTags && !cur.hasMoves {
				cur.blank = true
			}
		case !inBrace && strings.HasPrefix(line, "["):
			if cur == nil || cur.hasMoves || cur.blank {
				if err := start(n); err != nil {
					return err
				}
			}
			cur.hasTags = true
			cur.text.WriteString(line + "\n")
			cur.size += len(line) + 1
		default:
			if cur == nil || cur.ended && !continued {
				if err := start(n); err != nil {
					return err
				}
			}
			clean, err := cleanMovetext(line, &inBrace, &cur.ended)
			if err != nil {
				return fmt.Errorf("openings: %s:%d: game %d: %w", name, n, cur.num, err)
			}
			if strings.TrimSpace(clean) != "" {
				cur.hasMoves = true // not just a comment
				cur.keepMovetext(clean, keep)
			} // a comment's lines add nothing: the bound counts the text notnil would get
		}
		if cur != nil && cur.size > maxGame {
			return fmt.Errorf("openings: %s:%d: game %d (from line %d) is longer than %s, comments left out",
				name, n, cur.num, cur.line, inputfile.Size(maxGame))
		}
	}
	if err := sc.Err(); err != nil {
		return readError(name, n, err)
	}
	if inBrace {
		return fmt.Errorf("openings: %s:%d: game %d: a { comment is still open at the end of the file", name, cur.line, cur.num)
	}
	if cur != nil {
		return game(cur)
	}
	return nil
}

// cleanMovetext returns a movetext line without its {} and ';' comments
// (notnil would read a comment line starting with '[' as a tag line and a
// tag pair inside a comment as a tag), with castling written with zeros
// rewritten, and sets *ended when it meets the game result. inBrace carries
// an open {} comment from line to line. Text other than comments after the
// result is an error.
func cleanMovetext(line string, inBrace, ended *bool) (string, error) {
	var out strings.Builder
	var seg strings.Builder
	flush := func() error {
		s := seg.String()
		if strings.Contains(s, "0-0") {
			s = zeroCastling.ReplaceAllStringFunc(s, func(m string) string {
				return strings.ReplaceAll(m, "0", "O")
			})
		}
		for _, tok := range strings.Fields(s) {
			if *ended {
				return fmt.Errorf("%q after the game result", epd.Clip(tok))
			}
			if outcome.Result(tok).Valid() {
				*ended = true
			} else if core := strings.Trim(tok, "()"); !plainToken(core) && !movetextToken.MatchString(core) {
				// notnil skips what it cannot read without an error: the
				// game would lose a move, or end early, silently.
				return fmt.Errorf("%q is not a move in SAN, a move number or an annotation", epd.Clip(tok))
			}
		}
		out.WriteString(s)
		seg.Reset()
		return nil
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if *inBrace {
			if c == '}' {
				*inBrace = false
			}
			continue
		}
		switch c {
		case '{':
			if err := flush(); err != nil {
				return "", err
			}
			out.WriteByte(' ')
			*inBrace = true
		case ';':
			if err := flush(); err != nil {
				return "", err
			}
			return out.String(), nil
		default:
			seg.WriteByte(c)
		}
	}
	if err := flush(); err != nil {
		return "", err
	}
	return out.String(), nil
}
