package uci

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// setProcAttr puts the engine in a process group of its own, so a kill
// reaches the helpers it may have started, and has the kernel kill it with
// SIGKILL when the thread that started it ends: with the runner, killed or
// not (see spawner).
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// awaitExit blocks until the process has exited, without reaping it: its
// pid stays reserved, so a kill of its process group cannot reach a new
// process that reused the number.
func awaitExit(p *os.Process) {
	var info unix.Siginfo
	for {
		if err := unix.Waitid(unix.P_PID, p.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != unix.EINTR {
			return
		}
	}
}
