package main

import (
	"strconv"
	"strings"
	"testing"
)

// The games under results/ replay node for node only while every preset
// searches the trees it searched when they were played. These are the counts
// of `selfplay bench -depth 6` (the built-in benchmark, 16 MiB hash): the
// first twelve as recorded before FALCON's switches existed, the falcon
// presets as they played the 2×2's falcon cells and the gauntlet. A change to
// the board, the evaluation or the search that moves any of them changes
// those games, and docs/papers.md's claim that they replay is then false.
func TestBenchNodeCountsOfPublishedPresets(t *testing.T) {
	want := []struct {
		variant                 string
		nodes, main, quiescence int64
	}{
		{"plain", 1945824, 502564, 1443260},
		{"fhr", 474639, 132936, 341703},
		{"null-r1", 1442098, 203118, 1238980},
		{"null-r2", 832886, 141890, 690996},
		{"null-r3", 807187, 140131, 667056},
		{"null-r4", 762054, 130145, 631909},
		{"adaptive-r2-3", 832886, 141890, 690996},
		{"adaptive-r3-4", 807187, 140131, 667056},
		{"verified-r3", 877482, 172089, 705393},
		{"nmr-r3-4", 864243, 137200, 727043},
		{"nmr-r4", 817441, 127509, 689932},
		{"ye-marsland", 984999, 238629, 746370},
		{"falcon", 844177, 196975, 647202},
		{"falcon-null-r3", 794492, 115130, 679362},
		{"falcon-adaptive-r2-3", 851109, 122685, 728424},
		{"falcon-nmr-r3-4", 839148, 111558, 727590},
		{"falcon-fhr", 316424, 89011, 227413},
	}
	var names []string
	for _, w := range want {
		names = append(names, w.variant)
	}
	code, stdout, stderr := run(t, "bench", "-depth", "6", "-variant", strings.Join(names, ","))
	if code != exitOK {
		t.Fatalf("bench: exit %d, stderr %q", code, stderr)
	}
	// Rows: variant, nodes, vs first, main, quiescence, ...
	got := map[string][3]int64{}
	for _, line := range strings.Split(stdout, "\n")[2:] {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		var v [3]int64
		for i, col := range []int{1, 3, 4} {
			n, err := strconv.ParseInt(f[col], 10, 64)
			if err != nil {
				t.Fatalf("bench row %q: column %d: %v", line, col, err)
			}
			v[i] = n
		}
		got[f[0]] = v
	}
	for _, w := range want {
		g, ok := got[w.variant]
		if !ok {
			t.Errorf("%s: no row in\n%s", w.variant, stdout)
			continue
		}
		if g != [3]int64{w.nodes, w.main, w.quiescence} {
			t.Errorf("%s: nodes/main/quiescence %d/%d/%d, want %d/%d/%d", w.variant, g[0], g[1], g[2], w.nodes, w.main, w.quiescence)
		}
	}
}
