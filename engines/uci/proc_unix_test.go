//go:build unix

package uci

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// processGone reports whether pid no longer runs (a zombie counts as gone).
// Elsewhere it skips the test (proc_other_test.go).
func processGone(t *testing.T, pid int) bool {
	t.Helper()
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z'
	}
	return false
}
