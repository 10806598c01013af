package runner

import (
	"context"
	"fmt"
	"io"

	"selfplay/store"
)

// ExportFilter selects the games to export; empty fields select all.
type ExportFilter struct {
	Tournament string
	Engine     string
}

// ExportPGN writes the stored PGN of the selected games, in tournament and
// schedule order, and returns how many it wrote.
func ExportPGN(ctx context.Context, st *store.Store, w io.Writer, f ExportFilter) (int, error) {
	filter := store.GameFilter{Engine: f.Engine}
	if f.Tournament != "" {
		t, err := st.TournamentByName(ctx, f.Tournament)
		if err != nil {
			return 0, err
		}
		filter.TournamentID = t.ID
	}
	games, err := st.Games(ctx, filter)
	if err != nil {
		return 0, err
	}
	for i, g := range games {
		if _, err := io.WriteString(w, g.PGN); err != nil {
			return i, fmt.Errorf("writing PGN: %w", err)
		}
	}
	return len(games), nil
}
