package openings

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/notnil/chess"
)

// Names of the ways a book move is chosen.
const (
	// ChoiceWeighted picks among a position's book moves at random, in
	// proportion to their weights, from the tournament's seed.
	ChoiceWeighted = "weighted"
	// ChoiceBest always picks the move with the highest weight.
	ChoiceBest = "best"
)

// ChoiceNames returns the names of the ways a book move is chosen.
func ChoiceNames() []string { return []string{ChoiceWeighted, ChoiceBest} }

// bookEntrySize is the size of a Polyglot entry: key (8 bytes), move (2),
// weight (2) and learn (4), big-endian.
const bookEntrySize = 16

// maxEntriesPerKey bounds the entries of one position: a position has at
// most 218 legal moves; more entries under one key are not a book.
const maxEntriesPerKey = 1024

// bookDryRun is how many walks in a row that find no new line end the
// search for count openings in a book that has fewer lines.
const bookDryRun = 1000

// bookStream is the second PCG seed word of the book walks ("polyglot"
// in ASCII); the tournament's seed is the first.
const bookStream = 0x706f6c79676c6f74

// bookEntry is one entry of a Polyglot book, with its offset in the file.
type bookEntry struct {
	key    uint64
	move   polyglotMove
	weight uint16
	offset int64
}

// book reads a Polyglot book by seeking: never more than one position's
// entries at a time are in memory, whatever the file's size.
type book struct {
	name    string // the path, for errors
	f       *os.File
	size    int64 // bytes, a partial entry at the end included
	entries int64 // whole entries
}

// errorAt is a book error at an offset of the file.
func (b *book) errorAt(offset int64, format string, args ...any) error {
	return fmt.Errorf("openings: %s: offset %d: %s", b.name, offset, fmt.Sprintf(format, args...))
}

func decodeEntry(buf []byte, offset int64) bookEntry {
	return bookEntry{
		key:    binary.BigEndian.Uint64(buf[0:8]),
		move:   polyglotMove(binary.BigEndian.Uint16(buf[8:10])),
		weight: binary.BigEndian.Uint16(buf[10:12]),
		offset: offset,
	}
}

