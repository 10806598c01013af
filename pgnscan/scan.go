// Package pgnscan reads PGN files game by game without holding more than
// one game, and without replaying the moves: it keeps a game's tags
// (the seven tag roster, FEN, SetUp, Termination), its termination marker,
// how many moves its main line has, and the first few of them, with the
// leading ones that carry a {book} comment (cutechess-cli, fastchess and
// selfplay mark opening moves so). That is what rating games needs, and
// it reads hundreds of megabytes a second where replaying every move
// through a chess library reads a few.
//
// The tokenizer follows the PGN standard (section 8): tag pairs, brace and
// semicolon comments, % escape lines, recursive variations, NAGs, move
// number indications, and the four termination markers. A game that
// breaks the standard in a way that makes its result uncertain (a bad tag,
// a missing or contradictory result, an unclosed comment or variation) is
// returned as a *GameError with the file's line, and the scanner goes on
// with the next game.
//
// Memory does not grow with the input: a token or tag value longer than
// maxToken, a comment longer than maxComment and a NUL byte (binary data,
// not PGN text) end the scan with an *InputError naming the line.
package pgnscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"selfplay/outcome"
)

// defaultFirstMoves is how many main-line moves (plies) Game.FirstMoves
// keeps unless Options say otherwise.
const defaultFirstMoves = 16

// Bounds of what one token may take, in bytes. A real tag value or move is
// tens of bytes and a comment a few hundred; past these the input is not a
// PGN (or is damaged), and the scan stops rather than hold or skip it.
const (
	// maxToken bounds a tag name, a tag value and a movetext token (the
	// scanner holds the one it reads).
	maxToken = 64 << 10
	// maxComment bounds a brace comment, a ';' comment and a '%' escape
	// line (skipped, not held).
	maxComment = 1 << 20
)

// InputError is a problem that ends the scan: binary data, or a token or
// comment longer than its bound. Line is where it was found.
type InputError struct {
	File   string
	Line   int
	Reason string
}

func (e *InputError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason) }

// errNUL is a NUL byte in the input, found by fill; readErr makes it an
// InputError with the line the scanner has reached there.
var errNUL = errors.New("a NUL byte: binary data, not PGN text")

// Game is what the scanner keeps of one game.
type Game struct {
	// Line is the line of the game's first tag (or first token).
	Line int
	// Tags: "" when absent.
	Event, Site, Date, Round, White, Black string
	FEN, SetUp, Termination                string
	// Result is the Result tag's, or the marker's where the tag is absent;
	// Marker the termination marker that ends the movetext, which a
	// well-formed game has equal to the Result tag.
	Result, Marker outcome.Result
	// Plies counts the main line's moves.
	Plies int
	// FirstMoves holds the first main-line moves in SAN as written (move
	// number indications, check marks and annotation glyphs dropped), at
	// most Options.FirstMoves of them; Book how many of the leading ones
	// carry a comment that reads "book".
	FirstMoves []string
	Book       int
}

// GameError is a malformed game: where it starts, where the problem is,
// and what it is. The scanner has skipped the game.
type GameError struct {
	File      string
	Line      int // where the problem was found
	GameLine  int // where the game starts
	White     string
	Black     string
	Reason    string
	Truncated bool // the problem is the end of the input
}

func (e *GameError) Error() string {
	who := ""
	if e.White != "" || e.Black != "" {
		who = fmt.Sprintf(" (%s vs %s)", e.White, e.Black)
	}
	if e.Line != e.GameLine {
		return fmt.Sprintf("%s:%d: game at line %d%s skipped: %s", e.File, e.Line, e.GameLine, who, e.Reason)
	}
	return fmt.Sprintf("%s:%d: game%s skipped: %s", e.File, e.Line, who, e.Reason)
}

// Options tune a Scanner; the zero value is the default.
type Options struct {
	// FirstMoves is how many main-line moves Game.FirstMoves keeps: 0 for
	// defaultFirstMoves, negative for none.
	FirstMoves int
}

// Scanner reads games from a PGN stream.
type Scanner struct {
	r     io.Reader
	name  string
	buf   []byte
	pos   int
	end   int
	rerr  error // the reader's error once it has returned one
	first bool  // nothing read yet (byte order mark)

	line      int  // current line, 1-based
	blank     bool // the current line has only whitespace so far
	tagLine   bool // the current line's first non-blank byte is '['
	prevBlank bool // the previous line was blank
	prevTag   bool // the previous line's first non-blank byte was '['

	// resultTag is the current game's Result tag as written ("" when
	// absent), which finish decodes into Game.Result.
	resultTag string
	// twice names a tag of the players or the result that the current
	// game has twice ("" when none): which one counts is a guess, so the
	// game is malformed.
	twice string

	keep  int // Options.FirstMoves resolved
	games int // games returned, malformed ones included
	tok   []byte
	value []byte
}

