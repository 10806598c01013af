//go:build !unix

package uci

import (
	"os"
	"os/exec"
)

// setProcAttr does nothing where process groups are not available.
func setProcAttr(*exec.Cmd) {}

// killTree kills the engine process (its children are not reached here).
func killTree(p *os.Process) { _ = p.Kill() }

// awaitExit returns at once (see the unix version).
func awaitExit(*os.Process) {}
