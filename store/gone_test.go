package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/store/record"
)

// A database deleted or replaced under a writer is noticed before the next
// write, which fails with ErrDatabaseGone and writes nothing: SQLite
// itself would go on writing the unlinked file without an error.
func TestWriteToDeletedDatabaseFails(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		remove func(dir, path string) error
		want   string
	}{
		{"database and its files", func(_, path string) error {
			for _, f := range []string{path, path + "-wal", path + "-shm"} {
				if err := os.Remove(f); err != nil {
					return err
				}
			}
			return nil
		}, "database"},
		{"the folder", func(dir, _ string) error { return os.RemoveAll(dir) }, "database"},
		{"the write-ahead log only", func(_, path string) error { return os.Remove(path + "-wal") }, "write-ahead log"},
		{"replaced by a copy", func(_, path string) error {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if err := os.WriteFile(path+".new", b, 0o644); err != nil {
				return err
			}
			return os.Rename(path+".new", path)
		}, "replaced"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "results")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "x.db")
			s, err := OpenWriter(ctx, path, "run")
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			id, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h", TotalGames: 2})
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.remove(dir, path); err != nil {
				t.Fatal(err)
			}
			g := &record.Game{TournamentID: id, White: "a", Black: "b", Result: "1-0"}
			err = s.SaveGame(ctx, g)
			if !errors.Is(err, ErrDatabaseGone) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("SaveGame after the deletion: %v", err)
			}
			if g.ID != 0 {
				t.Error("the game was written")
			}
			for name, err := range map[string]error{
				"UpdateStatus":     s.UpdateStatus(ctx, id, record.StatusComplete, "", 0),
				"DeleteTournament": s.DeleteTournament(ctx, id),
				"SaveSuiteRun":     s.SaveSuiteRun(ctx, &record.SuiteRun{Suite: "x"}),
			} {
				if !errors.Is(err, ErrDatabaseGone) {
					t.Errorf("%s after the deletion: %v", name, err)
				}
			}
			_, err = s.CreateTournament(ctx, record.Tournament{Name: "u", Config: "{}", ConfigHash: "h"})
			if !errors.Is(err, ErrDatabaseGone) {
				t.Errorf("CreateTournament after the deletion: %v", err)
			}
		})
	}
}
