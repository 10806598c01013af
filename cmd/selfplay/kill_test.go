package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"selfplay/internal/testkit"
)

// The kill soak: runs killed with SIGKILL at random (seeded) moments, then
// resumed, end with every game stored once, an intact database, and the
// PGN and SPRT outcome of an uninterrupted run. Three phases are covered,
// 31 kills in all: a fresh run and its resumptions (every third kill in a
// process's first 200ms: runtime, config, the database's creation or
// opening, the tournament row, the first games) and mid-tournament; `run
// -restart` replacing a tournament played under another config; and a
// match stopped by its SPRT. The kill moments are spread over the
// uninterrupted run's duration on this machine, so that each run gets
// some way before it is killed.
func TestKillSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it 30 times")
	}
	bin := selfplayBinary(t)
	const seed = 20251122
	rng := rand.New(rand.NewPCG(seed, 0x6b696c6c))
	t.Logf("seed %d", seed)

	t.Run("fresh run and mid-tournament", func(t *testing.T) {
		cfg := soakConfig(400, 2, 2).String()
		ref := referenceRun(t, cfg)
		db, path := soakDir(t, cfg)
		for i := 0; i < 14; i++ {
			// Every third kill (the first among them) while the process
			// starts: its runtime, the config, the database's creation or
			// opening, the tournament row, the first games.
			d := killMoment(rng, ref.took, 9)
			if i%3 == 0 {
				d = randDuration(rng, 2*startup)
			}
			killAfter(t, bin, d, db, "run", "-config", path)
		}
		finish(t, bin, "run", "-config", path)
		checkAgainst(t, db, ref)
	})

	t.Run("during -restart", func(t *testing.T) {
		// The tournament's games of another config (400 nodes) are
		// replaced with -restart (500 nodes), and each restart is killed.
		old := soakConfig(400, 2, 2).String()
		cfg := soakConfig(500, 2, 2).String()
		ref := referenceRun(t, cfg)
		db, path := soakDir(t, old)
		killAfter(t, bin, startup+ref.took/2, db, "run", "-config", path)
		if n, _ := countGames(t, db); n == 0 {
			t.Fatal("no games of the old config stored")
		}
		writeFile(t, filepath.Dir(path), filepath.Base(path), cfg)
		for i := 0; i < 8; i++ {
			killAfter(t, bin, killMoment(rng, ref.took, 8), db, "run", "-config", path, "-restart", "tiny")
		}
		// Resuming: the last restart either took effect (its games go on)
		// or was killed before it did (the old games are still there, and
		// run refuses the changed config without mixing them in).
		code, out := runBinary(t, bin, "run", "-config", path)
		switch {
		case code == exitOK:
		case code == exitUsage && strings.Contains(out, "was started with a different configuration"):
			t.Log("the last restart was killed before it deleted the old games; run refuses the changed config")
			finish(t, bin, "run", "-config", path, "-restart", "tiny")
		default:
			t.Fatalf("resume after the killed restarts: exit %d\n%s", code, out)
		}
		checkAgainst(t, db, ref)
	})

	t.Run("during SPRT", func(t *testing.T) {
		// One game at a time: where the SPRT decides is then a function
		// of the config, as it must be after any number of kills.
		c := soakConfig(300, 1, 1000)
		c.Tournaments[0].SPRT = testkit.Table{"elo0": -30, "elo1": 30, "model": "logistic"}
		cfg := c.String()
		ref := referenceRun(t, cfg)
		if ref.sprt == "" || ref.games >= 50000 {
			t.Fatalf("the reference run's SPRT did not decide: %q after %d games", ref.sprt, ref.games)
		}
		db, path := soakDir(t, cfg)
		for i := 0; i < 8; i++ {
			killAfter(t, bin, killMoment(rng, ref.took, 8), db, "run", "-config", path)
		}
		finish(t, bin, "run", "-config", path)
		checkAgainst(t, db, ref)
	})
}

// soakConfig is a small match (rounds of 25 openings, concurrency games
// at a time) at nodes per move.
func soakConfig(nodes, concurrency, rounds int) testkit.Config {
	c := tinyConfig()
	c.Tournaments[0].Limits["nodes"] = nodes
	c.Tournaments[0].Concurrency = concurrency
	c.Tournaments[0].Rounds = rounds
	return c
}

// soakDir writes the config into a new directory; it returns the database
// and the config's path.
func soakDir(t *testing.T, cfg string) (db, path string) {
	dir := t.TempDir()
	return filepath.Join(dir, "games.db"), writeFile(t, dir, "t.toml", cfg)
}

func randDuration(rng *rand.Rand, max time.Duration) time.Duration {
	return time.Duration(rng.Int64N(int64(max) + 1))
}

// startup is about how long selfplay takes to store its first game (the
// process, the database, the engines' tables).
const startup = 100 * time.Millisecond

