package codecheck

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func loadModule(t *testing.T, root string) *Module {
	t.Helper()
	m, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The checks on a small module whose answers are known.
func TestChecksOnFixture(t *testing.T) {
	m := loadModule(t, filepath.Join("testdata", "mod"))
	if m.Path != "example.com/mod" {
		t.Errorf("module path %q", m.Path)
	}
	long := m.LongFunctions(100)
	if len(long) != 1 || long[0].String() != "lib/lib.go:21: Long is 101 lines" {
		t.Errorf("long functions %v, want Long (101 lines) only", long)
	}
	if got := m.LongFunctions(100, "lib"); len(got) != 0 {
		t.Errorf("exempt folder: %v", got)
	}
	r := m.UnusedExported()
	var names []string
	for _, u := range r.Unused {
		names = append(names, u.Package[len("example.com/mod/"):]+"."+u.Name)
	}
	// Handle and Options are used through Open's result and its method.
	want := []string{"lib.Unused", "lib.OnlyOtherTest", "lib.T", "lib.Long", "lib.Short", "helper.Unhelpful", "lib.Kind", "lib.Orphan"}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) || r.Exported != 14 {
		t.Errorf("unused %v of %d, want %v of 14", names, r.Exported, want)
	}
}

// The module's own tree, against the goals of issue 22.
func TestNoLongFunctions(t *testing.T) {
	m := loadModule(t, filepath.Join("..", ".."))
	long := m.LongFunctions(MaxFunctionLines, LongFunctionsExempt...)
	var b strings.Builder
	for _, f := range long {
		fmt.Fprintln(&b, f)
	}
	overGoal(t, len(long) > 0, fmt.Sprintf("%d non-test functions over %d lines outside %v:\n%s", len(long), MaxFunctionLines, LongFunctionsExempt, b.String()))
}

func TestUnusedExportedNames(t *testing.T) {
	m := loadModule(t, filepath.Join("..", ".."))
	r := m.UnusedExported()
	if r.Exported < 300 {
		t.Fatalf("found only %d exported names: the tree was not read", r.Exported)
	}
	var b strings.Builder
	for _, p := range r.ByPackage() {
		fmt.Fprintf(&b, "%4d %s\n", p.Unused, p.Package)
	}
	overGoal(t, len(r.Unused) > MaxUnusedExported, fmt.Sprintf("%d of %d exported names are used by no other package, over %d (go run ./internal/codecheck/unusedapi lists them):\n%s",
		len(r.Unused), r.Exported, MaxUnusedExported, b.String()))
}

// overGoal fails the test with msg when over is true.
func overGoal(t *testing.T, over bool, msg string) {
	t.Helper()
	if over {
		t.Error(msg)
	}
}
