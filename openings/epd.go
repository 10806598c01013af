package openings

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrNoOpenings is wrapped by the error for a file that holds no openings.
var ErrNoOpenings = errors.New("no openings")

// maxLine is the longest line the file readers accept.
const maxLine = 1 << 20

// LoadEPD reads an EPD file; see ParseEPD.
func LoadEPD(path string) ([]Opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	defer f.Close()
	return ParseEPD(f, path)
}

// ParseEPD reads one opening per line of EPD: the first four FEN fields
// (placement, side to move, castling, en-passant square), optionally the
// half-move clock and full-move number as in a FEN, then optional EPD
// operations ("opcode operand...;"). The hmvc and fmvn operations set the
// clocks (they win over FEN clocks; the default is "0 1"); id becomes the
// opening's ID; all other operations are ignored. Blank lines and lines
// starting with '#' are skipped.
//
// Openings without an id get the ID "<base name of name>:<line>". The name
// is used in errors, which look like "openings: book.epd:12: ...". IDs must
// be unique within the file. A file with no openings is an error wrapping
// ErrNoOpenings.
func ParseEPD(r io.Reader, name string) ([]Opening, error) {
	base := filepath.Base(name)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	var list []Opening
	seen := map[string]int{}
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimSpace(strings.TrimPrefix(line, "\ufeff"))
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		o, err := parseEPDLine(line)
		if err != nil {
			return nil, fmt.Errorf("openings: %s:%d: %w", name, n, err)
		}
		if o.ID == "" {
			o.ID = fmt.Sprintf("%s:%d", base, n)
		}
		if prev, ok := seen[o.ID]; ok {
			return nil, fmt.Errorf("openings: %s:%d: duplicate id %q (also on line %d)", name, n, o.ID, prev)
		}
		seen[o.ID] = n
		list = append(list, o)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("openings: %s: after line %d: %w", name, n, err)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("openings: %s: %w (no EPD lines)", name, ErrNoOpenings)
	}
	return list, nil
}

// parseEPDLine turns one non-blank EPD line into an opening with no moves.
// The ID is the id operation's operand, or empty.
func parseEPDLine(line string) (Opening, error) {
	rest := line
	var f []string
	for len(f) < 4 {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return Opening{}, fmt.Errorf("want at least 4 FEN fields (placement, side to move, castling, en passant), got %d in %q", len(f), line)
		}
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			end = len(rest)
		}
		f = append(f, rest[:end])
		rest = rest[end:]
	}
	hmvc, fmvn := "0", "1"
	// FEN clocks: two numbers right after the four fields (an EPD opcode
	// never starts with a digit).
	if tok, after := nextToken(rest); isDigits(tok) {
		tok2, after2 := nextToken(after)
		tok2 = strings.TrimSuffix(tok2, ";")
		if !isDigits(tok2) {
			return Opening{}, fmt.Errorf("half-move clock %s is not followed by a full-move number", tok)
		}
		hmvc, fmvn, rest = tok, tok2, after2
	}
	ops, err := parseEPDOps(rest)
	if err != nil {
		return Opening{}, err
	}
	var id string
	seen := map[string]bool{}
	for _, op := range ops {
		switch op.code {
		case "id", "hmvc", "fmvn":
		default:
			continue
		}
		if seen[op.code] {
			return Opening{}, fmt.Errorf("operation %s given twice", op.code)
		}
		seen[op.code] = true
		if len(op.args) != 1 {
			return Opening{}, fmt.Errorf("operation %s wants one operand, got %d", op.code, len(op.args))
		}
		arg := op.args[0]
		switch op.code {
		case "id":
			if strings.TrimSpace(arg) == "" {
				return Opening{}, errors.New("empty id")
			}
			id = arg
		case "hmvc":
			if v, err := strconv.Atoi(arg); err != nil || v < 0 {
				return Opening{}, fmt.Errorf("hmvc %q: want a number >= 0", arg)
			}
			hmvc = arg
		case "fmvn":
			if v, err := strconv.Atoi(arg); err != nil || v < 1 {
				return Opening{}, fmt.Errorf("fmvn %q: want a number >= 1", arg)
			}
			fmvn = arg
		}
	}
	fen := strings.Join(append(f, hmvc, fmvn), " ")
	start, err := parseStartFEN(fen)
	if err != nil {
		return Opening{}, fmt.Errorf("bad position %q: %w", fen, err)
	}
	o, err := newOpening(id, id, start, nil)
	if err != nil {
		return Opening{}, fmt.Errorf("bad position %q: %w", fen, err)
	}
	return o, nil
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

// epdOp is one EPD operation: an opcode and its operands (string operands
// without their quotes).
type epdOp struct {
	code string
	args []string
}

// parseEPDOps splits the operations part of an EPD line. Every operation
// ends with ';' (the last one may omit it); operands are bare tokens or
// double-quoted strings, which may contain spaces and ';'.
func parseEPDOps(s string) ([]epdOp, error) {
	var ops []epdOp
	var cur *epdOp
	add := func(tok string) error {
		if cur == nil {
			if !validOpcode(tok) {
				return fmt.Errorf("bad EPD opcode %q", tok)
			}
			ops = append(ops, epdOp{code: tok})
			cur = &ops[len(ops)-1]
			return nil
		}
		cur.args = append(cur.args, tok)
		return nil
	}
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == ';':
			if cur == nil {
				return nil, fmt.Errorf("empty EPD operation at %q", s[i:])
			}
			cur = nil
			i++
		case c == '"':
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("unterminated string in %q", s[i:])
			}
			if cur == nil {
				return nil, fmt.Errorf("string %s where an opcode should be", s[i:i+end+2])
			}
			cur.args = append(cur.args, s[i+1:i+1+end])
			i += end + 2
		default:
			end := strings.IndexAny(s[i:], " \t;\"")
			if end < 0 {
				end = len(s) - i
			}
			if err := add(s[i : i+end]); err != nil {
				return nil, err
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
