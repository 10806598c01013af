package main

import (
	"flag"
	"fmt"
)

// newFlagSet makes a command's flag set. Its errors go to standard error,
// and -h prints, also to standard error, every command's help in one form:
//
//	usage: selfplay NAME SYNOPSIS
//
//	ABOUT (if any)
//
//	flags:
//	  -flag ...
func newFlagSet(e env, name, synopsis string, about ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		w := fs.Output()
		line := "usage: selfplay " + name
		if synopsis != "" {
			line += " " + synopsis
		}
		fmt.Fprintln(w, line)
		for _, a := range about {
			fmt.Fprintf(w, "\n%s\n", a)
		}
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(w, "\nflags:")
			fs.PrintDefaults()
		}
	}
	return fs
}
