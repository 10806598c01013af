package store

import (
	"context"
	"fmt"
	"time"

	"selfplay/store/record"
)

// SetShard records the share of the schedule a tournament's database
// plays (selfplay run -shard I/N -pairs K): the runner widens -pairs from
// wave to wave, and gives a tournament without games the share of the run
// that resumes it.
func (s *Store) SetShard(ctx context.Context, id int64, sh record.Shard) error {
	if err := sh.Validate(); err != nil {
		return fmt.Errorf("tournament %d: %w", id, err)
	}
	if err := s.checkFiles(); err != nil {
		return fmt.Errorf("updating tournament %d: %w", id, err)
	}
	_, err := s.db.ExecContext(ctx, `UPDATE tournaments SET shard_index = ?, shard_count = ?, shard_pairs = ?, updated_at = ?
		WHERE id = ?`, sh.Index, max(sh.Count, 1), sh.Pairs, formatTime(time.Now()), id)
	if err != nil {
		return fmt.Errorf("updating tournament %d: %w", id, err)
	}
	return nil
}
