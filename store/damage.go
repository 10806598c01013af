package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrDamaged is wrapped by the errors of a database that SQLite finds
// damaged: a failed quick_check (CheckIntegrity, OpenWriter). A read that
// meets a damaged page fails with SQLite's own error; IsDamaged tells both.
var ErrDamaged = errors.New("damaged")

// IsDamaged reports whether err comes from a damaged database: ErrDamaged,
// or SQLite's "database disk image is malformed" (SQLITE_CORRUPT) or "file
// is not a database" (SQLITE_NOTADB) met while reading.
func IsDamaged(err error) bool {
	if errors.Is(err, ErrDamaged) {
		return true
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

// Recovery says how to get back what a damaged database at path holds.
// (The Debian 12 sqlite3 (3.40.1) lacks the page reader that .recover
// needs; `.dump` then gives what it can read.)
func Recovery(path string) string {
	return fmt.Sprintf("recover what it holds into a new database with `sqlite3 %s .recover | sqlite3 recovered.db`", path)
}

// quickCheck runs SQLite's quick_check over the whole file and returns an
// error wrapping ErrDamaged that quotes its first problems.
func quickCheck(ctx context.Context, q queryer) error {
	rows, err := q.QueryContext(ctx, "PRAGMA quick_check(5)")
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		// A row may hold several lines, under a heading of the schema.
		for _, line := range strings.Split(s, "\n") {
			if line != "ok" && line != "" && !strings.HasPrefix(line, "*** in database ") {
				problems = append(problems, line)
			}
		}
	}
	// SQLite may stop at a page it cannot read after the problems it listed.
	if err := rows.Err(); err != nil && (len(problems) == 0 || !IsDamaged(err)) {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w (SQLite quick_check: %s)", ErrDamaged, joinLimited(problems, 3))
	}
	return nil
}

// CheckIntegrity runs SQLite's quick_check over the whole file: a
// truncated or damaged database fails here, before a merge writes
// anything, rather than halfway through copying it.
func (r *Reader) CheckIntegrity(ctx context.Context) error {
	if err := quickCheck(ctx, r.q); err != nil {
		if errors.Is(err, ErrDamaged) {
			return err
		}
		return sqliteError(r.path, err)
	}
	return nil
}

func joinLimited(s []string, n int) string {
	out := ""
	for i, x := range s {
		if i == n {
			return out + fmt.Sprintf("; and %d more", len(s)-n)
		}
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}
