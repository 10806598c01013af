package main

import (
	"compress/gzip"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"selfplay/internal/golden"
	"selfplay/internal/testkit"
)

// The end-to-end golden test: everything selfplay writes, byte for byte,
// for a played set of tournaments and for the committed results. A
// refactor that changes no behaviour leaves testdata/e2e/ as it is; one
// that changes a byte of a report, the PGN, the JSON, the database or the
// terminal output fails here (go test -run E2E -update rewrites the files
// when a change is meant).

// e2eBook: the openings of the played tournaments (the last a WAC position,
// for mates).
const e2eBook = `rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "e4";
r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - id "italian";
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - id "wac.001";
`

// e2eConfig: three in-process engines under node or depth limits, one at
// a time, so that the games do not depend on the machine: a round robin
// (referee, resign and draw adjudication, node jitter), a gauntlet (depth
// limit, draw policy, random order) and a match stopped by its SPRT.
var e2eConfig = testkit.Config{
	Database: "games.db",
	Engines:  []testkit.Engine{{Name: "a", Preset: "plain", Hash: 1}, {Name: "b", Preset: "fhr", Hash: 1}, {Name: "c", Preset: "nmr-r3-4", Hash: 1}},
	Tournaments: []testkit.Tournament{
		{Name: "rr", Engines: []string{"a", "b", "c"}, Format: "round-robin", Rounds: 1, Concurrency: 1, Seed: 7,
			Openings:     testkit.Table{"file": "book.epd", "order": "sequential"},
			Limits:       testkit.Table{"nodes": 400, "nodes_jitter": 0.25},
			Adjudication: testkit.Table{"move": 40, "referee_nodes": 2000, "resign_score": 600, "resign_moves": 3, "draw_score": 10, "draw_moves": 6, "draw_move_from": 30}},
		{Name: "gauntlet", Engines: []string{"b", "a", "c"}, Format: "gauntlet", Rounds: 1, Concurrency: 1, Seed: 3,
			Openings:     testkit.Table{"file": "book.epd", "order": "random"},
			Limits:       testkit.Table{"depth": 2},
			Adjudication: testkit.Table{"move": 30, "policy": "draw"}},
		{Name: "sprt", Engines: []string{"a", "c"}, Format: "match", Rounds: 5, Concurrency: 1, Seed: 11,
			Openings:     testkit.Table{"file": "book.epd", "order": "random"},
			Limits:       testkit.Table{"nodes": 300, "nodes_jitter": 0.5},
			Adjudication: testkit.Table{"move": 30, "referee_nodes": 1000},
			SPRT:         testkit.Table{"elo0": 0, "elo1": 200, "alpha": 0.1, "beta": 0.1, "model": "logistic"}},
	},
}

// e2eSession runs commands in one folder and keeps a transcript of their
// exit codes and standard error, with the folder's path masked.
type e2eSession struct {
	t     *testing.T
	dir   string
	trace strings.Builder
}

