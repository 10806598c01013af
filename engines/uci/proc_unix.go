//go:build unix

package uci

import (
	"os"
	"syscall"
)

// killTree kills the engine's process group, then the process itself.
func killTree(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
