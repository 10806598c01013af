package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"selfplay/internal/golden"
)

// A short match with -output cutechess and -output fastchess, every
// -ratinginterval 3 (games for cutechess-cli, game pairs for fastchess's
// pentanomial block: none in 2 pairs) and at the end, against
// testdata/output-cutechess.txt and output-fastchess.txt (times masked;
// the report after the blank line left out). The blocks' texts are
// checked against cutechess-cli's and fastchess's sources in runner's
// TestResultBlocks; this shows where they sit among the game lines.
func TestOutputFormatGolden(t *testing.T) {
	for _, format := range []string{"cutechess", "format=fastchess"} {
		dir := t.TempDir()
		code, stdout, stderr := run(t, "match", "fhr", "plain", "-depth", "3", "-pairs", "2", "-concurrency", "1",
			"-sprt", "0,10", "-output", format, "-ratinginterval", "3", "-db", filepath.Join(dir, "games.db"))
		if code != exitOK {
			t.Fatalf("match -output %s: exit %d\n%s%s", format, code, stdout, stderr)
		}
		head, _, _ := strings.Cut(stdout, "\n\n")
		head = regexp.MustCompile(`(elapsed|ETA) [0-9hms.µ]+`).ReplaceAllString(head, "$1 T")
		head = strings.ReplaceAll(head, dir, "DIR")
		golden.Check(t, "output-"+strings.TrimPrefix(format, "format=")+".txt", head+"\n", *update)
	}
}

// -output takes cutechess, fastchess or fastchess-cutechess; -ratinginterval needs it and
// cannot be negative; run takes both as match does.
func TestOutputFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "fhr", "plain", "-depth", "2", "-output", "pgn"}, `-output: unknown output format "pgn": want cutechess, fastchess or fastchess-cutechess`},
		{[]string{"match", "fhr", "plain", "-depth", "2", "-ratinginterval", "3"}, "-ratinginterval applies only with -output"},
		{[]string{"match", "fhr", "plain", "-depth", "2", "-output", "cutechess", "-ratinginterval", "-1"}, "-ratinginterval -1 is negative"},
		{[]string{"run", "-output", "format=x"}, `-output: unknown output format "x"`},
	} {
		code, stdout, stderr := run(t, c.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, stdout, stderr, exitUsage, c.want)
		}
	}
}