// NewScanner reads PGN from r; name (a file name) prefixes GameErrors.
func NewScanner(r io.Reader, name string, opt Options) *Scanner {
	keep := opt.FirstMoves
	switch {
	case keep == 0:
		keep = defaultFirstMoves
	case keep < 0:
		keep = 0
	}
	return &Scanner{r: r, name: name, buf: make([]byte, 256<<10), line: 1, blank: true, first: true, keep: keep}
}

// errEOF is the end of the input inside a game.
var errEOF = errors.New("unexpected end of input")

// fill reads more input; false at the end (or on a read error, kept in
// rerr). The input ends before a NUL byte, with errNUL as the read error.
func (s *Scanner) fill() bool {
	if s.rerr != nil {
		return false
	}
	s.pos, s.end = 0, 0
	for s.end == 0 {
		n, err := s.r.Read(s.buf)
		if i := bytes.IndexByte(s.buf[:n], 0); i >= 0 {
			n, err = i, errNUL
		}
		s.end = n
		if err != nil {
			s.rerr = err
			break
		}
	}
	if s.first && s.end > 0 {
		s.first = false
		if bytes.HasPrefix(s.buf[:s.end], []byte("\xef\xbb\xbf")) {
			s.pos = 3
		}
	}
	return s.pos < s.end
}

// readErr is the reader's error, nil at a clean end of input.
func (s *Scanner) readErr() error {
	var ie *InputError
	switch {
	case s.rerr == nil || s.rerr == io.EOF:
		return nil
	case s.rerr == errNUL:
		return &InputError{File: s.name, Line: s.line, Reason: errNUL.Error()}
	case errors.As(s.rerr, &ie):
		return ie
	}
	return fmt.Errorf("%s: %w", s.name, s.rerr)
}

// stop ends the input where the scanner is, with an InputError at the
// current line: every reader of it sees the end of the input, and the
// error comes out of Next.
func (s *Scanner) stop(format string, args ...any) {
	if _, ok := s.rerr.(*InputError); !ok {
		s.rerr = &InputError{File: s.name, Line: s.line, Reason: fmt.Sprintf(format, args...)}
	}
	s.pos, s.end = 0, 0
}

// peek returns the next byte without consuming it.
func (s *Scanner) peek() (byte, bool) {
	if s.pos == s.end && !s.fill() {
		return 0, false
	}
	return s.buf[s.pos], true
}

// advance consumes the byte peek returned, keeping the line state.
func (s *Scanner) advance(c byte) {
	s.pos++
	switch {
	case c == '\n':
		s.line++
		s.prevBlank, s.prevTag = s.blank, s.tagLine
		s.blank, s.tagLine = true, false
	case s.blank && !isSpace(c):
		s.blank, s.tagLine = false, c == '['
	}
}

// atLineStart reports whether the next byte is the first non-blank one of
// its line.
func (s *Scanner) atLineStart() bool { return s.blank }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

// Next returns the next game, or io.EOF after the last one. A malformed
// game is returned as a *GameError, and the scanner continues with the
// game after it; any other error is final: an *InputError (binary data, a
// token or comment over its bound) or the reader's.
func (s *Scanner) Next() (*Game, error) {
	// Between games: whitespace, comments after a termination marker
	// (selfplay writes the reason so), % escape lines.
	for {
		c, ok := s.peek()
		if !ok {
			if err := s.readErr(); err != nil {
				return nil, err
			}
			return nil, io.EOF
		}
		switch {
		case isSpace(c):
			s.advance(c)
		case c == '{':
			line := s.line
			s.advance(c)
			if err := s.skipComment(); err != nil {
				return nil, s.fail(line, line, nil, fmt.Sprintf("comment opened at line %d is not closed", line), err != errNextGame)
			}
		case c == ';' || (c == '%' && s.atLineStart()):
			s.skipLine()
		default:
			return s.game()
		}
	}
}

