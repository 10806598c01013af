package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"testing"

	"selfplay/merge"
	"selfplay/runner"
	"selfplay/store"
)

// What dispatch prints for a command's error, and the exit code it gives.
func TestReportError(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), "usage: selfplay x\n") }
	tests := []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{"success", nil, exitOK, ""},
		{"-h", flag.ErrHelp, exitOK, ""},
		{"a plain error is a failure", errors.New("disk on fire"), exitFailure, "selfplay x: disk on fire\n"},
		{"a wrapped one too", fmt.Errorf("writing output: %w", io.ErrShortWrite), exitFailure, "selfplay x: writing output: short write\n"},
		{"usage", usageErrorf("-n %d is negative", -1), exitUsage, "selfplay x: -n -1 is negative\n"},
		{"input", inputError(errors.New("open a.epd: no such file")), exitUsage, "selfplay x: open a.epd: no such file\n"},
		{"input with context", fmt.Errorf("reading: %w", inputErrorf("a.epd: no positions")), exitUsage, "selfplay x: reading: a.epd: no positions\n"},
		{"flags the flag package reported", errFlagsReported, exitUsage, ""},
		{"with the usage", withUsage(fs, errors.New("want -o OUTPUT")), exitUsage, "selfplay x: want -o OUTPUT\nusage: selfplay x\n"},
		{"the usage alone", withUsage(fs, nil), exitUsage, "usage: selfplay x\n"},
		{"interrupted", interruptedErrorf("interrupted while reading %s", "a.pgn"), exitInterrupted, "selfplay x: interrupted while reading a.pgn\n"},
		{"interrupted quietly", interruptedError(nil), exitInterrupted, ""},
		{"escaped", inputErrorf("bad name %s", "\x1b[2Jx\u202e\nnext line"), exitUsage, "selfplay x: bad name \\x1b[2Jx\\u202e\nnext line\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			fs.SetOutput(&stderr)
			if code := reportError(&stderr, "x", tt.err); code != tt.code || stderr.String() != tt.stderr {
				t.Errorf("exit %d, stderr %q; want exit %d, %q", code, stderr.String(), tt.code, tt.stderr)
			}
			if code := exitCode(tt.err); code != tt.code {
				t.Errorf("exitCode: %d, want %d", code, tt.code)
			}
		})
	}
}

// The runner's and merge's errors, by kind (run's and merge's exit codes).
func TestCommandErrorKinds(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	background := context.Background()
	tests := []struct {
		name string
		err  error
		code int
		msg  string
	}{
		{"run: done", runError(nil, "a.db", ""), exitOK, ""},
		{"run: engine setup", runError(fmt.Errorf("engine x: %w", runner.ErrEngineSetup), "a.db", ""), exitUsage, "engine x: engine setup"},
		{"run: interrupted", runError(runner.ErrInterrupted, "a.db", ""), exitInterrupted, "interrupted; finished games are stored in a.db"},
		{"run: config changed", runError(&runner.ConfigChangedError{Tournament: "t", Changes: []string{"rounds: 1 -> 2"}}, "a.db", ""), exitUsage, ""},
		{"run: shard mismatch", runError(&runner.ShardMismatchError{Tournament: "t"}, "a.db", " (hint)"), exitUsage,
			"database a.db: the database holds tournament \"t\" (0 games stored), played as one; this run is shard 0 of 0: a shard needs a database of its own (hint)"},
		{"run: database gone", runError(fmt.Errorf("a.db: %w", store.ErrDatabaseGone), "a.db", ""), exitFailure, "a.db: nothing more can be stored; stopped"},
		{"run: other", runError(errors.New("engine crashed"), "a.db", ""), exitFailure, "engine crashed"},
		{"merge: interrupted", mergeError(canceled, errors.New("interrupted after 2 inputs")), exitInterrupted, "interrupted after 2 inputs"},
		{"merge: input", mergeError(background, &merge.InputError{Path: "a.db", Err: errors.New("damaged")}), exitUsage, "input a.db: damaged"},
		{"merge: refused", mergeError(background, &merge.RefusedError{Problems: []string{"p"}}), exitUsage, ""},
		{"merge: output in use", mergeError(background, &merge.OutputError{Err: &store.InUseError{Path: "o.db", Command: "run"}}), exitUsage, ""},
		{"merge: other", mergeError(background, errors.New("disk full")), exitFailure, "disk full"},
	}
	for _, tt := range tests {
		if code := exitCode(tt.err); code != tt.code {
			t.Errorf("%s: exit %d, want %d", tt.name, code, tt.code)
		}
		if tt.msg != "" && tt.err.Error() != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.name, tt.err.Error(), tt.msg)
		}
	}
	inUse := mergeError(background, &merge.OutputError{Err: &store.InUseError{Path: "o.db", Command: "run"}})
	if want := "; readers (report, export) work meanwhile"; !bytes.HasSuffix([]byte(inUse.Error()), []byte(want)) {
		t.Errorf("output in use: %q lacks %q", inUse.Error(), want)
	}
}
