//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/internal/testkit"
)

// asUnprivileged returns `selfplay args...` as a process of the test binary
// for which file permissions apply. Root ignores them (CI runs as root), so
// then it runs as nobody (uid and gid 65534), from a copy of the test
// binary that nobody may execute.
func asUnprivileged(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := selfplayProcess(t, args...)
	if as := testkit.AsNobody(t, dir); as != nil {
		as(cmd)
	}
	return cmd
}

// outputOf runs cmd and returns its exit code and combined output.
func outputOf(t *testing.T, cmd *exec.Cmd) (int, string) {
	t.Helper()
	out, code := testkit.ExitCode(t, cmd)
	return code, out
}

// report and export read a database in a read-only file and directory,
// and write nothing there; run refuses to start on a database it cannot
// write (exit 2, before the first game), in a read-only file or directory.
func TestReadOnlyDatabase(t *testing.T) {
	bins := testkit.SharedDir(t, 0o755)
	dir := testkit.SharedDir(t, 0o755)
	db := filepath.Join(dir, "games.db")
	testkit.CopyFile(t, storedTiny(t), db, 0o444)
	// Another tournament, so that only the database's permissions stand in
	// the way of run.
	cfg := smallConfig(t, dir, "t.toml", "other", testkit.Table{"set": "fhr25"}, 300)
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
