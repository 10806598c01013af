package merge

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"selfplay/store/storetest"
)

// shardFiles writes a synthetic tournament of games (storetest: moves,
// PGN, search figures) split into n shard databases in dir, as n `run
// -shard I/N` would have left them.
func shardFiles(tb testing.TB, dir string, games, n int) []string {
	tb.Helper()
	whole := filepath.Join(dir, "whole.db")
	if err := storetest.Generate(context.Background(), whole, storetest.Options{Games: games}); err != nil {
		tb.Fatal(err)
	}
	b, err := os.ReadFile(whole)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("shard-%02d-of-%02d.db", i, n))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			tb.Fatal(err)
		}
		db, err := sql.Open("sqlite", "file:"+p+"?_pragma=foreign_keys(1)")
		if err != nil {
			tb.Fatal(err)
		}
		for _, q := range []string{
			fmt.Sprintf("DELETE FROM games WHERE pair_index %% %d != %d", n, i),
			fmt.Sprintf("UPDATE tournaments SET shard_index = %d, shard_count = %d, status = 'share complete', sprt_state = ''", i, n),
			"VACUUM",
		} {
			if _, err := db.Exec(q); err != nil {
				tb.Fatal(err)
			}
		}
		db.Close()
		out = append(out, p)
	}
	return out
}

// Merging 10,000 games (4 shards of 2,500, about 100 moves each) into a
// new database; the goal is under 5 s. cpu-s/op is the process's own CPU
// time, which a machine shared with other work does not inflate as much
// as the wall time.
func BenchmarkMerge10k(b *testing.B) {
	dir := b.TempDir()
	inputs := shardFiles(b, dir, 10_000, 4)
	b.ResetTimer()
	start := cpuTime()
	n := 0
	for i := 0; b.Loop(); i++ {
		out := filepath.Join(dir, fmt.Sprintf("merged-%d.db", i))
		if _, err := Run(context.Background(), out, inputs, Options{Progress: io.Discard}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric((cpuTime()-start).Seconds()/float64(n), "cpu-s/op")
}
