package main

import (
	"bytes"
	"context"
	enc "encoding/binary"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// writePolyglot writes book.bin into the current directory: 1. e4 d5 2. e5
// from the initial position, one move a position (keys from the Polyglot
// format's own examples, in key order).
func writePolyglot(t *testing.T) {
	t.Helper()
	var buf []byte
	for _, e := range []struct {
		key  uint64
		move uint16 // to | from<<6, squares a1=0 ... h8=63
	}{
		{0x0756b94461c50fb0, 36 | 28<<6}, // after 1. e4 d5: e4e5
		{0x463b96181691fc9c, 28 | 12<<6}, // the initial position: e2e4
		{0x823c9b50fd114196, 35 | 51<<6}, // after 1. e4: d7d5
	} {
		buf = enc.BigEndian.AppendUint64(buf, e.key)
		buf = enc.BigEndian.AppendUint16(buf, e.move)
		buf = enc.BigEndian.AppendUint16(buf, 1)
		buf = enc.BigEndian.AppendUint32(buf, 0)
	}
	if err := os.WriteFile("book.bin", buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fastchess applies -each after every other option (cli.cpp:776, Deferred;
// cli.hpp:245-248, 262-265), so -each's value of a key wins over an
// -engine's, wherever -each stands; a repeated key keeps its last value.
// A fastchess line without -rounds plays fastchess's 2 rounds
// (types/tournament.hpp:56), -sprt too (cli.cpp:349-351 raises only a -rounds
// 0 given before it); plies= reaches a .bin book as -plies.
func TestFastchessDeferredEachAndDefaults(t *testing.T) {
	t.Chdir(t.TempDir())
	writeBook(t)
	writePolyglot(t)
	const two = " -schedule fastchess -rounds 2"
	tests := []struct {
		name           string
		fastchess, own string
	}{
		{"each wins", "-engine cmd=a name=x option.Hash=64 nodes=5 -engine cmd=b name=y -each option.Hash=16 nodes=100 -rounds 1",
			"cmd=a name=x option.Hash=16 nodes=100 cmd=b name=y option.Hash=16 nodes=100 -openings startpos -schedule fastchess -rounds 1"},
		{"each first", "-each tc=10+0.1 -engine cmd=a tc=1+0 -engine cmd=b",
			"cmd=a tc=10+0.1 cmd=b tc=10+0.1 -openings startpos" + two},
		{"each twice", "-engine cmd=a -engine cmd=b -each nodes=100 option.Threads=1 -each nodes=200",
			"cmd=a nodes=200 option.Threads=1 cmd=b nodes=200 option.Threads=1 -openings startpos" + two},
		// tc= replaces the whole time limit, st= included (cli.cpp:190-191);
		// tc=inf leaves none, for another limit.
		{"each tc replaces st", "-engine cmd=a st=1 -engine cmd=b st=2 -each tc=10+0.1",
			"cmd=a tc=10+0.1 cmd=b tc=10+0.1 -openings startpos" + two},
		{"each tc=inf", "-engine cmd=a tc=10+0.1 -engine cmd=b tc=5+0.1 -each tc=inf nodes=300",
			"cmd=a nodes=300 cmd=b nodes=300 -openings startpos" + two},
		{"each restart=off", "-engine cmd=a restart=on nodes=5 -engine cmd=b nodes=5 -each restart=off",
			"cmd=a nodes=5 cmd=b nodes=5 -openings startpos" + two},
		{"engine repeats a key", "-engine cmd=a nodes=5 nodes=7 option.Hash=1 option.Hash=2 -engine cmd=b nodes=7",
			"cmd=a nodes=7 option.Hash=2 cmd=b nodes=7 -openings startpos" + two},
		// selfplay's own engine words take -each's too, an in-process
		// engine's option.Hash as its hash.
		{"own words", "fhr hash=64 cmd=sf option.Hash=64 -each option.Hash=16 nodes=100",
			"fhr hash=16 nodes=100 cmd=sf option.Hash=16 nodes=100 -openings startpos" + two},
		// No -rounds: 2 rounds of a book of 3, not every opening.
		{"book without rounds", "fhr plain -each nodes=1 -openings file=book.epd format=epd",
			"fhr nodes=1 plain nodes=1 -openings book.epd" + two},
		{"sprt without rounds", "fhr plain -each nodes=1 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05",
			"fhr nodes=1 plain nodes=1 -openings startpos -sprt 0,5 -alpha 0.05 -beta 0.05" + two},
		{"rounds 0 then sprt", "fhr plain -each nodes=1 -rounds 0 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05",
			"fhr nodes=1 plain nodes=1 -openings startpos -sprt 0,5 -alpha 0.05 -beta 0.05 -schedule fastchess -rounds 500000"},
		{"sprt without elo0", "fhr plain -each nodes=1 -sprt elo1=5 alpha=0.05 beta=0.1 -rounds 3",
			"fhr nodes=1 plain nodes=1 -openings startpos -sprt 0,5 -alpha 0.05 -beta 0.1 -schedule fastchess -rounds 3"},
		{"polyglot plies", "fhr plain -each nodes=1 -openings file=book.bin plies=2",
			"fhr nodes=1 plain nodes=1 -openings book.bin -plies 2" + two},
		{"polyglot default plies", "fhr plain -each nodes=1 -openings file=book.bin",
			"fhr nodes=1 plain nodes=1 -openings book.bin" + two},
		// -event and -site join their words without spaces (cli.cpp:577-583).
		{"event", "fhr plain -each nodes=1 -event My Event -site a b",
			"fhr nodes=1 plain nodes=1 -openings startpos -event MyEvent -site ab" + two},
	}
	for _, tt := range tests {
		got := printConfig(t, strings.Fields(tt.fastchess)...)
		want := printConfig(t, strings.Fields(tt.own+" -concurrency 1")...)
		if got != want {
			t.Errorf("%s: fastchess's syntax gives\n%s\nselfplay's\n%s", tt.name, got, want)
		}
	}
	// Outside a fastchess line, -event is selfplay's flag of one value:
	// the words after it are engines.
	if got := printConfig(t, strings.Fields("-event Weekly fhr plain -nodes 1")...); !strings.Contains(got, `event = "Weekly"`) {
		t.Errorf("selfplay's -event:\n%s", got)
	}
}

// A fastchess line without -rounds plays as many games as fastchess 1.8.2
// does (its "Started game 1 of N"): 2 rounds of a game pair, or of one
// game with -games 1, whatever the book's size and with -sprt.
func TestFastchessDefaultRoundsGames(t *testing.T) {
	tests := []struct {
		args  string
		games int
	}{
		{"-openings file=book.epd format=epd", 4},
		{"-openings file=book.epd format=epd order=random -srand 5", 4},
		{"-games 1", 2},
		{"-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05", 4},
		{"-openings file=book.epd format=epd -rounds 3", 6},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			t.Chdir(t.TempDir())
			writeBook(t)
			line := "match fhr plain -each nodes=1 -maxmoves 1 " + tt.args
			code, stdout, stderr := run(t, strings.Fields(line)...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			if n := strings.Count(stdout, "Started game "); n != tt.games {
				t.Errorf("%d games, want %d:\n%s", n, tt.games, stdout)
			}
		})
	}
}

// A -pgnout or -epdout without file= (fastchess's KeyValueOptional
// options, cli.cpp:777-778) writes fastchess's file named after the time
// (cli.cpp:243-245, 288-290), never a file named after the next option,
// which keeps its meaning.
func TestFastchessOutFileDefault(t *testing.T) {
	t.Chdir(t.TempDir())
	clock := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local) }
	tests := []struct {
		args string
		want []string
	}{
		{"-pgnout -noswap", []string{`file = "fastchess_20260102_030405.pgn"`, `dialect = "fastchess"`, "noswap = true"}},
		{"-noswap -pgnout", []string{`file = "fastchess_20260102_030405.pgn"`, "noswap = true"}},
		{"-epdout -reverse", []string{`epd_out = "fastchess_20260102_030405.epd"`, "reverse = true"}},
		// nodes= after -each is -each's, not a -pgnout field.
		{"-pgnout -each nodes=7", []string{`file = "fastchess_20260102_030405.pgn"`, "nodes = 7"}},
		{"-pgnout file=a.pgn -noswap", []string{`file = "a.pgn"`, "noswap = true"}},
	}
	for _, tt := range tests {
		args := append([]string{"match", "-print-config", "fhr", "plain", "-each", "nodes=5"}, strings.Fields(tt.args)...)
		var out, errb bytes.Buffer
		code := dispatch(context.Background(), env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, now: clock}, args)
		stdout, stderr := out.String(), errb.String()
		if code != exitOK {
			t.Errorf("%s: exit %d, %s", tt.args, code, stderr)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: no %s in\n%s", tt.args, w, stdout)
			}
		}
		if strings.Contains(stdout, `"-`) {
			t.Errorf("%s: an option taken as a file:\n%s", tt.args, stdout)
		}
		if strings.Contains(tt.args, "file=") != !strings.Contains(stderr, "without file=: writing fastchess_20260102_030405.") {
			t.Errorf("%s: stderr %q", tt.args, stderr)
		}
	}
}

