package store

import (
	"context"
	"errors"
	"maps"
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

// The log of a database that was deleted, left beside a new file put in
// its place (copied in, or renamed over it), is refused by readers and
// writers alike, naming it, and nothing is changed; SQLite would apply it
// to the new file: the reader showed the deleted database's tournament.
// The log of the database itself, left by a writer that was killed, is
// recovered as before, and the new file opens once the stale log is moved
// away.
func TestStaleLogBesideANewDatabase(t *testing.T) {
	ctx := context.Background()
	if _, ok := birthTime(t.TempDir()); !ok {
		t.Skip("the file system of the temporary directory does not record when files are created")
	}
	for _, how := range []string{"copied in", "renamed over"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.db")
			// A writer killed: its games are in the log only, which is the
			// database's own.
			if out, code := runHelper(t, "write-and-die", path, nil); code != 0 || out != "written\n" {
				t.Fatalf("write-and-die: exit %d, %q", code, out)
			}
			if names := tournamentNames(t, path); len(names) != 1 || names[0] != "t" {
				t.Fatalf("the killed writer's database reads as %v, want its tournament t", names)
			}
			wal, err := os.Stat(path + "-wal")
			if err != nil || wal.Size() == 0 {
				t.Fatalf("the killed writer left no log with frames: %v", err)
			}
			// The database deleted, its log left; a new one put in its place.
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			bornAfter(t, dir, path+"-wal")
			other := filepath.Join(dir, "other.db")
			s, err := OpenWriter(ctx, other, "run")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.CreateTournament(ctx, record.Tournament{Name: "new", Config: "{}", ConfigHash: "h"}); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if how == "copied in" {
				b, err := os.ReadFile(other)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
			} else if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
			before := fileBytes(t, path, path+"-wal", path+"-shm")

			r, err := OpenReader(ctx, path)
			if err == nil {
				ts, _ := r.Tournaments(ctx)
				r.Close()
				t.Fatalf("a reader opened the new database beside the deleted one's log (tournaments %+v)", ts)
			}
			checkStaleLogError(t, "OpenReader", err, path)
			w, err := OpenWriter(ctx, path, "run")
			if err == nil {
				w.Close()
				t.Fatal("a writer opened the new database beside the deleted one's log")
			}
			checkStaleLogError(t, "OpenWriter", err, path)
			if after := fileBytes(t, path, path+"-wal", path+"-shm"); !maps.Equal(after, before) {
				t.Error("a refused open changed the database or its log")
			}

			for _, f := range []string{path + "-wal", path + "-shm"} {
				if err := os.Rename(f, f+".old"); err != nil {
					t.Fatal(err)
				}
			}
			if names := tournamentNames(t, path); len(names) != 1 || names[0] != "new" {
				t.Fatalf("with the stale log moved away the new database reads as %v, want its tournament new", names)
			}
		})
	}
}

func checkStaleLogError(t *testing.T, op string, err error, path string) {
	t.Helper()
	for _, want := range []string{path + "-wal", "older than the database file", "no longer exists", "move or remove it"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %q does not say %q", op, err, want)
		}
	}
}

// tournamentNames opens the database at path with OpenReader and lists
// its tournaments.
func tournamentNames(t *testing.T, path string) []string {
	t.Helper()
	r, err := OpenReader(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ts, err := r.Tournaments(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range ts {
		names = append(names, x.Name)
	}
	return names
}

// fileBytes is the content of each file that exists.
func fileBytes(t *testing.T, paths ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out[p] = string(b)
	}
	return out
}

// bornAfter returns once a file created in dir is born later than the file
// at path, by the file system's clock (which ticks in jiffies): files made
// from then on are newer than it.
func bornAfter(t *testing.T, dir, path string) {
	t.Helper()
	old, ok := birthTime(path)
	if !ok {
		t.Fatalf("no creation time for %s", path)
	}
	probe := filepath.Join(dir, "probe")
	for i := 0; ; i++ {
		if err := os.WriteFile(probe, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		born, ok := birthTime(probe)
		if err := os.Remove(probe); err != nil {
			t.Fatal(err)
		}
		if ok && born.After(old) {
			return
		}
		if i == 1e6 {
			t.Fatalf("the file system's clock does not move past %v", old)
		}
	}
}
