package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Helper is a process the test binary can be instead of running its tests:
// it gets the arguments after its name and returns the exit status.
type Helper func(args []string) int

// markerPrefix starts the first argument of a helper process. A test
// binary is never given such an argument by go test, and the name in the
// command line lets a test find its helper processes (/proc/PID/cmdline).
const markerPrefix = "selfplay-test-helper="

// Marker is the first argument of a helper process named name: a string a
// test can look for in the command lines of its children.
func Marker(name string) string { return markerPrefix + name }

// Main is a test binary's TestMain: when the binary was started as a
// helper (HelperCommand), it runs that helper and exits with its status;
// otherwise it runs the tests, then cleanups, and exits. The helper is
// chosen by the first argument alone, not by an environment variable, so
// that a helper's own children (a selfplay run started as a helper,
// starting fake engines) are not helpers too by inheritance.
func Main(m *testing.M, helpers map[string]Helper, cleanups ...func()) {
	RunHelper(helpers)
	code := m.Run()
	for _, c := range cleanups {
		c()
	}
	os.Exit(code)
}

// RunHelper runs the helper the test binary was started as, and exits with
// its status; it returns at once when the binary was not started as a
// helper. It is for a TestMain with more to do than Main (set-up before
// the tests).
func RunHelper(helpers map[string]Helper) {
	if len(os.Args) > 1 && strings.HasPrefix(os.Args[1], markerPrefix) {
		name := strings.TrimPrefix(os.Args[1], markerPrefix)
		h, ok := helpers[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown test helper %q\n", name)
			os.Exit(2)
		}
		os.Exit(h(os.Args[2:]))
	}
}

// HelperCommand is the command line that runs this test binary as helper
// name with args: the program and its arguments (for a config's engine
// command and args).
func HelperCommand(t testing.TB, name string, args ...string) (string, []string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe, append([]string{Marker(name)}, args...)
}

// Command is an exec.Cmd that runs this test binary as helper name.
func Command(t testing.TB, name string, args ...string) *exec.Cmd {
	t.Helper()
	exe, argv := HelperCommand(t, name, args...)
	return exec.Command(exe, argv...)
}

// EngineTOML is the body of an [engines.X] table whose engine is this test
// binary run as helper name with args (command and args lines).
func EngineTOML(t testing.TB, name string, args ...string) string {
	t.Helper()
	exe, argv := HelperCommand(t, name, args...)
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = strconv.Quote(a)
	}
	return fmt.Sprintf("command = %q\nargs = [%s]", exe, strings.Join(q, ", "))
}

// ExitCode runs cmd and returns its combined output and exit status; a
// command that cannot be run fails the test.
func ExitCode(t testing.TB, cmd *exec.Cmd) (string, int) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", cmd.Path, err)
	}
	return string(out), 0
}
