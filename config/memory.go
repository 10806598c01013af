package config

import (
	"fmt"
	"strings"

	"selfplay/internal/sysmem"
)

// RefereeHashMiB is the transposition table of each worker's referee (the
// adjudication search of policy "referee").
const RefereeHashMiB = 16

// CheckHash checks a transposition table size in MiB: 1..MaxHash and no
// more than the machine's physical memory (a larger table cannot be
// allocated, or is swapped to death).
func CheckHash(mib int64) error { return checkHash(mib, sysmem.PhysicalMiB()) }

func checkHash(mib, physical int64) error {
	if mib < 1 || mib > MaxHash {
		return fmt.Errorf("%d MiB is out of range: want 1..%d", mib, MaxHash)
	}
	return sysmem.Fits(mib, physical)
}

// CheckTables checks that the transposition tables of a tournament played
// with concurrency parallel games fit in the machine's physical memory:
// each game slot keeps one instance of every in-process engine it meets
// (all of them, in time) and its referee.
func (t *Tournament) CheckTables(f *File, concurrency int) error {
	return t.checkTables(f, concurrency, sysmem.PhysicalMiB())
}

func (t *Tournament) checkTables(f *File, concurrency int, physical int64) error {
	if physical <= 0 || concurrency < 1 {
		return nil
	}
	var per int64
	var parts []string
	for _, name := range t.Engines {
		if e, ok := f.Engine(name); ok && !e.External() {
			per += int64(e.Hash)
			parts = append(parts, fmt.Sprintf("%s %d", name, e.Hash))
		}
	}
	if t.Adjudication.UsesReferee() {
		per += RefereeHashMiB
		parts = append(parts, fmt.Sprintf("referee %d", RefereeHashMiB))
	}
	// concurrency <= MaxConcurrency and hash <= MaxHash: no overflow.
	if total := int64(concurrency) * per; total > physical {
		return fmt.Errorf("the transposition tables need %d MiB (concurrency %d x (%s) MiB), more than this machine's physical memory (%d MiB): lower concurrency or hash",
			total, concurrency, strings.Join(parts, " + "), physical)
	}
	return nil
}
