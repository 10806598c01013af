//go:build !(linux || darwin)

package store

// freeSpace is not known here.
func freeSpace(string) (uint64, bool) { return 0, false }
