package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/internal/testkit"
)

// The tests of this file run real second processes: the test binary
// itself, started again as a helper (TestMain), acts as the selfplay
// command (selfplayProcess) or as a writer holding a transaction open
// (holdWriteTransaction), instead of running the tests.

// holdWriteTransaction begins a write transaction on the database at
// args[0] that inserts a tournament, says "ready" and waits for its
// standard input to close (testkit.HoldWriteTx).
func holdWriteTransaction(args []string) int {
	db, err := sql.Open("sqlite", args[0])
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer db.Close()
	return testkit.HoldWriteTx(db)
}

// selfplayProcess is `selfplay args...` as a process of the test binary.
func selfplayProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	return testkit.Command(t, selfplayHelper, args...)
}

// runFor runs a command in this process like run, interrupting it after
// timeout.
func runFor(t *testing.T, timeout time.Duration, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out, errb bytes.Buffer
	code = dispatch(ctx, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// oneOpening is an opening file with one position: two games per pairing.
const oneOpening = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"e4e5\";\n"

// smallConfig is a match of a and b over the openings, named name, at
// nodes per move.
func smallConfig(t *testing.T, dir, file, name string, openings testkit.Table, nodes int) string {
	t.Helper()
	c := withOpenings(tinyConfig(), openings)
	c.Tournaments[0].Name = name
	c.Tournaments[0].Limits["nodes"] = nodes
	return c.Write(t, dir, file)
}

// waitForFile waits until the file exists and is not empty.
func waitForFile(t *testing.T, path string, cmd *exec.Cmd) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if st, err := os.Stat(path); err == nil && st.Size() > 0 {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("%s not written within a minute", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// One writer per database: while a run plays, a second run of the same
// database, also with -restart of the running tournament, exits 2 with
// the holder's pid, host and start time, and writes nothing; report and
// export work meanwhile. Once the holder is killed with SIGKILL, the kernel
// has released the lock: the next run starts at once.
func TestSecondWriterRefused(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	slow := smallConfig(t, dir, "slow.toml", "slow", testkit.Table{"set": "fhr25"}, 2000000)
	quick := smallConfig(t, dir, "quick.toml", "quick", testkit.Table{"file": "one.epd"}, 200)
	writeFile(t, dir, "one.epd", oneOpening)

	holder := selfplayProcess(t, "run", "-config", slow)
	var holderOut bytes.Buffer
	holder.Stdout, holder.Stderr = &holderOut, &holderOut
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Process.Kill(); holder.Wait() })
	waitForFile(t, db, holder) // created complete, under another name first
	for deadline := time.Now().Add(time.Minute); tournamentIDs(t, db)["slow"] == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			holder.Process.Kill()
			holder.Wait()
			t.Fatalf("the tournament was not created within a minute:\n%s", holderOut.String())
		}
	}
	host, _ := os.Hostname()
	want := fmt.Sprintf("games.db is in use by another selfplay run (pid %d on %s since ", holder.Process.Pid, host)

	for _, args := range [][]string{
		{"run", "-config", slow},
		{"run", "-config", slow, "-restart", "slow"},
		{"run", "-config", quick, "-db", db},
	} {
		// Bounded, so that a second writer that does start (as before
		// the lock) ends the test instead of playing the slow games.
		code, stdout, stderr := runFor(t, 30*time.Second, args...)
		if code != exitUsage || !strings.Contains(stderr, want) || strings.Contains(stdout, "games") {
			t.Errorf("%v beside a running run: exit %d, stdout %q, stderr %q; want exit %d and %q", args, code, stdout, stderr, exitUsage, want)
		}
	}
	if code, stdout, stderr := run(t, "report", "-db", db); code != exitOK || !strings.Contains(stdout, "== Tournament slow ==") {
		t.Errorf("report beside a running run: exit %d, %s%s", code, stdout, stderr)
	}
	if code, _, stderr := run(t, "export", "-db", db); code != exitOK {
		t.Errorf("export beside a running run: exit %d, %s", code, stderr)
	}

	holder.Process.Kill() // SIGKILL
	holder.Wait()
	code, stdout, stderr := run(t, "run", "-config", quick, "-db", db)
	if code != exitOK || !strings.Contains(stdout, "2/2 games stored") {
		t.Fatalf("run after the holder was killed: exit %d\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(holderOut.String(), "in use") {
		t.Errorf("the holder itself was refused: %s", holderOut.String())
	}
}

// tournamentIDs lists the stored tournaments' ids by name.
func tournamentIDs(t *testing.T, db string) map[string]int64 {
	t.Helper()
	d, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rows, err := d.Query("SELECT name, id FROM tournaments")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ids := map[string]int64{}
	for rows.Next() {
		var name string
		var id int64
		if err := rows.Scan(&name, &id); err != nil {
			t.Fatal(err)
		}
		ids[name] = id
	}
	return ids
}

// -restart gives the tournament a new id: an id never names two
// tournaments, also not one after the other.
func TestRestartGetsANewTournamentID(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "one.epd", oneOpening)
	cfg := smallConfig(t, dir, "t.toml", "quick", testkit.Table{"file": "one.epd"}, 200)
	db := filepath.Join(dir, "games.db")
	if code, _, stderr := run(t, "run", "-config", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	first := tournamentIDs(t, db)["quick"]
	if code, _, stderr := run(t, "run", "-config", cfg, "-restart", "quick"); code != exitOK {
		t.Fatalf("run -restart: exit %d: %s", code, stderr)
	}
	if again := tournamentIDs(t, db)["quick"]; again <= first {
		t.Errorf("the restarted tournament has id %d, the deleted one had %d", again, first)
	}
}

// A database deleted during a run (its files, or its folder) stops the run
// before its next game is stored, with exit 1 and a message saying so,
// and no report that claims games are stored.
func TestDatabaseDeletedDuringRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		remove func(dir, db string) error
	}{
		{"files", func(_, db string) error {
			for _, f := range []string{db, db + "-wal", db + "-shm"} {
				if err := os.Remove(f); err != nil {
					return err
				}
			}
			return nil
		}},
		{"folder", func(dir, _ string) error { return os.RemoveAll(dir) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "results")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(dir, "games.db")
			cfg := smallConfig(t, dir, "t.toml", "tiny", testkit.Table{"set": "fhr25"}, 3000)
			cmd := selfplayProcess(t, "run", "-config", cfg)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill() })
			waitForGames(t, cmd, db, 2)
			if err := tc.remove(dir, db); err != nil {
				t.Fatal(err)
			}
			ee := waitExit(t, cmd, 5*time.Minute)
			if ee == nil || ee.ExitCode() != exitFailure {
				t.Fatalf("exit %v, want %d\nstdout:\n%s\nstderr:\n%s", ee, exitFailure, stdout.String(), stderr.String())
			}
			want := "the database " + db + " was deleted while this process was writing it"
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr %q lacks %q", stderr.String(), want)
			}
			if strings.Contains(stdout.String(), "games stored") || strings.Contains(stdout.String(), "== Tournament") {
				t.Errorf("the run reported stored games:\n%s", stdout.String())
			}
		})
	}
}

