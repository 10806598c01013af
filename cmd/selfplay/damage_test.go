package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/store/storetest"
)

// synthDamaged writes a synthetic database of 100 games into dir and
// damages the middle page that holds marker.
func synthDamaged(t *testing.T, dir, name, marker string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := storetest.Generate(context.Background(), path, storetest.Options{Games: 100, NoMoves: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := storetest.DamagePage(path, marker); err != nil {
		t.Fatal(err)
	}
	return path
}

// A damaged database is damaged input: every command that reads or
// would write it exits 2 with a message that names the database and says
// it is damaged and how to recover it; an -o file is not left half
// written (an earlier file of that name stays as it was), and the
// database is not written to.
func TestDamagedDatabaseCommands(t *testing.T) {
	dir := t.TempDir()
	pgnDamaged := synthDamaged(t, dir, "pgns.db", `[Round "`)     // a page of PGN: export would fail midway
	gamesDamaged := synthDamaged(t, dir, "games.db", "e2e4 e7e5") // a page of the games table: report would fail
	// Cells scrambled in a page of PGN: SQLite reads the table without an
	// error and export would leave games out; quick_check finds it.
	scrambled := filepath.Join(dir, "scrambled.db")
	if err := storetest.Generate(context.Background(), scrambled, storetest.Options{Games: 100, NoMoves: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := storetest.ScrambleCells(scrambled, `[Round "`); err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig().Write(t, dir, "t.toml")
	earlier := writeFile(t, dir, "earlier.pgn", "an earlier export\n")
	tests := []struct {
		name    string
		args    []string
		db      string
		out     string // the -o file, "" for none
		wantErr []string
	}{
		{"export -o", []string{"export", "-db", pgnDamaged, "-o", filepath.Join(dir, "new.pgn")}, pgnDamaged, filepath.Join(dir, "new.pgn"),
			[]string{"selfplay export: database " + pgnDamaged + ": damaged (SQLite quick_check: ", "sqlite3 " + pgnDamaged + " .recover"}},
		{"export over an earlier file", []string{"export", "-db", pgnDamaged, "-o", earlier}, pgnDamaged, earlier,
			[]string{"database " + pgnDamaged + ": damaged"}},
		{"export of scrambled cells", []string{"export", "-db", scrambled, "-o", filepath.Join(dir, "s.pgn")}, scrambled, filepath.Join(dir, "s.pgn"),
			[]string{"selfplay export: database " + scrambled + ": damaged (SQLite quick_check: ", "sqlite3 " + scrambled + " .recover"}},
		{"report", []string{"report", "-db", gamesDamaged}, gamesDamaged, "",
			[]string{"selfplay report: database " + gamesDamaged + ": damaged (SQLite quick_check: "}},
		{"report -o", []string{"report", "-db", gamesDamaged, "-o", filepath.Join(dir, "r.txt")}, gamesDamaged, filepath.Join(dir, "r.txt"),
			[]string{"damaged (SQLite quick_check: "}},
		{"report of scrambled cells", []string{"report", "-db", scrambled}, scrambled, "",
			[]string{"selfplay report: database " + scrambled + ": damaged (SQLite quick_check: "}},
		{"run", []string{"run", "-config", cfg, "-db", pgnDamaged}, pgnDamaged, "",
			[]string{"selfplay run: database " + pgnDamaged + ": damaged (SQLite quick_check: ", "nothing was written to it",
				"sqlite3 " + pgnDamaged + " .recover", "selfplay export -db " + pgnDamaged}},
		{"match", []string{"match", "fhr", "plain", "-nodes", "200", "-db", gamesDamaged}, gamesDamaged, "",
			[]string{"damaged (SQLite quick_check: "}},
		{"merge into it", []string{"merge", "-o", pgnDamaged, storedTiny(t)}, pgnDamaged, "",
			[]string{"damaged (SQLite quick_check: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dbBefore, err := os.ReadFile(tt.db)
			if err != nil {
				t.Fatal(err)
			}
			var outBefore []byte
			if tt.out != "" {
				outBefore, _ = os.ReadFile(tt.out)
			}
			code, _, stderr := run(t, tt.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr %q", code, exitUsage, stderr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not say %q", stderr, w)
				}
			}
			if after, err := os.ReadFile(tt.db); err != nil || !bytes.Equal(dbBefore, after) {
				t.Errorf("the damaged database changed (%v)", err)
			}
			if tt.out != "" {
				after, err := os.ReadFile(tt.out)
				if outBefore == nil && err == nil {
					t.Errorf("%s was written (%d bytes)", tt.out, len(after))
				}
				if outBefore != nil && !bytes.Equal(outBefore, after) {
					t.Errorf("%s changed: %q", tt.out, after)
				}
			}
			noTemporaryFiles(t, dir)
		})
	}
}

// noTemporaryFiles fails if an output's temporary file is left in dir.
func noTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// An -o file is written under a temporary name and renamed into place: it
// keeps the mode of the file it replaces, a symbolic link keeps pointing
// at it, and a device is written directly.
func TestOutputReplacesAtomically(t *testing.T) {
	db := storedTiny(t)
	dir := t.TempDir()
	out := writeFile(t, dir, "r.txt", "old\n")
	if err := os.Chmod(out, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{out, link} {
		if code, _, stderr := run(t, "report", "-db", db, "-o", target); code != exitOK {
			t.Fatalf("report -o %s: exit %d: %s", target, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(b), "tiny") {
			t.Errorf("after -o %s: %q, %v", target, b, err)
		}
		if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("after -o %s: mode %v, %v; want 0640 kept", target, fi.Mode(), err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("after -o %s: the link is gone (%v)", target, err)
		}
	}
	if code, stdout, stderr := run(t, "report", "-db", db, "-o", os.DevNull); code != exitOK || stdout != "" {
		t.Errorf("-o %s: exit %d: %s", os.DevNull, code, stderr)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Errorf("%s is no longer a device: %v", os.DevNull, err)
	}
	noTemporaryFiles(t, dir)
}
