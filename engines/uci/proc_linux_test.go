package uci

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"selfplay/internal/testkit"
)

// startHelper runs the test binary as a runner-like process that starts an
// engine which ignores the end of its input (runHelper), and returns the
// helper and the engine's pid. The engine is killed at the end of the test
// whatever happens.
func startHelper(t *testing.T, mode string) (*exec.Cmd, int) {
	t.Helper()
	cmd := testkit.Command(t, runnerLike, fakePath, mode)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || pid <= 0 {
		t.Fatalf("helper: %q, %v", line, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	return cmd, pid
}

// An engine that ignores the end of its input dies with a runner killed by
// SIGKILL (the parent-death signal), and not before: not when the thread
// that called Start ends.
func TestEngineDiesWithKilledRunner(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"", "thread-exit"} {
		t.Run("start"+map[string]string{"": "", "thread-exit": " from an exiting thread"}[mode], func(t *testing.T) {
			t.Parallel()
			helper, engine := startHelper(t, mode)
			time.Sleep(300 * time.Millisecond)
			if processGone(t, engine) {
				t.Fatalf("engine %d died while the runner lives", engine)
			}
			if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = helper.Wait()
			if !waitGone(t, engine) {
				t.Fatalf("engine %d survives its runner's SIGKILL", engine)
			}
		})
	}
}
