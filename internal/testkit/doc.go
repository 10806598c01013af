// Package testkit is the scaffolding the tests of several packages share:
// the re-exec harness (the test binary run again as a helper process: a
// fake engine, a second writer, the selfplay command), a builder for the
// TOML of tournament fixtures, and small helpers (a buffer safe for two
// goroutines, the parent of a process, read-only folders, a held write
// transaction).
//
// It is imported by _test.go files only.
package testkit
