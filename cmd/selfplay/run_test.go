package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"selfplay/engines/uci/ucitest"
	"selfplay/internal/testkit"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = dispatch(context.Background(), env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// tinyConfig is a match of a (plain) and b (fhr) over the fhr25 openings
// at 200 nodes a move, two games at a time.
func tinyConfig() testkit.Config {
	return testkit.Config{
		Database: "games.db",
		Engines:  []testkit.Engine{{Name: "a", Preset: "plain", Hash: 1}, {Name: "b", Preset: "fhr", Hash: 1}},
		Tournaments: []testkit.Tournament{{
			Name: "tiny", Engines: []string{"a", "b"}, Concurrency: 2,
			Openings:     testkit.Table{"set": "fhr25"},
			Limits:       testkit.Table{"nodes": 200},
			Adjudication: testkit.Table{"move": 25, "referee_nodes": 1000},
		}},
	}
}

// withOpenings is c with its tournament's openings table replaced.
func withOpenings(c testkit.Config, openings testkit.Table) testkit.Config {
	c.Tournaments[0].Openings = openings
	return c
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunBadInputWritesNothing(t *testing.T) {
	tests := []struct {
		name    string
		config  string
		files   map[string]string
		args    []string
		wantErr []string
	}{
		{"unknown key", strings.Replace(tinyConfig().String(), "concurrency = 2", "concurency = 2", 1), nil, nil,
			[]string{"t.toml", "tournament[0].concurency: unknown key", `did you mean "concurrency"`}},
		{"unknown key in a subtable", tinyConfig().String() + "bogus = 1\n", nil, nil,
			[]string{"t.toml", "tournament[0].adjudication.bogus: unknown key"}},
		{"unknown preset", func() string { c := tinyConfig(); c.Engines[1].Preset = "fhx"; return c.String() }(), nil, nil,
			[]string{"t.toml", "engines.b.preset", "fhr"}},
		{"bad opening file", withOpenings(tinyConfig(), testkit.Table{"file": "book.epd"}).String(), map[string]string{"book.epd": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n"}, nil,
			[]string{"tournament[0].openings.file", "book.epd:2"}},
		{"unwritable database directory", tinyConfig().String(), nil, []string{"-db", "/nonexistent/dir/games.db"},
			[]string{"/nonexistent/dir"}},
		{"unknown -only", tinyConfig().String(), nil, []string{"-only", "nope"},
			[]string{`no tournament "nope"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeFile(t, dir, "t.toml", tt.config)
			for n, body := range tt.files {
				writeFile(t, dir, n, body)
			}
			code, _, stderr := run(t, append([]string{"run", "-config", cfg}, tt.args...)...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr: %s", code, exitUsage, stderr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not mention %q", stderr, w)
				}
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "games.db") {
					t.Errorf("%s was written", e.Name())
				}
			}
		})
	}
}

func TestRunAndExport(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig().Write(t, dir, "t.toml")
	code, stdout, stderr := run(t, "run", "-config", cfg)
	if code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "== Tournament tiny ==") || !strings.Contains(stdout, "Elo (95%, pentanomial)") || !strings.Contains(stdout, "50/50 games stored") {
		t.Fatalf("run output lacks the result table:\n%s", stdout)
	}
	out := filepath.Join(dir, "all.pgn")
	if code, _, stderr := run(t, "export", "-db", filepath.Join(dir, "games.db"), "-o", out); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(out)
	if n := strings.Count(string(b), "[Event \"tiny\"]"); n != 50 {
		t.Fatalf("exported %d games, want 50", n)
	}
	if code, _, _ := run(t, "export", "-db", filepath.Join(dir, "missing.db")); code != exitUsage {
		t.Fatalf("export of a missing database: exit %d, want %d", code, exitUsage)
	}
}

var (
	buildOnce sync.Once
	buildDir  string // removed by TestMain
	binary    string
	buildErr  error
)

// TestMain removes the directories that tests share (the binary's, the
// stored tournament's).
// The test binary re-runs itself (testkit.Main) as ucitest's fake UCI
// engine, as the selfplay command, as a writer holding a transaction open
// and as the spawner that measures selfplay's peak memory.
func TestMain(m *testing.M) {
	testkit.Main(m, map[string]testkit.Helper{
		fakeEngine:     func(args []string) int { ucitest.Main(args); return 0 },
		selfplayHelper: func(args []string) int { os.Args = append(os.Args[:1], args...); main(); return 0 },
		holdWriteTx:    holdWriteTransaction,
		measureHelper:  measureRSS,
	}, func() {
		for _, dir := range []string{buildDir, tinyDBDir} {
			if dir != "" {
				os.RemoveAll(dir)
			}
		}
	})
}

// selfplayBinary builds the command once for tests that need a real process
// (skipped with -short).
func selfplayBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "selfplay-test")
		if err != nil {
			buildErr = err
			return
		}
		buildDir = dir
		binary = filepath.Join(dir, "selfplay")
		if runtime.GOOS == "windows" {
			binary += ".exe"
		}
		out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

func countGames(t *testing.T, db string) (games, distinct int) {
	t.Helper()
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.QueryRow(`SELECT count(*), count(DISTINCT tournament_id || '.' || pair_index || '.' || game_index) FROM games`).Scan(&games, &distinct); err != nil {
		return 0, 0
	}
	return games, distinct
}

// startRun starts `selfplay run` on a small tournament in a new directory;
// out, if not nil, receives its output.
func startRun(t *testing.T, bin string, out *bytes.Buffer) (cmd *exec.Cmd, cfg, db string) {
	t.Helper()
	dir := t.TempDir()
	c := tinyConfig()
	c.Tournaments[0].Limits["nodes"] = 3000
	cfg = c.Write(t, dir, "t.toml")
	cmd = exec.Command(bin, "run", "-config", cfg)
	if out != nil {
		cmd.Stdout, cmd.Stderr = out, out
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, cfg, filepath.Join(dir, "games.db")
}

// waitForGames waits until the run has stored n games.
func waitForGames(t *testing.T, cmd *exec.Cmd, db string, n int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for stored, _ := countGames(t, db); stored < n; stored, _ = countGames(t, db) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("not %d games stored within a minute", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// SIGINT or SIGTERM: the run stops starting games, keeps the finished ones,
// exits 130 and says how to resume. SIGTERM twice within milliseconds, as GNU
// timeout sends it (to the process and to its process group), is one signal:
// the copy must not kill the run.
func TestInterruptExitCode(t *testing.T) {
	tests := []struct {
		name    string
		signals []os.Signal // 20 ms apart: past the handling of the first
	}{
		{"SIGINT", []os.Signal{os.Interrupt}},
		{"SIGTERM twice at once", []os.Signal{syscall.SIGTERM, syscall.SIGTERM}},
	}
	bin := selfplayBinary(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			cmd, _, db := startRun(t, bin, &out)
			waitForGames(t, cmd, db, 2)
			for i, sig := range tt.signals {
				if i > 0 {
					time.Sleep(20 * time.Millisecond)
				}
				cmd.Process.Signal(sig)
			}
			err := cmd.Wait()
			if n, _ := countGames(t, db); n >= 50 {
				t.Fatalf("the run finished before the signals; make its games longer\n%s", out.String())
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
				t.Fatalf("exit = %v, want %d\n%s", err, exitInterrupted, out.String())
			}
			if !strings.Contains(out.String(), "run the same command again to resume") {
				t.Fatalf("no resume hint:\n%s", out.String())
			}
		})
	}
}