// game reads one game from its first tag or token.
func (s *Scanner) game() (*Game, error) {
	s.games++
	g := &Game{Line: s.line}
	s.resultTag, s.twice = "", ""
	if c, _ := s.peek(); c != '[' {
		return s.movetext(g, "no tags before the movetext")
	}
	for {
		c, ok := s.peek()
		if !ok {
			break
		}
		if isSpace(c) {
			s.advance(c)
			continue
		}
		if c == ';' || (c == '%' && s.atLineStart()) {
			s.skipLine()
			continue
		}
		if c != '[' {
			break
		}
		line := s.line
		s.advance(c)
		name, value, err := s.tag()
		if err != nil {
			return nil, s.fail(line, g.Line, g, err.Error(), true)
		}
		s.setTag(g, name, value)
	}
	return s.movetext(g, "")
}

// setTag keeps the tags the scanner reports; the Result tag until finish
// decodes it.
func (s *Scanner) setTag(g *Game, name, value string) {
	if s.twice == "" && (name == "White" && g.White != "" || name == "Black" && g.Black != "" || name == "Result" && s.resultTag != "") {
		s.twice = name
	}
	switch name {
	case "Event":
		g.Event = value
	case "Site":
		g.Site = value
	case "Date":
		g.Date = value
	case "Round":
		g.Round = value
	case "White":
		g.White = value
	case "Black":
		g.Black = value
	case "Result":
		s.resultTag = value
	case "FEN":
		g.FEN = value
	case "SetUp":
		g.SetUp = value
	case "Termination":
		g.Termination = value
	}
}

// tag reads a tag pair after its '[': a name, a quoted string with \" and
// \\ escapes, and ']' on the same line.
func (s *Scanner) tag() (string, string, error) {
	s.skipBlanks()
	s.tok = s.tok[:0]
	for {
		c, ok := s.peek()
		if !ok {
			return "", "", errEOF
		}
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			break
		}
		if len(s.tok) == maxToken {
			s.stop("a tag name longer than %d bytes", maxToken)
			return "", "", errEOF
		}
		s.tok = append(s.tok, c)
		s.advance(c)
	}
	if len(s.tok) == 0 {
		return "", "", fmt.Errorf("a tag without a name")
	}
	name := string(s.tok)
	s.skipBlanks()
	if c, ok := s.peek(); !ok || c != '"' {
		return "", "", fmt.Errorf("tag %s: its value is not a quoted string", name)
	}
	s.advance('"')
	s.value = s.value[:0]
	for {
		c, ok := s.peek()
		if !ok || c == '\n' {
			return "", "", fmt.Errorf("tag %s: its value has no closing quote on the line", name)
		}
		s.advance(c)
		if c == '"' {
			break
		}
		if c == '\\' {
			if n, ok := s.peek(); ok && (n == '"' || n == '\\') {
				s.advance(n)
				c = n
			}
		}
		if len(s.value) == maxToken {
			s.stop("tag %s: a value longer than %d bytes", clip(name), maxToken)
			return "", "", errEOF
		}
		s.value = append(s.value, c)
	}
	s.skipBlanks()
	if c, ok := s.peek(); !ok || c != ']' {
		return "", "", fmt.Errorf("tag %s: no ']' after its value", name)
	}
	s.advance(']')
	return name, strings.TrimSpace(string(s.value)), nil
}

// skipBlanks skips spaces and tabs (not newlines).
func (s *Scanner) skipBlanks() {
	for {
		c, ok := s.peek()
		if !ok || (c != ' ' && c != '\t' && c != '\r') {
			return
		}
		s.advance(c)
	}
}

// skipLine skips the rest of the line, its newline included (a ';'
// comment or a '%' escape line: at most maxComment bytes).
func (s *Scanner) skipLine() {
	for n := 0; ; n++ {
		c, ok := s.peek()
		if !ok {
			return
		}
		if n == maxComment {
			s.stop("a comment or escape line longer than %d bytes", maxComment)
			return
		}
		s.advance(c)
		if c == '\n' {
			return
		}
	}
}

// errNextGame is a comment still open where a new game's tags begin.
var errNextGame = errors.New("next game")