// fastchess's errors for what selfplay cannot play as fastchess would, or
// fastchess itself refuses, named by option.
func TestFastchessRefusals(t *testing.T) {
	t.Chdir(t.TempDir())
	writeBook(t)
	writePolyglot(t)
	tests := []struct{ args, want string }{
		// fastchess sends both limits (go nodes N wtime ...,
		// uci_engine.cpp:122-165); selfplay's engine has one.
		{"-engine cmd=a -engine cmd=b -each tc=60+1 nodes=5000",
			"-each: tc=60+1 and nodes=5000: fastchess gives the engine these limits together (go nodes N ... wtime ..., uci_engine.cpp:122-165), which selfplay cannot"},
		{"-engine cmd=a tc=60+1 -engine cmd=b -each nodes=5000", "-engine cmd=a: tc=60+1 and -each nodes=5000: fastchess gives"},
		{"-engine cmd=a name=A nodes=5 depth=3 -engine cmd=b nodes=5", "-engine name=A: nodes=5 and depth=3: fastchess gives"},
		{"-engine cmd=a name=A tc=10 -engine cmd=b -each st=1", "-engine name=A: tc=10 and -each st=1: fastchess refuses tc= and st= together too"},
		{"fhr plain -each tc=10+0.1 st=1", "-each: tc=10+0.1 and st=1: fastchess refuses"},
		// No alpha= or beta=: fastchess's 0 fails its check (sprt.cpp:55-58).
		{"fhr plain -each nodes=1 -sprt elo0=0 elo1=5", `-sprt: no alpha=: fastchess has no default for it and refuses the SPRT without one ("SPRT: alpha must be a decimal number between 0 and 1!"`},
		{"fhr plain -each nodes=1 -sprt elo0=0 elo1=5 alpha=0.05", "-sprt: no beta=: fastchess has no default"},
		{"fhr plain -each nodes=1 -sprt elo0=5 alpha=0.05 beta=0.05", "-sprt: elo0=5 elo1=0: elo0 must be less than elo1 (a missing one is 0, fastchess's default)"},
		{"fhr plain -each nodes=1 -sprt elo0=0 elo1=5 alpha=2 beta=0.05", "-sprt alpha=: 2 is out of range"},
		// -rounds 0 is no game, unless -sprt follows (cli.cpp:349-351).
		{"fhr plain -each nodes=1 -rounds 0", "-rounds 0: no games"},
		{"fhr plain -each nodes=1 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -rounds 0", "-rounds 0: no games"},
		// fastchess 1.8.2 has no format=polyglot (cli.cpp:316-323).
		{"fhr plain -each nodes=1 -openings file=book.bin format=polyglot", "-openings: format=polyglot: want epd or pgn, fastchess's only formats (a .bin Polyglot book, which selfplay reads and fastchess does not, needs no format=)"},
		{"fhr plain -each nodes=1 -openings file=book.bin plies=-1", `"all" applies only to a .pgn file`},
		{"fhr plain -each nodes=1 -event -noswap", "-event: want a name"},
	}
	for _, tt := range tests {
		args := append([]string{"match", "-print-config"}, strings.Fields(tt.args)...)
		code, stdout, stderr := run(t, args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.args, code, stdout, stderr, exitUsage, tt.want)
		}
		if strings.Contains(stderr, "TOML") {
			t.Errorf("%s: a TOML error: %s", tt.args, stderr)
		}
	}
}

