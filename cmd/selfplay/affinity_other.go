//go:build !linux

package main

import "errors"

// affinitySupported: engines cannot be pinned to CPUs here (fastchess's
// -use-affinity is accepted with a note).
const affinitySupported = false

func usableCPUs() ([]int, error) {
	return nil, errors.New("engines are pinned to CPUs on Linux only")
}