// skipComment skips a brace comment after its '{'. A tag pair's '[' that
// starts a line after a blank line ends it with errNextGame (a comment left open by
// a broken game would otherwise swallow the games after it; no tool
// writes blank lines inside comments); the '[' is not consumed.
func (s *Scanner) skipComment() error {
	line := s.line
	brace := -1 // index in s.buf of the next '}' from s.pos (s.end: none), -1 until looked for
	for n := 0; ; {
		if s.pos == s.end {
			if !s.fill() {
				return errEOF
			}
			brace = -1
		}
		if n > maxComment {
			s.tooLongComment(line)
			return errEOF
		}
		if !s.blank {
			// Fast path: the line has had something else than whitespace,
			// so up to its newline nothing changes the line state: skip to
			// the closing brace if it comes first, else to the newline.
			// Each byte is looked at once or twice, however long the
			// comment.
			if brace < 0 {
				brace = s.end
				if i := bytes.IndexByte(s.buf[s.pos:s.end], '}'); i >= 0 {
					brace = s.pos + i
				}
			}
			seg := s.buf[s.pos:brace]
			if nl := bytes.IndexByte(seg, '\n'); nl >= 0 {
				seg = seg[:nl]
			}
			s.pos += len(seg)
			n += len(seg)
			if n > maxComment {
				s.tooLongComment(line)
				return errEOF
			}
			if s.pos == brace && brace < s.end {
				s.pos++
				return nil
			}
			if s.pos == s.end {
				continue
			}
		}
		c := s.buf[s.pos]
		if c == '[' && s.blank && s.prevBlank && s.tagAhead() {
			return errNextGame
		}
		s.advance(c)
		n++
		if c == '}' {
			return nil
		}
	}
}

// clip shortens a tag name for a message.
func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

// tooLongComment stops the scan at a comment opened at line that is longer
// than maxComment.
func (s *Scanner) tooLongComment(line int) {
	s.stop("a comment opened at line %d is longer than %d bytes", line, maxComment)
}

// tagAhead reports whether the '[' at the read position starts a tag
// pair: a letter follows it (not "[%clk ...]", which GUIs write in
// comments). At the end of the buffer it says yes.
func (s *Scanner) tagAhead() bool {
	if s.pos+1 >= s.end {
		return true
	}
	c := s.buf[s.pos+1]
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// readComment reads a brace comment after its '{' into s.value, keeping at
// most max bytes (the rest is skipped).
func (s *Scanner) readComment(max int) error {
	s.value = s.value[:0]
	line := s.line
	for n := 0; ; n++ {
		c, ok := s.peek()
		if !ok {
			return errEOF
		}
		if n > maxComment {
			s.tooLongComment(line)
			return errEOF
		}
		if c == '[' && s.blank && s.prevBlank && s.tagAhead() {
			return errNextGame
		}
		s.advance(c)
		if c == '}' {
			return nil
		}
		if len(s.value) < max {
			s.value = append(s.value, c)
		}
	}
}

// isDelimiter ends a symbol token.
func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\f', '\v', '{', '}', '(', ')', '[', ']', ';', '$', '<', '>', '"':
		return true
	}
	return false
}

// movetext reads the movetext up to and including its termination marker.
// problem, when not "", makes the game malformed once it is read.
func (s *Scanner) movetext(g *Game, problem string) (*Game, error) {
	depth := 0        // variation nesting
	varLine := 0      // where the outermost open variation began
	lastMove := false // the last token was a main-line move, without a comment yet
	for {
		c, ok := s.peek()
		if !ok {
			if depth > 0 {
				return nil, s.fail(varLine, g.Line, g, fmt.Sprintf("variation opened at line %d is not closed", varLine), true)
			}
			return nil, s.fail(s.line, g.Line, g, "the input ends before the termination marker (1-0, 0-1, 1/2-1/2 or *)", true)
		}
		switch {
		case isSpace(c):
			s.advance(c)
		case c == '{':
			line := s.line
			s.advance(c)
			var err error
			if depth == 0 && lastMove && g.Plies == g.Book+1 { // could extend the book moves
				if err = s.readComment(16); err == nil && strings.TrimSpace(string(s.value)) == "book" {
					g.Book++
				}
			} else {
				err = s.skipComment()
			}
			lastMove = false
			if err != nil {
				return nil, s.fail(line, g.Line, g, fmt.Sprintf("comment opened at line %d is not closed", line), err != errNextGame)
			}
		case c == ';':
			s.skipLine()
		case c == '%' && s.atLineStart():
			s.skipLine()
		case c == '(':
			if depth == 0 {
				varLine = s.line
			}
			s.advance(c)
			depth++
		case c == ')':
			if depth == 0 {
				return nil, s.fail(s.line, g.Line, g, "')' closes no variation", true)
			}
			s.advance(c)
			depth--
		case c == '[':
			if s.atLineStart() {
				// The next game's tags: this one has no marker.
				if depth > 0 {
					return nil, s.fail(varLine, g.Line, g,
						fmt.Sprintf("variation opened at line %d is not closed before the next game's tags", varLine), false)
				}
				return nil, s.fail(s.line, g.Line, g,
					"no termination marker (1-0, 0-1, 1/2-1/2 or *) before the next game's tags", false)
			}
			return nil, s.fail(s.line, g.Line, g, "'[' inside the movetext", true)
		case c == '$':
			s.advance(c)
			s.symbol()
		default:
			if isDelimiter(c) {
				return nil, s.fail(s.line, g.Line, g, fmt.Sprintf("unexpected %q in the movetext", c), true)
			}
			tok := s.symbol()
			if marker := terminationMarker(tok); marker != "" {
				if depth > 0 {
					continue // not allowed there by the standard, and harmless
				}
				g.Marker = marker
				return s.finish(g, problem)
			}
			move := moveText(tok)
			if move == nil {
				continue
			}
			lastMove = depth == 0
			if depth > 0 {
				continue
			}
			g.Plies++
			lastMove = true
			if len(g.FirstMoves) < s.keep {
				g.FirstMoves = append(g.FirstMoves, string(move))
			}
		}
	}
}

