package testkit_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"selfplay/config"
	"selfplay/internal/testkit"
)

func TestMain(m *testing.M) {
	testkit.Main(m, map[string]testkit.Helper{
		"echo": func(args []string) int {
			fmt.Println(strings.Join(args, "|"))
			return 3
		},
		"parent": func([]string) int {
			fmt.Println(testkit.ParentPID(os.Getpid()))
			return 0
		},
		"hold-write-tx": func(args []string) int {
			db, err := sql.Open("sqlite", args[0])
			if err != nil {
				fmt.Println("error:", err)
				return 1
			}
			defer db.Close()
			return testkit.HoldWriteTx(db)
		},
	})
}

// A helper gets its arguments and its exit status is the process's; an
// unknown helper exits 2 naming itself.
func TestHelperProcess(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantOut  string
		wantCode int
	}{
		{"echo", []string{"a b", "-test.run=x"}, "a b|-test.run=x\n", 3},
		{"echo", nil, "\n", 3},
		{"parent", nil, fmt.Sprintf("%d\n", os.Getpid()), 0},
		{"no-such-helper", nil, `unknown test helper "no-such-helper"` + "\n", 2},
	}
	for _, tt := range tests {
		out, code := testkit.ExitCode(t, testkit.Command(t, tt.name, tt.args...))
		if out != tt.wantOut || code != tt.wantCode {
			t.Errorf("helper %s %q: %q, exit %d; want %q, exit %d", tt.name, tt.args, out, code, tt.wantOut, tt.wantCode)
		}
	}
}

func TestParentPID(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	if got := testkit.ParentPID(os.Getpid()); got != os.Getppid() {
		t.Errorf("ParentPID(self) = %d, want %d", got, os.Getppid())
	}
	if got := testkit.ParentPID(-5); got != -1 {
		t.Errorf("ParentPID(-5) = %d, want -1", got)
	}
}

// The builder's TOML, byte for byte, and it loads as the config it says.
func TestConfigTOML(t *testing.T) {
	c := testkit.Config{
		Database: "games.db",
		Engines: append(testkit.InProcess("plain", "fhr"),
			testkit.Engine{Name: "ext", Body: `command = "/bin/true"` + "\n"},
			testkit.Engine{Name: "uci", Command: "/bin/sel fplay", Args: []string{"uci", "-variant", "fhr"}, Body: `init_timeout = "5s"`}),
		Tournaments: []testkit.Tournament{{
			Name: "t \"1\"", Engines: []string{"fhr", "plain"}, Concurrency: 2, Seed: 7,
			Body:     `epd_out = "t.epd"`,
			Openings: testkit.Table{"set": "fhr25", "order": "random"},
			Limits:   testkit.Table{"nodes": 300, "nodes_jitter": 0.1},
			SPRT:     testkit.Table{"elo0": 0.0, "elo1": 10, "model": "logistic"},
		}},
	}
	want := `database = "games.db"
[engines.plain]
preset = "plain"
hash = 1
[engines.fhr]
preset = "fhr"
hash = 1
[engines.ext]
command = "/bin/true"
[engines.uci]
command = "/bin/sel fplay"
args = ["uci", "-variant", "fhr"]
init_timeout = "5s"
[[tournament]]
concurrency = 2
engines = ["fhr", "plain"]
name = "t \"1\""
seed = 7
epd_out = "t.epd"
[tournament.openings]
order = "random"
set = "fhr25"
[tournament.limits]
nodes = 300
nodes_jitter = 0.1
[tournament.sprt]
elo0 = 0.0
elo1 = 10
model = "logistic"
`
	if got := c.String(); got != want {
		t.Fatalf("TOML:\n%s\nwant:\n%s", got, want)
	}
	c.Engines = append(c.Engines[:2], c.Engines[3])
	c.Engines[2].Command = "/bin/true"
	path := c.Write(t, t.TempDir(), "t.toml")
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Engines[2]; e.Name != "uci" || e.Command != "/bin/true" || !slices.Equal(e.Args, []string{"uci", "-variant", "fhr"}) {
		t.Errorf("loaded engine %+v", e)
	}
	tr := f.Tournaments[0]
	if tr.Name != `t "1"` || tr.Concurrency != 2 || tr.Seed != 7 || tr.Limits.Nodes != 300 || tr.SPRT == nil || tr.SPRT.Elo1 != 10 {
		t.Errorf("loaded %+v", tr)
	}
}

func TestSyncBuffer(t *testing.T) {
	var b testkit.SyncBuffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			b.Write([]byte("x"))
		}
	}()
	<-done
	if got := b.String(); got != strings.Repeat("x", 100) {
		t.Errorf("got %q", got)
	}
}

// The held transaction blocks another writer until the helper's input
// closes, and its insert is never committed.
func TestHoldWriteTx(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE tournaments (name, config, config_hash, status, total_games, created_at, updated_at)`); err != nil {
		t.Fatal(err)
	}
	cmd := testkit.Command(t, "hold-write-tx", path)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 6)
	if _, err := stdout.Read(line); err != nil || string(line) != "ready\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	if _, err := db.Exec(`INSERT INTO tournaments VALUES ('mine', '{}', 'h', 'running', 2, '', '')`); err == nil {
		t.Error("a second writer wrote while the transaction was held")
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM tournaments WHERE name = 'uncommitted'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d uncommitted rows after the helper ended (%v)", n, err)
	}
}
