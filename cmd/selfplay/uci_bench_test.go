package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// matchConfig is the match of issue 12: fhr against plain, 50 games (the 25
// fhr25 openings with both colours) at 20,000 nodes per move, two games at
// a time; engines in process, or (uci != "") as two `uci -variant`
// processes of that binary.
func matchConfig(uci string) string {
	engines := "[engines.fhr]\npreset = \"fhr\"\n[engines.plain]\npreset = \"plain\"\n"
	if uci != "" {
		engines = fmt.Sprintf("[engines.fhr]\ncommand = %q\nargs = [\"uci\", \"-variant\", \"fhr\"]\n"+
			"[engines.plain]\ncommand = %[1]q\nargs = [\"uci\", \"-variant\", \"plain\"]\n", uci)
	}
	return engines + `[[tournament]]
name = "fhr-vs-plain"
engines = ["fhr", "plain"]
concurrency = 2
[tournament.openings]
set = "fhr25"
[tournament.limits]
nodes = 20000
`
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
	play := func(name, config string) time.Duration {
		path := filepath.Join(dir, name+".toml")
		db := filepath.Join(dir, name+".db")
		if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
			b.Fatal(err)
		}
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
