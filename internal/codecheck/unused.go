package codecheck

import (
	"go/ast"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Exported is an exported top-level name of a package: a function, type,
// variable or constant. (Methods and fields are not counted: which of them
// another package uses takes the types, not the syntax.)
type Exported struct {
	Package string // import path
	Name    string
	Pos     string   // file:line of its declaration
	decl    ast.Node // its declaration (for a type, its TypeSpec)
}

func (e Exported) String() string { return e.Pos + ": " + path.Base(e.Package) + "." + e.Name }

// APIReport is how many exported names the module's importable packages
// declare and those that no other package uses.
type APIReport struct {
	Exported int
	Unused   []Exported
}

// UnusedExported lists the exported top-level names of the module's
// importable packages (not main) that no other package uses. A use is
// pkg.Name in a file of another package: a non-test file, or a test of the
// same package in its external _test package (the name must be exported
// for it); test files of other packages count too for a package that only
// tests import (test scaffolding such as internal/testkit). A type that
// the declaration of a used name spells (a result, a parameter, a field;
// a used type's methods count as its declaration) is used as well: other
// packages hold its values through that name, without naming it.
func (m *Module) UnusedExported() APIReport {
	decls := m.exportedDecls()
	testOnly := m.testOnlyPackages()
	used := map[[2]string]bool{}
	for _, f := range m.files {
		self := m.importPath(f.dir)
		external := strings.HasSuffix(f.ast.Name.Name, "_test")
		names := importNames(f.ast)
		ast.Inspect(f.ast, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			pkg, ok := names[x.Name]
			if !ok {
				return true
			}
			// A file imports its own package only from an external test.
			if !f.test || testOnly[pkg] || (external && pkg == self) {
				used[[2]string{pkg, sel.Sel.Name}] = true
			}
			return true
		})
	}
	m.markSpelledTypes(decls, used)
	r := APIReport{Exported: len(decls)}
	for _, d := range decls {
		if !used[[2]string{d.Package, d.Name}] {
			r.Unused = append(r.Unused, d)
		}
	}
	return r
}

// exportedDecls are the exported top-level names of the non-test files of
// the module's non-main packages, in file order.
func (m *Module) exportedDecls() []Exported {
	var out []Exported
	for _, f := range m.files {
		if f.test || f.ast.Name.Name == "main" {
			continue
		}
		add := func(id *ast.Ident, decl ast.Node) {
			if id.IsExported() {
				out = append(out, Exported{Package: m.importPath(f.dir), Name: id.Name, Pos: m.position(id.Pos()), decl: decl})
			}
		}
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					add(d.Name, d.Type)
				}
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					continue
				}
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(s.Name, s)
					case *ast.ValueSpec:
						for _, id := range s.Names {
							add(id, s)
						}
					}
				}
			}
		}
	}
	return out
}

// markSpelledTypes marks as used, until nothing changes, the package's
// exported types that the declaration of a used name spells, and those
// that the exported methods of a used type spell.
func (m *Module) markSpelledTypes(decls []Exported, used map[[2]string]bool) {
	methods := m.exportedMethods()
	for changed := true; changed; {
		changed = false
		mark := func(pkg string, n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				if _, ok := n.(*ast.SelectorExpr); ok {
					return false // another package's name
				}
				if id, ok := n.(*ast.Ident); ok && id.IsExported() && !used[[2]string{pkg, id.Name}] {
					for _, d := range decls {
						if d.Package == pkg && d.Name == id.Name {
							if _, isType := d.decl.(*ast.TypeSpec); isType {
								used[[2]string{pkg, id.Name}], changed = true, true
							}
						}
					}
				}
				return true
			})
		}
		for _, d := range decls {
			if !used[[2]string{d.Package, d.Name}] {
				continue
			}
			mark(d.Package, d.decl)
			for _, fn := range methods[[2]string{d.Package, d.Name}] {
				mark(d.Package, fn.Type)
			}
		}
	}
}

// exportedMethods are the exported methods of the non-test files of the
// module's packages, by package and receiver type name.
func (m *Module) exportedMethods() map[[2]string][]*ast.FuncDecl {
	out := map[[2]string][]*ast.FuncDecl{}
	for _, f := range m.files {
		if f.test {
			continue
		}
		for _, d := range f.ast.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 || !fn.Name.IsExported() {
				continue
			}
			t := fn.Recv.List[0].Type
			if star, ok := t.(*ast.StarExpr); ok {
				t = star.X
			}
			if idx, ok := t.(*ast.IndexExpr); ok { // a generic type's receiver
				t = idx.X
			}
			if id, ok := t.(*ast.Ident); ok {
				key := [2]string{m.importPath(f.dir), id.Name}
				out[key] = append(out[key], fn)
			}
		}
	}
	return out
}

// testOnlyPackages are the module's packages that test files import and
// no non-test file of another package does.
func (m *Module) testOnlyPackages() map[string]bool {
	byTest, byCode := map[string]bool{}, map[string]bool{}
	for _, f := range m.files {
		self := m.importPath(f.dir)
		for _, p := range importNames(f.ast) {
			if p == self {
				continue
			}
			if f.test {
				byTest[p] = true
			} else {
				byCode[p] = true
			}
		}
	}
	out := map[string]bool{}
	for p := range byTest {
		if !byCode[p] {
			out[p] = true
		}
	}
	return out
}

// importNames maps the names a file refers to its imports by to their
// paths (the last path element unless renamed; dot and blank imports
// left out).
func importNames(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || name == "." {
			continue
		}
		out[name] = p
	}
	return out
}

// ByPackage counts the unused names of each package, most first.
func (r APIReport) ByPackage() []PackageCount {
	counts := map[string]int{}
	for _, u := range r.Unused {
		counts[u.Package]++
	}
	var out []PackageCount
	for p, n := range counts {
		out = append(out, PackageCount{p, n})
	}
	slices.SortFunc(out, func(a, b PackageCount) int {
		if a.Unused != b.Unused {
			return b.Unused - a.Unused
		}
		return strings.Compare(a.Package, b.Package)
	})
	return out
}

// PackageCount is a package's number of unused exported names.
type PackageCount struct {
	Package string
	Unused  int
}
