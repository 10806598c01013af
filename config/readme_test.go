package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/config"
)

// tomlBlocks returns the ```toml blocks of a Markdown text with the line
// each starts on.
func tomlBlocks(text string) (blocks []string, lines []int) {
	var cur *strings.Builder
	start := 0
	for i, line := range strings.Split(text, "\n") {
		switch {
		case cur == nil && strings.TrimSpace(line) == "```toml":
			cur, start = &strings.Builder{}, i+2
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks, lines = append(blocks, cur.String()), append(lines, start)
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	return blocks, lines
}

// Every TOML block of the README is a complete config file that loads as
// shown: no fragments that only work pasted into something else.
func TestREADMEConfigsLoad(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks, lines := tomlBlocks(string(readme))
	if len(blocks) < 2 {
		t.Fatalf("found %d TOML blocks in README.md; the extraction is broken", len(blocks))
	}
	for i, b := range blocks {
		dir := t.TempDir()
		path := filepath.Join(dir, "tournaments.toml")
		if err := os.WriteFile(path, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := config.Load(path)
		if err != nil {
			t.Errorf("README.md line %d: the TOML block does not load as a config file:\n%v", lines[i], err)
			continue
		}
		if len(f.Tournaments) == 0 {
			t.Errorf("README.md line %d: the TOML block has no tournament", lines[i])
		}
	}
}