// fileSum is the SHA-256 of a file's bytes.
func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// pragmas reads user_version and journal_mode of a database without
// writing it.
func pragmas(t *testing.T, path string) string {
	t.Helper()
	d, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var v int
	var mode string
	if err := d.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if err := d.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("user_version %d, journal_mode %s", v, mode)
}

// report and export of an SQLite file that is not selfplay's: a clear
// error naming the file (exit 2), and the file is left exactly as it was
// (bytes, user_version, journal mode, no files beside it).
func TestReadersDoNotTouchForeignFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "foreign.db")
	d, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(`CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO games VALUES (1, 'mine');
		PRAGMA user_version = 2`); err != nil {
		t.Fatal(err)
	}
	d.Close()
	sum, prag := fileSum(t, path), pragmas(t, path)
	if prag != "user_version 2, journal_mode delete" {
		t.Fatalf("fixture: %s", prag)
	}
	for _, cmd := range []string{"report", "export"} {
		code, stdout, stderr := run(t, cmd, "-db", path)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, path) || !strings.Contains(stderr, "not a selfplay database") {
			t.Errorf("%s of a foreign file: exit %d, stdout %q, stderr %q", cmd, code, stdout, stderr)
		}
	}
	if fileSum(t, path) != sum || pragmas(t, path) != prag {
		t.Errorf("the foreign file changed: %s", pragmas(t, path))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside it: %v", entries)
	}
}

// report is not blocked by a writer (another process) in the middle of a
// transaction, and shows the last committed state.
func TestReportBesideWriteTransaction(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	src, err := os.ReadFile(storedTiny(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, src, 0o644); err != nil {
		t.Fatal(err)
	}
	holder := testkit.Command(t, holdWriteTx, db)
	stdin, _ := holder.StdinPipe()
	stdout, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); holder.Wait() })
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("holder: %q", line)
	}
	start := time.Now()
	code, out, errs := run(t, "report", "-db", db)
	if code != exitOK || !strings.Contains(out, "50/50 games stored") || strings.Contains(out, "uncommitted") {
		t.Errorf("report beside a write transaction: exit %d\n%s%s", code, out, errs)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("report took %v: it waited for the writer", d)
	}
}
