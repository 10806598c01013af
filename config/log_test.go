package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrafficLogKey: a tournament's log key names its UCI traffic log,
// the top-level key is the default of the others, relative paths are the
// config's; without either there is none.
func TestTrafficLogKey(t *testing.T) {
	tournaments := `
[[tournament]]
name = "own"
engines = ["a", "b"]
log = "own.log"
[tournament.limits]
nodes = 1000

[[tournament]]
name = "default"
engines = ["a", "b"]
[tournament.limits]
nodes = 1000
`
	f := mustLoad(t, "log = \"logs/all.log\"\n"+engAB+tournaments, nil)
	if got, want := f.Tournaments[0].Log, filepath.Join(f.Dir, "own.log"); got != want {
		t.Errorf("tournament's own log %q, want %q", got, want)
	}
	if got, want := f.Tournaments[1].Log, filepath.Join(f.Dir, "logs", "all.log"); got != want {
		t.Errorf("default log %q, want %q", got, want)
	}
	f = mustLoad(t, engAB+tournaments, nil)
	if got := f.Tournaments[1].Log; got != "" {
		t.Errorf("log %q without a log key", got)
	}
	_, _, err := load(t, "log = \" \"\n"+minimal, nil)
	if err == nil || !strings.Contains(err.Error(), "log: empty path") {
		t.Errorf("empty log path: %v", err)
	}
}
