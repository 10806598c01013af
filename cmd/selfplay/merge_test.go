package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"selfplay/store/storetest"
)

// A merge killed with SIGKILL at any moment leaves the output intact, each
// input either wholly merged or not at all; the same merge run again
// finishes it.
func TestMergeKilled(t *testing.T) {
	bin := selfplayBinary(t)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	const games, n = 2400, 8
	if err := storetest.Generate(context.Background(), whole, storetest.Options{Games: games, Plies: 40}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	var shards []string
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("s%d.db", i))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite", "file:"+p+"?_pragma=foreign_keys(1)")
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{fmt.Sprintf("DELETE FROM games WHERE pair_index %% %d != %d", n, i),
			fmt.Sprintf("UPDATE tournaments SET shard_index = %d, shard_count = %d, status = 'share complete', sprt_state = ''", i, n)} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		shards = append(shards, p)
	}
	out := filepath.Join(dir, "merged.db")
	args := append([]string{"merge", "-o", out}, shards...)
	// How long an uninterrupted merge takes, for the kill moments.
	ref := filepath.Join(dir, "ref.db")
	start := time.Now()
	if code, o := runBinary(t, bin, append([]string{"merge", "-o", ref}, shards...)...); code != exitOK {
		t.Fatalf("merge: exit %d\n%s", code, o)
	}
	took := time.Since(start)
	for k := 1; k <= 6; k++ {
		cmd := exec.Command(bin, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(took * time.Duration(k) / 8)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if _, err := os.Stat(out); err != nil {
			continue // killed before the output was created
		}
		db, err := sql.Open("sqlite", out)
		if err != nil {
			t.Fatal(err)
		}
		var check string
		if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
			t.Fatalf("after a kill: integrity_check %q, %v", check, err)
		}
		rows, err := db.Query(fmt.Sprintf(`SELECT pair_index %% %d, count(*), count(DISTINCT pair_index * 2 + game_index),
			(SELECT count(*) FROM moves WHERE game_id NOT IN (SELECT id FROM games)) FROM games GROUP BY 1`, n))
		if err != nil {
			t.Fatal(err)
		}
		merged := 0
		for rows.Next() {
			var class, c, distinct, orphans int
			rows.Scan(&class, &c, &distinct, &orphans)
			if c != games/n || distinct != c || orphans != 0 {
				t.Errorf("after a kill at %v: shard %d has %d games (%d distinct, %d orphan moves), want 0 or %d",
					took*time.Duration(k)/8, class, c, distinct, orphans, games/n)
			}
			merged++
		}
		rows.Close()
		db.Close()
		t.Logf("killed at %v: %d of %d inputs merged", (took * time.Duration(k) / 8).Round(time.Millisecond), merged, n)
	}
	if code, o := runBinary(t, bin, args...); code != exitOK {
		t.Fatalf("merge after the kills: exit %d\n%s", code, o)
	}
	if n, d := countGames(t, out); n != games || d != games {
		t.Errorf("%d games (%d distinct), want %d", n, d, games)
	}
}
