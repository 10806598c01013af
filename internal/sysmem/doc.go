// Package sysmem tells the machine's physical memory, the bound of a
// transposition table that can be allocated without swapping or dying (a
// config's hash, a UCI client's setoption Hash).
package sysmem

import "fmt"

// Fits checks a table of mib MiB against physical MiB of memory (0:
// unknown, no bound): the one error for a table past the machine.
func Fits(mib, physical int64) error {
	if physical > 0 && mib > physical {
		return fmt.Errorf("%d MiB is more than this machine's physical memory (%d MiB)", mib, physical)
	}
	return nil
}
