// Package epd reads Extended Position Description files, the format of the
// test suites (WAC, Bratko-Kopec, ECM) and of EPD opening books: the first
// four FEN fields, optionally the half-move clock and full-move number as in
// a FEN, then operations such as bm (best moves), am (avoid moves), id and
// c0..c9, each an opcode with operands and ended by a semicolon (the last one
// may omit it). Moves are SAN; they are resolved to UCI here with
// notnil/chess, so a record's moves are checked against its position.
//
// ParseLine is the one EPD line parser of selfplay: the opening reader
// (package openings) uses it too.
package epd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/notnil/chess"

	"selfplay/engines/board"
	"selfplay/internal/inputfile"
)

// Record is one EPD line.
type Record struct {
	Line     int      // 1-based line number in the file (set by Parse)
	ID       string   // the id operand; Parse sets "line N" when there is none
	FEN      string   // full FEN: clocks from hmvc/fmvn, else the FEN clocks, else "0 1"
	BestSAN  []string // bm, as written
	Best     []string // bm in UCI
	AvoidSAN []string // am, as written
	Avoid    []string // am in UCI
	// Ops holds every operation's operands by opcode (id, c0, hmvc, ...
	// included), quoted operands without their quotes. An opcode appears
	// at most once per record.
	Ops map[string][]string
}

