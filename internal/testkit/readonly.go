//go:build unix

package testkit

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// SharedDir is a new folder with mode perm that every user may enter (with
// perm 0o755), made writable again before it is removed: a test can make
// it read-only and have an unprivileged process (AsNobody) try it.
func SharedDir(t testing.TB, perm os.FileMode) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "selfplay-shared-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, perm); err != nil {
		t.Fatal(err)
	}
	return dir
}

// AsNobody returns how to run this test binary so that file permissions
// apply to it: root ignores them (CI runs as root), so then the process
// runs as nobody (uid and gid 65534) from a copy of the test binary in
// dir (a SharedDir), which nobody may execute; as any other user it
// returns nil (run as is).
func AsNobody(t testing.TB, dir string) func(*exec.Cmd) {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(exe))
	if _, err := os.Stat(bin); err != nil {
		CopyFile(t, exe, bin, 0o755)
	}
	return func(cmd *exec.Cmd) {
		cmd.Path, cmd.Args[0] = bin, bin
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
}

// CopyFile copies file from to file to, created with mode (or truncated).
func CopyFile(t testing.TB, from, to string, mode os.FileMode) {
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

// MakeReadOnly makes the files of dir read-only (0o444), then dir itself
// (0o555).
func MakeReadOnly(t testing.TB, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Chmod(filepath.Join(dir, e.Name()), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
}
