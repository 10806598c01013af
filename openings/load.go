package openings

import (
	"fmt"
	"path/filepath"
	"strings"
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
	valid := strings.Join(SetNames(), ", ")
	switch {
	case spec.Set != "" && spec.File != "":
		return nil, fmt.Errorf("openings: both set %q and file %q given; want one of them", spec.Set, spec.File)
	case spec.Set == "" && spec.File == "":
		return nil, fmt.Errorf("openings: no opening set or file given (sets: %s)", valid)
	case spec.Plies < 0:
		return nil, fmt.Errorf("openings: plies is %d, want >= 0", spec.Plies)
	case spec.Set != "":
		list, ok := builtin(spec.Set)
		if !ok {
			return nil, fmt.Errorf("openings: unknown set %q (valid: %s)", spec.Set, valid)
		}
		if spec.Plies != 0 {
			return nil, fmt.Errorf("openings: plies (%d) applies only to PGN files, not to set %q", spec.Plies, spec.Set)
		}
		return list, nil
	}
	switch ext := strings.ToLower(filepath.Ext(spec.File)); ext {
	case ".epd":
		if spec.Plies != 0 {
			return nil, fmt.Errorf("openings: %s: plies (%d) applies only to PGN files", spec.File, spec.Plies)
		}
		return LoadEPD(spec.File)
	case ".pgn":
		return LoadPGN(spec.File, spec.Plies)
	default:
		return nil, fmt.Errorf("openings: %s: unknown file type %q (want .epd or .pgn)", spec.File, ext)
	}
}
