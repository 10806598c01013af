package main

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		in   string
		want []int
	}{
		{"0", []int{0}},
		{"0-3,5", []int{0, 1, 2, 3, 5}},
		{"7,2", []int{7, 2}},
		{"", nil}, {"a", nil}, {"3-1", nil}, {"1-1", nil}, {"-1", nil}, {"1,1", nil}, {"0-2,2", nil}, {"1,", nil},
	}
	for _, tt := range tests {
		got, err := parseCPUList(tt.in)
		if !slices.Equal(got, tt.want) || (err != nil) != (tt.want == nil) {
			t.Errorf("parseCPUList(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// One CPU per game slot, the first ones of the list; too few is an error,
// as in fastchess.
func TestAffinitySets(t *testing.T) {
	sets, err := affinitySets("4-7", 2)
	if err != nil || len(sets) != 2 || !slices.Equal(sets[0], []int{4}) || !slices.Equal(sets[1], []int{5}) {
		t.Errorf("affinitySets(4-7, 2) = %v, %v; want [[4] [5]]", sets, err)
	}
	if sets, err := affinitySets("", 2); sets != nil || err != nil {
		t.Errorf(`affinitySets("", 2) = %v, %v; want none`, sets, err)
	}
	if _, err := affinitySets("3", 2); err == nil || !strings.Contains(err.Error(), "1 CPUs for 2 games at once") {
		t.Errorf("affinitySets(3, 2): %v; want too few CPUs", err)
	}
	if !affinitySupported {
		return
	}
	all, err := affinitySets("all", 1)
	if err != nil || len(all) != 1 {
		t.Fatalf("affinitySets(all, 1) = %v, %v", all, err)
	}
	cpus, err := usableCPUs()
	if err != nil || len(cpus) == 0 || cpus[0] != all[0][0] {
		t.Errorf("usableCPUs() = %v, %v", cpus, err)
	}
	sorted := slices.Clone(cpus)
	slices.Sort(sorted)
	if len(slices.Compact(sorted)) != len(cpus) {
		t.Errorf("usableCPUs() = %v: a CPU twice", cpus)
	}
}

// fastchess's -use-affinity [CPUS] becomes -affinity (all without a list)
// on Linux (-repeat is not taken for a list), and a list too short for its
// concurrency is a usage error.
func TestFastchessUseAffinity(t *testing.T) {
	if !affinitySupported {
		t.Skip("engines are pinned on Linux only")
	}
	fs := newFlagSet(env{stderr: os.Stderr}, "match", "")
	for in, want := range map[string]string{
		"-use-affinity 0-3,5 -repeat": "-affinity 0-3,5 -openings startpos -concurrency 1 -output fastchess -ratinginterval 10", // fastchess's command: no book, the initial position, one game at a time
		"-use-affinity -repeat":       "-affinity all -openings startpos -concurrency 1 -output fastchess -ratinginterval 10",
		"-use-affinity":               "-affinity all",
	} {
		fc, err := translateFastchess(fs, strings.Fields(in), time.Now())
		if err != nil || strings.Join(fc.args, " ") != want || len(fc.notes) != 0 {
			t.Errorf("%q: %q, notes %q, %v; want %q", in, fc.args, fc.notes, err, want)
		}
	}
	t.Chdir(t.TempDir())
	code, _, stderr := run(t, strings.Fields("match fhr plain -nodes 100 -use-affinity 0 -concurrency 2 -pairs 1")...)
	if code != exitUsage || !strings.Contains(stderr, "1 CPUs for 2 games at once") {
		t.Errorf("-use-affinity 0 -concurrency 2: exit %d, stderr %q; want a usage error", code, stderr)
	}
}
