package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// printConfig is match -print-config's output without the comment line
// that repeats the command.
func printConfig(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := run(t, append([]string{"match", "-print-config"}, args...)...)
	if code != 0 {
		t.Fatalf("match %q: exit %d, stderr %q", args, code, stderr)
	}
	_, rest, _ := strings.Cut(stdout, "\n")
	// The keys of a table in sorted order: fastchess's -rounds comes last.
	blocks := strings.Split(rest, "\n\n")
	for i, b := range blocks {
		lines := strings.Split(b, "\n")
		slices.Sort(lines)
		blocks[i] = strings.Join(lines, "\n")
	}
	return strings.Join(blocks, "\n\n")
}

// writeBook writes a 3-position EPD book and a PGN one into the current
// directory, each also gzipped (book.epd.gz, book.pgn.gz).
func writeBook(t *testing.T) {
	t.Helper()
	epd := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n" +
		"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n" +
		"rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1\n"
	pgn := "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n"
	for name, text := range map[string]string{"book.epd": epd, "book.pgn": pgn, "book.epd.gz": epd, "book.pgn.gz": pgn} {
		data := []byte(text)
		if strings.HasSuffix(name, ".gz") {
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(data)
			zw.Close()
			data = z.Bytes()
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fastchess's options give the config that selfplay's own arguments give.
func TestFastchessSameConfigAsOwnSyntax(t *testing.T) {
	t.Chdir(t.TempDir())
	writeBook(t)
	tests := []struct {
		name           string
		fastchess, own string
	}{
		// OpenBench's worker (github.com/AndyGrant/OpenBench, Client/worker.py,
		// build_runner_command: basic_settings, concurrency_settings,
		// adjudication_settings, engine_settings, book_settings) writes
		// "-recover -variant standard -testEnv -concurrency %d -rounds %d -games %d
		// -resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10
		// -engine dir=Engines/ cmd=./%s proto=uci tc=... option.Hash=... name=%s-%s
		// ... -openings file=Books/%s format=%s order=random start=%d -srand %d";
		// as written: its resign rule is fastchess's default, one-sided.
		{"openbench",
			"-recover -variant standard -testEnv -concurrency 2 -rounds 4 -games 2 -resign movecount=3 score=400 " +
				"-draw movenumber=40 movecount=8 score=10 -engine dir=. cmd=./dev proto=uci tc=8.0+0.08 option.Hash=16 name=e-dev " +
				"-engine dir=. cmd=./base proto=uci tc=8.0+0.08 option.Hash=16 name=e-base -openings file=book.epd format=epd order=random start=1 -srand 42",
			"cmd=./dev dir=. tc=8.0+0.08 option.Hash=16 name=e-dev cmd=./base dir=. tc=8.0+0.08 option.Hash=16 name=e-base " +
				"-concurrency 2 -resign-score 400 -resign-moves 3 -resign-two-sided false -draw-from 40 -draw-score 10 -draw-moves 8 -adjudication-rules fastchess -openings book.epd -order fastchess-random -start 1 -seed 42 -schedule fastchess -rounds 4"},
		// The same with the start= a worker computes (book_index + cutechess_idx
		// * pairs: any positive number, here past the 3-position book's end)
		// and its two -srand, basic_settings' and book_settings' (the last wins,
		// as in fastchess).
		{"openbench start",
			"-repeat -recover -srand 1764131234 -variant standard -testEnv -concurrency 2 -rounds 4 -games 2 -engine dir=. cmd=./dev proto=uci tc=8.0+0.08 name=dev " +
				"-engine dir=. cmd=./base proto=uci tc=8.0+0.08 name=base -openings file=book.epd format=epd order=random start=2461 -srand 936",
			"cmd=./dev dir=. tc=8.0+0.08 name=dev cmd=./base dir=. tc=8.0+0.08 name=base -concurrency 2 -openings book.epd -order fastchess-random -start 2461 -seed 1764131234 -seed 936 -schedule fastchess -rounds 4"},
		// restart=on: a process per game (tournament.cpp:219-220, 282-284).
		{"restart", "-engine cmd=a restart=on nodes=5 -engine cmd=b restart=off nodes=5 -repeat",
			"cmd=a restart=true nodes=5 cmd=b nodes=5 -openings startpos -schedule fastchess -rounds 2"},
		// tc=inf is no time control (fastchess cli.cpp:98), inf/ no
		// moves-to-go (:109-110).
		{"tc inf", "-engine cmd=a tc=inf nodes=5000 -engine cmd=b tc=inf/10+0.1 -repeat",
			"cmd=a nodes=5000 cmd=b tc=10+0.1 -openings startpos -schedule fastchess -rounds 2"},
		// selfplay's own -openings=SET on a fastchess command line keeps its set.
		{"own openings", "fhr plain -nodes 1 -openings=two-ply -repeat", "fhr plain -nodes 1 -openings two-ply -schedule fastchess -rounds 2"},
		// selfplay's own -log games is no fastchess command line (its
		// value is not fastchess's -games): the default openings stay.
		{"log games", "fhr plain -nodes 1 -log games", "fhr plain -nodes 1"},
		// cutechess-cli's and fastchess's -noswap, -reverse, -games 1.
		{"colours", "fhr plain -nodes 1 -noswap -reverse -games 1 -rounds 6 -openings file=book.epd order=sequential",
			"fhr plain -nodes 1 -noswap true -reverse true -games-per-opening 1 -openings book.epd -order sequential -rounds 2"},
		// twosided=false is the default spelled out; twosided=true is
		// selfplay's own default rule. fastchess's options follow its
		// rules (adjudication.rules = "fastchess"), where score=0 is a
		// threshold (resign_adjudication.hpp:12 defaults it to 0).
		{"one-sided", "fhr plain -nodes 1 -resign movecount=3 score=400 twosided=false",
			"fhr plain -nodes 1 -resign-score 400 -resign-moves 3 -resign-two-sided false -adjudication-rules fastchess"},
		{"two-sided", "fhr plain -nodes 1 -resign movecount=3 score=400 twosided=true",
			"fhr plain -nodes 1 -resign-score 400 -resign-moves 3 -adjudication-rules fastchess"},
		{"score 0", "fhr plain -nodes 1 -resign movecount=3 twosided=true -draw movecount=2",
			"fhr plain -nodes 1 -resign-moves 3 -draw-moves 2 -adjudication-rules fastchess"},
		// fastchess's README.md example (no book: every game starts from
		// the initial position, 200 passes over the one opening).
		{"readme",
			"-engine cmd=Engine1.exe name=Engine1 -engine cmd=Engine2.exe name=Engine2 -each tc=10+0.1 -rounds 200 -repeat -concurrency 4",
			"cmd=Engine1.exe name=Engine1 tc=10+0.1 cmd=Engine2.exe name=Engine2 tc=10+0.1 -concurrency 4 -openings startpos -schedule fastchess -rounds 200"},
		// fastchess's man.md example.
		{"man",
			"-engine cmd=Engine1.exe name=Engine1 -engine cmd=Engine2.exe name=Engine2 -openings file=book.epd format=epd order=random " +
				"-each tc=60+0.6 option.Hash=64 -rounds 200 -repeat -concurrency 4",
			"cmd=Engine1.exe name=Engine1 tc=60+0.6 option.Hash=64 cmd=Engine2.exe name=Engine2 tc=60+0.6 option.Hash=64 " +
				"-openings book.epd -order fastchess-random -schedule fastchess -rounds 200 -concurrency 4"},
		// man.md's SPRT example: per-engine nodes, st=, plies=, timemargin=, pgn plies.
		{"sprt",
			"-engine cmd=a name=A nodes=2000 -engine cmd=b name=B st=0.5 timemargin=50 -openings file=book.pgn format=pgn plies=2 " +
				"-sprt elo0=0 elo1=2 alpha=0.05 beta=0.1 model=logistic -games 2",
			"cmd=a name=A nodes=2000 cmd=b name=B movetime=0.5s time_margin=50ms -openings book.pgn -plies 2 " +
				"-sprt 0,2 -alpha 0.05 -beta 0.1 -sprt-model logistic -schedule fastchess -rounds 2"},
		// Options of fishtest's and others' command lines that change
		// nothing here: what selfplay always does.
		{"no-ops", "fhr plain -nodes 1 -openings file=book.epd format=epd -report penta=true -autosaveinterval 0 --force-concurrency -recover",
			"fhr plain -nodes 1 -openings book.epd"},
		// fastchess's waits for uciok and readyok: each external engine's
		// init_timeout and ping_timeout (an in-process one has none).
		{"startup and ping", "fhr -engine cmd=sf -each tc=10+0.1 -startup-ms 20000 -ping-ms 5000",
			"fhr tc=10+0.1 cmd=sf tc=10+0.1 init_timeout=20000ms ping_timeout=5000ms -openings startpos -schedule fastchess -rounds 2"},
		// A PGN book without plies=: every move of each game, fastchess's
		// default (plies=-1 too).
		{"pgn all plies", "fhr plain -nodes 1 -openings file=book.pgn format=pgn",
			"fhr plain -nodes 1 -openings book.pgn -plies all"},
		{"pgn plies -1", "fhr plain -nodes 1 -openings file=book.pgn format=pgn plies=-1",
			"fhr plain -nodes 1 -openings book.pgn -plies all"},
		// Gzipped books, which fastchess reads with zlib by the .gz name.
		{"gzipped epd", "fhr plain -nodes 1 -openings file=book.epd.gz format=epd",
			"fhr plain -nodes 1 -openings book.epd.gz"},
		{"gzipped pgn", "fhr plain -nodes 1 -openings file=book.pgn.gz format=pgn plies=4",
			"fhr plain -nodes 1 -openings book.pgn.gz -plies 4"},
		{"mixed", "fhr -engine cmd=sf option.Threads=1 -openings file=book.epd format=epd -nodes 5000",
			"fhr cmd=sf option.Threads=1 -openings book.epd -nodes 5000 -schedule fastchess -rounds 2"},
		// -each's option.Hash is an in-process engine's hash.
		{"each", "fhr -engine cmd=sf -each tc=10+0.1 option.Hash=32 option.Threads=1",
			"fhr tc=10+0.1 hash=32 cmd=sf tc=10+0.1 option.Hash=32 option.Threads=1 -openings startpos -schedule fastchess -rounds 2"},
		{"maxmoves", "fhr plain -depth 2 -maxmoves 60 -openings two-ply -sprt 0,5",
			"fhr plain -depth 2 -move 60 -policy draw -adjudication-rules fastchess -openings two-ply -sprt 0,5"},
		// cutechess-cli's knockout: -seeds and an encounter's -games, also
		// beside selfplay's -format knockout.
		{"knockout", "fhr plain null-r2 -nodes 1 -tournament knockout -seeds 2 -games 4",
			"fhr plain null-r2 -nodes 1 -format knockout -seeds 2 -knockout-games 4 -openings startpos"},
		{"knockout mixed", "fhr plain null-r2 -nodes 1 -format knockout -seeds 1 -games 6",
			"fhr plain null-r2 -nodes 1 -format=knockout -seeds 1 -knockout-games 6 -openings startpos"},
		{"depth", "-engine cmd=a plies=3 -engine cmd=b depth=4 -repeat 2 -tournament gauntlet",
			"cmd=a depth=3 cmd=b depth=4 -format gauntlet -openings startpos -schedule fastchess -rounds 2"},
		// 3 or more engines with -rounds: fastchess's own schedule, -rounds
		// its rounds (each one game pair per pairing).
		{"round robin rounds", "fhr plain null-r2 -nodes 1 -openings file=book.epd format=epd order=random -srand 3 -rounds 7 -repeat",
			"fhr plain null-r2 -nodes 1 -openings book.epd -order fastchess-random -seed 3 -schedule fastchess -rounds 7"},
		{"gauntlet rounds", "fhr plain null-r2 -nodes 1 -tournament gauntlet -rounds 5 -games 2",
			"fhr plain null-r2 -nodes 1 -format gauntlet -openings startpos -schedule fastchess -rounds 5"},
		// fastchess's -seeds N of a gauntlet (cli.cpp:560), before or
		// after -tournament, also beside selfplay's -format gauntlet; -seeds
		// 1 is the default.
		{"gauntlet seeds", "fhr plain null-r2 null-r3 -nodes 1 -seeds 2 -tournament gauntlet -rounds 5 -repeat",
			"fhr plain null-r2 null-r3 -nodes 1 -format gauntlet -gauntlet-seeds 2 -openings startpos -schedule fastchess -rounds 5"},
		{"gauntlet seeds mixed", "fhr plain null-r2 null-r3 -nodes 1 -format gauntlet -seeds 3 -rounds 2",
			"fhr plain null-r2 null-r3 -nodes 1 -format=gauntlet -gauntlet-seeds=3 -rounds 2"},
		{"gauntlet seeds 1", "fhr plain null-r2 -nodes 1 -tournament gauntlet -seeds 1 -rounds 5 -repeat",
			"fhr plain null-r2 -nodes 1 -format gauntlet -openings startpos -schedule fastchess -rounds 5"},
	}
	for _, tt := range tests {
		got := printConfig(t, strings.Fields(tt.fastchess)...)
		own := tt.own
		if fastchessMode(strings.Fields(tt.fastchess)) && !strings.Contains(tt.fastchess, "-concurrency") {
			own += " -concurrency 1" // fastchess's default (TestFastchessConcurrency)
		}
		want := printConfig(t, strings.Fields(own)...)
		if got != want {
			t.Errorf("%s: fastchess's syntax gives\n%s\nselfplay's\n%s", tt.name, got, want)
		}
	}
}

// selfplay's own flags keep selfplay's schedule (every pairing plays every
// opening; no schedule key); a fastchess line with -rounds gets fastchess's,
// so that its config is the whole match, also with two engines (whose one
// pairing takes the openings in turn either way).
func TestFastchessScheduleKeyOnlyForFastchessRounds(t *testing.T) {
	t.Chdir(t.TempDir())
	writeBook(t)
	tests := []struct {
		args      string
		fastchess bool
	}{
		{"fhr plain null-r2 -nodes 1 -rounds 3", false},
		{"fhr plain null-r2 -nodes 1 -format gauntlet -openings book.epd -rounds 3", false},
		{"fhr plain -nodes 1 -openings file=book.epd format=epd -rounds 3 -repeat", true},
		{"fhr plain -nodes 1 -openings book.epd -order random -rounds 3 -repeat", false}, // selfplay's reshuffle each pass
		{"fhr plain null-r2 -nodes 1 -rounds 3 -repeat", true},
		{"fhr plain null-r2 null-r3 -nodes 1 -tournament gauntlet -rounds 3 -repeat", true},
	}
	for _, tt := range tests {
		got := printConfig(t, strings.Fields(tt.args)...)
		if has := strings.Contains(got, `schedule = "fastchess"`); has != tt.fastchess {
			t.Errorf("%s: schedule = \"fastchess\" %v, want %v:\n%s", tt.args, has, tt.fastchess, got)
		}
	}
}

func TestFastchessBadArgs(t *testing.T) {
	t.Chdir(t.TempDir())
	writeBook(t)
	tests := []struct {
		args string
		want string
	}{
		{"-engine cmd=a -engine cmd=b -each nodes=1 -resign movecount=3 score=400 twosided=yes", "-resign: twosided=yes: want true or false"},
		{"fhr plain -nodes 1 -resign-score 400 -resign-moves 3 -resign-two-sided no", `-resign-two-sided "no": want true or false`},
		{"-engine name=a", "-engine: no cmd=COMMAND"},
		{"-engine cmd=a proto=xboard", "proto=xboard: only uci"},
		{"-engine cmd=a hash=3", `-engine: unknown key "hash"`},
		// fastchess trades -games over 2 with -rounds (sanitize.cpp:19-26).
		{"fhr plain -nodes 1 -games 3 -rounds 5", "-games 3 -rounds 5: fastchess plays at most 2 games per round"},
		{"fhr plain -nodes 1 -repeat 4 -rounds 3", "-games 4 -rounds 3: fastchess plays at most 2 games per round"},
		{"fhr plain -nodes 1 -games 0", `-games: "0": want a positive integer`},
		// selfplay plays games in pairs.
		{"fhr plain -nodes 1 -games 1 -rounds 3", "-games 1 -rounds 3: an odd number of games; selfplay plays games in pairs"},
		{"fhr plain null-r3 -nodes 1 -games 1 -rounds 4 -format gauntlet", "-games 1: one game per opening applies to a tournament of one pairing (this one has 2)"},
		{"fhr plain -nodes 1 -noswap=maybe", `-noswap "maybe": want true or false`},
		{"fhr plain -nodes 1 -openings file=book.epd start=0", "-openings start=: 0 is out of range: want >= 1"},
		{"fhr plain -nodes 1 -openings file=book.epd order=shuffle", `-openings order=: unknown value "shuffle" (valid: sequential, random, fastchess-random)`},
		{"fhr plain null-r2 -nodes 1 -tournament knockout -games 3", "-games 3: a knockout encounter is game pairs"},
		{"fhr plain null-r2 -nodes 1 -tournament knockout -games 4 -rounds 2", "a knockout has no rounds"},
		// fastchess ignores -seeds outside a gauntlet; selfplay says so.
		{"fhr plain null-r2 -nodes 1 -seeds 2", "-seeds 2: applies to -tournament gauntlet or knockout"},
		{"fhr plain -nodes 1 -report penta=false", "-report: penta=false: only penta=true"},
		{"fhr plain -nodes 1 -startup-ms soon", `-startup-ms: "soon": want milliseconds`},
		{"fhr plain -nodes 1 -autosaveinterval often", "-autosaveinterval: \"often\": want a number of games"},
		{"fhr plain null-r2 -nodes 1 -tournament gauntlet -seeds 0", `-seeds "0": want a positive integer`},
		{"fhr plain null-r2 -nodes 1 -tournament gauntlet -seeds 3", "-seeds: 3 is out of range: want 1..2"},
		{"fhr plain -nodes 1 -openings file=book.epd format=pgn", "selfplay reads the format from the file's extension"},
		{"fhr plain -nodes 1 -openings file=book.epd.gz format=pgn", `"book.epd.gz" is not .pgn or .pgn.gz`},
		{"fhr plain -nodes 1 -sprt elo0=0", "-sprt: elo0=0 elo1=0: elo0 must be less than elo1 (a missing one is 0, fastchess's default)"},
		{"fhr plain -nodes 1 -sprt elo0=0 elo1=5 gamma=1", `-sprt: unknown key "gamma"`},
		{"fhr plain -nodes 1 -draw moves=3", `-draw: unknown key "moves"`},
		{"fhr plain -nodes 1 -pgnout nodes=true", "-pgnout: no file"},
		{"fhr plain -nodes 1 -output format=json", "want format=cutechess or format=fastchess"},
		{"fhr plain -nodes 1 -variant fischerandom", "only standard chess"},
		{"fhr plain -nodes 1 -tb /syzygy", "fastchess's -tb is not supported yet"},
		{"fhr plain -nodes 1 -no-such-option", "-no-such-option"},
		// The config's errors name the fastchess option as written.
		{"fhr plain -nodes 1 -draw movecount=2 score=-5", "-draw score=: -5 is out of range"},
		// movecount=0 and -maxmoves 0 would adjudicate every game at once
		// in fastchess (match.hpp:61, :103, :141).
		{"fhr plain -nodes 1 -resign movecount=0 score=400", "-resign: movecount=0: want a positive integer"},
		{"fhr plain -nodes 1 -draw movecount=0", "-draw: movecount=0: want a positive integer"},
		{"fhr plain -nodes 1 -maxmoves 0", `-maxmoves: "0": want a positive integer`},
		{"fhr plain -nodes 1 -adjudication-rules cutechess", `-adjudication-rules: unknown value "cutechess"`},
		{"fhr plain -nodes 1 -srand -3", "-srand: -3 is out of range"},
		{"fhr plain -nodes 1 -sprt elo0=5 elo1=0 alpha=0.05", "-sprt: elo0=5 elo1=0: elo0 must be less than elo1"},
		{"fhr plain -nodes 1 -openings file=nofile.epd", "-openings file=: openings: open nofile.epd"},
	}
	for _, tt := range tests {
		args := strings.Fields(tt.args)
		code, stdout, stderr := run(t, append([]string{"match", "-print-config"}, args...)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("match %q: exit %d, stdout %q, stderr %q; want exit %d and %q", args, code, stdout, stderr, exitUsage, tt.want)
		}
	}
}

// Options accepted without an effect say so on standard error, one line each.
func TestFastchessNotes(t *testing.T) {
	t.Chdir(t.TempDir())
	tests := []struct{ args, want string }{
		{"-testEnv", "note: -testEnv: accepted, no effect"},
		{"-each option.Threads=2", "note: -each option.Threads=2: not applied to the in-process engine fhr"},
	}
	if !affinitySupported { // on Linux it pins the engines (affinity_test.go)
		tests = append(tests, struct{ args, want string }{"-use-affinity 0-3,5", "note: -use-affinity: accepted, no effect"},
			struct{ args, want string }{"-use-affinity", "note: -use-affinity: accepted, no effect"})
	}
	for _, tt := range tests {
		args := append([]string{"match", "-print-config", "fhr", "plain", "-nodes", "100"}, strings.Fields(tt.args)...)
		code, _, stderr := run(t, args...)
		if code != 0 || !strings.Contains(stderr, tt.want) || strings.Count(stderr, tt.want) != 1 {
			t.Errorf("%q: exit %d, stderr %q; want one line with %q", tt.args, code, stderr, tt.want)
		}
	}
}

// fastchess's -event, -site, -wait (milliseconds) and -scoreinterval reach
// the config as event, site and wait, and the run's option; none is a note.
func TestFastchessEventSiteWait(t *testing.T) {
	t.Chdir(t.TempDir())
	tests := []struct{ args, want string }{
		{"-event Weekly", `event = "Weekly"`},
		{"-site lab", `site = "lab"`},
		{"-wait 250", `wait = "250ms"`},
		{"-wait 1s", `wait = "1s"`}, // selfplay's -wait DURATION
		{"-scoreinterval 5", "[[tournament]]"},
	}
	for _, tt := range tests {
		args := append([]string{"match", "-print-config", "fhr", "plain", "-nodes", "100", "-games", "2"}, strings.Fields(tt.args)...)
		code, stdout, stderr := run(t, args...)
		if code != 0 || !strings.Contains(stdout, tt.want) || stderr != "" {
			t.Errorf("%q: exit %d, stderr %q; want %q in:\n%s", tt.args, code, stderr, tt.want, stdout)
		}
	}
	for _, bad := range []struct{ args, want string }{
		{"-scoreinterval 0", "-scoreinterval 0: want 1 or more"},
		{"-wait -5", "wait"},
	} {
		args := append([]string{"match", "-print-config", "fhr", "plain", "-nodes", "100"}, strings.Fields(bad.args)...)
		if code, _, stderr := run(t, args...); code != exitUsage || !strings.Contains(stderr, bad.want) {
			t.Errorf("%q: exit %d, stderr %q; want %q", bad.args, code, stderr, bad.want)
		}
	}
}

// fastchess's -pgnout, -epdout and -log (with their keys) among fastchess's
// other options reach the config as pgn_out, epd_out and log; -log games
// stays selfplay's.
func TestFastchessFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, stderr := run(t, strings.Fields("match fhr plain -nodes 1000 -games 2 -repeat -pgnout file=a.pgn nodes=true -epdout file=b.epd -log file=c.log engine=true -print-config")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{`"a.pgn"`, "nodes = true", `epd_out = "b.epd"`, `log = "c.log"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-print-config lacks %s:\n%s", want, stdout)
		}
	}
	fs := newFlagSet(env{stderr: os.Stderr}, "match", "")
	fs.String("log", "", "")
	fs.String("output", "", "")
	fs.Int("ratinginterval", 0, "")
	fc, err := translateFastchess(fs, strings.Fields("-engine cmd=x -log games -output format=fastchess -ratinginterval 10"), time.Now())
	if err != nil || strings.Join(fc.args, " ") != "cmd=x -log games -output fastchess -ratinginterval 10 -openings startpos -concurrency 1" {
		t.Errorf("got %+v, %v", fc, err)
	}
}

// A real match of two `selfplay uci` processes given with -engine cmd=:
// fastchess's -rounds 4 is 4 game pairs over a 3-opening book.
func TestFastchessUCIMatch(t *testing.T) {
	bin := selfplayBinary(t)
	t.Chdir(t.TempDir())
	writeBook(t)
	args := []string{"match", "-engine", "cmd=" + bin, "args=uci -variant fhr", "name=A", "-engine", "cmd=" + bin, "args=uci -variant plain", "name=B",
		"-each", "proto=uci", "nodes=2000", "-openings", "file=book.epd", "format=epd", "order=sequential", "-games", "2", "-rounds", "4", "-repeat",
		"-concurrency", "2", "-maxmoves", "30", "-recover"}
	code, stdout, stderr := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if n := strings.Count(stdout, "Finished game"); n != 8 {
		t.Errorf("%d games, want 8 (4 pairs):\n%s", n, stdout)
	}
	if _, err := os.Stat(filepath.Join(".", "selfplay.db")); err != nil {
		t.Error(err)
	}
}

// -print-config of a gauntlet with -seeds 2 and of 3 engines without
// -rounds is a tournaments.toml that loads back to the same tournament:
// run with it continues the match in its database and plays the games
// fastchess would (5 pairings x 2 rounds x 2; 3 pairings x fastchess's
// default 2 rounds x 2).
func TestFastchessPrintConfigRoundTrip(t *testing.T) {
	tests := []struct {
		name, line, key string
		games           int
	}{
		{"gauntlet seeds", "fhr name=A plain name=B fhr name=C plain name=D -tournament gauntlet -seeds 2 " +
			"-openings file=book.epd format=epd order=random -srand 3 -rounds 2 -repeat", "gauntlet_seeds = 2", 20},
		{"no rounds", "fhr plain null-r2 -repeat", "rounds = 2", 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			writeBook(t)
			args := append([]string{"match"}, strings.Fields(tt.line+" -each nodes=1 -maxmoves 1 -concurrency 1 -db m.db")...)
			code, stdout, stderr := run(t, append(args, "-pairs", "2")...)
			if code != exitOK {
				t.Fatalf("match: exit %d\n%s%s", code, stdout, stderr)
			}
			name := matchName(t, stdout)
			code, text, stderr := run(t, append(args, "-print-config")...)
			if code != exitOK || !strings.Contains(text, `name = "`+name+`"`) || !strings.Contains(text, "\n"+tt.key+"\n") {
				t.Fatalf("-print-config: exit %d, want %s and %q\n%s%s", code, name, tt.key, text, stderr)
			}
			cfg := writeFile(t, dir, "printed.toml", text)
			code, stdout, stderr = run(t, "run", "-config", cfg)
			want := fmt.Sprintf("resuming, 4 of %d games stored", tt.games)
			if code != exitOK || !strings.Contains(stdout, want) || strings.Count(stdout, "Finished game ") != tt.games-4 {
				t.Errorf("run of the printed config: exit %d, want %q and %d more games\n%s%s", code, want, tt.games-4, stdout, stderr)
			}
		})
	}
}

// A fastchess command line without -concurrency plays one game at a time,
// fastchess's default, where selfplay's own plays one per CPU; with it,
// or in selfplay's syntax, the flag is as given.
func TestFastchessConcurrency(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct{ args, want string }{
		{"-engine cmd=a -engine cmd=b -each tc=10+0.1 -rounds 2 -repeat", "concurrency = 1\n"},
		{"-engine cmd=a -engine cmd=b -each tc=10+0.1 -rounds 2 -repeat -concurrency 3", "concurrency = 3\n"},
		{"fhr plain -nodes 100", ""},
	} {
		code, stdout, stderr := run(t, append([]string{"match", "-print-config"}, strings.Fields(c.args)...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d, %s", c.args, code, stderr)
		}
		if got := regexp.MustCompile(`(?m)^concurrency = \d+\n`).FindString(stdout); got != c.want {
			t.Errorf("%s: %q, want %q", c.args, got, c.want)
		}
	}
}
