package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/internal/testkit"
)

// An engine that cannot be started fails the run before its first game
// (exit 2), not called a crash, and leaves nothing the run created: no
// empty database, no empty engine log, live game file or traffic log. A
// database that existed stays as it was.
func TestEngineSetupFailureLeavesNothing(t *testing.T) {
	config := testkit.Config{
		Database: "games.db",
		Engines:  []testkit.Engine{{Name: "a", Preset: "plain", Hash: 1}, {Name: "x", Command: "/nonexistent/engine"}},
		Tournaments: []testkit.Tournament{{
			Name: "t", Engines: []string{"a", "x"},
			Openings: testkit.Table{"set": "fhr25"},
			Limits:   testkit.Table{"nodes": 200},
			Body:     "pgn_out = \"live.pgn\"\nepd_out = \"live.epd\"\nlog = \"uci.log\"\n",
		}},
	}
	dir := t.TempDir()
	cfg := config.Write(t, dir, "t.toml")
	code, _, stderr := run(t, "run", "-config", cfg)
	if code != exitUsage || !strings.Contains(stderr, `engine "x": start: cannot start /nonexistent/engine`) || strings.Contains(stderr, "crash") {
		t.Fatalf("exit %d, stderr %q; want %d saying the engine's command cannot start", code, stderr, exitUsage)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the folder holds %v, want only t.toml", names)
	}

	// Into an existing database: it stays, byte for byte.
	existing := filepath.Join(dir, "existing.db")
	data, err := os.ReadFile(storedTiny(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(existing, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "run", "-config", cfg, "-db", existing); code != exitUsage {
		t.Fatalf("into an existing database: exit %d, stderr %q", code, stderr)
	}
	if after, err := os.ReadFile(existing); err != nil || !bytes.Equal(after, data) {
		t.Errorf("the existing database changed (%v)", err)
	}
}
