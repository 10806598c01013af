package store

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"selfplay/internal/testkit"
	"selfplay/store/record"
)

// The test binary acts as a helper process (testkit.Main) named by its
// action, the arguments following.
func TestMain(m *testing.M) {
	helpers := map[string]testkit.Helper{}
	for _, action := range []string{"hold-writer", "hold-write-tx", "read", "write", "write-and-die", "touch", "sqlite-write"} {
		helpers[action] = func(args []string) int { return helperMain(action, args) }
	}
	for action, f := range extraHelpers {
		helpers[action] = func(args []string) int { return f(args[0]) }
	}
	testkit.Main(m, helpers)
}

// extraHelpers are helper actions (TestMain) of one argument, a path,
// beside helperMain's, added by the tests' files.
var extraHelpers = map[string]func(path string) int{}

// helperMain is a second process for the tests:
//
//	hold-writer PATH    opens PATH for writing (as "run"), says "ready", and
//	                    waits for its standard input to close
//	hold-write-tx PATH  also begins a write transaction that inserts a
//	                    tournament, then says "ready" and waits
//	read PATH           opens PATH read-only and prints its tournaments and
//	                    game counts ("NAME GAMES" lines), or the error
//	write PATH          opens PATH for writing and stores a tournament
//	write-and-die PATH  stores a tournament with 20 games and exits without
//	                    closing the database (its write-ahead log stays)
//	touch PATH          creates the file PATH (to probe permissions)
//	sqlite-write PATH   opens PATH with plain SQLite (no selfplay lock),
//	                    inserts a tournament in a write transaction, closes
func helperMain(action string, args []string) int {
	ctx := context.Background()
	path := args[0]
	switch action {
	case "hold-writer", "hold-write-tx":
		s, err := OpenWriter(ctx, path, "run")
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		defer s.Close()
		if action == "hold-write-tx" {
			return testkit.HoldWriteTx(s.db)
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "read":
		r, err := OpenReader(ctx, path)
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		defer r.Close()
		ts, err := r.Tournaments(ctx)
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		for _, t := range ts {
			n, err := r.CountGames(ctx, t.ID)
			if err != nil {
				fmt.Println("error:", err)
				return 1
			}
			fmt.Println(t.Name, n)
		}
		return 0
	case "write":
		s, err := OpenWriter(ctx, path, "run")
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		defer s.Close()
		if _, err := s.CreateTournament(ctx, record.Tournament{Name: "written", Config: "{}", ConfigHash: "h"}); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Println("written")
		return 0
	case "write-and-die":
		s, err := OpenWriter(ctx, path, "run")
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		id, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h", TotalGames: 20})
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		for i := 0; i < 20; i++ {
			g := &record.Game{TournamentID: id, Pair: i / 2, Index: i % 2, White: "a", Black: "b", Result: "1-0",
				Moves: []record.Move{{Ply: 1, UCI: "e2e4", Depth: 3}}}
			if err := s.SaveGame(ctx, g); err != nil {
				fmt.Println("error:", err)
				return 1
			}
		}
		fmt.Println("written")
		return 0 // without Close: the games are in the write-ahead log only
	case "sqlite-write":
		db, err := sql.Open("sqlite", dsn(path, url.Values{"_pragma": {"busy_timeout(10000)"}}))
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		if _, err := db.Exec(`INSERT INTO tournaments (name, config, config_hash, status, total_games, created_at, updated_at)
			VALUES ('plain', '{}', 'h', 'running', 2, '', '')`); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		if err := db.Close(); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Println("ok")
		return 0
	case "touch":
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Println("created")
		return 0
	}
	fmt.Println("unknown helper action", action)
	return 2
}

// helper is a running helper process.
type helper struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

// startHelper starts the test binary as a helper and waits until it says
// "ready"; the test's cleanup ends it.
func startHelper(t *testing.T, action, path string) *helper {
	t.Helper()
	cmd := testkit.Command(t, action, path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &helper{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		l, _ := h.out.ReadString('\n')
		line <- strings.TrimSpace(l)
	}()
	select {
	case l := <-line:
		if l != "ready" {
			t.Fatalf("helper %s: %q", action, l)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("helper %s: not ready within 30s", action)
	}
	return h
}

// runHelper runs a helper to its end and returns its output and exit code.
func runHelper(t *testing.T, action, path string, configure func(*exec.Cmd)) (string, int) {
	t.Helper()
	cmd := testkit.Command(t, action, path)
	if configure != nil {
		configure(cmd)
	}
	return testkit.ExitCode(t, cmd)
}
