package testkit

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ParentPID is the parent of process pid (the field after the state in
// /proc/PID/stat, whose command name in parentheses may hold spaces), or
// -1 (no such process, or no /proc).
func ParentPID(pid int) int {
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

// Children lists the live processes whose parent is pid and whose command
// line contains marker: other processes on the machine, such as another
// test's engines, do not count.
func Children(pid int, marker string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil || ParentPID(child) != pid {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			out = append(out, child)
		}
	}
	return out
}
