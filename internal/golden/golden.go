// Package golden compares test output with files under testdata/, which
// `go test -update` rewrites. Tests own their -update flag (a package-level
// flag here would be registered in every test binary that imports it).
package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check compares got with testdata/name, or writes it there when update is set.
func Check(t testing.TB, name, got string, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got == string(want) {
		return
	}
	// The first line that differs: whole outputs (an HTML page) are
	// unreadable in a message.
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("output differs from %s at line %d (go test -update rewrites it):\n got: %q\nwant: %q", path, i+1, g, w)
			return
		}
	}
}
