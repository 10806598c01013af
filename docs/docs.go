// Package docs holds selfplay's documents (the guide, the config reference,
// the statistics, the cluster runbook, the papers' tables and our results,
// the architecture), embedded in the binary for `selfplay help TOPIC`.
package docs

import (
	"embed"
	"io/fs"
	"strings"
	"unicode"
)

// files are docs/*.md as they were when the binary was built.
//
//go:embed *.md
var files embed.FS

// Files returns the documents: NAME.md at the root of the file system.
func Files() fs.FS { return files }

// Anchor is the anchor GitHub gives a heading, which the documents' links
// use: its text lower-cased, every character but letters, digits, spaces,
// hyphens and underscores dropped (inline-code and emphasis marks too),
// spaces made hyphens.
func Anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
