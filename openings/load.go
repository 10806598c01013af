package openings

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"selfplay/internal/inputfile"
)

// Spec says where a tournament's openings come from: exactly one of Set and
// File.
type Spec struct {
	// Set is a built-in set, one of SetNames(): "fhr25" or "two-ply".
	Set string
	// File is an opening file, EPD (".epd"), PGN (".pgn") or a Polyglot
	// book (".bin"), by extension in any letter case unless Format says;
	// EPD and PGN may be gzipped (".epd.gz", or any name when Format says).
	File string
	// Format is the file's format, one of FormatNames(), or "" to go by
	// File's extension.
	Format string
	// Plies is, for a PGN file, the most moves of each game that make the
	// opening (a shorter game gives all it has; 0 takes the games' start
	// positions; AllPlies every move, fastchess's default), and for a book
	// the most book moves of an opening (>= 1). It must be 0 for a
	// built-in set or an EPD file.
	Plies int
	// Choice is, for a book only, how a position's book move is chosen:
	// ChoiceWeighted or ChoiceBest.
	Choice string
	// Count is, for a book with ChoiceWeighted only, how many distinct
	// openings to draw (1 to MaxOpenings); ChoiceBest gives one.
	Count int
	// Seed seeds a book's weighted choice (books only).
	Seed uint64
}

// Names of the opening file formats.
const (
	FormatEPD      = "epd"
	FormatPGN      = "pgn"
	FormatPolyglot = "polyglot"
)

// FormatNames returns the names of the opening file formats.
func FormatNames() []string { return []string{FormatEPD, FormatPGN, FormatPolyglot} }

// FileFormat is the format of an opening file: format when it is not
// empty, else the one its extension names (".epd", ".pgn", ".bin"; a
// text format may be gzipped, ".epd.gz" and ".pgn.gz"), or an error naming
// the valid ones.
func FileFormat(file, format string) (string, error) {
	if format != "" {
		for _, f := range FormatNames() {
			if format == f {
				return f, nil
			}
		}
		return "", fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(FormatNames(), ", "))
	}
	name := strings.ToLower(file)
	gz := strings.HasSuffix(name, ".gz")
	switch ext := filepath.Ext(strings.TrimSuffix(name, ".gz")); {
	case ext == ".epd":
		return FormatEPD, nil
	case ext == ".pgn":
		return FormatPGN, nil
	case ext == ".bin" && gz:
		return "", errors.New("a gzipped Polyglot book (.bin.gz): a book is searched, not read through; gunzip it first")
	case ext == ".bin":
		return FormatPolyglot, nil
	case gz:
		return "", fmt.Errorf("unknown file type %q (want .epd.gz or .pgn.gz)", ext+".gz")
	default:
		return "", fmt.Errorf("unknown file type %q (want .epd or .pgn, gzipped or not, or .bin for a Polyglot book)", ext)
	}
}

// Load returns the openings that spec names, in the set's or file's order.
// Errors start with "openings:" and name the valid set names, the file, its
// line and, for PGN, the game.
func Load(spec Spec) ([]Opening, error) {
	list, _, err := loadHashed(spec)
	return list, err
}

// loadHashed is Load that also returns the SHA-256 of an opening file's
// content (lower-case hex; "" for a built-in set), computed from the very
// bytes that were parsed, so that the hash always describes the openings
// returned.
func loadHashed(spec Spec) ([]Opening, string, error) {
	return LoadHashedContext(context.Background(), spec)
}

// LoadHashedContext is loadHashed that stops waiting when ctx ends (opening
// a FIFO waits for a writer; reading one, or a slow file, for data), with
// ctx's error. The file is read as it is parsed, never whole.
func LoadHashedContext(ctx context.Context, spec Spec) ([]Opening, string, error) {
	valid := strings.Join(SetNames(), ", ")
	switch {
	case spec.Set != "" && spec.File != "":
		return nil, "", fmt.Errorf("openings: both set %q and file %q given; want one of them", spec.Set, spec.File)
	case spec.Set == "" && spec.File == "":
		return nil, "", fmt.Errorf("openings: no opening set or file given (sets: %s)", valid)
	case spec.Plies < 0 && spec.Plies != AllPlies:
		return nil, "", fmt.Errorf("openings: plies is %d, want >= 0", spec.Plies)
	case spec.Set != "":
		list, ok := builtin(spec.Set)
		if !ok {
			return nil, "", fmt.Errorf("openings: unknown set %q (valid: %s)", spec.Set, valid)
		}
		if spec.Plies != 0 {
			return nil, "", fmt.Errorf("openings: plies (%d) applies only to PGN files, not to set %q", spec.Plies, spec.Set)
		}
		return list, "", nil
	}
	format, err := FileFormat(spec.File, spec.Format)
	if err != nil {
		return nil, "", fmt.Errorf("openings: %s: %w", spec.File, err)
	}
	switch {
	case format == FormatPolyglot:
		if err := checkBookSpec(spec); err != nil {
			return nil, "", err
		}
		return loadBook(ctx, spec)
	case spec.Choice != "" || spec.Count != 0:
		return nil, "", fmt.Errorf("openings: %s: choice and count: %w", spec.File, errNotBook)
	case format == FormatEPD && spec.Plies != 0:
		return nil, "", fmt.Errorf("openings: %s: plies (%d) applies only to PGN files", spec.File, spec.Plies)
	}
	f, err := inputfile.OpenText(ctx, spec.File)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", err
		}
		return nil, "", fmt.Errorf("openings: %w", err)
	}
	defer f.Close()
	// The parsers read to the end of the file when they succeed: the hash
	// is of every byte they parsed (a gzipped file's content, so that it
	// hashes as its plain text does).
	h := sha256.New()
	r := io.TeeReader(f, h)
	var list []Opening
	if format == FormatEPD {
		list, err = ParseEPD(r, spec.File)
	} else {
		list, err = ParsePGN(r, spec.File, spec.Plies)
	}
	if err != nil {
		return nil, "", err
	}
	return list, hex.EncodeToString(h.Sum(nil)), nil
}
