//go:build !unix

package uci

// processGone cannot be checked portably here; the kill itself is tested on unix.
func processGone(pid int) bool { return pid > 0 }
