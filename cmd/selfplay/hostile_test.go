//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"selfplay/internal/testkit"
)

// measureRSS is the test binary re-run as a spawner (TestMain's
// measureHelper) that starts selfplay, args[1:], and writes its peak RSS to
// the file args[0]: see runHostile.
func measureRSS(args []string) int {
	out := args[0]
	cmd := exec.Command(args[1], args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
	if err := os.WriteFile(out, []byte(strconv.FormatInt(rss, 10)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	return cmd.ProcessState.ExitCode()
}

// maxHostileRSS is the peak resident memory allowed to selfplay on any
// hostile input: each was measured at 12 to 60 MB, where before it took
// from 0.5 GB to all the machine had.
const maxHostileRSS = 200 << 20

// source is what a hostile input is made of: the content of a file written
// before the run, or a stream written while it runs (to a pipe on standard
// input or a FIFO), so that no test writes gigabytes to disk. A stream
// stops when selfplay stops reading.
type source struct {
	text   string                  // written to the file before the run
	stream func(w io.Writer) error // written to the pipe or FIFO during the run
}

// repeat streams head, then chunk n times (n < 0: without end), then tail.
func repeat(head, chunk string, n int, tail string) source {
	return source{stream: func(w io.Writer) error {
		if _, err := io.WriteString(w, head); err != nil {
			return err
		}
		c := []byte(chunk)
		for len(c) < 64<<10 { // large writes: the pipe moves gigabytes in seconds
			c = append(c, chunk...)
		}
		for i := 0; n < 0 || i < n; i += len(c) / len(chunk) {
			if _, err := w.Write(c); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, tail)
		return err
	}}
}

// hostileRun is one run of the binary on a hostile input.
type hostileRun struct {
	code int
	out  string
	rss  int64 // peak resident set, bytes
}

// runHostile runs selfplay with args in dir (where "IN" in args is the
// input file's name), the input written as src says: a file named name,
// or with a stream, a FIFO of that name, or standard input when name is
// "-". It returns the exit code, the output and the peak RSS of the
// process, from wait4's rusage. Linux counts in a child's peak the memory
// it shared with its parent until its exec (os/exec starts it with
// vfork): selfplay is started by a fresh spawner process (this test binary
// re-run, see init), whose few MB are all it adds, not by this test
// process and its heap.
func runHostile(t *testing.T, bin, dir, name string, src source, args ...string) hostileRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a safety net, not a measure
	defer cancel()
	path := filepath.Join(dir, name)
	args = slices.Clone(args)
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "IN", path)
	}
	rssFile := filepath.Join(t.TempDir(), "rss")
	exe, argv := testkit.HelperCommand(t, measureHelper, append([]string{rssFile, bin}, args...)...)
	cmd := exec.CommandContext(ctx, exe, argv...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	streamed := make(chan error, 1)
	switch {
	case name == "":
		streamed <- nil
	case src.stream == nil:
		if err := os.WriteFile(path, []byte(src.text), 0o644); err != nil {
			t.Fatal(err)
		}
		streamed <- nil
	case name == "-":
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = r
		defer w.Close()
		defer r.Close()
		go func() { streamed <- src.stream(w) }()
	default:
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Fatal(err)
		}
		go func() {
			// Writes fail (EPIPE) once selfplay is gone.
			w, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				streamed <- err
				return
			}
			defer w.Close()
			streamed <- src.stream(w)
		}()
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if r, ok := cmd.Stdin.(*os.File); ok {
		r.Close() // the child has it: writes fail with EPIPE when it exits
	}
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("%v: still running after two minutes\n%s", args, out.String())
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%v: %v", args, err)
	}
	if src.stream != nil && name != "-" {
		// A FIFO that selfplay never opened (it stopped before) holds
		// the writer in open(2): an open lets it go on, to EPIPE.
		if f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
	<-streamed // the stream ends (EPIPE) when selfplay has stopped reading
	b, err := os.ReadFile(rssFile)
	if err != nil {
		t.Fatalf("%v: no peak RSS from the spawner: %v\n%s", args, err, out.String())
	}
	rss, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return hostileRun{code: cmd.ProcessState.ExitCode(), out: out.String(), rss: rss}
}

