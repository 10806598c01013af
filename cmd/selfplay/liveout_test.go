package main

import (
	"bufio"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"selfplay/config"
	"selfplay/internal/tooltest"
	"selfplay/store"
)

// The live PGN file under kills: a match with -pgnout and -epdout is
// killed (SIGKILL) 20 times, each time at its Nth line of game progress
// (N = 1..7: while a game starts, while one is stored and written, between
// them), and every fourth time the file also gets half a game appended, as
// a crash mid-write would leave it. Each run resumes the last; at the end
// the file holds every game once, in schedule order, is export's text of
// the same games byte for byte, and parses in pgn-extract.
func TestLivePGNKills(t *testing.T) {
	bin := selfplayBinary(t)
	tool := tooltest.Find(t, "pgn-extract", "pgn-extract")
	dir := t.TempDir()
	pgn, epd := filepath.Join(dir, "live.pgn"), filepath.Join(dir, "live.epd")
	args := []string{"match", "plain", "fhr", "-nodes", "300", "-move", "30", "-concurrency", "2",
		"-pgnout", pgn, "nodes=false", "append=true", "-epdout", epd} // selfplay's dialect: export's text
	const kills, games = 20, 50
	for i := 0; i < kills; i++ {
		at := 1 + i*3%7
		if !killAtLine(t, bin, dir, at, args...) {
			t.Fatalf("kill %d: the match ended before it", i+1)
		}
		b, _ := os.ReadFile(pgn)
		t.Logf("kill %d at progress line %d: %d games in the file", i+1, at, strings.Count(string(b), "[Event "))
		if i%4 == 3 {
			appendTorn(t, pgn)
		}
	}
	code, out := runIn(t, bin, dir, args...)
	if code != exitOK {
		t.Fatalf("final run: exit %d\n%s", code, out)
	}
	name := regexp.MustCompile(`match: tournament (\S+) in`).FindStringSubmatch(out)
	if name == nil {
		t.Fatalf("no tournament name in:\n%s", out)
	}
	text, _ := os.ReadFile(pgn)
	rounds := regexp.MustCompile(`(?m)^\[Round "(\d+\.\d)"\]$`).FindAllStringSubmatch(string(text), -1)
	var want, got []string
	for i := 0; i < games; i++ {
		want = append(want, fmt.Sprintf("%d.%d", i/2+1, i%2+1))
	}
	for _, r := range rounds {
		got = append(got, r[1])
	}
	if !slices.Equal(got, want) {
		t.Fatalf("live.pgn's rounds:\n%v\nwant:\n%v", got, want)
	}
	exported := filepath.Join(dir, "export.pgn")
	if code, out := runIn(t, bin, dir, "export", "-tournament", name[1], "-o", exported); code != exitOK {
		t.Fatalf("export: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(exported); string(b) != string(text) {
		t.Fatalf("live.pgn (%d bytes) is not export's text (%d bytes)", len(text), len(b))
	}
	lines, _ := os.ReadFile(epd)
	ids := regexp.MustCompile(`id "(\d+\.\d)";\n`).FindAllStringSubmatch(string(lines), -1)
	got = got[:0]
	for _, r := range ids {
		got = append(got, r[1])
	}
	if !slices.Equal(got, want) || strings.Count(string(lines), "\n") != games {
		t.Fatalf("live.epd's ids:\n%v\nwant:\n%v", got, want)
	}
	log := filepath.Join(dir, "pgn-extract.log")
	if out, err := exec.Command(tool, "-r", "-l", log, pgn).CombinedOutput(); err != nil {
		t.Fatalf("pgn-extract: %v\n%s", err, out)
	}
	if diag, _ := os.ReadFile(log); !strings.Contains(string(diag), fmt.Sprintf("%d games matched out of %d.", games, games)) {
		t.Fatalf("pgn-extract did not accept every game:\n%s", diag)
	}
}

// Every per-move field on, under kills: games written live (from the
// game just played) and games written on a resume (from the database)
// are the same bytes, so the file equals the one a run writes afresh from
// the database (the complete match, run again after the file is removed),
// in fastchess's dialect (-pgnout file=F), the engines' identities
// included; pgn-extract reads it with every field in its comments.
func TestLivePGNKillsAllFields(t *testing.T) {
	bin := selfplayBinary(t)
	tool := tooltest.Find(t, "pgn-extract", "pgn-extract")
	dir := t.TempDir()
	pgn := filepath.Join(dir, "live.pgn")
	args := []string{"match", "plain", "fhr", "-nodes", "300", "-move", "30", "-concurrency", "2", "-rounds", "1", "-pairs", "8",
		"-pgnout", "file=" + pgn, "timeleft=true", "latency=true", "nodes=true", "seldepth=true", "nps=true",
		"hashfull=true", "tbhits=true", "pv=true"}
	const games = 16
	for i := 0; i < 6; i++ {
		if !killAtLine(t, bin, dir, 2+i*5%7, args...) {
			t.Fatalf("kill %d: the match ended before it", i+1)
		}
		if i%3 == 2 {
			appendTorn(t, pgn)
		}
	}
	if code, out := runIn(t, bin, dir, args...); code != exitOK {
		t.Fatalf("final run: exit %d\n%s", code, out)
	}
	text, _ := os.ReadFile(pgn)
	if n := strings.Count(string(text), "[Event "); n != games {
		t.Fatalf("%d games in live.pgn, want %d", n, games)
	}
	// fastchess's dialect (file=): "score/depth time, fields".
	fields := regexp.MustCompile(`\{[-+]?[\d.M]+/\d+ \d+\.\d{3}s, tl=0\.000s, latency=-?\d+\.\d{3}s, n=\d+, sd=\d+, nps=\d+, hashfull=0, tbhits=0, pv="[a-h1-8qrbn ]+"\}`)
	if n := len(fields.FindAllString(strings.Join(strings.Fields(string(text)), " "), -1)); n < games*10 {
		t.Fatalf("%d comments with every field in live.pgn:\n%.2000s", n, text)
	}
	// The engines' identities, stored with each game, in fastchess's
	// place (pgn_builder.cpp:31-49): what `selfplay uci -variant X` says.
	ids := regexp.MustCompile(`\[Result "[^"]+"\]\n\[EngineWhiteName "selfplay (plain|fhr)"\]\n` +
		`\[EngineWhiteAuthor "selfplay developers"\]\n\[EngineBlackName "selfplay (plain|fhr)"\]\n` +
		`\[EngineBlackAuthor "selfplay developers"\]\n`)
	if n := len(ids.FindAllString(string(text), -1)); n != games {
		t.Fatalf("%d games in live.pgn with the engines' identities after Result, want %d:\n%.1500s", n, games, text)
	}
	if err := os.Rename(pgn, pgn+".killed"); err != nil {
		t.Fatal(err)
	}
	if code, out := runIn(t, bin, dir, args...); code != exitOK {
		t.Fatalf("run of the complete match: exit %d\n%s", code, out)
	}
	if afresh, _ := os.ReadFile(pgn); string(afresh) != string(text) {
		t.Fatalf("live.pgn written under kills (%d bytes) differs from the file written from the database (%d bytes)", len(text), len(afresh))
	}
	log := filepath.Join(dir, "pgn-extract.log")
	if out, err := exec.Command(tool, "-r", "-l", log, pgn).CombinedOutput(); err != nil {
		t.Fatalf("pgn-extract: %v\n%s", err, out)
	}
	if diag, _ := os.ReadFile(log); !strings.Contains(string(diag), fmt.Sprintf("%d games matched out of %d.", games, games)) {
		t.Fatalf("pgn-extract did not accept every game:\n%s", diag)
	}
}

// killAtLine runs selfplay in dir and kills it (SIGKILL) when it has
// printed n lines of game progress ("Started game", "Finished game"); it
// reports whether the kill came before the process ended by itself.
func killAtLine(t *testing.T, bin, dir string, n int, args ...string) bool {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	sc := bufio.NewScanner(stdout)
	for seen := 0; sc.Scan(); {
		if line := sc.Text(); !killed && (strings.HasPrefix(line, "Started game ") || strings.HasPrefix(line, "Finished game ")) {
			if seen++; seen == n {
				cmd.Process.Kill()
				killed = true
			}
		}
	}
	cmd.Wait()
	return killed
}

// appendTorn appends the first half of the file's first game (its tags
// and moves) to it.
func appendTorn(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return // nothing written yet
	}
	tags := strings.Index(string(b), "\n\n") + 2
	first := b[:tags+strings.Index(string(b[tags:]), "\n\n")+2]
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(first[:len(first)/2])
}

