//go:build linux || darwin

package store

import "syscall"

// freeSpace is the space left to this user on the file system of dir, in
// bytes; ok false when it is not known.
func freeSpace(dir string) (free uint64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
