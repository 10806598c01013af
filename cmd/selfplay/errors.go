package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// errorKind is what went wrong, as the exit-code table tells it apart.
type errorKind int

const (
	kindFailure     errorKind = iota // exit 1: what the command was doing failed
	kindUsage                        // exit 2: the command line (flags, arguments)
	kindInput                        // exit 2: an input (config, openings, EPD or PGN file, database) or the -o path
	kindInterrupted                  // exit 130: SIGINT or SIGTERM
	kindHelp                         // exit 0: -h printed the usage (flag.ErrHelp)
)

// exitCode is the process's exit status for an error of the kind.
func (k errorKind) exitCode() int {
	switch k {
	case kindUsage, kindInput:
		return exitUsage
	case kindInterrupted:
		return exitInterrupted
	case kindHelp:
		return exitOK
	}
	return exitFailure
}

// cmdError is an error a command returns with its kind; any other error
// is a failure (exit 1). dispatch prints it and maps its kind to the exit
// code (exitCode).
type cmdError struct {
	kind errorKind
	// err is the message printed after "selfplay CMD: "; nil when there is
	// nothing to print (the flag package has reported a bad flag; an
	// interrupted search's output says so).
	err error
	// showUsage, when set, prints the command's usage after the message.
	showUsage func()
}

func (e *cmdError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.kind.exitCode())
	}
	return e.err.Error()
}

func (e *cmdError) Unwrap() error { return e.err }

// usageError is a bad command line: exit 2.
func usageError(err error) error { return &cmdError{kind: kindUsage, err: err} }

// usageErrorf is usageError with a message of its own.
func usageErrorf(format string, a ...any) error { return usageError(fmt.Errorf(format, a...)) }

// inputError is bad input (a file, a database, the -o path): exit 2.
func inputError(err error) error { return &cmdError{kind: kindInput, err: err} }

// inputErrorf is inputError with a message of its own.
func inputErrorf(format string, a ...any) error { return inputError(fmt.Errorf(format, a...)) }

// interruptedError ends an interrupted command (exit 130) with err's
// message, or none when err is nil.
func interruptedError(err error) error { return &cmdError{kind: kindInterrupted, err: err} }

// interruptedErrorf is interruptedError with a message of its own.
func interruptedErrorf(format string, a ...any) error {
	return interruptedError(fmt.Errorf(format, a...))
}

// errFlagsReported ends a command whose flags the flag package rejected:
// it has printed the error and the usage already.
var errFlagsReported error = &cmdError{kind: kindUsage}

// withUsage is a bad command line whose message (none when err is nil)
// is followed by the command's usage.
func withUsage(fs *flag.FlagSet, err error) error {
	return &cmdError{kind: kindUsage, err: err, showUsage: fs.Usage}
}

// kindOf is err's kind: a failure unless err is, or wraps, a cmdError or
// flag.ErrHelp.
func kindOf(err error) errorKind {
	var ce *cmdError
	switch {
	case errors.As(err, &ce):
		return ce.kind
	case errors.Is(err, flag.ErrHelp):
		return kindHelp
	}
	return kindFailure
}

// exitCode is the exit status of a command that returned err.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	return kindOf(err).exitCode()
}

// reportError prints a command's error once, as "selfplay CMD: MESSAGE"
// (escaped: it may quote an input file, a database or an engine), then
// the command's usage where the error asks for it, and returns the exit
// code.
func reportError(w io.Writer, cmd string, err error) int {
	if err == nil || kindOf(err) == kindHelp {
		return exitOK
	}
	var ce *cmdError
	if !errors.As(err, &ce) || ce.err != nil {
		fmt.Fprintf(w, "selfplay %s: %s\n", cmd, errText(err))
	}
	if ce != nil && ce.showUsage != nil {
		ce.showUsage()
	}
	return exitCode(err)
}
