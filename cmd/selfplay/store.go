package main

import (
	"context"
	"fmt"
	"os"

	"selfplay/store"
)

// openExisting opens a database that must already exist (export, report):
// a mistyped path is an error, not a new empty database.
func openExisting(ctx context.Context, path string) (*store.Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	return store.Open(ctx, path)
}
