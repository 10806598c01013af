package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/store/record"
)

// writeWAL writes a database at path with one tournament and returns the
// bytes of its write-ahead log before the writer closed (closing
// checkpoints the log into the file and removes it).
func writeWAL(t *testing.T, path string) []byte {
	t.Helper()
	ctx := context.Background()
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTournament(ctx, record.Tournament{Name: "old", Config: "{}", ConfigHash: "h", TotalGames: 2}); err != nil {
		t.Fatal(err)
	}
	wal, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if len(wal) == 0 {
		t.Fatal("the write-ahead log is empty: the test needs one with frames")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return wal
}

// The log files of a database that was deleted are not applied to a new
// database of the same name: one with content is an error that names it
// and keeps it, empty ones are removed.
func TestOrphanLogsOfADeletedDatabase(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		files   func(wal []byte) map[string][]byte // suffix -> content
		wantErr string
	}{
		{"write-ahead log with frames", func(wal []byte) map[string][]byte {
			return map[string][]byte{"-wal": wal, "-shm": make([]byte, 32768)}
		}, "-wal"},
		{"rollback journal", func([]byte) map[string][]byte {
			return map[string][]byte{"-journal": []byte("not empty")}
		}, "-journal"},
		{"empty log files", func([]byte) map[string][]byte {
			return map[string][]byte{"-wal": nil, "-shm": make([]byte, 32768), "-journal": nil}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.db")
			wal := writeWAL(t, path)
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			for suffix, b := range tc.files(wal) {
				if err := os.WriteFile(path+suffix, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, err := OpenWriter(ctx, path, "run")
			if tc.wantErr != "" {
				if err == nil {
					s.Close()
					t.Fatal("opened a new database beside a leftover log")
				}
				if !strings.Contains(err.Error(), path+tc.wantErr) || !strings.Contains(err.Error(), "no longer exists") {
					t.Fatalf("error does not name the leftover %s: %v", tc.wantErr, err)
				}
				if _, err := os.Stat(path + tc.wantErr); err != nil {
					t.Fatalf("the leftover was removed: %v", err)
				}
				if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("a database was created: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ts, err := s.Tournaments(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(ts) != 0 {
				t.Fatalf("the new database holds %d tournaments of the deleted one", len(ts))
			}
			if _, err := os.Stat(path + "-journal"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the empty journal is still there: %v", err)
			}
		})
	}
}

// A database reached through a symbolic link is the target's: it is
// written there, under the target's lock.
func TestSymlinkedDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	real := filepath.Join(dir, "real.db")
	link := filepath.Join(dir, "link.db")
	writeWAL(t, real)
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	s, err := OpenWriter(ctx, link, "run")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTournament(ctx, record.Tournament{Name: "new", Config: "{}", ConfigHash: "h"}); err != nil {
		t.Fatal(err)
	}
	var inUse *InUseError
	if s2, err := OpenWriter(ctx, real, "run"); !errors.As(err, &inUse) {
		if err == nil {
			s2.Close()
		}
		t.Fatalf("a second writer through the target's path: %v; want an InUseError", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReader(ctx, real)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ts, err := r.Tournaments(ctx)
	if err != nil || len(ts) != 2 {
		t.Fatalf("the target holds %d tournaments (%v), want 2", len(ts), err)
	}

	dangling := filepath.Join(dir, "dangling.db")
	if err := os.Symlink(filepath.Join(dir, "missing.db"), dangling); err != nil {
		t.Fatal(err)
	}
	if s, err := OpenWriter(ctx, dangling, "run"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		if err == nil {
			s.Close()
		}
		t.Fatalf("a dangling link: %v; want an error about the link", err)
	}
}
