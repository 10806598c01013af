//go:build !linux

package store

import "time"

// birthTime is when the file at path was created; here it is not looked
// up (ok false), and a log older than its database is not recognized.
func birthTime(string) (t time.Time, ok bool) { return time.Time{}, false }
