package readmetest

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"selfplay/docs"
	"selfplay/openings"
)

// docsRoot is the repository, relative to this package.
const docsRoot = "../.."

// readDocs returns the text of every document (DocFiles) by its path.
func readDocs(t *testing.T) (files []string, text map[string]string) {
	t.Helper()
	files, err := DocFiles(docsRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 7 {
		t.Fatalf("found %d documents (%v); want the README and docs/*.md", len(files), files)
	}
	text = map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(docsRoot, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		text[f] = string(b)
	}
	return files, text
}

func TestAnchor(t *testing.T) {
	tests := []struct{ heading, want string }{
		{"tournaments.toml", "tournamentstoml"},
		{"serve: watching a run in the browser", "serve-watching-a-run-in-the-browser"},
		{"The papers' tables, reproduced", "the-papers-tables-reproduced"},
		{"NMR paper, Table 6, 2×2: engine × depth (in progress)", "nmr-paper-table-6-22-engine--depth-in-progress"},
		{"FHR Table 1: WAC positions solved with 2^i × 2700 nodes", "fhr-table-1-wac-positions-solved-with-2i--2700-nodes"},
	}
	for _, tt := range tests {
		if got := docs.Anchor(tt.heading); got != tt.want {
			t.Errorf("docs.Anchor(%q) = %q, want %q", tt.heading, got, tt.want)
		}
	}
}

// anchors returns the anchors of a Markdown text's headings (outside fenced
// blocks), a repeated one numbered as GitHub numbers it (-1, -2, ...).
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	inFence := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimLeft(l, "#")
		if !strings.HasPrefix(h, " ") {
			continue
		}
		h = strings.NewReplacer("`", "", "*", "").Replace(strings.TrimSpace(h))
		a := docs.Anchor(h)
		for n := 1; out[a]; n++ {
			a = docs.Anchor(h) + "-" + strconv.Itoa(n)
		}
		out[a] = true
	}
	return out
}

// linkRE matches a Markdown link's target: ](TARGET).
var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// outsideText drops the fenced blocks and inline code of a Markdown text,
// where "](...)" and "../" are not links.
func outsideText(text string) []string {
	var lines []string
	inFence := false
	code := regexp.MustCompile("`[^`]*`")
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
			lines = append(lines, "")
			continue
		}
		if inFence {
			lines = append(lines, "")
			continue
		}
		lines = append(lines, code.ReplaceAllString(l, "``"))
	}
	return lines
}

// Every link between the documents leads somewhere: the file exists in the
// repository, and the anchor is a heading of it.
func TestDocLinks(t *testing.T) {
	files, text := readDocs(t)
	checked := 0
	for _, f := range files {
		for i, l := range outsideText(text[f]) {
			for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				file, frag, _ := strings.Cut(target, "#")
				dest := f
				if file != "" {
					dest = path.Clean(path.Join(path.Dir(f), file))
				}
				if dest == ".." || strings.HasPrefix(dest, "../") {
					t.Errorf("%s:%d: the link %q leads out of the repository", f, i+1, target)
					continue
				}
				if _, err := os.Stat(filepath.Join(docsRoot, filepath.FromSlash(dest))); err != nil {
					t.Errorf("%s:%d: the link %q: %s does not exist", f, i+1, target, dest)
					continue
				}
				if frag == "" {
					continue
				}
				destText, ok := text[dest]
				if !ok {
					b, err := os.ReadFile(filepath.Join(docsRoot, filepath.FromSlash(dest)))
					if err != nil {
						t.Fatal(err)
					}
					destText = string(b)
				}
				if !anchors(destText)[frag] {
					t.Errorf("%s:%d: the link %q: %s has no heading with the anchor #%s", f, i+1, target, dest, frag)
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("checked %d links; the extraction is broken", checked)
	}
}

// The docs describe this repository as a user clones it: nothing in them
// points at the project's shared folder beside the checkout.
func TestDocsStayInside(t *testing.T) {
	files, text := readDocs(t)
	for _, f := range files {
		for i, l := range strings.Split(text[f], "\n") {
			if strings.Contains(l, "../shared") || strings.Contains(l, "/work/") {
				t.Errorf("%s:%d points outside the repository: %s", f, i+1, l)
			}
		}
	}
}

// docs/fhr25.epd, the openings file the cutechess-cli and fastchess
// examples play, is the built-in set fhr25, position for position.
func TestFHR25EPDIsTheBuiltInSet(t *testing.T) {
	path := filepath.Join(docsRoot, "docs", "fhr25.epd")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	file, err := openings.ParseEPD(f, path)
	if err != nil {
		t.Fatal(err)
	}
	builtin := openings.FHR25()
	if len(file) != len(builtin) {
		t.Fatalf("docs/fhr25.epd has %d openings, the built-in fhr25 %d", len(file), len(builtin))
	}
	for i := range file {
		got, err1 := file[i].FEN()
		want, err2 := builtin[i].FEN()
		if err1 != nil || err2 != nil {
			t.Fatalf("opening %d: %v %v", i+1, err1, err2)
		}
		// The move counters are the EPD's business (it has none); the
		// position is what is played.
		if strings.Join(strings.Fields(got)[:4], " ") != strings.Join(strings.Fields(want)[:4], " ") {
			t.Errorf("opening %d: docs/fhr25.epd %q, the built-in set %q", i+1, got, want)
		}
	}
}

// docs/architecture.md's package table lists every package of the module
// (`go list ./...`) and no other, so that it is the one place a package's
// name is written down beside what it owns.
func TestArchitectureListsEveryPackage(t *testing.T) {
	_, text := readDocs(t)
	doc := text["docs/architecture.md"]
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}", docsRoot+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	module := "selfplay/"
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		pkgs = append(pkgs, strings.TrimPrefix(p, module))
	}
	// The table's rows: the first cell names packages, the others may name
	// more (a package's test helpers beside it).
	code := regexp.MustCompile("`([^`]+)`")
	named := map[string]bool{}
	var rows []string
	_, table, ok := strings.Cut(doc, "\n| package | owns |\n")
	if !ok {
		t.Fatal(`docs/architecture.md has no table "| package | owns |"`)
	}
	table, _, _ = strings.Cut(table, "\n\n")
	for _, l := range strings.Split(table, "\n") {
		if !strings.HasPrefix(l, "| `") {
			continue
		}
		cells := strings.Split(l, " | ")
		for _, m := range code.FindAllStringSubmatch(cells[0], -1) {
			rows = append(rows, m[1])
		}
		for _, m := range code.FindAllStringSubmatch(l, -1) {
			named[m[1]] = true
		}
	}
	if len(rows) < 20 {
		t.Fatalf("docs/architecture.md: found %d packages in the table; the extraction is broken", len(rows))
	}
	for _, p := range pkgs {
		if !named[p] {
			t.Errorf("docs/architecture.md: the package table does not name the package %s", p)
		}
	}
	for _, r := range rows {
		if !slices.Contains(pkgs, r) {
			t.Errorf("docs/architecture.md: the package table names %s, which is not a package of the module", r)
		}
	}
}
