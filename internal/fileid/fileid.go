// Package fileid tells whether two paths name one file, so that an output
// is never one of a command's inputs under another name (a link, ./x for
// x): the same path, or two names of one existing file.
package fileid

import "os"

// Same reports whether paths a and b name one file.
func Same(a, b string) bool {
	if a == b {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
