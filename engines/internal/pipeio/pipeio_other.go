//go:build !linux

package pipeio

import (
	"io"
	"os"
)

// Raw pipe I/O is implemented on Linux only; elsewhere the files are used
// as they are.

func reader(f *os.File) io.Reader { return f }

func writer(f *os.File) io.Writer { return f }

// Stdio returns os.Stdin and os.Stdout (raw pipe I/O is implemented on
// Linux only).
func Stdio() (in io.Reader, out io.Writer, restore func()) {
	return os.Stdin, os.Stdout, func() {}
}
