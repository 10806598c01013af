package tooltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestRequired(t *testing.T) {
	tests := []struct {
		list string
		tool string
		want bool
	}{
		{"", "chromium", false},
		{"pgn-extract,chromium", "chromium", true},
		{"pgn-extract, chromium ", "chromium", true},
		{"chromium-browser", "chromium", false}, // whole names, not substrings
		{"time,xz", "x", false},
	}
	for _, tt := range tests {
		t.Setenv("SELFPLAY_REQUIRE_TOOLS", tt.list)
		if got := Required(tt.tool); got != tt.want {
			t.Errorf("Required(%q) with %q = %v, want %v", tt.tool, tt.list, got, tt.want)
		}
	}
}

// Find, run in a child test process with an empty PATH: it skips where the
// tool is optional and fails where it is required.
func TestFindMissing(t *testing.T) {
	if os.Getenv("TOOLTEST_CHILD") == "1" {
		Find(t, "no-such-tool-here", "none")
		t.Fatal("Find returned for a missing tool")
	}
	for _, tt := range []struct {
		required bool
		wantFail bool
	}{{false, false}, {true, true}} {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestFindMissing$", "-test.v")
		cmd.Env = append(os.Environ(), "TOOLTEST_CHILD=1", "PATH="+t.TempDir())
		if tt.required {
			cmd.Env = append(cmd.Env, "SELFPLAY_REQUIRE_TOOLS=no-such-tool-here")
		} else {
			cmd.Env = append(cmd.Env, "SELFPLAY_REQUIRE_TOOLS=")
		}
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != tt.wantFail {
			t.Errorf("required=%v: failed=%v, want %v:\n%s", tt.required, failed, tt.wantFail, out)
		}
	}
}

func TestFindOnPath(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "fake-tool")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if got := Find(t, "fake", "none", "missing-name", "fake-tool"); got != tool {
		t.Errorf("Find = %q, want %q", got, tool)
	}
}
