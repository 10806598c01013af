package store

import "fmt"

// The bounds of what a reader for display (OpenReader: report, serve,
// export, a merge's inputs) reads of a stored text field, in characters.
// What selfplay stores is far shorter (an opening's id or name, a player,
// a FEN: tens of bytes; an EPD id is at most epd.MaxID bytes when read; a
// PGN tens of KB), but a database written by an older selfplay, edited by
// hand or damaged may hold anything, and one long value would otherwise
// be read into every row and page that shows it. A longer value is read
// as its first bound characters followed by "…"; one of more than
// maxCutSource bytes is read as "…" and its length (SQLite reads a whole
// value to cut it, and its length without reading it). A writer (Store)
// reads every value whole: what it reads back (the PGN written to a live
// file, the config compared on a resume) must be what it stored.
const (
	boundShort   = 1 << 10  // names, ids, FENs, results, reasons, times
	boundLong    = 64 << 10 // opening moves, engine options, PVs, a suite's settings and path
	boundPGN     = 4 << 20  // a game's PGN text
	maxCutSource = 1 << 20  // bytes: the longest value that is read to be cut
)

// text is the SQL that reads the text column col (with its table alias,
// if any) for the reader: the column, or for a reader for display the
// column bounded to bound characters (see boundShort).
func (r *Reader) text(col string, bound int) string {
	if !r.bounded {
		return col
	}
	return boundedText(col, bound)
}

// boundedText is the SQL that reads col bounded to bound characters.
func boundedText(col string, bound int) string {
	return fmt.Sprintf(`CASE WHEN octet_length(%[1]s) <= %[2]d THEN %[1]s
		WHEN octet_length(%[1]s) <= %[3]d THEN CASE WHEN length(%[1]s) <= %[2]d THEN %[1]s ELSE substr(%[1]s, 1, %[2]d) || '…' END
		ELSE '… (' || octet_length(%[1]s) || ' bytes, not read)' END`, col, bound, maxCutSource)
}
