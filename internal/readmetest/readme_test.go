//go:build unix

package readmetest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"selfplay/internal/tooltest"
)

// The longest a block may take without a timeout annotation, and how long a
// command may take to stop after its Ctrl-C.
const (
	blockLimit = 5 * time.Minute
	stopGrace  = 30 * time.Second
)

// TestREADMECommands runs every command block of README.md, in README order,
// with bash -e in a fresh clone of the repository's HEAD (commit README edits
// to test them), with ../shared beside the clone linked to the one beside
// this repository, as a user who follows the README would:
//
//   - `go run ./cmd/selfplay ARGS` runs a selfplay binary built once from the
//     clone (a `go` wrapper first on PATH execs it, and hands every other go
//     command to the real go), so that the blocks do not compile selfplay
//     again each time and an interrupted command's exit code is the
//     program's, not go run's 1;
//   - `selfplay` is the binary that the README's `go build -o selfplay
//     ./cmd/selfplay` block writes into the clone (its root is on PATH), so a
//     block that calls it before that block fails;
//   - blocks share the clone, so a database written by one is read by the
//     next, and at the end everything they wrote must be ignored by git.
//
// The annotations (see the package comment) are the only exceptions, and an
// unknown one fails the test.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs every README command block (a few minutes)")
	}
	root := repoRoot(t)
	if out, err := exec.Command("git", "-C", root, "status", "--porcelain", "README.md").Output(); err == nil && len(out) > 0 {
		t.Logf("README.md has uncommitted changes; this test runs the committed README (HEAD) in a fresh clone")
	}
	head := strings.TrimSpace(gitOut(t, root, "rev-parse", "HEAD"))

	tmp := t.TempDir()
	clone := filepath.Join(tmp, "selfplay")
	gitOut(t, tmp, "clone", "-q", "--no-checkout", root, clone)
	gitOut(t, clone, "checkout", "-q", "--detach", head)
	if shared, err := filepath.Abs(filepath.Join(root, "..", "shared")); err == nil {
		if _, err := os.Stat(shared); err == nil {
			if err := os.Symlink(shared, filepath.Join(tmp, "shared")); err != nil {
				t.Fatal(err)
			}
		}
	}

	bin := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	built := filepath.Join(tmp, "selfplay-bin")
	build := exec.Command(realGo, "build", "-o", built, "./cmd/selfplay")
	build.Dir = clone
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/selfplay in the clone: %v\n%s", err, out)
	}
	wrapper := fmt.Sprintf(`#!/bin/sh
# go run ./cmd/selfplay runs the binary the README test built from this clone.
if [ "$1" = run ] && { [ "$2" = ./cmd/selfplay ] || [ "$2" = ./cmd/selfplay/ ]; }; then
	shift 2
	exec %q "$@"
fi
exec %q "$@"
`, built, realGo)
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+clone+string(os.PathListSeparator)+os.Getenv("PATH"))

	readme, err := os.ReadFile(filepath.Join(clone, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := Parse(string(readme))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	if len(blocks) < 10 {
		t.Fatalf("README.md: found %d command blocks; the extraction is broken", len(blocks))
	}
	ran := 0
	for _, b := range blocks {
		name := fmt.Sprintf("line%d", b.Line)
		ok := t.Run(name, func(t *testing.T) {
			if b.Ann.Skip != "" {
				t.Skipf("README.md line %d: skip: %s", b.Line, b.Ann.Skip)
			}
			for _, tool := range b.Ann.Needs {
				if _, err := exec.LookPath(tool); err != nil {
					if tooltest.Required(tool) {
						t.Fatalf("README.md line %d needs %s, which SELFPLAY_REQUIRE_TOOLS requires, but it is not on PATH", b.Line, tool)
					}
					t.Skipf("README.md line %d needs %s, which is not on PATH", b.Line, tool)
				}
			}
			ran++
			runBlock(t, b, clone, env)
		})
		if !ok {
			t.Fatalf("README.md line %d failed; the blocks after it may depend on it and are not run", b.Line)
		}
	}
	if ran == 0 {
		t.Fatal("no README block ran")
	}

	// What the README's commands write must be ignored by git, so that a
	// user's checkout stays clean.
	if st := gitOut(t, clone, "status", "--porcelain"); st != "" {
		t.Errorf("the README's commands left files that .gitignore does not cover:\n%s", st)
	}
}

// runBlock runs one block in dir and checks its exit and output.
func runBlock(t *testing.T, b Block, dir string, env []string) {
	t.Helper()
	script := b.Text
	if b.Lang == "console" {
		script = strings.Join(b.Commands, "\n") + "\n"
	}
	cmds := []string{script}
	if b.Ann.Timeout > 0 {
		cmds = b.Commands // each command gets the timeout
	}
	var all bytes.Buffer
	for _, c := range cmds {
		for _, r := range b.Ann.Replace {
			c = strings.ReplaceAll(c, r[0], r[1])
		}
		limit := b.Ann.Timeout
		if limit == 0 {
			limit = blockLimit
		}
		start := time.Now()
		out, interrupted, err := runCommand(c, dir, env, limit)
		all.Write(out)
		t.Logf("README.md line %d: %s\n(%.1fs%s)", b.Line, strings.TrimSpace(c), time.Since(start).Seconds(), map[bool]string{true: ", interrupted", false: ""}[interrupted])
		switch {
		case interrupted && b.Ann.Timeout == 0:
			t.Fatalf("README.md line %d: the block did not end within %v:\n%s\noutput:\n%s", b.Line, limit, c, tail(out))
		case interrupted && !b.Ann.InterruptedOK:
			t.Fatalf("README.md line %d: the command did not end within its timeout %v:\n%s\noutput:\n%s", b.Line, limit, c, tail(out))
		case interrupted:
			if !stoppedByInterrupt(err) {
				t.Fatalf("README.md line %d: after Ctrl-C the command ended with %v, not exit 0 or 130:\n%s\noutput:\n%s", b.Line, err, c, tail(out))
			}
			if len(bytes.TrimSpace(out)) == 0 {
				t.Fatalf("README.md line %d: the command printed nothing in %v before its Ctrl-C, so nothing shows it was working:\n%s", b.Line, limit, c)
			}
		case err != nil:
			t.Fatalf("README.md line %d: %v:\n%s\noutput:\n%s", b.Line, err, c, tail(out))
		}
	}
	for _, e := range b.Ann.Expect {
		if !strings.Contains(all.String(), e) {
			t.Errorf("README.md line %d: the output does not contain %q:\n%s", b.Line, e, tail(all.Bytes()))
		}
	}
	if b.Ann.ShownOutput {
		if err := MatchShown(b.Shown, all.String()); err != nil {
			t.Errorf("README.md line %d: %v\noutput:\n%s", b.Line, err, tail(all.Bytes()))
		}
	}
}

// runCommand runs script with bash -e in its own process group; after limit
// it sends SIGINT to the group, as Ctrl-C in a terminal does, and after
// stopGrace more it kills the group.
func runCommand(script, dir string, env []string, limit time.Duration) (out []byte, interrupted bool, err error) {
	var buf bytes.Buffer
	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, false, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return buf.Bytes(), false, err
	case <-time.After(limit):
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	select {
	case err := <-done:
		return buf.Bytes(), true, err
	case <-time.After(stopGrace):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return buf.Bytes(), true, fmt.Errorf("still running %v after Ctrl-C (killed)", stopGrace)
	}
}

// stoppedByInterrupt reports whether err is how a command ends on Ctrl-C:
// no error, exit status 130, or death by SIGINT.
func stoppedByInterrupt(err error) bool {
	if err == nil {
		return true
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal() == syscall.SIGINT
	}
	return ee.ExitCode() == 130
}

func repoRoot(t *testing.T) string {
	t.Helper()
	return strings.TrimSpace(gitOut(t, ".", "rev-parse", "--show-toplevel"))
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return string(out)
}

// tail returns the end of a command's output for a failure message.
func tail(out []byte) string {
	const max = 4000
	if len(out) > max {
		return "...\n" + string(out[len(out)-max:])
	}
	return string(out)
}