// fastchess draws a random seed per run without -srand
// (types/tournament.hpp:60); selfplay keeps its fixed seed and says so,
// and that a .bin book is its own.
func TestFastchessDefaultsNoted(t *testing.T) {
	t.Chdir(t.TempDir())
	writeBook(t)
	writePolyglot(t)
	seed := regexp.MustCompile(`note: -openings order=random without -srand: the openings are shuffled from seed 1, the same in every run; fastchess draws a random seed each run`)
	book := "note: -openings file=book.bin: a Polyglot book, which selfplay reads (fastchess 1.8.2 plays every game from the initial position with it)"
	tests := []struct {
		args       string
		seed, book bool
	}{
		{"-openings file=book.epd order=random", true, false},
		{"-openings file=book.epd order=random -srand 9", false, false},
		{"-srand 9 -openings file=book.epd order=random", false, false},
		{"-openings file=book.epd order=sequential", false, false},
		{"-openings file=book.bin", false, true},
	}
	for _, tt := range tests {
		args := append([]string{"match", "-print-config", "fhr", "plain", "-each", "nodes=5"}, strings.Fields(tt.args)...)
		code, _, stderr := run(t, args...)
		if code != exitOK || seed.MatchString(stderr) != tt.seed || strings.Contains(stderr, book) != tt.book {
			t.Errorf("%s: exit %d, stderr %q; want the seed note %v, the book note %v", tt.args, code, stderr, tt.seed, tt.book)
		}
	}
}

// A fastchess line prints fastchess's result block by default, every 10
// game pairs (types/tournament.hpp), and its -output format=cutechess is
// fastchess's own figures in cutechess-cli's layout.
func TestFastchessOutputDefaults(t *testing.T) {
	cases := []struct{ line, want string }{
		{"-engine cmd=x -engine cmd=y", "cmd=x cmd=y -openings startpos -concurrency 1 -output fastchess -ratinginterval 10"},
		{"-engine cmd=x -engine cmd=y -ratinginterval 3", "cmd=x cmd=y -ratinginterval 3 -openings startpos -concurrency 1 -output fastchess"},
		{"-engine cmd=x -engine cmd=y -output format=cutechess", "cmd=x cmd=y -output fastchess-cutechess -openings startpos -concurrency 1 -ratinginterval 10"},
	}
	for _, c := range cases {
		fs := newFlagSet(env{stderr: os.Stderr}, "match", "")
		fs.String("output", "", "")
		fs.Int("ratinginterval", 0, "")
		fc, err := translateFastchess(fs, strings.Fields(c.line), time.Now())
		if got := strings.Join(fc.args, " "); err != nil || got != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.line, got, err, c.want)
		}
	}
}
