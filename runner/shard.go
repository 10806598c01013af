package runner

import (
	"fmt"

	"selfplay/store/record"
)

// ShardMismatchError refuses to run a share of a tournament into a
// database that holds another share of it: two shards in one file
// (overlapping shard numbers), a number of shards that changed between
// waves, a shard run on a single machine's database, or the reverse.
type ShardMismatchError struct {
	Tournament string
	Stored     record.Shard // what the database holds
	Games      int          // games stored with it
	Wanted     record.Shard // what this run plays
}

func (e *ShardMismatchError) Error() string {
	held := fmt.Sprintf("tournament %q", e.Tournament)
	if e.Stored.Sharded() {
		held = fmt.Sprintf("shard %d of %d of tournament %q", e.Stored.Index, e.Stored.Count, e.Tournament)
	}
	held = fmt.Sprintf("the database holds %s (%d games stored)", held, e.Games)
	switch {
	case e.Stored.Sharded() && e.Wanted.Sharded() && e.Stored.Count == e.Wanted.Count:
		return fmt.Sprintf("%s; this run is shard %d of %d: every shard needs a database of its own", held,
			e.Wanted.Index, e.Wanted.Count)
	case e.Stored.Sharded() && e.Wanted.Sharded():
		return fmt.Sprintf("%s; this run is shard %d of %d: the number of shards changed (was %d, now %d). "+
			"A tournament's pairs are split by index modulo the number of shards, so every wave must use the same "+
			"number; a new split needs new databases", held, e.Wanted.Index, e.Wanted.Count, e.Stored.Count, e.Wanted.Count)
	case e.Stored.Sharded():
		return fmt.Sprintf("%s; this run is not a shard: run it with -shard %d/%d, or merge the shards "+
			"(selfplay merge -o all.db SHARDS...) and run all.db to play the rest on one machine", held,
			e.Stored.Index, e.Stored.Count)
	}
	return fmt.Sprintf("%s, played as one; this run is shard %d of %d: a shard needs a database of its own",
		held, e.Wanted.Index, e.Wanted.Count)
}

// checkShard decides whether a run of share want may continue the stored
// tournament row with games stored games: the same shard (Index and
// Count), with any pairs limit, or any share while no game is stored.
func checkShard(row record.Tournament, games int, want record.Shard) error {
	have := row.Shard
	if games == 0 || (have.Sharded() == want.Sharded() && (!have.Sharded() ||
		have.Index == want.Index && have.Count == want.Count)) {
		return nil
	}
	return &ShardMismatchError{Tournament: row.Name, Stored: have, Games: games, Wanted: want}
}

// shareGames calls fn with the index in the schedule of every game of the
// share, in schedule order, until fn returns false: the games of pairs
// Index, Index+Count, ..., at most Pairs of them.
func shareGames(sh record.Shard, totalGames int, fn func(i int) bool) {
	n := max(sh.Count, 1)
	for k := 0; k < sh.PairsOf(totalGames/2); k++ {
		p := sh.Index + k*n
		if !fn(2*p) || !fn(2*p+1) {
			return
		}
	}
}

// lastGame is the number (from 1) of the share's last game in the schedule
// of totalGames games: its "Started game N of M" says M. Without shards it
// is the number of games the run plays; 0 when the share is empty.
func lastGame(sh record.Shard, totalGames int) int {
	k := sh.PairsOf(totalGames / 2)
	if k == 0 {
		return 0
	}
	return 2 * (sh.Index + (k-1)*max(sh.Count, 1) + 1)
}
