// Package docs holds selfplay's documents (the guide, the config reference,
// the statistics, the cluster runbook, the papers' tables and our results,
// the architecture), embedded in the binary for `selfplay help TOPIC`.
package docs

import (
	"embed"
	"io/fs"
)

// files are docs/*.md as they were when the binary was built.
//
//go:embed *.md
var files embed.FS

// Files returns the documents: NAME.md at the root of the file system.
func Files() fs.FS { return files }
