//go:build unix

package uci

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcAttr puts the engine in a process group of its own, so a kill
// reaches the helpers it may have started.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killTree kills the engine's process group, then the process itself.
func killTree(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
