package store_test

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"selfplay/store"
	"selfplay/store/storetest"
)

// heapWatcher is a PGN sink that counts bytes and games and, every 500
// games, measures the live heap after a collection.
type heapWatcher struct {
	bytes, games int
	maxHeap      uint64
}

func (w *heapWatcher) Write(p []byte) (int, error) {
	w.bytes += len(p)
	w.games += strings.Count(string(p), "[Event ")
	if w.games%500 == 0 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		w.maxHeap = max(w.maxHeap, m.HeapAlloc)
	}
	return len(p), nil
}

// WritePGN streams: the live heap while it writes stays far below the size
// of what it writes (holding the games, as it did, takes more than that).
func TestWritePGNStreams(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	if err := storetest.Generate(ctx, path, storetest.Options{Games: 6000, NoMoves: true}); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenReader(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	w := &heapWatcher{}
	n, err := r.WritePGN(ctx, w, store.GameFilter{})
	if err != nil || n != 6000 || w.games != 6000 {
		t.Fatalf("WritePGN: %d games (%d written), %v", n, w.games, err)
	}
	grown := int64(w.maxHeap) - int64(before.HeapAlloc)
	if grown > int64(w.bytes)/10 {
		t.Errorf("the heap grew by %d bytes while writing %d bytes of PGN: it holds the games", grown, w.bytes)
	}
	t.Logf("%d bytes of PGN, heap grew by at most %d bytes", w.bytes, grown)
}
