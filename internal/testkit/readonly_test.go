//go:build unix

package testkit_test

import (
	"os"
	"path/filepath"
	"testing"

	"selfplay/internal/testkit"
)

// MakeReadOnly leaves the folder and its files read-only; the folder is
// removed at the end of the test all the same (SharedDir's cleanup).
func TestMakeReadOnly(t *testing.T) {
	dir := testkit.SharedDir(t, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	testkit.CopyFile(t, filepath.Join(dir, "f"), filepath.Join(dir, "g"), 0o600)
	testkit.MakeReadOnly(t, dir)
	for name, want := range map[string]os.FileMode{".": 0o555 | os.ModeDir, "f": 0o444, "g": 0o444} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || info.Mode() != want {
			t.Errorf("%s: mode %v, %v; want %v", name, info.Mode(), err, want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "g")); err != nil || string(b) != "x" {
		t.Errorf("copy: %q, %v", b, err)
	}
}
