//go:build unix

package ucitest

import (
	"os/exec"
	"syscall"
)

// newSession makes c start in a session (and process group) of its own,
// out of reach of a kill of its parent's group.
func newSession(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
