package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

// output is where a command with a -o flag writes: the file, or standard
// output when the path is empty.
type output struct {
	e    env
	cmd  string // the command's name, for messages
	path string
	f    *os.File // nil for standard output
}

// createOutput creates the -o file now, so that a bad path fails before a
// long computation, unless it is one of the command's inputs, which
// creating it would truncate. On failure it reports the error and returns
// the exit code (exitUsage: a bad path is bad input).
func createOutput(e env, cmd, path string, inputs ...string) (*output, int) {
	if code := checkOutputNotInput(e, cmd, path, inputs...); code != exitOK {
		return nil, code
	}
	o := &output{e: e, cmd: cmd, path: path}
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(e.stderr, "selfplay %s: -o: %v\n", cmd, err)
			return nil, exitUsage
		}
		o.f = f
	}
	return o, exitOK
}

// write renders the output through write, buffered, then flushes and closes
// the file; an error of any of these is reported and gives exitFailure.
func (o *output) write(write func(io.Writer) error) int {
	w := o.e.stdout
	if o.f != nil {
		w = o.f
	}
	bw := bufio.NewWriter(w)
	err := write(bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if o.f != nil {
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		o.f = nil
		if err != nil {
			err = fmt.Errorf("%s: %w", o.path, err)
		}
	}
	if err != nil {
		fmt.Fprintf(o.e.stderr, "selfplay %s: writing output: %v\n", o.cmd, err)
		return exitFailure
	}
	return exitOK
}

// discard closes and removes a file created for output that will not be
// written (the command failed first). Nothing to do after write.
func (o *output) discard() {
	if o.f != nil {
		o.f.Close()
		os.Remove(o.path)
		o.f = nil
	}
}

// writeOutput writes to the file path, or to standard output when path is
// empty, and returns the exit code: exitUsage when the file cannot be
// created or is one of inputs, exitFailure when writing, flushing or closing fails.
func writeOutput(e env, cmd, path string, write func(io.Writer) error, inputs ...string) int {
	o, code := createOutput(e, cmd, path, inputs...)
	if o == nil {
		return code
	}
	return o.write(write)
}

// checkOutputNotInput refuses an -o path that names one of the command's
// inputs (a database with its side files, a PGN or EPD file), which
// creating the output would truncate before it is read. It reports the
// error and returns exitUsage, or exitOK.
func checkOutputNotInput(e env, cmd, out string, inputs ...string) int {
	if out == "" {
		return exitOK
	}
	fo, err := os.Stat(out)
	if err != nil {
		return exitOK // does not exist yet: nothing to overwrite
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if fi, err := os.Stat(in); err == nil && os.SameFile(fo, fi) {
			fmt.Fprintf(e.stderr, "selfplay %s: -o %s is the input %s: writing the output would destroy it\n", cmd, out, in)
			return exitUsage
		}
	}
	return exitOK
}
