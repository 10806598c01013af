//go:build !unix

package merge

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