// gzipBomb is count gzip members of 1 MiB of NUL bytes each: count MiB
// once decompressed, about a thousandth of that compressed.
func gzipBomb(t *testing.T, count int) string {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return strings.Repeat(b.String(), count)
}

// Every file selfplay parses is bounded: each hostile input of issue 23
// (and a few more of the same kinds) is refused with exit 2 and a message
// naming the file and what is wrong, within a peak RSS of 200 MB, and
// nothing is written.
func TestHostileInputs(t *testing.T) {
	bin := selfplayBinary(t)
	tournament := "[[tournament]]\nname = \"t\"\nengines = [\"a\", \"b\"]\n[tournament.limits]\nnodes = 1\n"
	cases := []struct {
		name string
		file string // the input's name in the test's directory ("-": standard input)
		src  source
		args []string // "IN" is replaced by the input's path
		want string   // in the output
	}{
		// Configs: quadratic in the TOML decoder, its stack, and the
		// number of tables.
		{"config: inline tables 5,000 deep", "c.toml", source{text: "x = " + strings.Repeat("{a=", 5000) + "1" + strings.Repeat("}", 5000) + "\n"},
			[]string{"run", "-config", "IN", "-db", "out.db"}, "c.toml:1: refused before parsing: arrays and inline tables nested deeper than 32 levels"},
		{"config: arrays 500,000 deep in 1 MB", "c.toml", source{text: "x = " + strings.Repeat("[", 500000) + strings.Repeat("]", 500000)},
			[]string{"run", "-config", "IN", "-db", "out.db"}, "c.toml:1: refused before parsing: arrays and inline tables nested deeper than 32 levels"},
		{"config: arrays 3,000,000 deep (6 MB)", "c.toml", repeat("x = ", "[", 3000000, strings.Repeat("]", 3000000)),
			[]string{"run", "-config", "IN", "-db", "out.db"}, "c.toml: refused before parsing: larger than 1 MiB (1048576 bytes), the limit for a config file"},
		{"config: 100 MB of engine tables on standard input", "-", repeat("", "[engines.e1234567]\npreset = \"plain\"\n", 100<<20/36, ""),
			[]string{"run", "-config", "/dev/stdin", "-db", "out.db"}, "/dev/stdin: refused before parsing: larger than 1 MiB"},
		{"config: /dev/zero", "", source{}, []string{"run", "-config", "/dev/zero", "-db", "out.db"}, "/dev/zero: refused before parsing: larger than 1 MiB"},
		{"config: a dotted key of 50,000 parts", "c.toml", source{text: strings.Repeat("a.", 50000) + "a = 1\n"},
			[]string{"run", "-config", "IN", "-db", "out.db"}, "c.toml:1: refused before parsing: a dotted key of more than 32 parts"},
		{"config: 30,000 engine tables", "c.toml", source{text: engineTables(30000) + tournament},
			[]string{"run", "-config", "IN", "-db", "out.db"}, "c.toml: engines: 30000 engines defined, more than 1000"},
		{"config: a tournament of 100,000 undefined engines", "c.toml", source{text: engineTables(900) + strings.Replace(tournament, `"a", "b"`, quotedNames(100000), 1)},
			[]string{"run", "-config", "IN", "-db", "out.db"}, "c.toml: tournament[0].engines: 100000 engines listed, more than 1000"},
		{"config: a NUL byte", "c.toml", source{text: "database = \"x.db\"\n\x00\n"},
			[]string{"run", "-config", "IN", "-db", "out.db"}, "c.toml:2: refused before parsing: a NUL byte"},

		// PGN for ratings: the longest token or tag was held whole.
		{"ratings: a 4 MB gzip bomb of 4 GiB of NUL bytes", "bomb.pgn.gz", source{text: gzipBomb(t, 4096)},
			[]string{"ratings", "-o", "out.txt", "IN"}, "bomb.pgn.gz:1: a NUL byte: binary data, not PGN text"},
		{"ratings: [Event \" and 4 GiB of x", "-", repeat(`[Event "`, "x", 4<<30, ""),
			[]string{"ratings", "-o", "out.txt", "-"}, "-:1: tag Event: a value longer than 65536 bytes"},
		{"ratings: 400 MB of NUL bytes on standard input", "-", repeat("", "\x00", 400<<20, ""),
			[]string{"ratings", "-o", "out.txt", "-"}, "-:1: a NUL byte: binary data, not PGN text"},
		{"ratings: a 100 MB move in a valid game", "g.pgn", repeat("[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. ", "Q", 100<<20, " 1-0\n"),
			[]string{"ratings", "-o", "out.txt", "IN"}, "g.pgn:5: a token longer than 65536 bytes in the movetext"},
		{"ratings: an endless comment", "-", repeat("[White \"a\"]\n[Black \"b\"]\n\n1. e4 {", "a long comment\n", -1, ""),
			[]string{"ratings", "-o", "out.txt", "-"}, "-:69909: a comment opened at line 4 is longer than 1048576 bytes"},
		{"ratings: 200,000 engines", "-", distinctPlayers(200000),
			[]string{"ratings", "-o", "out.txt", "-"}, "-:3001: more than 1000 engines: too many to rate at once"},

		// Openings files: read whole, and each game kept, before.
		{"openings: a PGN game without end", "book.pgn", repeat("[Event \"x\"]\n\n", "1. Nf3 Nf6 2. Ng1 Ng8\n", -1, ""),
			[]string{"match", "plain", "fhr", "-nodes", "1", "-openings", "IN", "-db", "out.db"}, "book.pgn:47665: game 1 (from line 1) is longer than 1 MiB"},
		{"openings: NUL bytes in an EPD file", "book.epd", repeat("", "\x00", 4<<30, ""),
			[]string{"match", "plain", "fhr", "-nodes", "1", "-openings", "IN", "-db", "out.db"}, "book.epd:1: line longer than 1048576 bytes"},
		{"openings: NUL bytes after good lines", "book.epd", repeat(strings.Repeat("4k3/8/8/8/8/8/4P3/4K3 w - -\n", 3), "\x00\n", -1, ""),
			[]string{"match", "plain", "fhr", "-nodes", "1", "-openings", "IN", "-db", "out.db"}, "book.epd:4: a NUL byte: binary data, not a text file"},

		// EPD suites: malformed lines were kept, each quoting its line.
		{"suite: endless malformed lines", "-", repeat("", strings.Repeat("x", 100000)+"\n", -1, ""),
			[]string{"suite", "-epd", "/dev/stdin", "-nodes", "1", "-o", "out.txt"}, "line 1001: more than 1000 malformed lines: is it an EPD file?"},
		{"suite: NUL bytes", "-", repeat("", "\x00", -1, ""),
			[]string{"suite", "-epd", "/dev/stdin", "-nodes", "1", "-o", "out.txt"}, "line 1: longer than 1048576 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r := runHostile(t, bin, dir, c.file, c.src, c.args...)
			t.Logf("exit %d, peak RSS %d MB", r.code, r.rss>>20)
			if r.code != exitUsage || !strings.Contains(r.out, c.want) {
				t.Errorf("exit %d, output:\n%.2000s\nwant exit %d and %q", r.code, r.out, exitUsage, c.want)
			}
			if r.rss > maxHostileRSS {
				t.Errorf("peak RSS %d MB, more than %d MB", r.rss>>20, maxHostileRSS>>20)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if e.Name() != c.file {
					t.Errorf("%s written", e.Name())
				}
			}
		})
	}
}

// engineTables defines n in-process engines.
func engineTables(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[engines.e%d]\npreset = \"plain\"\n", i)
	}
	return b.String()
}

// quotedNames lists n engine names that are not defined.
func quotedNames(n int) string {
	q := make([]string, n)
	for i := range q {
		q[i] = fmt.Sprintf("\"u%d\"", i)
	}
	return strings.Join(q, ", ")
}

// distinctPlayers streams n games, each between two new players.
func distinctPlayers(n int) source {
	return source{stream: func(w io.Writer) error {
		var b bytes.Buffer
		for i := range n {
			fmt.Fprintf(&b, "[White \"w%d\"]\n[Black \"b%d\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n", i, i)
			if b.Len() > 64<<10 || i == n-1 {
				if _, err := w.Write(b.Bytes()); err != nil {
					return err
				}
				b.Reset()
			}
		}
		return nil
	}}
}