// runIn runs selfplay in dir to its end.
func runIn(t *testing.T, bin, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return exitOK, string(out)
}

// -pgnout and -epdout, in selfplay's and fastchess's words, become
// pgn_out and epd_out; other words stay engines' and flags'.
func TestMatchLiveOutFlags(t *testing.T) {
	t.Chdir(t.TempDir())
	good := []struct {
		args       []string
		want, note string
	}{
		{[]string{"-pgnout", "g.pgn"}, "pgn_out = \"g.pgn\"\n", ""},
		{[]string{"-pgnout=g.pgn", "-epdout", "file=g.epd"}, "pgn_out = \"g.pgn\"\nepd_out = \"g.epd\"\n", ""},
		{[]string{"-pgnout", "file=g.pgn", "nodes=true", "seldepth=true", "nps=true", "append=true", "notation=san"},
			"\n[tournament.pgn_out]\nfile = \"g.pgn\"\nnodes = true\nseldepth = true\nnps = true\ndialect = \"fastchess\"\n", ""},
		// fastchess's file= alone: its dialect.
		{[]string{"-pgnout", "file=g.pgn"}, "\n[tournament.pgn_out]\nfile = \"g.pgn\"\ndialect = \"fastchess\"\n", ""},
		{[]string{"-pgnout", "file=g.pgn", "pv=true", "timeleft=true", "latency=false", "-rounds", "2"},
			"rounds = 2\n\n[tournament.limits]\nnodes = 100\n\n[tournament.pgn_out]\nfile = \"g.pgn\"\npv = true\ntimeleft = true\nlatency = false\n", ""},
		{[]string{"-pgnout", "file=g.pgn", "hashfull=true", "tbhits=true", "notation=lan", "append=false"},
			"\n[tournament.pgn_out]\nfile = \"g.pgn\"\nhashfull = true\ntbhits = true\nnotation = \"lan\"\nappend = false\n", ""},
		{[]string{"-pgnout", "g.pgn", "notation=uci"}, "\n[tournament.pgn_out]\nfile = \"g.pgn\"\nnotation = \"uci\"\n", ""},
		// The words after the file that are not -pgnout's stay an engine's.
		{[]string{"-pgnout", "g.pgn", "fhr", "name=x"}, "[engines.x]\npreset = \"fhr\"", ""},
		// fastchess's minimal PGN, in its dialect also without file=; an
		// EPD file started afresh.
		{[]string{"-pgnout", "file=g.pgn", "min=true"}, "\n[tournament.pgn_out]\nfile = \"g.pgn\"\nmin = true\ndialect = \"fastchess\"\n", ""},
		{[]string{"-pgnout", "g.pgn", "min=true"}, "\n[tournament.pgn_out]\nfile = \"g.pgn\"\nmin = true\ndialect = \"fastchess\"\n", ""},
		{[]string{"-epdout", "file=g.epd", "append=false"}, "\n[tournament.epd_out]\nfile = \"g.epd\"\nappend = false\n", ""},
		// A key given twice: its last value, as in fastchess.
		{[]string{"-pgnout", "g.pgn", "min=true", "min=false"}, "pgn_out = \"g.pgn\"", ""},
		{[]string{"-pgnout", "file=g.pgn", "append=false", "append=true", "-epdout", "file=g.epd", "append=true", "append=false"},
			"\n[tournament.pgn_out]\nfile = \"g.pgn\"\ndialect = \"fastchess\"\n\n[tournament.epd_out]\nfile = \"g.epd\"\nappend = false\n", ""},
		// fastchess's defaults said: min=false, -epdout append=true.
		{[]string{"-pgnout", "file=g.pgn", "min=false", "-epdout", "file=g.epd", "append=true"},
			"epd_out = \"g.epd\"\n\n[tournament.limits]\nnodes = 100\n\n[tournament.pgn_out]\nfile = \"g.pgn\"\ndialect = \"fastchess\"\n", ""},
	}
	for _, c := range good {
		code, stdout, stderr := run(t, append([]string{"match", "plain", "null-r3", "-nodes", "100", "-print-config"}, c.args...)...)
		if code != exitOK || !strings.Contains(stdout, c.want) || !strings.Contains(stderr, c.note) || (c.note == "") != (stderr == "") {
			t.Errorf("match %q: exit %d, stderr %q, config:\n%s\nwant %q and the note %q", c.args, code, stderr, stdout, c.want, c.note)
		}
	}
	bad := []struct {
		args []string
		want string
	}{
		{[]string{"-pgnout", "append=false"}, "-pgnout: no file"},
		{[]string{"-pgnout", "file=g.pgn", "notation=fan"}, "-pgnout notation=fan: want san, lan or uci"},
		{[]string{"-pgnout", "file=g.pgn", "append=no"}, "-pgnout append=no: want true or false"},
		{[]string{"-pgnout", "file=g.pgn", "nodes=1"}, "-pgnout nodes=1: want true or false"},
		{[]string{"-pgnout", "nodes=true"}, "-pgnout: no file"},
		{[]string{"-epdout", "file=g.epd", "nodes=true"}, "-epdout nodes=true: unknown key"},
		{[]string{"-epdout", "file=g.epd", "append=no"}, "-epdout append=no: want true or false"},
		{[]string{"-pgnout", "file=g.pgn", "min=yes"}, "-pgnout min=yes: want true or false"},
		// fastchess's keys that selfplay lacks are -pgnout's, not an engine's.
		{[]string{"-pgnout", "file=g.pgn", "match_line=^info"}, "-pgnout match_line=^info: not supported"},
		{[]string{"-pgnout", "g", "-epdout", "g"}, "-epdout: the same file as pgn_out"},
	}
	for _, c := range bad {
		code, _, stderr := run(t, append([]string{"match", "plain", "fhr", "-nodes", "100"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("match %q: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
	}
}

// A database of an older schema (7: before the moves' fastchess fields
// and the engines' identities) exports as it did and resumes: the run
// upgrades it, writes its games into the live file from the database
// without identities (it has none of them: no tags, as fastchess leaves
// out an empty one) and the games it plays with them; the export of the
// old games is the same bytes before and after.
func TestLivePGNResumeOlderSchema(t *testing.T) {
	bin := selfplayBinary(t)
	dir := t.TempDir()
	pgn := filepath.Join(dir, "live.pgn")
	args := []string{"match", "plain", "fhr", "-nodes", "300", "-move", "30", "-concurrency", "1", "-rounds", "1", "-pairs", "4",
		"-pgnout", "file=" + pgn}
	const games = 8
	if !killAtLine(t, bin, dir, 7, args...) { // the fourth game started: three stored
		t.Fatal("the match ended before the kill")
	}
	dbs, _ := filepath.Glob(filepath.Join(dir, "*.db"))
	if len(dbs) != 1 {
		t.Fatalf("databases: %v", dbs)
	}
	d, err := sql.Open("sqlite", dbs[0])
	if err != nil {
		t.Fatal(err)
	}
	var stored int
	_, err = d.Exec(`DROP TABLE engine_ids; ALTER TABLE moves DROP COLUMN hashfull; ALTER TABLE moves DROP COLUMN tbhits;
		ALTER TABLE moves DROP COLUMN pv; ALTER TABLE moves DROP COLUMN timeleft_ms; ALTER TABLE moves DROP COLUMN latency_ms;
		ALTER TABLE moves DROP COLUMN nps;
		PRAGMA user_version = 7`)
	if err == nil {
		err = d.QueryRow(`SELECT count(*) FROM games`).Scan(&stored)
	}
	d.Close()
	if err != nil || stored == 0 || stored >= games {
		t.Fatalf("making the database schema 7: %v (%d games stored)", err, stored)
	}
	export := func() string {
		t.Helper()
		out := filepath.Join(dir, "export.pgn")
		if code, msg := runIn(t, bin, dir, "export", "-db", dbs[0], "-o", out); code != exitOK {
			t.Fatalf("export: exit %d\n%s", code, msg)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	before := export()
	if n := strings.Count(before, "[Event "); n != stored {
		t.Fatalf("export of the schema 7 database: %d games, want %d", n, stored)
	}
	if err := os.Remove(pgn); err != nil { // the resume writes every stored game from the database
		t.Fatal(err)
	}
	if code, out := runIn(t, bin, dir, args...); code != exitOK {
		t.Fatalf("resume of the schema 7 database: exit %d\n%s", code, out)
	}
	if after := export(); !strings.HasPrefix(after, before) || strings.Count(after, "[Event ") != games {
		t.Fatalf("export after the resume does not begin with the schema 7 database's (%d bytes):\n%.1500s", len(before), after)
	}
	text, _ := os.ReadFile(pgn)
	parts := strings.Split(string(text), "[Event ")[1:]
	if len(parts) != games {
		t.Fatalf("%d games in live.pgn, want %d", len(parts), games)
	}
	for i, g := range parts {
		want := 0
		if i >= stored {
			want = 4 // EngineWhiteName, EngineWhiteAuthor, EngineBlackName, EngineBlackAuthor
		}
		if n := strings.Count(g, "\n[Engine"); n != want {
			t.Errorf("game %d (%d stored before the resume): %d identity tags, want %d:\n%.600s", i+1, stored, n, want, g)
		}
	}
}

// A live file that is the database or the openings file, or that holds
// text other than selfplay's games, is bad input: refused before a game,
// quoted briefly, nothing written to it.
func TestLiveOutRefusedFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, ".", "book.epd", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"e4\";\n")
	junk := "\x00\x01" + strings.Repeat("binary junk ", 200) + "\n"
	writeFile(t, ".", "junk.pgn", junk)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-db", "g.db", "-pgnout", "g.db"}, "pgn_out g.db is the database"},
		{[]string{"-db", "g.db", "-openings", "book.epd", "-epdout", "book.epd"}, "-epdout: book.epd is the openings file: the games would be appended to the book"},
		{[]string{"-db", "g.db", "-pgnout", "junk.pgn"}, `live PGN file junk.pgn: line "\x00\x01binary junk binary junk`},
	} {
		code, _, stderr := run(t, append([]string{"match", "plain", "fhr", "-nodes", "100", "-pairs", "1"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || len(stderr) > 400 {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
	if b, _ := os.ReadFile("junk.pgn"); string(b) != junk {
		t.Errorf("junk.pgn changed")
	}
	if b, _ := os.ReadFile("book.epd"); strings.Count(string(b), "\n") != 1 {
		t.Errorf("book.epd changed: %q", b)
	}
}

// The live files of a run are locked for it (lockLiveOutputs): a second
// run that names one of them, by any name, is refused with an input error
// that names the tournament, the key, the file and the holder; a file
// that several tournaments of one run name is locked once; after the
// first run releases its locks, the second gets them.
func TestLockLiveOutputs(t *testing.T) {
	dir := t.TempDir()
	pgn, epd, other := filepath.Join(dir, "live.pgn"), filepath.Join(dir, "live.epd"), filepath.Join(dir, "other.pgn")
	sym := filepath.Join(dir, "sym.pgn") // another name of the PGN
	if err := os.Symlink(pgn, sym); err != nil {
		t.Fatal(err)
	}
	run := func(outs ...[2]string) *config.File {
		cfg := &config.File{Database: filepath.Join(dir, "x.db")}
		for i, o := range outs {
			cfg.Tournaments = append(cfg.Tournaments, config.Tournament{Name: fmt.Sprintf("t%d", i+1),
				Live: config.LiveOut{PGN: o[0], EPD: o[1]}})
		}
		return cfg
	}
	// One run, two tournaments writing the same PGN file: one lock.
	release, err := lockLiveOutputs(run([2]string{pgn, epd}, [2]string{pgn, ""}), nil, "match")
	if err != nil {
		t.Fatalf("the first run: %v", err)
	}
	if _, err := os.Stat(pgn + ".lock"); err != nil {
		t.Errorf("the PGN's lock file: %v", err)
	}
	for _, c := range []struct {
		name string
		cfg  *config.File
		only []string
		want string // "" for no error
	}{
		{"the same PGN", run([2]string{pgn, ""}), nil,
			fmt.Sprintf("tournament t1: pgn_out %s is in use by another selfplay match (pid %d on ", pgn, os.Getpid())},
		{"its EPD as a PGN", run([2]string{other, ""}, [2]string{epd, ""}), nil, "tournament t2: pgn_out " + epd + " is in use by"},
		{"its PGN by another name, as an EPD", run([2]string{other, sym}), nil, "tournament t1: epd_out " + sym + " is in use by"},
		{"the same PGN, in a tournament not run", run([2]string{other, ""}, [2]string{pgn, ""}), []string{"t1"}, ""},
		{"other files", run([2]string{other, filepath.Join(dir, "other.epd")}), nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			release2, err := lockLiveOutputs(c.cfg, c.only, "run")
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				release2()
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || kindOf(err) != kindInput ||
				!strings.Contains(err.Error(), "two runs would mix their games in it") {
				t.Fatalf("got %v (kind %v)\nwant %s...", err, kindOf(err), c.want)
			}
			// Nothing that the refused run locked stays locked.
			l, err := store.LockOutput(other, "run")
			if err != nil {
				t.Errorf("the refused run's other file stays locked: %v", err)
			}
			l.Release()
		})
	}
	release()
	if _, err := os.Stat(pgn + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the PGN's lock file after release: %v", err)
	}
	release2, err := lockLiveOutputs(run([2]string{pgn, epd}), nil, "run")
	if err != nil {
		t.Fatalf("after the first run released its files: %v", err)
	}
	release2()
}
