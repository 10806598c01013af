package openings

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	// File is an opening file, EPD (".epd") or PGN (".pgn"), by extension,
	// in any letter case.
	File string
	// Plies is, for a PGN file, how many moves of each game make the
	// opening (>= 0; 0 takes the games' start positions). It must be 0 for
	// a built-in set or an EPD file.
	Plies int
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
	case spec.Plies < 0:
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
	ext := strings.ToLower(filepath.Ext(spec.File))
	switch ext {
	case ".epd":
		if spec.Plies != 0 {
			return nil, "", fmt.Errorf("openings: %s: plies (%d) applies only to PGN files", spec.File, spec.Plies)
		}
	case ".pgn":
	default:
		return nil, "", fmt.Errorf("openings: %s: unknown file type %q (want .epd or .pgn)", spec.File, ext)
	}
	f, err := inputfile.Open(ctx, spec.File)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", err
		}
		return nil, "", fmt.Errorf("openings: %w", err)
	}
	defer f.Close()
	// The parsers read to the end of the file when they succeed: the hash
	// is of every byte.
	h := sha256.New()
	r := io.TeeReader(f, h)
	var list []Opening
	if ext == ".epd" {
		list, err = ParseEPD(r, spec.File)
	} else {
		list, err = ParsePGN(r, spec.File, spec.Plies)
	}
	if err != nil {
		return nil, "", err
	}
	return list, hex.EncodeToString(h.Sum(nil)), nil
}