// run runs selfplay with args and returns its standard output with the
// folder's path masked; an exit code other than 0 fails the test.
func (s *e2eSession) run(args ...string) string {
	s.t.Helper()
	code, stdout, stderr := run(s.t, args...)
	fmt.Fprintf(&s.trace, "$ selfplay %s\nexit %d\n%s", s.mask(strings.Join(args, " ")), code, s.mask(stderr))
	if code != exitOK {
		s.t.Fatalf("selfplay %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return s.mask(stdout)
}

func (s *e2eSession) mask(text string) string { return strings.ReplaceAll(text, s.dir, "$DIR") }

var (
	// The run's periodic progress line: every few games or 30 seconds.
	e2eProgressLine = regexp.MustCompile(`(?m)^[a-z]+: \d+/\d+ games, .*\n`)
	e2eWallTime     = regexp.MustCompile(`\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?Z`)
	e2ePlayedFor    = regexp.MustCompile(`(played +<time> \.\. <time>) \([^)]*\)`)
	e2ePgnMoveTime  = regexp.MustCompile(`\d+\.\d{3}s\}`)
	e2ePgnDate      = regexp.MustCompile(`\[Date "\d{4}\.\d\d\.\d\d"\]`)
)

// e2eMaskRunOutput masks what depends on the clock in run's output: the
// periodic progress lines (dropped: some come every 30 seconds), the
// times played and the search table's ms/move and nps columns, whose
// widths vary too (the table's other columns are kept, one space apart).
func e2eMaskRunOutput(out string) string {
	out = e2eProgressLine.ReplaceAllString(out, "")
	out = e2eWallTime.ReplaceAllString(out, "<time>")
	out = e2ePlayedFor.ReplaceAllString(out, "$1 (<duration>)")
	lines := strings.Split(out, "\n")
	inSearch := false
	for i, l := range lines {
		f := strings.Fields(l)
		switch {
		case strings.HasPrefix(l, "-- Search per engine"):
			inSearch = true
		case inSearch && len(f) > 2 && f[len(f)-2] == "ms/move":
			lines[i] = strings.Join(f[:len(f)-2], " ") + " ms/move nps"
		case inSearch && len(f) > 2 && isNumber(f[len(f)-2]) && isNumber(f[len(f)-1]):
			lines[i] = strings.Join(f[:len(f)-2], " ") + " <ms/move> <nps>"
		default:
			inSearch = false
		}
	}
	return strings.Join(lines, "\n")
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// e2eDumpDB lists a database's schema and every row of every table, ordered
// by all columns, with the values that depend on the clock masked: the
// *_at times, the moves' and games' times, and the stored PGN's move times
// and date.
func e2eDumpDB(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	var version int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "user_version %d\n", version)
	rows, err := db.Query(`SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var typ, name, table, text string
		if err := rows.Scan(&typ, &name, &table, &text); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s on %s\n%s\n", typ, name, table, text)
		if typ == "table" {
			tables = append(tables, name)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for _, table := range tables {
		e2eDumpTable(t, db, table, &b)
	}
	return b.String()
}

func e2eDumpTable(t *testing.T, db *sql.DB, table string, b *strings.Builder) {
	t.Helper()
	rows, err := db.Query(fmt.Sprintf(`SELECT * FROM %q`, table))
	if err != nil {
		t.Fatal(err)
	}
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	order := make([]string, len(cols))
	for i := range cols {
		order[i] = strconv.Itoa(i + 1)
	}
	rows, err = db.Query(fmt.Sprintf(`SELECT * FROM %q ORDER BY %s`, table, strings.Join(order, ", ")))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	fmt.Fprintf(b, "\n-- %s (%s)\n", table, strings.Join(cols, ", "))
	values := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range values {
		ptrs[i] = &values[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fields := make([]string, len(cols))
		for i, v := range values {
			fields[i] = e2eDumpValue(table, cols[i], v)
		}
		b.WriteString(strings.Join(fields, " | ") + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// e2eDumpValue writes one value, or a mask for one that depends on the clock.
func e2eDumpValue(table, col string, v any) string {
	clock := strings.HasSuffix(col, "_at") || col == "time_ms" || col == "latency_ms" || col == "timeleft_ms" || strings.HasSuffix(col, "_time_ns")
	if clock && v != nil && v != "" {
		return "<clock>"
	}
	switch v := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		if table == "pgns" && col == "pgn" {
			v = e2eMaskPGN(v)
		}
		return strconv.Quote(v)
	case []byte:
		return fmt.Sprintf("x'%x'", v)
	default:
		return fmt.Sprintf("%T %v", v, v)
	}
}

// e2eMaskPGN sets the moves' times and the date of a PGN text to fixed ones
// of the same width (the lines wrap where they did).
func e2eMaskPGN(pgn string) string {
	pgn = e2ePgnMoveTime.ReplaceAllString(pgn, "0.001s}")
	return e2ePgnDate.ReplaceAllString(pgn, `[Date "2001.02.03"]`)
}

// e2eFixClock sets every time in a database to a fixed one (each game its
// own), so that the reports and the export made from it are the same on
// every run, column widths included.
func e2eFixClock(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range []string{
		`UPDATE moves SET time_ms = 1 + (ply % 5) * 0.25`,
		`UPDATE games SET white_time_ns = white_moves * 1500000, black_time_ns = black_moves * 1250000,
			started_at = strftime('%Y-%m-%dT%H:%M:%SZ', '2001-02-03 04:05:06', '+' || (id * 10) || ' seconds'),
			finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', '2001-02-03 04:05:06', '+' || (id * 10 + 7) || ' seconds')`,
		`UPDATE tournaments SET created_at = '2001-02-03T04:00:00Z', updated_at = '2001-02-03T06:00:00Z',
			finished_at = CASE finished_at WHEN '' THEN '' ELSE '2001-02-03T06:00:00Z' END`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	rows, err := db.Query(`SELECT game_id, pgn FROM pgns`)
	if err != nil {
		t.Fatal(err)
	}
	fixed := map[int64]string{}
	for rows.Next() {
		var id int64
		var pgn string
		if err := rows.Scan(&id, &pgn); err != nil {
			t.Fatal(err)
		}
		fixed[id] = e2eMaskPGN(pgn)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for id, pgn := range fixed {
		if _, err := db.Exec(`UPDATE pgns SET pgn = ? WHERE game_id = ?`, pgn, id); err != nil {
			t.Fatal(err)
		}
	}
}

// TestE2EPlayedGolden plays the tournaments of e2eConfig, whole and in two
// shards merged, and checks against testdata/e2e/played/: run's output,
// the database's rows, the reports in the three formats, the exported PGN,
// the ratings of that PGN, the merge's output and the merged database.
func TestE2EPlayedGolden(t *testing.T) {
	s := &e2eSession{t: t, dir: t.TempDir()}
	writeFile(t, s.dir, "book.epd", e2eBook)
	cfg := e2eConfig.Write(t, s.dir, "t.toml")
	db := filepath.Join(s.dir, "games.db")
	check := func(name, got string) {
		t.Helper()
		golden.Check(t, filepath.Join("e2e", "played", name), got, *update)
	}

	check("run.txt", e2eMaskRunOutput(s.run("run", "-config", cfg)))
	check("db.txt", s.mask(e2eDumpDB(t, db)))
	e2eFixClock(t, db)
	check("report.txt", s.run("report", "-db", db))
	check("report.json", s.run("report", "-db", db, "-format", "json"))
	check("report.html", s.run("report", "-db", db, "-format", "html"))
	check("report-sprt-anchor.txt", s.run("report", "-db", db, "-tournament", "sprt", "-anchor", "c", "-level", "0.9"))
	pgn := s.run("export", "-db", db)
	check("export.pgn", pgn)
	check("export-engine-b.pgn", s.run("export", "-db", db, "-tournament", "gauntlet", "-engine", "b"))
	writeFile(t, s.dir, "all.pgn", pgn)
	check("ratings.txt", s.run("ratings", filepath.Join(s.dir, "all.pgn")))
	check("ratings.json", s.run("ratings", "-format", "json", filepath.Join(s.dir, "all.pgn")))

	shards := []string{filepath.Join(s.dir, "s0.db"), filepath.Join(s.dir, "s1.db")}
	for i, shard := range shards {
		check(fmt.Sprintf("run-shard-%d.txt", i), e2eMaskRunOutput(s.run("run", "-config", cfg, "-shard", fmt.Sprintf("%d/2", i), "-db", shard)))
	}
	merged := filepath.Join(s.dir, "merged.db")
	check("merge.txt", s.run(append([]string{"merge", "-o", merged}, shards...)...))
	check("merged-db.txt", s.mask(e2eDumpDB(t, merged)))
	e2eFixClock(t, merged)
	check("merged-report.txt", s.run("report", "-db", merged))
	check("commands.txt", s.trace.String())
}

// TestE2ECommittedResultsGolden checks the reports of the committed
// results against testdata/e2e/results/: the ratings of every results/
// PGN in the three formats, and the reports and export of the committed
// database (nmr-2x2), whose times are fixed already.
func TestE2ECommittedResultsGolden(t *testing.T) {
	s := &e2eSession{t: t, dir: t.TempDir()}
	root := filepath.Join("..", "..", "results")
	pgns, err := filepath.Glob(filepath.Join(root, "*.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(root, "*", "*.pgn.gz"))
	pgns = append(pgns, more...)
	if len(pgns) < 5 {
		t.Fatalf("found %d PGN files under results/", len(pgns))
	}
	check := func(name, got string) {
		t.Helper()
		golden.Check(t, filepath.Join("e2e", "results", name), got, *update)
	}
	for _, p := range pgns {
		name := strings.TrimSuffix(filepath.Base(p), ".pgn.gz")
		check(name+".ratings.txt", s.run("ratings", p))
		check(name+".ratings.json", s.run("ratings", "-format", "json", p))
		check(name+".ratings.html", s.run("ratings", "-format", "html", p))
	}

	db := filepath.Join(s.dir, "nmr-2x2.db")
	e2eGunzip(t, filepath.Join(root, "nmr-2x2", "nmr-2x2.db.gz"), db)
	check("nmr-2x2.report.txt", s.run("report", "-db", db))
	check("nmr-2x2.report.json", s.run("report", "-db", db, "-format", "json"))
	check("nmr-2x2.report.html", s.run("report", "-db", db, "-format", "html"))
	// The export is 640 kB: its digest and size stand for it.
	pgn := s.run("export", "-db", db)
	check("nmr-2x2.export.sha256", fmt.Sprintf("%x %d bytes\n", sha256.Sum256([]byte(pgn)), len(pgn)))
	check("commands.txt", s.trace.String())
}

func e2eGunzip(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
