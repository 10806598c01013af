package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// output is where a command with a -o flag writes: the file, or standard
// output when the path is empty. A regular file is written under a
// temporary name beside it and renamed into place once complete, so that
// a command that fails leaves no partial output (nor a truncated earlier
// one); a device or pipe (/dev/stdout, a FIFO) is written directly.
type output struct {
	stdout io.Writer
	path   string
	f      *os.File // nil for standard output
	// dest is the file that the temporary file f replaces; "" when f is
	// the output itself.
	dest string
}

// createOutput creates the -o file (its temporary file) now, so that a
// bad path fails before a long computation, unless it is one of the
// command's inputs, which the output would replace. Its error is bad
// input.
func createOutput(e env, path string, inputs ...string) (*output, error) {
	if err := checkOutputNotInput(path, inputs...); err != nil {
		return nil, err
	}
	o := &output{stdout: e.stdout, path: path}
	if path == "" {
		return o, nil
	}
	var err error
	if o.f, o.dest, err = createTemp(path); err != nil {
		return nil, inputErrorf("-o: %w", err)
	}
	return o, nil
}

// createTemp creates the temporary file that replaces the regular file at
// path (created if it does not exist; a symbolic link's target), in the
// same folder (a rename does not cross file systems), with the mode that
// creating path would give it or that it has. Anything else (a device, a
// pipe, a directory, a dangling link) is opened as os.Create opens it,
// and dest is "".
func createTemp(path string) (f *os.File, dest string, err error) {
	dest = path
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		f, err = os.Create(path)
		return f, "", err
	case err == nil:
		if dest, err = filepath.EvalSymlinks(path); err != nil {
			return nil, "", err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, "", err
	case isSymlink(path): // dangling: created where it points, as before
		f, err = os.Create(path)
		return f, "", err
	}
	dir, base := filepath.Split(dest)
	for range 100 {
		tmp := filepath.Join(dir, fmt.Sprintf(".%s.%d.tmp", base, rand.Uint32()))
		f, err = os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666) // the umask applies, as for os.Create
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			// The message names the output, not the temporary file.
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = fmt.Errorf("creating %s: %w", path, pe.Err)
			}
			return nil, "", err
		}
		if fi != nil {
			if err := f.Chmod(fi.Mode().Perm()); err != nil {
				f.Close()
				os.Remove(tmp)
				return nil, "", err
			}
		}
		return f, dest, nil
	}
	return nil, "", fmt.Errorf("creating %s: no free temporary name beside it", path)
}

func isSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// write renders the output through write, buffered, then flushes and
// closes the file and renames it into place; an error of any of these is
// a failure, and the file is removed. An error that write returns as a
// *readError is an error reading the input (see readError.classified).
func (o *output) write(write func(io.Writer) error) error {
	w := o.stdout
	if o.f != nil {
		w = pathlessWriter{o.f}
	}
	bw := bufio.NewWriter(w)
	err := write(bw)
	var rerr *readError
	if errors.As(err, &rerr) {
		o.discard()
		return rerr.classified()
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if o.f != nil {
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		if err == nil && o.dest != "" {
			if rerr := os.Rename(o.f.Name(), o.dest); rerr != nil {
				err = fmt.Errorf("renaming it into place: %w", rerr)
			}
		}
		if err != nil {
			if o.dest != "" {
				os.Remove(o.f.Name())
			}
			err = fmt.Errorf("%s: %w", o.path, err)
		}
		o.f = nil
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// pathlessWriter writes to a file, its errors without the file's name
// (the temporary one's): the message names the output.
type pathlessWriter struct{ f *os.File }

func (w pathlessWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return n, err
}

// discard closes and removes a file created for output that will not be
// written (the command failed first). Nothing to do after write.
func (o *output) discard() {
	if o.f != nil {
		o.f.Close()
		if o.dest != "" {
			os.Remove(o.f.Name())
		} else if fi, err := os.Stat(o.path); err == nil && fi.Mode().IsRegular() {
			os.Remove(o.path) // a dangling link's new target
		}
		o.f = nil
	}
}

// writeOutput writes to the file path, or to standard output when path is
// empty: createOutput, then output.write.
func writeOutput(e env, path string, write func(io.Writer) error, inputs ...string) error {
	o, err := createOutput(e, path, inputs...)
	if err != nil {
		return err
	}
	return o.write(write)
}

// checkOutputNotInput refuses an -o path that names one of the command's
// inputs (a database with its side files, a PGN or EPD file), which
// creating the output would truncate before it is read: bad input.
func checkOutputNotInput(out string, inputs ...string) error {
	if out == "" {
		return nil
	}
	fo, err := os.Stat(out)
	if err != nil {
		return nil // does not exist yet: nothing to overwrite
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if fi, err := os.Stat(in); err == nil && os.SameFile(fo, fi) {
			return inputErrorf("-o %s is the input %s: writing the output would destroy it", out, in)
		}
	}
	return nil
}
