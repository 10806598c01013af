package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The package's two layers (see the package comment): the file's
// lifecycle, and the queries over an open database. store.go, the types
// both share, is in neither.
var (
	lifecycleFiles = []string{"file.go", "file_checks.go", "lock.go", "lock_flock.go", "lock_other.go",
		"lock_windows.go", "lock_holder_linux.go", "lock_holder_other.go", "birth_linux.go", "birth_other.go",
		"schema.go", "damage.go", "disk.go", "disk_statfs.go", "disk_other.go", "outlock.go"}
	queryFiles = []string{"tournaments.go", "games.go", "columns.go", "suite.go", "merge.go", "bounds.go"}
	// What of the lifecycle the queries use: the check before each write
	// (a method) and the read-only attachment of a merge's input.
	lifecycleAPI = []string{"attachReadOnly"}
)

// The queries reach the lifecycle only through its API, and the lifecycle
// uses nothing of the queries: every package-level name that a file of one
// layer uses and the other layer declares is listed in lifecycleAPI, and
// no query touches the Store's hold on its file (Store.file).
func TestLayers(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]string{} // package-level name -> its file
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") || name == "store.go" {
			continue
		}
		if !slices.Contains(lifecycleFiles, name) && !slices.Contains(queryFiles, name) {
			t.Errorf("%s is in no layer: add it to lifecycleFiles or queryFiles", name)
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declared[s.Name.Name] = name
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declared[n.Name] = name
						}
					}
				}
			}
		}
	}
	layer := func(file string) bool { return slices.Contains(lifecycleFiles, file) }
	for name, f := range files {
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if sel.Sel.Name == "file" && !layer(name) {
					t.Errorf("%s: a query uses the Store's hold on its file (Store.file)", fset.Position(sel.Pos()))
				}
				ast.Inspect(sel.X, visit)
				return false // Sel is a field or method name, not a package-level one
			}
			return inspectIdent(t, fset, n, name, declared, layer)
		}
		ast.Inspect(f, visit)
	}
}

// inspectIdent reports n, an identifier in file, when it names a
// package-level declaration of the other layer that is not lifecycleAPI.
// (The parser resolves the names declared in the file itself, locals
// included: those are not looked up.)
func inspectIdent(t *testing.T, fset *token.FileSet, n ast.Node, file string, declared map[string]string, lifecycle func(string) bool) bool {
	id, ok := n.(*ast.Ident)
	if !ok || id.Obj != nil {
		return true
	}
	from, ok := declared[id.Name]
	if ok && lifecycle(from) != lifecycle(file) && !slices.Contains(lifecycleAPI, id.Name) {
		t.Errorf("%s: %s uses %s of %s, across the layers", fset.Position(id.Pos()), file, id.Name, from)
	}
	return true
}
