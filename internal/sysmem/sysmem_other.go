//go:build !linux

package sysmem

// PhysicalMiB is the machine's physical memory in MiB: 0 (unknown)
// where it is not looked up, so only the fixed bounds apply.
func PhysicalMiB() int64 { return 0 }