// symbol reads a token of non-delimiter bytes into s.tok.
func (s *Scanner) symbol() []byte {
	s.tok = s.tok[:0]
	for {
		if s.pos == s.end && !s.fill() {
			return s.tok
		}
		c := s.buf[s.pos]
		if isDelimiter(c) {
			return s.tok
		}
		if len(s.tok) == maxToken {
			s.stop("a token longer than %d bytes in the movetext", maxToken)
			return s.tok
		}
		s.tok = append(s.tok, c)
		s.advance(c)
	}
}

// terminationMarker is the marker tok spells, or "". (A switch on the
// bytes: it runs on every movetext token, and allocates nothing.)
func terminationMarker(tok []byte) outcome.Result {
	switch string(tok) {
	case string(outcome.WhiteWins):
		return outcome.WhiteWins
	case string(outcome.BlackWins):
		return outcome.BlackWins
	case string(outcome.Draw):
		return outcome.Draw
	case string(outcome.Unfinished):
		return outcome.Unfinished
	}
	return ""
}

// moveText strips a move number indication ("12.", "12...", "12.e4"),
// and check marks and annotation glyphs, from a symbol; nil when nothing
// of a move is left.
func moveText(tok []byte) []byte {
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	if i > 0 && i < len(tok) && tok[i] == '.' || i == len(tok) {
		for i < len(tok) && tok[i] == '.' {
			i++
		}
		tok = tok[i:]
	}
	for len(tok) > 0 && tok[0] == '.' { // "..." alone or after a comment
		tok = tok[1:]
	}
	for len(tok) > 0 {
		switch tok[len(tok)-1] {
		case '+', '#', '!', '?':
			tok = tok[:len(tok)-1]
			continue
		}
		break
	}
	if len(tok) == 0 {
		return nil
	}
	return tok
}

// finish checks a game whose termination marker was read.
func (s *Scanner) finish(g *Game, problem string) (*Game, error) {
	switch {
	case problem != "":
	case s.twice != "":
		problem = fmt.Sprintf("two %s tags", s.twice)
	case g.White == "" || g.Black == "":
		problem = "no White or Black tag"
	case s.resultTag == "":
		g.Result = g.Marker
	default:
		r, err := outcome.Parse(s.resultTag)
		switch {
		case err != nil:
			problem = fmt.Sprintf("Result tag %q is not 1-0, 0-1, 1/2-1/2 or *", s.resultTag)
		case r != g.Marker:
			problem = fmt.Sprintf("Result tag %q differs from the termination marker %q", s.resultTag, g.Marker)
		default:
			g.Result = r
		}
	}
	if problem != "" {
		return nil, &GameError{File: s.name, Line: g.Line, GameLine: g.Line, White: g.White, Black: g.Black, Reason: problem}
	}
	return g, nil
}

// fail reports a malformed game found at line and, with skip, skips to
// the next game: the next line that starts with '[' after a line that does
// not (a tag pair section's first line). Without skip the next game starts
// where the scanner is.
func (s *Scanner) fail(line, gameLine int, g *Game, reason string, skip bool) error {
	e := &GameError{File: s.name, Line: line, GameLine: gameLine, Reason: reason}
	if g != nil {
		e.White, e.Black = g.White, g.Black
	}
	for skip {
		c, ok := s.peek()
		if !ok {
			if err := s.readErr(); err != nil {
				return err // the input's fault, not the game's
			}
			e.Truncated = true
			return e
		}
		if c == '[' && s.blank && !s.prevTag && s.line > line {
			return e
		}
		s.advance(c)
	}
	return e
}
