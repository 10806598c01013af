package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The report ends with the two count lines, and the exit status is 1
// exactly when a count is over its goal.
func TestRunReports(t *testing.T) {
	var b strings.Builder
	code := run(&b, true)
	out := b.String()
	unused := regexp.MustCompile(`(?m)^(\d+) of (\d+) exported names are used by no other package \(goal: at most 60\)$`).FindStringSubmatch(out)
	long := regexp.MustCompile(`(?m)^(\d+) functions over 100 lines outside \[engines/search engines/eval\]$`).FindStringSubmatch(out)
	if unused == nil || long == nil {
		t.Fatalf("output lacks the count lines:\n%s", out)
	}
	nUnused, _ := strconv.Atoi(unused[1])
	nLong, _ := strconv.Atoi(long[1])
	want := 0
	if nUnused > 60 || nLong > 0 {
		want = 1
	}
	if code != want {
		t.Errorf("exit %d with %d unused names and %d long functions, want %d", code, nUnused, nLong, want)
	}
	if n := len(regexp.MustCompile(`(?m)^\S+\.go:\d+: \w+\.\w+$`).FindAllString(out, -1)); n != nUnused {
		t.Errorf("%d names listed, the count says %d", n, nUnused)
	}
}
