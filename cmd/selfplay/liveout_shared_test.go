package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Two matches with different databases and one -pgnout: the second is
// refused (exit 2) with a message naming the file and the first match's
// pid, and the first writes its games alone; once the first is killed
// (SIGKILL), the file is free again, and the first, resumed, completes it.
// A second match with its own -pgnout and the first's -log is refused too.
func TestSharedLiveFileRefused(t *testing.T) {
	bin := selfplayBinary(t)
	dir := t.TempDir()
	args := func(db string) []string {
		return []string{"match", "fhr", "plain", "-nodes", "2000", "-pairs", "20", "-concurrency", "1", "-db", db, "-pgnout", "shared.pgn",
			"-log", "file=shared.log", "engine=true"}
	}
	first := exec.Command(bin, args("a.db")...)
	first.Dir = dir
	stdout, err := first.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { first.Process.Kill(); first.Wait() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "Finished game ") {
	}
	go func() {
		for sc.Scan() {
		}
	}()
	code, out := runIn(t, bin, dir, args("b.db")...)
	want := fmt.Sprintf("pgn_out shared.pgn is in use by another selfplay match (pid %d on ", first.Process.Pid)
	if code != exitUsage || !strings.Contains(out, want) {
		t.Fatalf("the second match: exit %d\n%s\nwant exit %d and %q", code, out, exitUsage, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.db")); !os.IsNotExist(err) {
		t.Errorf("the refused match left its database: %v", err)
	}
	// The traffic log too: its buffered blocks would tear each other's
	// lines.
	ownPGN := append(args("b.db")[:11], "-pgnout", "own.pgn", "-log", "file=shared.log", "engine=true")
	code, out = runIn(t, bin, dir, ownPGN...)
	want = fmt.Sprintf("log shared.log is in use by another selfplay match (pid %d on ", first.Process.Pid)
	if code != exitUsage || !strings.Contains(out, want) || !strings.Contains(out, "would interleave their engines' lines in it") {
		t.Fatalf("a match with the same log: exit %d\n%s\nwant exit %d and %q", code, out, exitUsage, want)
	}
	first.Process.Kill()
	first.Wait()
	if code, out := runIn(t, bin, dir, args("a.db")...); code != exitOK {
		t.Fatalf("the first match resumed after it was killed: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "shared.pgn")); strings.Count(string(b), "[Event ") != 40 {
		t.Errorf("shared.pgn holds %d games, want 40", strings.Count(string(b), "[Event "))
	}
}
