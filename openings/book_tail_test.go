package openings

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/notnil/chess"
)

// A book whose size is not a multiple of 16 is read as Polyglot reads it:
// its whole entries, the bytes after the last left out (Debian's
// gnuchess smallbook.bin has one such byte, and polyglot dump-book reads
// it). The openings are those of the whole entries; the hash covers every
// byte, as it does for any openings file.
func TestBookPartialEntry(t *testing.T) {
	start := polyglotKey(chess.StartingPosition())
	g := chess.NewGame()
	if err := g.MoveStr("e4"); err != nil {
		t.Fatal(err)
	}
	afterE4 := polyglotKey(g.Position())
	entries := [][3]uint64{{start, uint64(bookMove("e2", "e4")), 1}, {afterE4, uint64(bookMove("d7", "d5")), 1}}
	if afterE4 < start {
		entries[0], entries[1] = entries[1], entries[0]
	}
	whole := writeBook(t, entries)
	spec := Spec{File: whole, Plies: 8, Choice: ChoiceBest, Count: 1, Seed: 1}
	want, wantHash, err := LoadHashedContext(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	for _, tail := range []int{1, 8, 15} {
		tailed := writeBook(t, entries)
		if err := os.WriteFile(tailed, append(data, make([]byte, tail)...), 0o644); err != nil {
			t.Fatal(err)
		}
		spec.File = tailed
		got, hash, err := LoadHashedContext(context.Background(), spec)
		if err != nil {
			t.Fatalf("%d bytes more: %v", tail, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d bytes more: openings %v, want %v", tail, got, want)
		}
		if hash == wantHash {
			t.Errorf("%d bytes more: the same hash as without them", tail)
		}
	}
	const small = "/usr/share/gnuchess/smallbook.bin"
	if info, err := os.Stat(small); err == nil && info.Size()%bookEntrySize != 0 {
		list, err := Load(Spec{File: small, Plies: 8, Choice: ChoiceWeighted, Count: 10, Seed: 1})
		if err != nil || len(list) == 0 {
			t.Errorf("%s (%d bytes): %d openings, %v", small, info.Size(), len(list), err)
		}
	}
}
