// Package codecheck holds the checks of the code's shape that CI runs as
// tests (issue 22): no long functions outside the search's hot path, and
// few exported names that no other package uses. Both parse the module's
// source with go/parser; neither needs the packages to compile.
package codecheck

import (
	"bufio"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// file is one parsed .go file of the module.
type file struct {
	dir  string // the package's folder, relative to the module root, slash-separated
	test bool   // a _test.go file
	ast  *ast.File
}

// Module is the parsed source of a Go module.
type Module struct {
	Root  string // the folder of go.mod
	Path  string // the module path
	fset  *token.FileSet
	files []file
}

// FindRoot is the folder of the go.mod at or above dir.
func FindRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod at or above the current folder")
		}
		dir = up
	}
}

// Load parses every .go file of the module at root, but those in testdata
// folders, hidden folders and nested modules.
func Load(root string) (*Module, error) {
	path, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	m := &Module{Root: root, Path: path, fset: token.NewFileSet()}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if p != root {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(m.fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parsing: %w", err)
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		m.files = append(m.files, file{dir: filepath.ToSlash(rel), test: strings.HasSuffix(p, "_test.go"), ast: f})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// modulePath reads the module line of a go.mod file.
func modulePath(gomod string) (string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}

// importPath is the import path of the package in dir.
func (m *Module) importPath(dir string) string {
	if dir == "." {
		return m.Path
	}
	return m.Path + "/" + dir
}

// position is file:line relative to the module root.
func (m *Module) position(p token.Pos) string {
	pos := m.fset.Position(p)
	if rel, err := filepath.Rel(m.Root, pos.Filename); err == nil {
		pos.Filename = filepath.ToSlash(rel)
	}
	return fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
}

// LongFunction is a function longer than the limit.
type LongFunction struct {
	Pos   string // file:line of its func keyword
	Name  string // Recv.Name for a method
	Lines int    // from the func line to the closing brace, both counted
}

func (f LongFunction) String() string {
	return fmt.Sprintf("%s: %s is %d lines", f.Pos, f.Name, f.Lines)
}

// LongFunctions lists the non-test functions and methods longer than
// limit lines, outside the folders exempt (slash-separated, relative to the
// root, with their subfolders), longest first.
func (m *Module) LongFunctions(limit int, exempt ...string) []LongFunction {
	var out []LongFunction
	for _, f := range m.files {
		if f.test || slices.ContainsFunc(exempt, func(e string) bool { return f.dir == e || strings.HasPrefix(f.dir, e+"/") }) {
			continue
		}
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			lines := m.fset.Position(fd.End()).Line - m.fset.Position(fd.Pos()).Line + 1
			if lines > limit {
				out = append(out, LongFunction{Pos: m.position(fd.Pos()), Name: funcName(fd), Lines: lines})
			}
		}
	}
	slices.SortFunc(out, func(a, b LongFunction) int {
		if a.Lines != b.Lines {
			return b.Lines - a.Lines
		}
		return strings.Compare(a.Pos, b.Pos)
	})
	return out
}

// funcName is Name, or Recv.Name for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}

// The goals of issue 22, which the tests enforce.
const (
	MaxFunctionLines  = 100
	MaxUnusedExported = 60
)

// LongFunctionsExempt are the folders whose functions may be long: the
// search's hot path, where a call costs.
var LongFunctionsExempt = []string{"engines/search", "engines/eval"}