// LineError is a malformed line: reported and skipped by Parse.
type LineError struct {
	Line int
	Err  error
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

func (e LineError) Unwrap() error { return e.Err }

// load reads an EPD file; see Parse.
func load(path string) ([]Record, []LineError, error) {
	return LoadContext(context.Background(), path)
}

// LoadContext is load that stops waiting when ctx ends (opening a FIFO
// waits for a writer; reading one, or a slow file, for data), with ctx's
// error.
func LoadContext(ctx context.Context, path string) ([]Record, []LineError, error) {
	f, err := inputfile.OpenText(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("epd: %w", err)
	}
	defer f.Close()
	recs, bad, err := Parse(f)
	if err != nil {
		return nil, nil, fmt.Errorf("epd %s: %w", path, err)
	}
	return recs, bad, nil
}

// maxLine is the longest line Parse reads; a longer one is an error naming
// its line.
const maxLine = 1 << 20

// maxMalformed is the most malformed lines Parse skips: one more is an
// error (the file is not EPD), so that what is kept of them stays small.
const maxMalformed = 1000

// maxRecords is the most records Parse reads: each is kept in memory
// (about 0.7 KB with the garbage collector's share) and its moves checked
// with notnil (0.1 ms); a larger file is better sampled or split.
const maxRecords = 1000000

// MaxID is the longest id operand ParseLine takes, in bytes. The ids of
// real suites and books are tens of bytes (WAC.001, "STS(v13.0) Pawn Play
// in the Center.001"); an id becomes an opening's id and name, stored in
// every game played from it and shown on every page that lists one, so a
// longer one is an error rather than megabytes copied into each game.
const MaxID = 256

// maxQuote bounds the text of a line quoted in an error: longer text is
// clipped (Clip).
const maxQuote = 200

// Clip returns s, or its first maxQuote bytes and "..." when it is longer,
// for quoting text from a file in an error.
func Clip(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	return s[:maxQuote] + "..."
}

// ClipError returns err, or when its text is longer than 2*maxQuote (it
// quotes a long line or token) a plain error with the text clipped (Clip):
// one that does not keep the long text alive.
func ClipError(err error) error {
	if err == nil || len(err.Error()) <= 2*maxQuote {
		return err
	}
	return errors.New(strings.Clone(Clip(err.Error())))
}

// Parse reads EPD records. A UTF-8 byte order mark before the first line is
// ignored; blank lines and lines starting with '#' are skipped silently;
// malformed lines are returned as LineErrors and skipped. The error is for
// read failures, a line longer than maxLine, a NUL byte (binary data),
// more than maxMalformed malformed lines and more than maxRecords records.
func Parse(r io.Reader) ([]Record, []LineError, error) { return parse(r, maxRecords) }

// parse is Parse with at most limit records.
func parse(r io.Reader, limit int) ([]Record, []LineError, error) {
	var recs []Record
	var bad []LineError
	in := &inputfile.Latch{R: r}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	n := 1
	for ; sc.Scan() && !in.Failed(); n++ {
		if bytes.IndexByte(sc.Bytes(), 0) >= 0 {
			return nil, nil, fmt.Errorf("line %d: a NUL byte: binary data, not a text file", n)
		}
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(recs) == limit {
			return nil, nil, fmt.Errorf("line %d: more than %d records: use a sample of the file (e.g. shuf -n 100000)", n, limit)
		}
		rec, err := ParseLine(line)
		if err != nil {
			if len(bad) == maxMalformed {
				return nil, nil, fmt.Errorf("line %d: more than %d malformed lines: is it an EPD file? (the first, line %d: %v)", n, maxMalformed, bad[0].Line, bad[0].Err)
			}
			bad = append(bad, LineError{Line: n, Err: ClipError(err)})
			continue
		}
		rec.Line = n
		if rec.ID == "" {
			rec.ID = "line " + strconv.Itoa(n)
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, fmt.Errorf("line %d: longer than %d bytes", n, maxLine)
		}
		return nil, nil, fmt.Errorf("after line %d: %w", n-1, err)
	}
	return recs, bad, nil
}

// ParseLine parses one EPD record:
//
//	placement side castling en-passant [hmvc fmvn] [opcode operand...;]...
//
// Operands are bare tokens or double-quoted strings (which may hold spaces
// and ';'); every operation ends with ';' except that the last one may omit
// it. The hmvc and fmvn operations set the clocks (they win over FEN
// clocks; the default is "0 1"). An id is at most MaxID bytes long. The
// position must be legal for engines/board (one king per side, no pawn on
// the first or last rank, the side not to move not in check, castling
// rights backed by king and rook, an en-passant square behind a pawn that
// just moved), and the bm and am moves legal in it.
func ParseLine(line string) (Record, error) {
	rest := strings.TrimSpace(line)
	var f []string
	for len(f) < 4 {
		tok, after := nextToken(rest)
		if tok == "" {
			return Record{}, fmt.Errorf("want 4 FEN fields (placement, side to move, castling, en passant), got %d in %q", len(f), Clip(line))
		}
		f = append(f, tok)
		rest = after
	}
	hmvc, fmvn := "0", "1"
	// FEN clocks: two numbers right after the four fields (an opcode never
	// starts with a digit).
	if tok, after := nextToken(rest); isDigits(tok) {
		tok2, after2 := nextToken(after)
		tok2 = strings.TrimSuffix(tok2, ";") // "FEN 0 1;"
		if !isDigits(tok2) {
			return Record{}, fmt.Errorf("half-move clock %s is not followed by a full-move number", Clip(tok))
		}
		hmvc, fmvn, rest = tok, tok2, after2
	}
	ops, err := parseOps(rest)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Ops: map[string][]string{}}
	for _, op := range ops {
		if _, dup := rec.Ops[op.code]; dup {
			return Record{}, fmt.Errorf("operation %s given twice", Clip(op.code))
		}
		rec.Ops[op.code] = op.args
		switch op.code {
		case "id", "hmvc", "fmvn":
		default:
			continue
		}
		if len(op.args) != 1 {
			return Record{}, fmt.Errorf("operation %s wants one operand, got %d", Clip(op.code), len(op.args))
		}
		arg := op.args[0]
		switch op.code {
		case "id":
			if strings.TrimSpace(arg) == "" {
				return Record{}, errors.New("empty id")
			}
			if len(arg) > MaxID {
				return Record{}, fmt.Errorf("id %q... is %d bytes long: at most %d", arg[:40], len(arg), MaxID)
			}
			rec.ID = arg
		case "hmvc":
			if v, err := strconv.Atoi(arg); err != nil || v < 0 {
				return Record{}, fmt.Errorf("hmvc %q: want a number >= 0", Clip(arg))
			}
			hmvc = arg
		case "fmvn":
			if v, err := strconv.Atoi(arg); err != nil || v < 1 {
				return Record{}, fmt.Errorf("fmvn %q: want a number >= 1", Clip(arg))
			}
			fmvn = arg
		}
	}
	rec.FEN = strings.Join(append(f, hmvc, fmvn), " ")
	if _, err := board.FromFEN(rec.FEN); err != nil {
		return Record{}, fmt.Errorf("bad position: %w", err)
	}
	if san, ok := rec.Ops["bm"]; ok {
		rec.BestSAN = san
		if rec.Best, err = sanToUCI(rec.FEN, san); err != nil {
			return Record{}, fmt.Errorf("bm: %w", err)
		}
	}
	if san, ok := rec.Ops["am"]; ok {
		rec.AvoidSAN = san
		if rec.Avoid, err = sanToUCI(rec.FEN, san); err != nil {
			return Record{}, fmt.Errorf("am: %w", err)
		}
	}
	return rec, nil
}

