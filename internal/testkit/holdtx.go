package testkit

import (
	"database/sql"
	"fmt"
	"io"
	"os"
)

// HoldWriteTx is the body of a helper process that holds a write
// transaction open on db: it inserts a tournament named "uncommitted"
// without committing, prints "ready" and waits for its standard input to
// close (the test's signal to end it). It returns the exit status; an
// error is printed as "error: ..." in place of "ready".
func HoldWriteTx(db *sql.DB) int {
	tx, err := db.Begin()
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO tournaments (name, config, config_hash, status, total_games, created_at, updated_at)
		VALUES ('uncommitted', '{}', 'h', 'running', 2, '', '')`); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("ready")
	io.Copy(io.Discard, os.Stdin)
	return 0
}
