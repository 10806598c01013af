//go:build unix && !linux

package uci

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcAttr puts the engine in a process group of its own, so a kill
// reaches the helpers it may have started. (No parent-death signal here: an
// engine that ignores the end of its input outlives a runner killed with
// SIGKILL.)
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// awaitExit returns at once: the process is watched through cmd.Wait,
// which reaps it (its group is killed after that, as kill does).
func awaitExit(*os.Process) {}
