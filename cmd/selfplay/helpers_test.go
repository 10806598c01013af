package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"selfplay/internal/testkit"
)

// The test binary's helper processes (TestMain); fakeEngineMarker is in
// the fake engine's command line, so that its processes can be found.
const (
	fakeEngine     = "fake-engine"
	selfplayHelper = "selfplay"
	holdWriteTx    = "hold-write-tx"
	measureHelper  = "measure"
)

var fakeEngineMarker = testkit.Marker(fakeEngine)

// fakeEngineTOML returns the TOML of an external engine that is this test
// binary re-run as the fake engine with args.
func fakeEngineTOML(t *testing.T, args ...string) string {
	t.Helper()
	return testkit.EngineTOML(t, fakeEngine, args...)
}

// childrenOf lists the processes whose parent is pid and whose command
// line contains marker.
func childrenOf(pid int, marker string) int {
	return len(children(pid, marker))
}

func children(pid int, marker string) []int { return testkit.Children(pid, marker) }

// killMarked kills process pid if it is still the one whose command line
// contains marker (not a later process that got its number).
func killMarked(pid int, marker string) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err == nil && bytes.Contains(b, []byte(marker)) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}
