//go:build linux

package store

import (
	"time"

	"golang.org/x/sys/unix"
)

// birthTime is when the file at path was created, where the file system
// records it (statx's btime: ext4, XFS, Btrfs, ...); ok is false where it
// does not or the file cannot be examined.
func birthTime(path string) (t time.Time, ok bool) {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_BTIME, &st); err != nil || st.Mask&unix.STATX_BTIME == 0 {
		return time.Time{}, false
	}
	return time.Unix(st.Btime.Sec, int64(st.Btime.Nsec)), true
}