// killMoment draws the moment of one of kills kills of a tournament that
// takes took uninterrupted: after the startup, within twice its share of
// the playing time, so that the kills together get about through it.
func killMoment(rng *rand.Rand, took time.Duration, kills int) time.Duration {
	return startup + randDuration(rng, 2*took/time.Duration(kills))
}

// reference is what an uninterrupted run stores.
type reference struct {
	pgn   string
	games int
	sprt  string // the stored SPRT state and LLR, "" without a decision
	took  time.Duration
}

// referenceRun plays cfg uninterrupted (in this process) and returns what
// it stored.
func referenceRun(t *testing.T, cfg string) reference {
	t.Helper()
	db, path := soakDir(t, cfg)
	start := time.Now()
	if code, _, stderr := run(t, "run", "-config", path); code != exitOK {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	ref := stored(t, db)
	ref.took = time.Since(start)
	t.Logf("reference: %d games in %v", ref.games, ref.took.Round(time.Millisecond))
	return ref
}

// stored reads a finished tournament: its PGN (without what legitimately
// differs between runs), games and SPRT outcome.
func stored(t *testing.T, db string) reference {
	t.Helper()
	out := filepath.Join(t.TempDir(), "all.pgn")
	if code, _, stderr := run(t, "export", "-db", db, "-o", out); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	ref := reference{pgn: timeless(string(b))}
	ref.games, _ = countGames(t, db)
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var status, state string
	var llr float64
	if err := d.QueryRow(`SELECT status, sprt_state, sprt_llr FROM tournaments WHERE name = 'tiny'`).Scan(&status, &state, &llr); err != nil {
		t.Fatal(err)
	}
	if status != "complete" {
		t.Fatalf("tournament status %q", status)
	}
	if state != "" {
		ref.sprt = fmt.Sprintf("%s %v", state, llr)
	}
	return ref
}

// killAfter starts selfplay with args and kills it with SIGKILL after
// delay (unless it ended by then); no game may be stored twice.
func killAfter(t *testing.T, bin string, delay time.Duration, db string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Logf("%v: ended by itself before the kill at %v (%v)", args, delay, err)
	case <-time.After(delay):
		cmd.Process.Signal(syscall.SIGKILL)
		<-done
	}
	games, distinct := countGames(t, db)
	_, err := os.Stat(db)
	t.Logf("killed at %v: database exists %v, %d games stored", delay.Round(time.Millisecond), err == nil, games)
	if games != distinct {
		t.Fatalf("after a kill at %v: %d games stored, %d distinct", delay, games, distinct)
	}
}

// runBinary runs selfplay to its end (within two minutes).
func runBinary(t *testing.T, bin string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK, string(out)
	case ctx.Err() != nil:
		t.Fatalf("%v: still running after two minutes\n%s", args, out)
	case !errors.As(err, &ee):
		t.Fatalf("%v: %v", args, err)
	}
	return ee.ExitCode(), string(out)
}

// finish runs selfplay to a successful end.
func finish(t *testing.T, bin string, args ...string) {
	t.Helper()
	if code, out := runBinary(t, bin, args...); code != exitOK {
		t.Fatalf("%v: exit %d\n%s", args, code, out)
	}
}

// checkAgainst checks the database after the kills and the final run: it
// is intact, holds every game once, and the same games and SPRT outcome as
// the uninterrupted run.
func checkAgainst(t *testing.T, db string, ref reference) {
	t.Helper()
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var check string
	if err := d.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	var orphans, tournaments int
	d.QueryRow(`SELECT count(*) FROM moves WHERE game_id NOT IN (SELECT id FROM games)`).Scan(&orphans)
	d.QueryRow(`SELECT count(*) FROM tournaments`).Scan(&tournaments)
	if orphans != 0 || tournaments != 1 {
		t.Fatalf("%d moves without a game, %d tournaments", orphans, tournaments)
	}
	games, distinct := countGames(t, db)
	got := stored(t, db)
	if games != ref.games || distinct != ref.games {
		t.Fatalf("%d games stored (%d distinct), want %d", games, distinct, ref.games)
	}
	if got.sprt != ref.sprt {
		t.Fatalf("SPRT %q, uninterrupted %q", got.sprt, ref.sprt)
	}
	if got.pgn != ref.pgn {
		t.Fatal("the exported PGN differs from the uninterrupted run's")
	}
}

// timeless drops what legitimately differs between two runs of the same
// config: the date and the time each move took.
func timeless(pgn string) string {
	pgn = regexp.MustCompile(`\[Date "[^"]*"\]`).ReplaceAllString(pgn, "")
	// Comments are wrapped by width, so compare them as word streams.
	words := strings.Fields(pgn)
	seconds := regexp.MustCompile(`^[0-9.]+s\}$`)
	for i, w := range words {
		if seconds.MatchString(w) {
			words[i] = "Ts}"
		}
	}
	return strings.Join(words, " ")
}
