package main

import (
	"strconv"
	"strings"
)

// affinitySets is what -affinity asks for (fastchess's -use-affinity): one
// CPU per game slot, the first concurrency CPUs of the list, or of the
// CPUs this process may use ("all", one per physical core before their
// hyperthread siblings, as fastchess's affinity_manager.hpp:96-118 orders
// them); nil for "". More slots than CPUs is an error, as in fastchess
// (affinity_manager.hpp:74, "No cores available").
func affinitySets(spec string, concurrency int) ([][]int, error) {
	if spec == "" {
		return nil, nil
	}
	if !affinitySupported {
		return nil, usageErrorf("-affinity %s: engines are pinned to CPUs on Linux only", spec)
	}
	var cpus []int
	var err error
	if spec == "all" {
		cpus, err = usableCPUs()
	} else {
		cpus, err = parseCPUList(spec)
	}
	if err != nil {
		return nil, usageErrorf("-affinity %s: %v", spec, err)
	}
	if len(cpus) < concurrency {
		return nil, usageErrorf("-affinity %s: %d CPUs for %d games at once (one CPU per game slot)", spec, len(cpus), concurrency)
	}
	sets := make([][]int, concurrency)
	for i := range sets {
		sets[i] = []int{cpus[i]}
	}
	return sets, nil
}

// parseCPUList parses fastchess's CPU list (cli.cpp:46 parseIntList):
// numbers and increasing ranges, comma-separated, such as 0-3,5.
func parseCPUList(s string) ([]int, error) {
	var cpus []int
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, errBadCPUList(s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b <= a {
				return nil, errBadCPUList(s)
			}
		}
		for c := a; c <= b; c++ {
			if seen[c] {
				return nil, errBadCPUList(s)
			}
			seen[c] = true
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

type errBadCPUList string

func (e errBadCPUList) Error() string {
	return "bad CPU list " + strconv.Quote(string(e)) + " (numbers and ranges such as 0-3,5, each CPU once)"
}
