// Command unusedapi lists the exported names of this module's packages
// that no other package uses (codecheck.UnusedExported), with their count
// per package, and the functions longer than 100 lines outside the
// search's hot path:
//
//	go run ./internal/codecheck/unusedapi [-long]
//
// It exits 1 when either is over the goal of issue 22 (60 unused names,
// no long function).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"selfplay/internal/codecheck"
)

func main() {
	long := flag.Bool("long", false, "also list the functions over 100 lines")
	flag.Parse()
	os.Exit(run(os.Stdout, *long))
}

func run(w io.Writer, long bool) int {
	root, err := codecheck.FindRoot(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "unusedapi:", err)
		return 2
	}
	m, err := codecheck.Load(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "unusedapi:", err)
		return 2
	}
	r := m.UnusedExported()
	code := 0
	for _, u := range r.Unused {
		fmt.Fprintln(w, u)
	}
	fmt.Fprintln(w)
	for _, p := range r.ByPackage() {
		fmt.Fprintf(w, "%4d %s\n", p.Unused, p.Package)
	}
	fmt.Fprintf(w, "%d of %d exported names are used by no other package (goal: at most %d)\n", len(r.Unused), r.Exported, codecheck.MaxUnusedExported)
	if len(r.Unused) > codecheck.MaxUnusedExported {
		code = 1
	}
	if long {
		fs := m.LongFunctions(codecheck.MaxFunctionLines, codecheck.LongFunctionsExempt...)
		fmt.Fprintln(w)
		for _, f := range fs {
			fmt.Fprintln(w, f)
		}
		fmt.Fprintf(w, "%d functions over %d lines outside %v\n", len(fs), codecheck.MaxFunctionLines, codecheck.LongFunctionsExempt)
		if len(fs) > 0 {
			code = 1
		}
	}
	return code
}
