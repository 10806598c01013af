package runner

import (
	"context"
	"fmt"
	"io"

	"selfplay/runner/store"
)

// ExportFilter selects the games to export; empty fields select all.
type ExportFilter struct {
	Tournament string
	Engine     string
}

// ExportPGN writes the stored PGN of the selected games, in tournament and
// schedule order, and returns how many it wrote.
func ExportPGN(ctx context.Context, st *store.Store, w io.Writer, f ExportFilter) (int, error) {
	var tids []int64
	if f.Tournament != "" {
		t, err := st.TournamentByName(ctx, f.Tournament)
		if err != nil {
			return 0, err
		}
		tids = []int64{t.ID}
	} else {
		ts, err := st.Tournaments(ctx)
		if err != nil {
			return 0, err
		}
		for _, t := range ts {
			tids = append(tids, t.ID)
		}
	}
	n := 0
	for _, id := range tids {
		games, err := st.Games(ctx, store.GameFilter{TournamentID: id, Engine: f.Engine})
		if err != nil {
			return n, err
		}
		for _, g := range games {
			if _, err := io.WriteString(w, g.PGN); err != nil {
				return n, fmt.Errorf("writing PGN: %w", err)
			}
			n++
		}
	}
	return n, nil
}
