package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"selfplay/internal/testkit"
)

// matchConfig is the match of issue 12: fhr against plain, 50 games (the 25
// fhr25 openings with both colours) at 20,000 nodes per move, two games at
// a time; engines in process, or (uci != "") as two `uci -variant`
// processes of that binary.
func matchConfig(uci string) testkit.Config {
	engines := []testkit.Engine{{Name: "fhr", Preset: "fhr"}, {Name: "plain", Preset: "plain"}}
	if uci != "" {
		for i, e := range engines {
			engines[i] = testkit.Engine{Name: e.Name, Command: uci, Args: []string{"uci", "-variant", e.Preset}}
		}
	}
	return testkit.Config{
		Engines: engines,
		Tournaments: []testkit.Tournament{{
			Name: "fhr-vs-plain", Engines: []string{"fhr", "plain"}, Concurrency: 2,
			Openings: testkit.Table{"set": "fhr25"},
			Limits:   testkit.Table{"nodes": 20000},
		}},
	}
}

// BenchmarkUCIMatchCPU plays that match both ways in each iteration, in
// turn (in process, then through UCI), and reports the CPU time of each:
// user plus system time of `selfplay run` and its engine processes, as
// /usr/bin/time counts it. The games are the same both ways (the tests
// check it); the ratio is the cost of playing through the protocol.
//
//	go test ./cmd/selfplay -run '^$' -bench UCIMatchCPU -benchtime 1x -count 6
func BenchmarkUCIMatchCPU(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "selfplay")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	play := func(name string, config testkit.Config) time.Duration {
		path := config.Write(b, dir, name+".toml")
		db := filepath.Join(dir, name+".db")
		for _, f := range []string{db, db + "-wal", db + "-shm"} {
			os.Remove(f)
		}
		cmd := exec.Command(bin, "run", "-config", path, "-db", db)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", name, err, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	var inProcess, viaUCI time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		inProcess += play("inprocess", matchConfig(""))
		viaUCI += play("uci", matchConfig(bin))
	}
	b.ReportMetric(inProcess.Seconds()/float64(b.N), "inprocess-cpu-s/op")
	b.ReportMetric(viaUCI.Seconds()/float64(b.N), "uci-cpu-s/op")
	b.ReportMetric(viaUCI.Seconds()/inProcess.Seconds(), "uci/inprocess")
}
