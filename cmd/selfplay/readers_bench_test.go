package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/store/storetest"
)

// syntheticDB writes a database of games (storetest, without the moves
// table, which neither report nor export reads) in a directory removed
// when b ends.
func syntheticDB(b *testing.B, games int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), fmt.Sprintf("synthetic-%d.db", games))
	if err := storetest.Generate(context.Background(), path, storetest.Options{Games: games, NoMoves: true}); err != nil {
		b.Fatal(err)
	}
	return path
}

// benchmarkCommand runs `selfplay args...` b.N times, output discarded.
func benchmarkCommand(b *testing.B, args ...string) {
	b.Helper()
	var errb strings.Builder
	e := env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &errb}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if code := dispatch(context.Background(), e, args); code != exitOK {
			b.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
	}
}

// benchmarkReport measures `selfplay report` (text, json) on a synthetic
// match under an SPRT of the given number of games.
func benchmarkReport(b *testing.B, games int) {
	db := syntheticDB(b, games)
	for _, format := range []string{"text", "json"} {
		b.Run(format, func(b *testing.B) { benchmarkCommand(b, "report", "-db", db, "-format", format) })
	}
}

// `selfplay report` on 10,000 and on 100,000 games (the goal: under 5 s
// and 200 MB for 100,000; RSS is measured on the binary, see the README).
func BenchmarkReport10k(b *testing.B)  { benchmarkReport(b, 10_000) }
func BenchmarkReport100k(b *testing.B) { benchmarkReport(b, 100_000) }

// `selfplay export` of every game, on 10,000 and 100,000 games.
func BenchmarkExport(b *testing.B) {
	for _, games := range []int{10_000, 100_000} {
		db := syntheticDB(b, games)
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) { benchmarkCommand(b, "export", "-db", db) })
	}
}
