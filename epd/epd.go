// Package epd reads Extended Position Description files, the format of the
// test suites (WAC, Bratko-Kopec, ECM): the first four FEN fields followed by
// opcodes such as bm (best moves), am (avoid moves), id and c0..c9, each
// ended by a semicolon. Moves are SAN; they are resolved to UCI here with
// notnil/chess, so a record's moves are checked against its position.
package epd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/notnil/chess"

	"selfplay/engines/board"
)

// Record is one EPD line.
type Record struct {
	Line     int               // 1-based line number in the file
	ID       string            // the id opcode, or "line N"
	FEN      string            // full FEN (clocks from hmvc/fmvn, else "0 1")
	BestSAN  []string          // bm, as written
	Best     []string          // bm in UCI
	AvoidSAN []string          // am, as written
	Avoid    []string          // am in UCI
	Ops      map[string]string // every opcode's raw operand text, id/c0/... included
}

// LineError is a malformed line: reported and skipped by Parse.
type LineError struct {
	Line int
	Err  error
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Load reads an EPD file; see Parse.
func Load(path string) ([]Record, []LineError, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("epd: %w", err)
	}
	defer f.Close()
	recs, bad, err := Parse(f)
	if err != nil {
		return nil, nil, fmt.Errorf("epd %s: %w", path, err)
	}
	return recs, bad, nil
}

// Parse reads EPD records. Blank lines and lines starting with '#' are
// skipped silently; malformed lines are returned as LineErrors and skipped.
// The error is only for read failures.
func Parse(r io.Reader) ([]Record, []LineError, error) {
	var recs []Record
	var bad []LineError
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rec, err := ParseLine(line)
		if err != nil {
			bad = append(bad, LineError{Line: n, Err: err})
			continue
		}
		rec.Line = n
		if rec.ID == "" {
			rec.ID = "line " + strconv.Itoa(n)
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	return recs, bad, nil
}

// ParseLine parses one EPD record.
func ParseLine(line string) (Record, error) {
	fields := strings.Fields(line)
	if len(fields) < 4 {
		return Record{}, fmt.Errorf("want 4 FEN fields, got %d", len(fields))
	}
	rest := strings.TrimSpace(strings.Join(fields[4:], " "))
	// A plain FEN line has the two clock numbers where opcodes would be.
	clocks := "0 1"
	if f := strings.Fields(rest); len(f) == 2 && isNumber(f[0]) && isNumber(f[1]) {
		clocks, rest = rest, ""
	}
	ops, err := splitOps(rest)
	if err != nil {
		return Record{}, err
	}
	hm, fm := "0", "1"
	if c := strings.Fields(clocks); len(c) == 2 {
		hm, fm = c[0], c[1]
	}
	if v, ok := ops["hmvc"]; ok {
		hm = v
	}
	if v, ok := ops["fmvn"]; ok {
		fm = v
	}
	fen := strings.Join(fields[:4], " ") + " " + hm + " " + fm
	if _, err := board.FromFEN(fen); err != nil {
		return Record{}, err
	}
	rec := Record{FEN: fen, Ops: ops, ID: unquote(ops["id"])}
	if v, ok := ops["bm"]; ok {
		rec.BestSAN = strings.Fields(v)
		if rec.Best, err = sanToUCI(fen, rec.BestSAN); err != nil {
			return Record{}, fmt.Errorf("bm: %w", err)
		}
	}
	if v, ok := ops["am"]; ok {
		rec.AvoidSAN = strings.Fields(v)
		if rec.Avoid, err = sanToUCI(fen, rec.AvoidSAN); err != nil {
			return Record{}, fmt.Errorf("am: %w", err)
		}
	}
	return rec, nil
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// splitOps splits "bm Qg6; id \"WAC.001\";" into opcodes, honouring
// semicolons inside quoted operands.
func splitOps(s string) (map[string]string, error) {
	ops := map[string]string{}
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		inQuote := false
		end := -1
		for i, c := range s {
			if c == '"' {
				inQuote = !inQuote
			}
			if c == ';' && !inQuote {
				end = i
				break
			}
		}
		if end < 0 {
			if inQuote {
				return nil, errors.New("unterminated quoted operand")
			}
			return nil, fmt.Errorf("opcode %q is not ended by ';'", s)
		}
		op := strings.TrimSpace(s[:end])
		s = s[end+1:]
		name, operand, _ := strings.Cut(op, " ")
		if name == "" {
			return nil, errors.New("empty opcode")
		}
		ops[name] = strings.TrimSpace(operand)
	}
	return ops, nil
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
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
		want := strings.TrimRight(san, "+#!?")
		found := ""
		for _, m := range pos.ValidMoves() {
			if strings.TrimRight(an.Encode(pos, m), "+#") == want {
				found = m.String()
				break
			}
		}
		if found == "" {
			return nil, fmt.Errorf("move %q is not legal here", san)
		}
		out = append(out, found)
	}
	return out, nil
}
