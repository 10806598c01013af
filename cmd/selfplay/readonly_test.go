//go:build unix

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// asUnprivileged returns `selfplay args...` as a process of the test binary
// for which file permissions apply. Root ignores them (CI runs as root), so
// then it runs as nobody (uid and gid 65534), from a copy of the test
// binary that nobody may execute.
func asUnprivileged(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := selfplayProcess(t, args...)
	if os.Geteuid() != 0 {
		return cmd
	}
	bin := filepath.Join(dir, "selfplay.test")
	if _, err := os.Stat(bin); err != nil {
		copyFile(t, cmd.Path, bin, 0o755)
	}
	cmd.Path, cmd.Args[0] = bin, bin
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	return cmd
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// openDir is a new directory that every user may enter (mode perm), made
// writable again before it is removed.
func openDir(t *testing.T, perm os.FileMode) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "selfplay-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Chmod(dir, 0o755)
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, perm); err != nil {
		t.Fatal(err)
	}
	return dir
}

// outputOf runs cmd and returns its exit code and combined output.
func outputOf(t *testing.T, cmd *exec.Cmd) (int, string) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// report and export read a database in a read-only file and directory,
// and write nothing there; run refuses to start on a database it cannot
// write (exit 2, before the first game), in a read-only file or directory.
func TestReadOnlyDatabase(t *testing.T) {
	bins := openDir(t, 0o755)
	dir := openDir(t, 0o755)
	db := filepath.Join(dir, "games.db")
	copyFile(t, storedTiny(t), db, 0o444)
	// Another tournament, so that only the database's permissions stand in
	// the way of run.
	cfg := smallConfig(t, dir, "t.toml", "other", `set = "fhr25"`, 300)
	os.Chmod(cfg, 0o444)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	probe := asUnprivileged(t, bins, "export", "-db", db, "-o", filepath.Join(dir, "probe.pgn"))
	if code, out := outputOf(t, probe); code == 0 {
		t.Fatalf("the test's user can still write the read-only directory: %s", out)
	}

	code, out := outputOf(t, asUnprivileged(t, bins, "report", "-db", db))
	if code != exitOK || !strings.Contains(out, "50/50 games stored") {
		t.Errorf("report of a read-only database: exit %d\n%s", code, out)
	}
	code, out = outputOf(t, asUnprivileged(t, bins, "export", "-db", db))
	if code != exitOK || strings.Count(out, `[Event "tiny"]`) != 50 {
		t.Errorf("export of a read-only database: exit %d, %d games", code, strings.Count(out, `[Event "tiny"]`))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files in the read-only directory: %v", entries)
	}

	code, out = outputOf(t, asUnprivileged(t, bins, "run", "-config", cfg, "-db", db))
	if code != exitUsage || !strings.Contains(out, "games.db.lock") || strings.Contains(out, "games (") {
		t.Errorf("run in a read-only directory: exit %d\n%s", code, out)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	code, out = outputOf(t, asUnprivileged(t, bins, "run", "-config", cfg, "-db", db))
	if code != exitUsage || !strings.Contains(out, "not writable") || !strings.Contains(out, "games.db") || strings.Contains(out, "games (") {
		t.Errorf("run on a read-only file: exit %d\n%s", code, out)
	}
}
