// Package openings provides the opening sets a tournament is played from.
//
// An [Opening] is a start position (normally the standard initial position)
// plus a short list of book moves. The scheduler turns every opening into
// one game pair: the opening is played once with each engine as White, so
// that both engines face the same positions and the pair can be scored with
// pentanomial statistics.
//
// Openings come from one of four sources, all reached through [Load]:
//
//   - the built-in set "fhr25": the 25 two-ply openings of Table 2 of
//     Feldmann's "Fail-High Reductions" self-play test, in the paper's order
//     (see [FHR25]);
//   - the built-in set "two-ply": all 400 two-ply openings from the initial
//     position, sorted by the UCI text of White's move, then of Black's
//     (see [TwoPly]);
//   - an EPD file: one position per line, no moves (see [ParseEPD]);
//   - a PGN file: the first N plies of every game (see [ParsePGN]);
//
// an EPD or PGN file may be gzipped (inputfile.OpenText).
//
// Every position read from a file is checked by engines/board (board.FromFEN:
// one king per side, no pawn on the first or last rank, the side not to move
// not in check, castling rights that match the king and rook squares, an
// en-passant square behind a pawn that just moved), here (the squares that
// pawn crossed are empty, the game is not already over) and by
// github.com/notnil/chess (the tournament's arbiter), which also checks
// every move. EPD lines are read by epd.ParseLine. Errors name the file and
// the line, and for PGN the game number.
//
// Book lines are read and replayed as notnil reads and replays them, but
// most of them on engines/board, ten times faster: a fastLine takes a line
// only where notnil's answer is plainly the same (the same moves, SAN and
// FEN, no outcome near), and leaves the rest to notnil (fastline.go).
//
// [Order] puts a list in the tournament's order: as loaded, or a shuffle that
// depends only on a seed and is the same on every platform and Go version.
//
// FEN strings produced here are notnil's: the en-passant square is set after
// every double pawn step, whether or not a capture is possible.
//
// The package has no mutable package-level state; every function builds
// fresh slices, so callers may modify what they get back.
package openings
