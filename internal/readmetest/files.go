package readmetest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DocFiles returns the repository's documents, relative to root and with
// slashes: README.md first, then every Markdown file under docs/ (at any
// depth) in name order. The README test runs their command blocks in that
// order, so a new file in docs/ is run without being listed anywhere.
func DocFiles(root string) ([]string, error) {
	files := []string{"README.md"}
	if _, err := os.Stat(filepath.Join(root, "README.md")); err != nil {
		return nil, err
	}
	var docs []string
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".md") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		docs = append(docs, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing docs/: %w", err)
	}
	slices.Sort(docs)
	return append(files, docs...), nil
}
