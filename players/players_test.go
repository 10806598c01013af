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
	"selfplay/internal/testkit"
)

// The test binary re-run as helper fakeEngine is ucitest's fake UCI engine.
const fakeEngine = "fake-engine"

func TestMain(m *testing.M) {
	testkit.Main(m, map[string]testkit.Helper{fakeEngine: func(args []string) int { ucitest.Main(args); return 0 }})
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
	exe, fake := testkit.HelperCommand(t, fakeEngine)
	dir := filepath.Join(t.TempDir(), "logs")
	e, err := New(context.Background(), config.Engine{Name: "fake", Command: exe, Args: append(fake, "-mode", "crash", "-option", "Skill Level"),
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
	if _, err := New(context.Background(), config.Engine{Name: "fake", Command: exe, Args: fake, UCIOptions: map[string]string{"Bogus": "1"}}, ""); err == nil || !strings.Contains(err.Error(), "Bogus") {
		t.Fatalf("unknown option: %v", err)
	}
}

func TestLogFileName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"stockfish", "stockfish.log"},
		{"fhr-r3_x.2", "fhr-r3_x.2.log"},
		{"Stockfish 16", "!stockfish%2016.log"},
		{"../../x/evil", "%2E.%2F..%2Fx%2Fevil.log"},
		{".", "%2E.log"},
		{"..", "%2E..log"},
		{"a/b", "a%2Fb.log"},
		{`a\b`, "a%5Cb.log"},
		{"100%", "100%25.log"},
		{"wow!", "wow%21.log"},
		{"é", "%C3%A9.log"},
	}
	for _, tt := range tests {
		if got := logFileName(tt.name); got != tt.want {
			t.Errorf("logFileName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Every name maps to one plain file name, and two names never to the same
// one, even when the file system ignores case.
func TestLogFileNameSafeAndInjective(t *testing.T) {
	names := []string{"a", "A", "!a", "%41", "%2F", "/", "a.", ".a", "a..", "a%2Fb", "a/b", "A/B",
		"x", "X", "xX", "Xx", "!x", "!X", "%", "%25", "~", strings.Repeat("a", 300), strings.Repeat("a", 301),
		strings.Repeat("/", 300), strings.Repeat("é", 150), strings.Repeat("A", 150)}
	// Every two-byte name over a small alphabet with the troublesome bytes.
	alphabet := "aAzZ09.-_!%/\\ ~\x00\xff"
	for i := 0; i < len(alphabet); i++ {
		names = append(names, alphabet[i:i+1])
		for j := 0; j < len(alphabet); j++ {
			names = append(names, alphabet[i:i+1]+alphabet[j:j+1])
		}
	}
	seen := map[string]string{}
	for _, n := range names {
		f := logFileName(n)
		if f != filepath.Base(f) || strings.ContainsAny(f, "/\\\x00") || strings.HasPrefix(f, ".") || len(f) > 255 {
			t.Errorf("logFileName(%q) = %q is not a plain file name", n, f)
		}
		folded := strings.ToLower(f)
		if prev, dup := seen[folded]; dup && prev != n {
			t.Errorf("%q and %q share the log file %q", prev, n, f)
		}
		seen[folded] = n
	}
}

// An external engine's log stays inside the log directory whatever its
// name, and a name with a slash starts like any other.
func TestExternalLogNameFromHostileName(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an engine process")
	}
	exe, fake := testkit.HelperCommand(t, fakeEngine)
	root := t.TempDir()
	dir := filepath.Join(root, "a", "b", "engine-logs")
	for _, name := range []string{"../../x/evil", "team/engine", "../../../y/evil"} {
		e, err := New(context.Background(), config.Engine{Name: name, Command: exe, Args: append(fake, "-mode", "crash")}, dir)
		if err != nil {
			t.Fatalf("engine %q: %v", name, err)
		}
		if e.Name() != name {
			t.Errorf("engine %q is called %q", name, e.Name())
		}
		e.Search(context.Background(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", nil, engines.Limits{Nodes: 10})
		e.Close()
		if b, err := os.ReadFile(filepath.Join(dir, logFileName(name))); err != nil || !strings.Contains(string(b), "boom") {
			t.Errorf("engine %q: log %q, %v", name, b, err)
		}
	}
	// Nothing was written outside the log directory.
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Dir(path) != dir {
			t.Errorf("%s written outside %s", path, dir)
		}
		return nil
	})
}

// An engine that cannot be started leaves no empty log (nor an empty log
// folder) that this call created; a log that existed, or that holds what
// the engine said, stays.
func TestStartFailureLeavesNoEmptyLog(t *testing.T) {
	ctx := context.Background()
	missing := config.Engine{Name: "x", Command: filepath.Join(t.TempDir(), "no-such-engine")}
	dir := filepath.Join(t.TempDir(), "engine-logs")
	if _, err := New(ctx, missing, dir); err == nil {
		t.Fatal("a missing command started")
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("log folder left behind: %v", err)
	}

	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(dir, "y.log")
	if err := os.WriteFile(kept, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(ctx, missing, dir); err == nil {
		t.Fatal("a missing command started")
	}
	if _, err := New(ctx, config.Engine{Name: "y", Command: missing.Command}, dir); err == nil {
		t.Fatal("a missing command started")
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || entries[0].Name() != "y.log" {
		t.Errorf("log folder holds %v (%v), want only the earlier y.log", entries, err)
	}
}
