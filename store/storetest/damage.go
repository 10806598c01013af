package storetest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
)

// DamagePage damages the database file at path (closed, its write-ahead
// log checkpointed) the way a bad disk block does: of the pages that
// contain marker (a text stored in a table, such as `[Round "`), the
// middle one gets its B-tree page header overwritten, so SQLite fails
// with "database disk image is malformed" when a read reaches it and
// quick_check reports it. It returns the page's number (from 1).
func DamagePage(path, marker string) (int, error) {
	return damage(path, marker, false, 0, bytes.Repeat([]byte{0xff}, 8))
}

// ScrambleCells damages the middle table leaf page that contains marker
// (not an overflow page) as DamagePage does, but in its cells (the first
// 64 bytes of its cell content area) and not its header: SQLite then
// walks the table without an error, misreading a row, and only
// quick_check finds the damage.
func ScrambleCells(path, marker string) (int, error) {
	return damage(path, marker, true, -1, bytes.Repeat([]byte{0x55}, 64))
}

// tableLeaf is the first byte of a table B-tree leaf page.
const tableLeaf = 0x0d

// damage writes junk at offset off (-1: the start of the cell content
// area) of the middle page of the database at path that contains marker
// (a table leaf page if leaf), and returns the page's number (from 1).
func damage(path, marker string, leaf bool, off int, junk []byte) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if len(b) < 100 || string(b[:16]) != "SQLite format 3\x00" {
		return 0, fmt.Errorf("storetest: %s is not an SQLite database", path)
	}
	size := int(binary.BigEndian.Uint16(b[16:18]))
	if size == 1 {
		size = 65536
	}
	var pages []int
	for p := 1; (p+1)*size <= len(b); p++ { // page 1 holds the file header: never damaged
		if bytes.Contains(b[p*size:(p+1)*size], []byte(marker)) && (!leaf || b[p*size] == tableLeaf) {
			pages = append(pages, p)
		}
	}
	if len(pages) == 0 {
		return 0, fmt.Errorf("storetest: no page of %s contains %q", path, marker)
	}
	p := pages[len(pages)/2]
	if off < 0 {
		off = int(binary.BigEndian.Uint16(b[p*size+5:]))
	}
	if off+len(junk) > size {
		return 0, fmt.Errorf("storetest: %s: page %d has no room for the damage at %d", path, p+1, off)
	}
	copy(b[p*size+off:], junk)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return 0, err
	}
	return p + 1, nil
}
