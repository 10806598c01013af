package uci

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the engine in a process group of its own, so a kill
// reaches the helpers it may have started, and has the kernel kill it with
// SIGKILL when the thread that started it ends: with the runner, killed or
// not (see spawner).
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
