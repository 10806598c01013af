package uci

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// allowedCPUs reads a task's Cpus_allowed_list from its /proc status file
// (ranges such as 0-3,5).
func allowedCPUs(t *testing.T, status string) []int {
	t.Helper()
	b, err := os.ReadFile(status)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		v, ok := strings.CutPrefix(l, "Cpus_allowed_list:")
		if !ok {
			continue
		}
		var cpus []int
		for _, part := range strings.Split(strings.TrimSpace(v), ",") {
			lo, hi, isRange := strings.Cut(part, "-")
			a, _ := strconv.Atoi(lo)
			b := a
			if isRange {
				b, _ = strconv.Atoi(hi)
			}
			for c := a; c <= b; c++ {
				cpus = append(cpus, c)
			}
		}
		return cpus
	}
	t.Fatalf("%s: no Cpus_allowed_list", status)
	return nil
}

// An engine started with Config.CPUs may run on those CPUs only, every
// thread of it, and so may the process a restart starts (fastchess's
// -use-affinity).
func TestEngineCPUAffinity(t *testing.T) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	var usable []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			usable = append(usable, c)
		}
	}
	cases := [][]int{{usable[0]}, {usable[len(usable)-1]}, usable}
	for _, cpus := range cases {
		t.Run(fmt.Sprint(cpus), func(t *testing.T) {
			cfg := fakeConfig()
			cfg.CPUs = cpus
			e := startFake(t, cfg)
			check := func(when string) {
				tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(e.pid()), "task", "*", "status"))
				if err != nil || len(tasks) == 0 {
					t.Fatalf("%s: no tasks of the engine (%v)", when, err)
				}
				for _, st := range tasks {
					if got := allowedCPUs(t, st); !slices.Equal(got, cpus) {
						t.Errorf("%s: %s allows CPUs %v, want %v", when, st, got, cpus)
					}
				}
			}
			check("after Start")
			old := e.pid()
			e.mu.Lock()
			p := e.p
			e.mu.Unlock()
			e.abandon(p) // as after a crash: the next call restarts it
			if err := e.NewGame(context.Background()); err != nil {
				t.Fatal(err)
			}
			if e.pid() == old || e.pid() == 0 {
				t.Fatalf("no restart: pid %d, was %d", e.pid(), old)
			}
			check("after a restart")
		})
	}
	// This process's own threads keep theirs.
	if got := allowedCPUs(t, "/proc/self/status"); !slices.Equal(got, usable) {
		t.Errorf("the runner's CPUs became %v, want %v", got, usable)
	}
}

// A CPU the machine has not is an error of Start.
func TestEngineCPUAffinityBadCPU(t *testing.T) {
	cfg := fakeConfig()
	cfg.CPUs = []int{1 << 20}
	if e, err := Start(context.Background(), cfg); err == nil {
		e.Close()
		t.Fatal("Start with CPU 1<<20 succeeded")
	}
}
