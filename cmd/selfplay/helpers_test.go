package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The test binary re-runs itself as ucitest's fake UCI engine when
// fakeEngineEnv is set (the helper-process pattern); its first argument is
// fakeEngineMarker, so that its processes can be found.
const (
	fakeEngineEnv    = "SELFPLAY_CMD_TEST_FAKE_ENGINE"
	fakeEngineMarker = "selfplay-cmd-test-fake-engine"
)

// fakeEngineTOML returns the TOML of an external engine that is this test
// binary re-run as the fake engine with args. The environment variable is
// set for the test, and selfplay passes it on to its engines.
func fakeEngineTOML(t *testing.T, args ...string) string {
	t.Helper()
	t.Setenv(fakeEngineEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	q := []string{strconv.Quote(fakeEngineMarker)}
	for _, a := range args {
		q = append(q, strconv.Quote(a))
	}
	return fmt.Sprintf("command = %q\nargs = [%s]", exe, strings.Join(q, ", "))
}

// childrenOf lists the processes whose parent is pid and whose command
// line contains marker.
func childrenOf(pid int, marker string) int {
	return len(children(pid, marker))
}

func children(pid int, marker string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil || parentPID(child) != pid {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			out = append(out, child)
		}
	}
	return out
}

// killMarked kills process pid if it is still the one whose command line
// contains marker (not a later process that got its number).
func killMarked(pid int, marker string) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err == nil && bytes.Contains(b, []byte(marker)) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// parentPID is the parent of process pid (the field after the state in
// /proc/PID/stat, whose command name in parentheses may hold spaces), or -1.
func parentPID(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return -1
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return ppid
}
