package players

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/local"
	"selfplay/engines/search"
	"selfplay/engines/uci/ucitest"
)

// With fakeEnv set, the test binary is ucitest's fake UCI engine.
const fakeEnv = "SELFPLAY_PLAYERS_TEST_FAKE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" {
		ucitest.Main(os.Args[1:])
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestInProcess(t *testing.T) {
	opts, err := search.ParseVariant("fhr")
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(context.Background(), config.Engine{Name: "f", Preset: "fhr", Options: opts, Hash: 1}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if l, ok := e.(*local.Engine); !ok || l.Name() != "f" || l.Options() != opts {
		t.Fatalf("New = %T %v, want the in-process fhr", e, e.Name())
	}
}

// An external engine runs with its options, its stderr goes to
// logDir/NAME.log, and Close closes both.
func TestExternalLogsStderr(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an engine process")
	}
	t.Setenv(fakeEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "logs")
	e, err := New(context.Background(), config.Engine{Name: "fake", Command: exe, Args: []string{"-mode", "crash", "-option", "Skill Level"},
		UCIOptions: map[string]string{"Skill Level": "3"}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Search(context.Background(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", nil, engines.Limits{Nodes: 10})
	if !errors.Is(err, engines.ErrCrashed) {
		t.Fatalf("Search = %v, want a crash", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(dir, "fake.log"))
	if err != nil || !strings.Contains(string(log), "fake: fatal error: boom") {
		t.Fatalf("log %q, %v", log, err)
	}
	// An option the engine does not have is a setup error.
	if _, err := New(context.Background(), config.Engine{Name: "fake", Command: exe, UCIOptions: map[string]string{"Bogus": "1"}}, ""); err == nil || !strings.Contains(err.Error(), "Bogus") {
		t.Fatalf("unknown option: %v", err)
	}
}
