package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// Every command's -h prints "usage: selfplay CMD ..." on standard error
// and exits 0; an unknown flag prints the same after the error, exit 2.
func TestEveryCommandHelp(t *testing.T) {
	for _, c := range commands() {
		code, stdout, stderr := run(t, c.name, "-h")
		first, _, _ := strings.Cut(stderr, "\n")
		if code != exitOK || stdout != "" || (first != "usage: selfplay "+c.name && !strings.HasPrefix(first, "usage: selfplay "+c.name+" ")) {
			t.Errorf("%s -h: exit %d, stdout %q, first line %q; want exit 0 and usage: selfplay %s ...", c.name, code, stdout, first, c.name)
		}
		if !strings.Contains(stderr, "\nflags:\n") && c.name != "variants" && c.name != "version" && c.name != "help" {
			t.Errorf("%s -h lists no flags:\n%s", c.name, stderr)
		}
		code, stdout, stderr = run(t, c.name, "-no-such-flag")
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "flag provided but not defined: -no-such-flag\nusage: selfplay "+c.name) {
			t.Errorf("%s -no-such-flag: exit %d, stdout %q, stderr %q; want exit 2, the error and the usage", c.name, code, stdout, stderr)
		}
	}
}

func TestVersionText(t *testing.T) {
	goLine := "go go1.26.0 " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	tests := []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"go build in a clone", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "selfplay", Version: "v0.0.0-20261122165202-214b99ea071b+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "214b99ea071b686191bef1136c089b54268af64a"},
				{Key: "vcs.time", Value: "2026-11-22T16:52:02Z"}, {Key: "vcs.modified", Value: "true"}}},
			"selfplay v0.0.0-20261122165202-214b99ea071b+dirty\nrevision 214b99ea071b686191bef1136c089b54268af64a\ncommitted 2026-11-22T16:52:02Z\nmodified true\n" + goLine},
		{"go run", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "selfplay", Version: "(devel)"}},
			"selfplay (devel)\nrevision unknown (built without version control information: go run, go test, or -buildvcs=false)\n" + goLine},
	}
	for _, tt := range tests {
		if got := versionText(&tt.bi); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
	for _, args := range [][]string{{"version"}, {"-version"}, {"--version"}} {
		code, stdout, stderr := run(t, args...)
		if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "selfplay ") || !strings.Contains(stdout, "\ngo go1.") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// The built binary's version says what `go version -m` reads from it.
func TestBuiltBinaryVersion(t *testing.T) {
	bin := selfplayBinary(t)
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("selfplay version: %v", err)
	}
	info, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	mod := regexp.MustCompile(`(?m)^\tmod\tselfplay\t(\S+)`).FindSubmatch(info)
	if mod == nil || !strings.HasPrefix(string(out), "selfplay "+string(mod[1])+"\n") {
		t.Errorf("version output %q; go version -m says\n%s", out, info)
	}
	if rev := regexp.MustCompile(`(?m)^\tbuild\tvcs\.revision=(\S+)`).FindSubmatch(info); rev != nil {
		if !strings.Contains(string(out), "\nrevision "+string(rev[1])+"\n") {
			t.Errorf("version output %q lacks revision %s", out, rev[1])
		}
	} else if !strings.Contains(string(out), "\nrevision unknown") {
		t.Errorf("version output %q; the binary has no VCS information", out)
	}
}

// The exit codes of the built binary, as the README documents them (go
// run reports every non-zero code as 1).
func TestBuiltBinaryExitCodes(t *testing.T) {
	bin := selfplayBinary(t)
	dir := t.TempDir()
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"variants"}, exitOK},
		{[]string{"version"}, exitOK},
		{[]string{"run", "-h"}, exitOK},
		{[]string{}, exitUsage},
		{[]string{"no-such-command"}, exitUsage},
		{[]string{"run", "-config", filepath.Join(dir, "missing.toml")}, exitUsage},
		{[]string{"match", "fhr", "plain"}, exitUsage},
		{[]string{"report", "-db", filepath.Join(dir, "missing.db")}, exitUsage},
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		// Writing the output fails (the device is full): exit 1.
		pgn := writeFile(t, dir, "g.pgn", "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"+
			"[White \"b\"]\n[Black \"a\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n")
		tests = append(tests, struct {
			args []string
			want int
		}{[]string{"ratings", "-o", "/dev/full", pgn}, exitFailure})
	}
	for _, tt := range tests {
		cmd := exec.Command(bin, tt.args...)
		cmd.Dir = dir
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.want {
			t.Errorf("selfplay %s: exit %d, want %d", strings.Join(tt.args, " "), code, tt.want)
		}
	}
	// 130 (interrupted): TestInterruptExitCode, TestPerftSignal and
	// TestBuiltBinaryMatchInterruptAndResume.
}

// A match interrupted by SIGINT exits 130 and says how to resume; the same
// command resumes it, playing only the games not stored.
func TestBuiltBinaryMatchInterruptAndResume(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	bin := selfplayBinary(t)
	dir := t.TempDir()
	args := []string{"match", "plain", "fhr", "hash=1", "-nodes", "3000", "-move", "25", "-referee-nodes", "1000", "-pairs", "5", "-concurrency", "1"}
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "selfplay.db")
	waitForGames(t, cmd, db, 2)
	cmd.Process.Signal(os.Interrupt)
	ee := waitExit(t, cmd, 60*time.Second)
	stored, _ := countGames(t, db)
	if stored >= 10 {
		t.Skip("finished before the interrupt")
	}
	if ee.ExitCode() != exitInterrupted || !strings.Contains(out.String(), "run the same command again to resume") {
		t.Fatalf("interrupted match: %v, want exit %d and the resume hint\n%s", ee, exitInterrupted, out.String())
	}
	name := matchName(t, out.String())
	cmd = exec.Command(bin, args...)
	cmd.Dir = dir
	again, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the same match again: %v\n%s", err, again)
	}
	if matchName(t, string(again)) != name || !strings.Contains(string(again), "resuming, ") {
		t.Errorf("the same match again did not resume %s:\n%s", name, again)
	}
	if games, distinct := countGames(t, db); games != 10 || distinct != 10 {
		t.Errorf("%d games stored (%d distinct), want 10", games, distinct)
	}
}

// The flag package takes a `quoted` word of a flag's help as the name of
// its argument: every name in every -h is one word, such as "-serve addr"
// (not "-serve selfplay serve").
func TestHelpArgumentNames(t *testing.T) {
	flagLine := regexp.MustCompile(`^  -[a-z0-9-]+( |\t|$)`)
	for _, c := range commands() {
		_, _, stderr := run(t, c.name, "-h")
		for _, line := range strings.Split(stderr, "\n") {
			if !flagLine.MatchString(line) {
				continue
			}
			head, _, _ := strings.Cut(strings.TrimPrefix(line, "  "), "\t") // a short flag's help follows a tab
			if flagName, arg, _ := strings.Cut(head, " "); strings.Contains(arg, " ") {
				t.Errorf("%s -h: %s takes %q, not one word: %q", c.name, flagName, arg, line)
			}
		}
	}
}
