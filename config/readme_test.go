package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"selfplay/config"
	"selfplay/internal/readmetest"
)

// Every TOML block of the README and docs/ is a complete config file that
// loads as shown: no fragments that only work pasted into something else.
func TestREADMEConfigsLoad(t *testing.T) {
	docs, err := readmetest.DocFiles("..")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	var lines []string // FILE:LINE
	for _, doc := range docs {
		text, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		fences, err := readmetest.Fences(string(text))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		for _, f := range fences {
			if f.Lang == "toml" {
				blocks, lines = append(blocks, f.Text), append(lines, fmt.Sprintf("%s:%d", doc, f.Line))
			}
		}
	}
	if len(blocks) < 2 {
		t.Fatalf("found %d TOML blocks in the README and docs/; the extraction is broken", len(blocks))
	}
	for i, b := range blocks {
		dir := t.TempDir()
		path := filepath.Join(dir, "tournaments.toml")
		if err := os.WriteFile(path, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := config.Load(path)
		if err != nil {
			t.Errorf("%s: the TOML block does not load as a config file:\n%v", lines[i], err)
			continue
		}
		if len(f.Tournaments) == 0 {
			t.Errorf("%s: the TOML block has no tournament", lines[i])
		}
	}
}