// nextToken returns the next whitespace-separated token of s and the rest.
func nextToken(s string) (tok, rest string) {
	s = strings.TrimLeft(s, " \t")
	end := strings.IndexAny(s, " \t")
	if end < 0 {
		return s, ""
	}
	return s[:end], s[end:]
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// operation is one EPD operation: an opcode and its operands (string
// operands without their quotes).
type operation struct {
	code string
	args []string
}

// parseOps splits the operations part of an EPD line. Every operation
// ends with ';' (the last one may omit it); operands are bare tokens or
// double-quoted strings, which may contain spaces and ';'.
func parseOps(s string) ([]operation, error) {
	var ops []operation
	open := false // an operation has started and not yet ended with ';'
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == ';':
			if !open {
				return nil, fmt.Errorf("empty EPD operation at %q", Clip(s[i:]))
			}
			open = false
			i++
		case c == '"':
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("unterminated string in %q", Clip(s[i:]))
			}
			if !open {
				return nil, fmt.Errorf("string %s where an opcode should be", Clip(s[i:i+end+2]))
			}
			op := &ops[len(ops)-1]
			op.args = append(op.args, s[i+1:i+1+end])
			i += end + 2
		default:
			end := strings.IndexAny(s[i:], " \t;\"")
			if end < 0 {
				end = len(s) - i
			}
			tok := s[i : i+end]
			if open {
				op := &ops[len(ops)-1]
				op.args = append(op.args, tok)
			} else {
				if !validOpcode(tok) {
					return nil, fmt.Errorf("bad EPD opcode %q", Clip(tok))
				}
				ops = append(ops, operation{code: tok})
				open = true
			}
			i += end
		}
	}
	return ops, nil
}

// validOpcode reports whether s is an EPD opcode: a letter, then letters,
// digits and underscores.
func validOpcode(s string) bool {
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_')) {
			return false
		}
	}
	return s != ""
}

// promotionWithoutEquals matches a pawn's promotion written without "="
// (a8Q, bxa8n), as many EPD suites write it.
var promotionWithoutEquals = regexp.MustCompile(`^([a-h](?:x[a-h])?[18])([QRBNqrbn])$`)

// normalSAN rewrites the SAN forms that suites use and notnil's encoder
// does not write: castling with zeros, a promotion without "=" or with a
// lower-case piece.
func normalSAN(san string) string {
	switch san {
	case "0-0":
		return "O-O"
	case "0-0-0":
		return "O-O-O"
	}
	if m := promotionWithoutEquals.FindStringSubmatch(san); m != nil {
		return m[1] + "=" + strings.ToUpper(m[2])
	}
	if i := strings.Index(san, "="); i >= 0 && i+1 < len(san) {
		return san[:i+1] + strings.ToUpper(san[i+1:])
	}
	return san
}

// longForm matches a move that names its from-square: coordinates
// (a1a8, e7e8q) or long algebraic notation (Ng1f3, Ng1-f3, e4xd5).
var longForm = regexp.MustCompile(`^[KQRBN]?([a-h][1-8])[-x]?([a-h][1-8])=?([QRBNqrbn])?$`)

// longMove is the UCI text of a move in a long form, "" for any other.
func longMove(s string) string {
	m := longForm.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1] + m[2] + strings.ToLower(m[3])
}

// sanToUCI resolves SAN moves in the position; notnil's decoder wants the
// exact check suffix, so a missing or extra +/# is tolerated by matching the
// move's SAN without suffixes.
func sanToUCI(fen string, sans []string) ([]string, error) {
	opt, err := chess.FEN(fen)
	if err != nil {
		return nil, err
	}
	pos := chess.NewGame(opt).Position()
	an := chess.AlgebraicNotation{}
	var out []string
	for _, san := range sans {
		want := normalSAN(strings.TrimRight(san, "+#!?"))
		uci := longMove(want) // "" unless the move names its from-square (Ng1f3, a1a8, e7e8q)
		found := ""
		for _, m := range pos.ValidMoves() {
			if strings.TrimRight(an.Encode(pos, m), "+#") == want || uci != "" && m.String() == uci {
				found = m.String()
				break
			}
		}
		if found == "" {
			return nil, fmt.Errorf("move %q is not legal here", Clip(san))
		}
		out = append(out, found)
	}
	return out, nil
}
