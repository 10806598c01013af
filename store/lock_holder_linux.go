//go:build linux

package store

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// fileLockHolder finds the process that holds the flock of the file fi,
// the name by which it opened the file and its lock files: /proc/locks
// lists each lock with its holder's pid and the file's device and inode,
// and /proc/PID/fd lists the holder's open files. Only the pid is known
// when the holder's descriptors are not readable (another user's
// process); nothing when the system does not tell.
func fileLockHolder(fi os.FileInfo) lockHolder {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return lockHolder{}
	}
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return lockHolder{}
	}
	var sameDevice lockHolder // a holder whose lock names the device and inode, unconfirmed
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 1234 08:02:131074 0 EOF"; a waiter's
		// line has "->" after the number.
		f := strings.Fields(sc.Text())
		if len(f) > 1 && f[1] == "->" {
			continue
		}
		if len(f) < 6 || f[1] != "FLOCK" || f[3] != "WRITE" {
			continue
		}
		dev := strings.Split(f[5], ":")
		if len(dev) != 3 || dev[2] != strconv.FormatUint(st.Ino, 10) {
			continue
		}
		p, err := strconv.Atoi(f[4])
		if err != nil || p <= 0 {
			continue
		}
		// The device in /proc/locks is the file system's, which differs
		// from stat's on overlay file systems: the holder is confirmed by
		// its open files where they can be read.
		if h := openFiles(p, fi); h.name != "" {
			return h
		}
		major, minor := uint64(st.Dev>>8)&0xfff|uint64(st.Dev>>32)&^0xfff, uint64(st.Dev)&0xff|uint64(st.Dev>>12)&^0xff
		if hexIs(dev[0], major) && hexIs(dev[1], minor) {
			sameDevice = lockHolder{pid: p}
		}
	}
	return sameDevice
}

// openFiles returns what process pid has open: the name by which it
// opened the file fi ("" if it has no descriptor of it that this process
// can see) and its lock files.
func openFiles(pid int, fi os.FileInfo) lockHolder {
	h := lockHolder{pid: pid}
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return h
	}
	for _, e := range entries {
		fd := filepath.Join(dir, e.Name())
		name, err := os.Readlink(fd)
		if err != nil || !filepath.IsAbs(name) {
			continue
		}
		if strings.HasSuffix(name, lockSuffix) {
			h.lockFiles = append(h.lockFiles, fd) // opening it opens the file, whatever its name now
		}
		if ofi, err := os.Stat(fd); err == nil && os.SameFile(ofi, fi) && h.name == "" {
			h.name = name
		}
	}
	return h
}

// hexIs reports whether s is n in hexadecimal.
func hexIs(s string, n uint64) bool {
	v, err := strconv.ParseUint(s, 16, 64)
	return err == nil && v == n
}
