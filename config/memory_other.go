//go:build !linux

package config

// PhysicalMemoryMiB is the machine's physical memory in MiB: 0 (unknown)
// where it is not looked up, so only the fixed bounds apply.
func PhysicalMemoryMiB() int64 { return 0 }
