package openings

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"selfplay/epd"
	"selfplay/internal/inputfile"
)

// ErrNoOpenings is wrapped by the error for a file that holds no openings.
var ErrNoOpenings = errors.New("no openings")

// maxLine is the longest line the file readers accept.
const maxLine = 1 << 20

// MaxOpenings is the most openings a file may hold. Each is kept in
// memory for the whole run (about 1 KB with the garbage collector's
// share), and parsed and checked at every start (0.5 ms per EPD line; a
// PGN game about 2 ms at 16 plies, a 16-ply line or a whole game, whose
// moves past the plies are not decoded: BenchmarkParsePGN): a larger book
// is better sampled.
const MaxOpenings = 1000000

// tooMany is the error for an opening past limit at line n.
func tooMany(name string, n, limit int) error {
	return fmt.Errorf("openings: %s:%d: more than %d openings: use a sample of the file (e.g. shuf -n 100000 %s)",
		name, n, limit, filepath.Base(name))
}

// errNUL is a NUL byte in a file, which no text file has: binary data.
var errNUL = errors.New("a NUL byte: binary data, not a text file")

// readError is the error of a file reader that stopped after line n: a line
// too long for it is named by its number.
func readError(name string, n int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("openings: %s:%d: line longer than %d bytes", name, n+1, maxLine)
	}
	return fmt.Errorf("openings: %s: after line %d: %w", name, n, err)
}

// loadEPD reads an EPD file; see ParseEPD.
func loadEPD(path string) ([]Opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	defer f.Close()
	return ParseEPD(f, path)
}

// ParseEPD reads one opening per line of EPD, in the syntax of
// epd.ParseLine: the first four FEN fields (placement, side to move,
// castling, en-passant square), optionally the half-move clock and
// full-move number as in a FEN, then optional EPD operations
// ("opcode operand...;", the last ';' optional). The hmvc and fmvn
// operations set the clocks (they win over FEN clocks; the default is
// "0 1"); id becomes the opening's ID; the other operations are checked
// (bm and am moves must be legal) but not used. Blank lines and lines
// starting with '#' are skipped, and a UTF-8 byte order mark before the
// first line is ignored.
//
// Openings without an id get the ID "<base name of name>:<line>". The name
// is used in errors, which look like "openings: book.epd:12: ...". IDs must
// be unique within the file. A file with no openings is an error wrapping
// ErrNoOpenings; so is, naming its line, a NUL byte (binary data), a line
// longer than 1 MiB and an opening past MaxOpenings.
func ParseEPD(r io.Reader, name string) ([]Opening, error) {
	return parseEPD(r, name, MaxOpenings)
}

// parseEPD is ParseEPD with at most limit openings.
func parseEPD(r io.Reader, name string, limit int) ([]Opening, error) {
	base := filepath.Base(name)
	in := &inputfile.Latch{R: r}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	var list []Opening
	seen := map[string]int{}
	n := 0
	for sc.Scan() && !in.Failed() {
		n++
		if bytes.IndexByte(sc.Bytes(), 0) >= 0 {
			return nil, fmt.Errorf("openings: %s:%d: %w", name, n, errNUL)
		}
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimSpace(strings.TrimPrefix(line, "\ufeff"))
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(list) == limit {
			return nil, tooMany(name, n, limit)
		}
		o, err := parseEPDLine(line)
		if err != nil {
			return nil, fmt.Errorf("openings: %s:%d: %w", name, n, epd.ClipError(err))
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
		return nil, readError(name, n, err)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("openings: %s: %w (no EPD lines)", name, ErrNoOpenings)
	}
	return list, nil
}

// parseEPDLine turns one non-blank EPD line into an opening with no moves:
// epd.ParseLine reads the syntax and checks the position with
// engines/board; parseStartFEN adds the checks a game start needs. The ID is
// the id operation's operand, or empty.
func parseEPDLine(line string) (Opening, error) {
	rec, err := epd.ParseLine(line)
	if err != nil {
		return Opening{}, err
	}
	start, b, err := parseStartFEN(rec.FEN)
	if err != nil {
		return Opening{}, fmt.Errorf("bad position %q: %w", epd.Clip(rec.FEN), err)
	}
	o, err := newOpeningOn(b, rec.ID, rec.ID, start, nil)
	if err != nil {
		return Opening{}, fmt.Errorf("bad position %q: %w", epd.Clip(rec.FEN), err)
	}
	return o, nil
}
