// Package tooltest finds the external programs some tests use (Debian's
// pgn-extract, stockfish, chromium). Such a test skips on a developer's
// machine without the program, but fails where SELFPLAY_REQUIRE_TOOLS names
// it: CI (.ci/run) installs them and sets that list, so a missing tool there
// is an error, never a silent skip.
package tooltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Required reports whether SELFPLAY_REQUIRE_TOOLS (a comma-separated list)
// names tool.
func Required(tool string) bool {
	for _, name := range strings.Split(os.Getenv("SELFPLAY_REQUIRE_TOOLS"), ",") {
		if strings.TrimSpace(name) == tool {
			return true
		}
	}
	return false
}

// Find returns the path of the first of names on PATH or in /usr/games
// (where Debian puts chess programs). Without one the test fails if tool is
// required, and skips otherwise; pkg is the Debian package to install.
func Find(t testing.TB, tool, pkg string, names ...string) string {
	t.Helper()
	if len(names) == 0 {
		names = []string{tool}
	}
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
		if path := filepath.Join("/usr/games", name); isExecutable(path) {
			return path
		}
	}
	if Required(tool) {
		t.Fatalf("%s is required (SELFPLAY_REQUIRE_TOOLS) but not installed (Debian package %s)", tool, pkg)
	}
	t.Skipf("%s not installed (Debian package %s)", tool, pkg)
	return ""
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
