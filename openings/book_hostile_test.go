package openings

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// e2e4, e1g1 ... as Polyglot move fields.
func bookMove(from, to string) uint16 {
	sq := func(s string) uint16 { return uint16(s[0]-'a') + 8*uint16(s[1]-'1') }
	return sq(from)<<6 | sq(to)
}

// writeBook writes entries (key, move, weight) as a Polyglot file.
func writeBook(t *testing.T, entries [][3]uint64) string {
	t.Helper()
	buf := make([]byte, 0, 16*len(entries))
	for _, e := range entries {
		buf = binary.BigEndian.AppendUint64(buf, e[0])
		buf = binary.BigEndian.AppendUint16(buf, uint16(e[1]))
		buf = binary.BigEndian.AppendUint16(buf, uint16(e[2]))
		buf = binary.BigEndian.AppendUint32(buf, 0)
	}
	path := filepath.Join(t.TempDir(), "book.bin")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sparseFile makes a file of size bytes that takes no disk space.
func sparseFile(t *testing.T, size int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "huge.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Skipf("no sparse file of %d bytes here: %v", size, err)
	}
	return path
}

// allocated is the bytes fn allocates on the heap.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Malformed books are errors that name the file and the offset, found
// without reading more than they need and in bounded memory, whatever the
// file's size.
func TestBookHostile(t *testing.T) {
	start := polyglotKey(chess.StartingPosition())
	e4 := bookMove("e2", "e4")
	tests := []struct {
		name string
		path func(t *testing.T) string
		want []string
		is   error
	}{
		{"4 GiB of zeros", func(t *testing.T) string { return sparseFile(t, 4<<30) },
			[]string{"huge.bin: offset 0:", "not a move", "not a Polyglot book"}, nil},
		// The half entry at the end is left out (TestBookPartialEntry):
		// the whole entries before it are read, and checked.
		{"4 GiB and a half entry", func(t *testing.T) string { return sparseFile(t, 4<<30+8) },
			[]string{"huge.bin: offset 0:", "not a move", "not a Polyglot book"}, nil},
		{"less than one entry", func(t *testing.T) string {
			p := writeBook(t, [][3]uint64{{start, uint64(e4), 1}})
			if err := os.Truncate(p, 15); err != nil {
				t.Fatal(err)
			}
			return p
		}, []string{"book.bin", "15 bytes, not one whole 16-byte Polyglot entry"}, ErrNoOpenings},
		{"unsorted keys", func(t *testing.T) string {
			return writeBook(t, [][3]uint64{{1, uint64(e4), 1}, {start, uint64(e4), 1}, {2, uint64(e4), 1}})
		}, []string{"book.bin: offset 32:", "key 0000000000000002 is less than the key before it", "sorted by key"}, nil},
		{"a promotion piece past 4", func(t *testing.T) string {
			return writeBook(t, [][3]uint64{{1, uint64(e4), 1}, {2, uint64(e4) | 6<<12, 1}})
		}, []string{"book.bin: offset 16:", "promotion piece 6"}, nil},
		{"an illegal book move", func(t *testing.T) string {
			return writeBook(t, [][3]uint64{{1, uint64(e4), 1}, {start, uint64(bookMove("e2", "e5")), 1}})
		}, []string{"book.bin: offset 16: book move e2e5", "illegal"}, nil},
		{"empty", func(t *testing.T) string { return writeBook(t, nil) }, []string{"book.bin", "empty"}, ErrNoOpenings},
		{"no move from the initial position", func(t *testing.T) string {
			return writeBook(t, [][3]uint64{{1, uint64(e4), 1}, {start + 1, uint64(e4), 1}})
		}, []string{"book.bin", "no book move from the initial position, key 463b96181691fc9c"}, ErrNoOpenings},
		{"only weight 0 there", func(t *testing.T) string {
			return writeBook(t, [][3]uint64{{start, uint64(e4), 0}})
		}, []string{"no book move from the initial position"}, ErrNoOpenings},
		{"a directory", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "dir.bin")
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
			return p
		}, []string{"dir.bin: not a regular file", "read by seeking"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path(t)
			var err error
			alloc := allocated(func() {
				_, err = Load(Spec{File: path, Plies: 8, Choice: ChoiceWeighted, Count: 10, Seed: 1})
			})
			if err == nil {
				t.Fatal("loaded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "openings: ") {
				t.Errorf("error %q does not start with openings:", err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %q does not wrap %v", err, tc.is)
			}
			if alloc > 1<<20 {
				t.Errorf("allocated %d bytes", alloc)
			}
		})
	}
}

// A valid book larger than anything kept in memory is read by seeking:
// loading it allocates a small fraction of its size.
func TestBookBoundedMemory(t *testing.T) {
	const entries = 1 << 18 // 4 MiB
	start := polyglotKey(chess.StartingPosition())
	list := make([][3]uint64, 0, entries)
	step := ^uint64(0) / entries
	for i := range uint64(entries) {
		key := i * step
		if key > start && (i == 0 || (i-1)*step < start) {
			list = append(list, [3]uint64{start, uint64(bookMove("e2", "e4")), 3}, [3]uint64{start, uint64(bookMove("d2", "d4")), 1})
		}
		list = append(list, [3]uint64{key, uint64(bookMove("a2", "a3")), 1})
	}
	path := writeBook(t, list)
	var got []Opening
	var err error
	alloc := allocated(func() {
		got, err = Load(Spec{File: path, Plies: 8, Choice: ChoiceWeighted, Count: 2, Seed: 1})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got[0].Moves) != 1 || len(got[1].Moves) != 1 {
		t.Fatalf("openings %+v, want 1. e4 and 1. d4", got)
	}
	if alloc > 1<<20 {
		t.Errorf("loading a %d-byte book allocated %d bytes", 16*len(list), alloc)
	}
}
