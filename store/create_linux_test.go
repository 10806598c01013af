package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A disk that fills up while the database is created (a 400 KB tmpfs,
// mounted where this process may mount, as root) fails OpenWriter with
// ErrDiskFull and leaves no file: no damaged database that a later run
// would call damaged. Once there is room, it is created whole. Each case
// first fills the file system with FILLER bytes. An existing database
// that cannot be opened for want of room fails with ErrDiskFull too.
func TestCreateDatabaseOnAFullDisk(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=400k"); err != nil {
		t.Skipf("mounting a tmpfs: %v (needs root)", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	path := filepath.Join(dir, "f.db")
	// The filler sizes at which the creation fails at each stage: the
	// checkpoint, the migrations, the write-ahead log's first pages.
	for _, filler := range []int{150000, 220000, 300000, 380000} {
		t.Run(fmt.Sprint(filler), func(t *testing.T) {
			fill := filepath.Join(dir, "filler")
			if err := os.WriteFile(fill, make([]byte, filler), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := OpenWriter(ctx, path, "run")
			if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), "creating the database: the disk is full (") {
				t.Fatalf("OpenWriter on a full disk: %v, want ErrDiskFull", err)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "f.db*")); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
			if err := os.Remove(fill); err != nil {
				t.Fatal(err)
			}
			s, err := OpenWriter(ctx, path, "run")
			if err != nil {
				t.Fatalf("OpenWriter with room: %v", err)
			}
			if err := quickCheck(ctx, s.db); err != nil {
				t.Error(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			for _, f := range Files(path) {
				os.Remove(f)
			}
		})
	}
	s, err := OpenWriter(ctx, path, "run")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, c := range []struct {
		left uint64 // bytes free
		want string // in the message
	}{
		{0, "writing the lock file"},
		{8 << 10, "disk I/O error (4874): growing the shared-memory file (-shm)"}, // room for the lock file only
	} {
		left := c.left
		t.Run(fmt.Sprintf("an existing database with %d bytes free", left), func(t *testing.T) {
			free, ok := freeSpace(dir)
			if !ok || free < left {
				t.Fatalf("free space %d, %v", free, ok)
			}
			fill := filepath.Join(dir, "filler")
			if err := os.WriteFile(fill, make([]byte, free-left), 0o644); err != nil && !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			defer os.Remove(fill)
			_, err := OpenWriter(ctx, path, "run")
			if !errors.Is(err, ErrDiskFull) || !strings.HasPrefix(err.Error(), "database "+path+": the disk is full (") ||
				!strings.Contains(err.Error(), c.want) {
				t.Fatalf("OpenWriter: %v, want ErrDiskFull and %q", err, c.want)
			}
		})
	}
}
