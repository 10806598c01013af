package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// affinitySupported: engines can be pinned to CPUs here.
const affinitySupported = true

// usableCPUs are the CPUs this process may run on, the first hyperthread
// of each physical core first, then the second ones, and so on.
func usableCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("the CPUs this process may use: %w", err)
	}
	var groups [][]int // groups[k]: the k-th sibling of each core
	for c := 0; c < len(set)*64; c++ {
		if !set.IsSet(c) {
			continue
		}
		k := siblingIndex(c)
		for len(groups) <= k {
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], c)
	}
	var cpus []int
	for _, g := range groups {
		cpus = append(cpus, g...)
	}
	return cpus, nil
}

// siblingIndex is cpu's place among the hyperthreads of its core (0 when
// the kernel does not say).
func siblingIndex(cpu int) int {
	b, err := os.ReadFile(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu))
	if err != nil {
		return 0
	}
	siblings, err := parseCPUList(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	for i, s := range siblings {
		if s == cpu {
			return i
		}
	}
	return 0
}