// openBook opens a Polyglot book: a regular file (it is read by seeking)
// of at least one whole entry. Bytes after the last whole entry are left
// out, as Polyglot itself reads a book (Debian's polyglot 2.0.4 reads
// gnuchess's smallbook.bin, 2417 entries and one byte, with no word about
// it); this package has no channel for a warning.
func openBook(path string) (*book, os.FileInfo, error) {
	info, err := os.Stat(path) // not Open: a FIFO would block it
	if err != nil {
		return nil, nil, fmt.Errorf("openings: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("openings: %s: not a regular file (%s): a Polyglot book is read by seeking", path, info.Mode().Type())
	}
	size := info.Size()
	switch {
	case size == 0:
		return nil, nil, fmt.Errorf("openings: %s: %w (an empty Polyglot book)", path, ErrNoOpenings)
	case size < bookEntrySize:
		return nil, nil, fmt.Errorf("openings: %s: %w (%d bytes, not one whole %d-byte Polyglot entry)", path, ErrNoOpenings, size, bookEntrySize)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("openings: %w", err)
	}
	return &book{name: path, f: f, size: size, entries: size / bookEntrySize}, info, nil
}

// scan reads the whole book once, in order and in constant memory, and
// returns the SHA-256 of its content (any partial entry at the end
// included). It checks what lookups rely on: the keys never decrease,
// and every move field is a move. ctx is checked between blocks of
// entries.
func (b *book) scan(ctx context.Context) (string, error) {
	h := sha256.New()
	r := bufio.NewReaderSize(io.TeeReader(io.NewSectionReader(b.f, 0, b.size), h), 64<<10)
	var buf [bookEntrySize]byte
	var prev uint64
	for i := range b.entries {
		offset := i * bookEntrySize
		if i%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return "", context.Cause(ctx)
			}
		}
		if _, err := io.ReadFull(r, buf[:]); err != nil {
			return "", b.errorAt(offset, "reading: %v (the file changed while it was read?)", err)
		}
		e := decodeEntry(buf[:], offset)
		if e.key < prev {
			return "", b.errorAt(offset, "key %016x is less than the key before it, %016x: a Polyglot book is sorted by key (not a Polyglot book, or a damaged one)", e.key, prev)
		}
		if err := e.move.check(); err != nil {
			return "", b.errorAt(offset, "%v (not a Polyglot book, or a damaged one)", err)
		}
		prev = e.key
	}
	if _, err := io.Copy(io.Discard, r); err != nil { // the partial entry, into the hash
		return "", b.errorAt(b.entries*bookEntrySize, "reading: %v", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// entryAt reads entry i.
func (b *book) entryAt(i int64) (bookEntry, error) {
	var buf [bookEntrySize]byte
	offset := i * bookEntrySize
	if _, err := b.f.ReadAt(buf[:], offset); err != nil {
		return bookEntry{}, b.errorAt(offset, "reading: %v", err)
	}
	return decodeEntry(buf[:], offset), nil
}

// lookup returns the entries with key, in file order: a binary search for
// the first, then the ones after it.
func (b *book) lookup(key uint64) ([]bookEntry, error) {
	lo, hi := int64(0), b.entries
	for lo < hi {
		mid := lo + (hi-lo)/2
		e, err := b.entryAt(mid)
		if err != nil {
			return nil, err
		}
		if e.key < key {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	var out []bookEntry
	for i := lo; i < b.entries; i++ {
		e, err := b.entryAt(i)
		if err != nil {
			return nil, err
		}
		if e.key != key {
			break
		}
		if len(out) == maxEntriesPerKey {
			return nil, b.errorAt(e.offset, "more than %d entries with key %016x: not a Polyglot book", maxEntriesPerKey, key)
		}
		out = append(out, e)
	}
	return out, nil
}

// choose picks a book move among entries: by weight (weighted, drawing
// from rng) or the highest weight (best, the first in the file on a tie).
// Entries of weight 0 are never chosen; without others there is no move.
func choose(entries []bookEntry, choice string, rng *rand.Rand) (bookEntry, bool) {
	var total uint64
	best := -1
	for i, e := range entries {
		total += uint64(e.weight)
		if e.weight > 0 && (best < 0 || e.weight > entries[best].weight) {
			best = i
		}
	}
	if best < 0 {
		return bookEntry{}, false
	}
	if choice == ChoiceBest {
		return entries[best], true
	}
	r := rng.Uint64N(total)
	for _, e := range entries {
		if r < uint64(e.weight) {
			return e, true
		}
		r -= uint64(e.weight)
	}
	return bookEntry{}, false // not reached: r < total
}

// walk follows the book from the initial position for at most plies moves
// and returns them in UCI. It stops early where the book has no move, and
// before a move that would end the game (the opening must be playable).
func (b *book) walk(plies int, choice string, rng *rand.Rand) ([]string, error) {
	g := chess.NewGame()
	var moves []string
	for len(moves) < plies {
		pos := g.Position()
		entries, err := b.lookup(polyglotKey(pos))
		if err != nil {
			return nil, err
		}
		e, ok := choose(entries, choice, rng)
		if !ok {
			break
		}
		uci := e.move.uci(pos)
		trial := g.Clone() // g stays as it was if the move ends the game
		if _, err := playUCI(trial, uci); err != nil {
			return nil, b.errorAt(e.offset, "book move %s (key %016x) in %s: %v", uci, e.key, pos, err)
		}
		if trial.Outcome() != chess.NoOutcome {
			break
		}
		g = trial
		moves = append(moves, uci)
	}
	return moves, nil
}

// loadBook makes the openings of a Polyglot book (see Spec) and returns
// them with the SHA-256 of the file's content.
func loadBook(ctx context.Context, spec Spec) ([]Opening, string, error) {
	b, before, err := openBook(spec.File)
	if err != nil {
		return nil, "", err
	}
	defer b.f.Close()
	hash, err := b.scan(ctx)
	if err != nil {
		return nil, "", err
	}
	list, err := b.openings(ctx, spec)
	if err != nil {
		return nil, "", err
	}
	// The walks read the file again: it must be the file that was hashed.
	if after, err := b.f.Stat(); err != nil || after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		return nil, "", fmt.Errorf("openings: %s: the file changed while it was read", spec.File)
	}
	return list, hash, nil
}

// openings walks the book until it has spec.Count distinct lines (one for
// the best choice), or until bookDryRun walks in a row found none: a book
// may have fewer lines than asked for. The openings are in the order
// found, with IDs "<base name>#1", "#2", ...
func (b *book) openings(ctx context.Context, spec Spec) ([]Opening, error) {
	rng := rand.New(rand.NewPCG(spec.Seed, bookStream))
	want := spec.Count
	if spec.Choice == ChoiceBest {
		want = 1 // every walk is the same
	}
	base := filepath.Base(spec.File)
	seen := map[string]bool{}
	var list []Opening
	for dry := 0; len(list) < want && dry < bookDryRun; dry++ {
		if err := ctx.Err(); err != nil {
			return nil, context.Cause(ctx)
		}
		moves, err := b.walk(spec.Plies, spec.Choice, rng)
		if err != nil {
			return nil, err
		}
		if len(moves) == 0 {
			break // no move from the initial position: every walk is empty
		}
		line := strings.Join(moves, " ")
		if seen[line] {
			continue
		}
		seen[line] = true
		dry = -1
		o, err := newOpening(fmt.Sprintf("%s#%d", base, len(list)+1), "", StandardStartFEN, moves)
		if err != nil {
			return nil, fmt.Errorf("openings: %s: line %s: %w", b.name, line, err)
		}
		list = append(list, o)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("openings: %s: %w (no book move from the initial position, key %016x)",
			b.name, ErrNoOpenings, polyglotKey(chess.StartingPosition()))
	}
	return list, nil
}

// checkBookSpec checks the settings of a book in spec.
func checkBookSpec(spec Spec) error {
	switch {
	case spec.Plies < 1:
		return fmt.Errorf("openings: %s: plies is %d, want >= 1 for a Polyglot book", spec.File, spec.Plies)
	case spec.Choice != ChoiceWeighted && spec.Choice != ChoiceBest:
		return fmt.Errorf("openings: %s: unknown book choice %q (valid: %s)", spec.File, spec.Choice, strings.Join(ChoiceNames(), ", "))
	case spec.Choice == ChoiceWeighted && (spec.Count < 1 || spec.Count > MaxOpenings):
		return fmt.Errorf("openings: %s: count is %d, want 1 to %d", spec.File, spec.Count, MaxOpenings)
	}
	return nil
}

// errNotBook is wrapped by the error for book settings given for another
// kind of openings.
var errNotBook = errors.New("applies only to a Polyglot book")
