package standings

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Reading a database into a report does not link the engines: standings
// and report import no package that imports the search (config does, so
// they read the stored config through config/snapshot). The import graph
// is read from the sources (every non-test file, whatever its build
// constraints), so the check needs no toolchain.
func TestReportDoesNotLinkTheSearch(t *testing.T) {
	const module, banned = "selfplay", "selfplay/engines/search"
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range []string{"selfplay/standings", "selfplay/report"} {
		if path := importPath(t, root, module, start, banned); path != nil {
			t.Errorf("%s links the search: %s", start, strings.Join(path, " -> "))
		}
	}
}

// importPath returns a chain of imports from package start to target
// within the module at root, or nil if there is none.
func importPath(t *testing.T, root, module, start, target string) []string {
	t.Helper()
	from := map[string]string{start: ""} // package -> the package that imported it first
	queue := []string{start}
	for len(queue) > 0 {
		pkg := queue[0]
		queue = queue[1:]
		if pkg == target {
			var chain []string
			for p := pkg; p != ""; p = from[p] {
				chain = append(chain, p)
			}
			slices.Reverse(chain)
			return chain
		}
		for _, imp := range packageImports(t, filepath.Join(root, strings.TrimPrefix(pkg, module))) {
			if _, seen := from[imp]; !seen && (imp == module || strings.HasPrefix(imp, module+"/")) {
				from[imp] = pkg
				queue = append(queue, imp)
			}
		}
	}
	return nil
}

// packageImports lists the imports of the non-test Go files in dir.
func packageImports(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range f.Imports {
			p, err := strconv.Unquote(s.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}
