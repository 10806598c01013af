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

// TestREADMECommands runs every command block of README.md and of every
// Markdown file under docs/ (DocFiles: the README first, then the docs in
// name order, each in its own order), with bash -e in a fresh clone of the
// repository's HEAD (commit doc edits to test them), as a user who follows
// the docs would:
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
//     next, and at the end everything they wrote must be ignored by git;
//   - nothing outside the clone is there: no ../shared beside it.
//
// The annotations (see the package comment) are the only exceptions, and an
// unknown one fails the test.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs every command block of the README and docs/ (a few minutes)")
	}
	root := repoRoot(t)
	if out, err := exec.Command("git", "-C", root, "status", "--porcelain", "README.md", "docs").Output(); err == nil && len(out) > 0 {
		t.Logf("README.md or docs/ has uncommitted changes; this test runs the committed files (HEAD) in a fresh clone")
	}
	head := strings.TrimSpace(gitOut(t, root, "rev-parse", "HEAD"))
	touchHeadFiles(t, root)

	tmp := t.TempDir()
	clone := filepath.Join(tmp, "selfplay")
	gitOut(t, tmp, "clone", "-q", "--no-checkout", root, clone)
	gitOut(t, clone, "checkout", "-q", "--detach", head)

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

	blocks := docBlocks(t, clone)
	if len(blocks) < 10 {
		t.Fatalf("found %d command blocks in the README and docs/; the extraction is broken", len(blocks))
	}
	ran := 0
	for _, b := range blocks {
		ok := t.Run(b.where(), func(t *testing.T) {
			if b.Ann.Skip != "" {
				t.Skipf("%s: skip: %s", b.where(), b.Ann.Skip)
			}
			for _, tool := range b.Ann.Needs {
				if _, err := exec.LookPath(tool); err != nil {
					if tooltest.Required(tool) {
						t.Fatalf("%s needs %s, which SELFPLAY_REQUIRE_TOOLS requires, but it is not on PATH", b.where(), tool)
					}
					t.Skipf("%s needs %s, which is not on PATH", b.where(), tool)
				}
			}
			ran++
			runBlock(t, b, clone, env)
		})
		if !ok {
			t.Fatalf("%s failed; the blocks after it may depend on it and are not run", b.where())
		}
	}
	if ran == 0 {
		t.Fatal("no block ran")
	}

	// What the docs' commands write must be ignored by git, so that a
	// user's checkout stays clean.
	if st := gitOut(t, clone, "status", "--porcelain"); st != "" {
		t.Errorf("the docs' commands left files that .gitignore does not cover:\n%s", st)
	}
}

// docBlock is a command block and the file it is in.
type docBlock struct {
	File string // relative to the repository, with slashes
	mdBlock
}

// where names the block for messages and subtests: README.md:25.
func (b docBlock) where() string { return fmt.Sprintf("%s:%d", b.File, b.Line) }

// docBlocks returns the command blocks of every document under root
// (DocFiles), in the order the test runs them.
func docBlocks(t *testing.T, root string) []docBlock {
	t.Helper()
	files, err := DocFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	for _, f := range files {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := parseBlocks(string(text))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, b := range blocks {
			out = append(out, docBlock{File: f, mdBlock: b})
		}
	}
	return out
}

// runBlock runs one block in dir and checks its exit and output.
func runBlock(t *testing.T, b docBlock, dir string, env []string) {
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
		t.Logf("%s: %s\n(%.1fs%s)", b.where(), strings.TrimSpace(c), time.Since(start).Seconds(), map[bool]string{true: ", interrupted", false: ""}[interrupted])
		switch {
		case interrupted && b.Ann.Timeout == 0:
			t.Fatalf("%s: the block did not end within %v:\n%s\noutput:\n%s", b.where(), limit, c, tail(out))
		case interrupted && !b.Ann.InterruptedOK:
			t.Fatalf("%s: the command did not end within its timeout %v:\n%s\noutput:\n%s", b.where(), limit, c, tail(out))
		case interrupted:
			if !stoppedByInterrupt(err) {
				t.Fatalf("%s: after Ctrl-C the command ended with %v, not exit 0 or 130:\n%s\noutput:\n%s", b.where(), err, c, tail(out))
			}
			if len(bytes.TrimSpace(out)) == 0 {
				t.Fatalf("%s: the command printed nothing in %v before its Ctrl-C, so nothing shows it was working:\n%s", b.where(), limit, c)
			}
		case err != nil:
			t.Fatalf("%s: %v:\n%s\noutput:\n%s", b.where(), err, c, tail(out))
		}
	}
	for _, e := range b.Ann.Expect {
		if !strings.Contains(all.String(), e) {
			t.Errorf("%s: the output does not contain %q:\n%s", b.where(), e, tail(all.Bytes()))
		}
	}
	if b.Ann.ShownOutput {
		if err := matchShown(b.Shown, all.String()); err != nil {
			t.Errorf("%s: %v\noutput:\n%s", b.where(), err, tail(all.Bytes()))
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

// touchHeadFiles opens the files that name HEAD's commit. go test caches a
// passing result by the files the test itself opens; the clone is made by
// git, so without this a new commit would get the old commit's result.
func touchHeadFiles(t *testing.T, root string) {
	t.Helper()
	gitDir := strings.TrimSpace(gitOut(t, root, "rev-parse", "--absolute-git-dir"))
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); ok {
		os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref))) // absent when packed
	}
	os.ReadFile(filepath.Join(gitDir, "packed-refs")) // absent in a fresh repository
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
