package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"selfplay/docs"
)

// helpTopic is what `selfplay help NAME` prints: a whole document of docs/,
// or one section ("## ...") of the guide.
type helpTopic struct {
	name    string // guide, config, run, ...
	title   string // the heading
	file    string // the document, e.g. guide.md
	anchor  string // the section's anchor in file; "" for a whole document
	section bool   // a section of the guide, listed under it
	text    string // Markdown
}

// guideFile is the document whose sections are topics of their own.
const guideFile = "guide.md"

// helpTopics returns the topics of the documents in fsys (docs.Files()):
// each NAME.md is the topic NAME, and each "## " section of the guide a
// topic named by its title's first word ("The" skipped), and by each word
// of a title that is a list ("search, perft, bench"). Two topics of one
// name are an error.
func helpTopics(fsys fs.FS) ([]helpTopic, error) {
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, err
	}
	slices.SortFunc(names, func(a, b string) int {
		// The guide first: it is what most readers want.
		if (a == guideFile) != (b == guideFile) {
			if a == guideFile {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	var topics []helpTopic
	seen := map[string]string{}
	add := func(t helpTopic) error {
		if prev, ok := seen[t.name]; ok {
			return fmt.Errorf("help topic %q is both %s and %s", t.name, prev, t.title)
		}
		seen[t.name] = t.title
		topics = append(topics, t)
		return nil
	}
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		text := string(b)
		title, _ := docTitle(text)
		if err := add(helpTopic{name: strings.TrimSuffix(name, ".md"), title: title, file: name, text: text}); err != nil {
			return nil, err
		}
		if name != guideFile {
			continue
		}
		for _, s := range sections(text) {
			for _, n := range sectionNames(s.title) {
				if err := add(helpTopic{name: n, title: s.title, file: name, anchor: docs.Anchor(s.title), section: true, text: s.text}); err != nil {
					return nil, err
				}
			}
		}
	}
	return topics, nil
}

// cmdHelp prints the commands and the help topics, or one topic.
func cmdHelp(ctx context.Context, e env, args []string) error {
	topics, err := helpTopics(docs.Files())
	if err != nil {
		// The documents are part of the binary: TestHelpCoversEveryDoc
		// keeps their topics apart.
		return err
	}
	var list strings.Builder
	listTopics(&list, topics)
	showList := func() { fmt.Fprint(e.stderr, list.String()) }
	flags := newFlagSet(e, "help", "[TOPIC]", strings.TrimSuffix(list.String(), "\n"))
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errFlagsReported
	}
	switch flags.NArg() {
	case 0:
		usage(e.stdout)
		fmt.Fprintln(e.stdout)
		fmt.Fprint(e.stdout, list.String())
		return nil
	case 1:
	default:
		return &cmdError{kind: kindUsage, showUsage: showList,
			err: fmt.Errorf("one topic at a time, got %d: %s", flags.NArg(), strings.Join(flags.Args(), " "))}
	}
	for _, t := range topics {
		if t.name == flags.Arg(0) {
			fmt.Fprint(e.stdout, renderMarkdown(t.text, linkTopics(topics)))
			return nil
		}
	}
	for _, c := range commands() {
		if c.name == flags.Arg(0) {
			// A command without a section of its own (help among them):
			// its flags, as its -h prints them (on standard output here).
			he := e
			he.stderr = e.stdout
			if err := c.run(ctx, he, []string{"-h"}); err != nil && !errors.Is(err, flag.ErrHelp) {
				return err
			}
			return nil
		}
	}
	return &cmdError{kind: kindUsage, showUsage: showList, err: fmt.Errorf("unknown topic %q", flags.Arg(0))}
}

// listTopics prints the topics, the guide's sections under the guide.
func listTopics(w io.Writer, topics []helpTopic) {
	fmt.Fprintln(w, "help topics (selfplay help TOPIC; the same text as docs/ in the source):")
	for _, t := range topics {
		if t.section {
			fmt.Fprintf(w, "    %-14s %s\n", t.name, t.title)
		} else {
			fmt.Fprintf(w, "  %-16s %s (docs/%s)\n", t.name, t.title, t.file)
		}
	}
}

// docTitle returns the text of a document's first heading.
func docTitle(text string) (string, bool) {
	for _, l := range markdownLines(text) {
		if l.fence || !strings.HasPrefix(l.text, "# ") {
			continue
		}
		return strings.TrimSpace(l.text[2:]), true
	}
	return "", false
}

type section struct {
	title string
	text  string // from its heading to the next "## " or "# " heading
}

// sections returns the "## " sections of a Markdown text.
func sections(text string) []section {
	var out []section
	var cur *section
	var body []string
	flush := func() {
		if cur != nil {
			cur.text = strings.TrimRight(strings.Join(body, "\n"), "\n") + "\n"
			out = append(out, *cur)
		}
		cur, body = nil, nil
	}
	for _, l := range markdownLines(text) {
		if !l.fence && (strings.HasPrefix(l.text, "## ") || strings.HasPrefix(l.text, "# ")) {
			flush()
			if strings.HasPrefix(l.text, "## ") {
				cur = &section{title: strings.TrimSpace(l.text[3:])}
			}
		}
		if cur != nil {
			body = append(body, l.text)
		}
	}
	flush()
	return out
}

// sectionNames returns the topic names of a guide section's title: its
// first word, lower-cased, without "The" and punctuation; for a list of
// single words ("search, perft, bench") each word.
func sectionNames(title string) []string {
	word := func(s string) string {
		return strings.ToLower(strings.TrimFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }))
	}
	head, _, _ := strings.Cut(title, ":")
	parts := strings.Split(head, ", ")
	if len(parts) > 1 && !slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(strings.TrimSpace(p), " ") }) {
		var names []string
		for _, p := range parts {
			names = append(names, word(p))
		}
		return names
	}
	words := strings.Fields(head)
	if len(words) > 1 && strings.EqualFold(words[0], "the") {
		words = words[1:]
	}
	return []string{word(words[0])}
}

// linkTopics maps the documents' link targets (guide.md#run, config.md) to
// the topic that prints them.
func linkTopics(topics []helpTopic) map[string]string {
	m := map[string]string{}
	for _, t := range topics {
		if t.anchor == "" {
			m[t.file] = t.name
		} else if _, ok := m[t.file+"#"+t.anchor]; !ok {
			m[t.file+"#"+t.anchor] = t.name // the first of a list's names
		}
	}
	return m
}

type mdLine struct {
	text  string
	fence bool // a fence line or inside a fenced block
}

// markdownLines splits a Markdown text into lines and marks those of fenced
// blocks.
func markdownLines(text string) []mdLine {
	var out []mdLine
	in := false
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		isFence := strings.HasPrefix(strings.TrimSpace(l), "```")
		out = append(out, mdLine{text: l, fence: in || isFence})
		if isFence {
			in = !in
		}
	}
	return out
}

// Tables: up to wideTable columns wide a table is printed as it is; wider,
// its last column is wrapped at wrapWidth when the others take at most
// narrowLead, else it is printed a row at a time.
const (
	wideTable  = 100
	wrapWidth  = 80
	narrowLead = 40
)

// renderMarkdown renders the documents' Markdown as plain text for a
// terminal: headings underlined, fenced blocks indented without their
// fences, the readme-test annotations (HTML comments) left out, links as
// their text with the topic or address they lead to, code and emphasis
// marks dropped, tables in columns (or, when wider than wideTable, one row
// at a time).
func renderMarkdown(text string, topics map[string]string) string {
	var out []string
	lines := markdownLines(text)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimSpace(l.text)
		switch {
		case l.fence:
			if !strings.HasPrefix(trimmed, "```") {
				out = append(out, strings.TrimRight("    "+l.text, " "))
			}
		case strings.HasPrefix(trimmed, "<!--") && strings.HasSuffix(trimmed, "-->"):
			// A readme-test annotation: for the test, not the reader.
			if len(out) > 0 && out[len(out)-1] == "" && i+1 < len(lines) && strings.TrimSpace(lines[i+1].text) == "" {
				i++ // and one of the blank lines around it
			}
		case strings.HasPrefix(l.text, "#"):
			level := len(l.text) - len(strings.TrimLeft(l.text, "#"))
			title := renderInline(strings.TrimSpace(l.text[level:]), topics)
			out = append(out, title)
			switch level {
			case 1:
				out = append(out, strings.Repeat("=", utf8.RuneCountInString(title)))
			case 2:
				out = append(out, strings.Repeat("-", utf8.RuneCountInString(title)))
			}
		case strings.HasPrefix(trimmed, "|"):
			var rows []string
			for ; i < len(lines) && !lines[i].fence && strings.HasPrefix(strings.TrimSpace(lines[i].text), "|"); i++ {
				rows = append(rows, strings.TrimSpace(lines[i].text))
			}
			i--
			out = append(out, renderTable(rows, topics)...)
		default:
			out = append(out, renderInline(l.text, topics))
		}
	}
	return strings.Join(out, "\n") + "\n"
}

var (
	imageRE    = regexp.MustCompile(`!\[([^\]]*)\]\(([^)\s]+)\)`)
	linkRE     = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)\)`)
	emphasisRE = regexp.MustCompile(`\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*`)
)

// renderInline renders one line's inline Markdown: links (whose text may
// be code), then emphasis outside code spans, whose backticks go.
func renderInline(s string, topics map[string]string) string {
	s = imageRE.ReplaceAllString(s, "$1")
	s = linkRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := linkRE.FindStringSubmatch(m)
		target := linkTarget(sub[2], topics)
		if target == "" || strings.Trim(sub[1], "`") == target {
			return sub[1] // a section of this text, or a file named by its path
		}
		return sub[1] + " (" + target + ")"
	})
	var b strings.Builder
	for i, part := range strings.Split(s, "`") {
		if i%2 == 0 {
			part = emphasisRE.ReplaceAllString(part, "$1$2")
		}
		b.WriteString(part)
	}
	return b.String()
}

// linkTarget says where a document's link leads: a help topic, another
// file of the repository, or a web address.
func linkTarget(target string, topics map[string]string) string {
	if strings.Contains(target, "://") {
		return target
	}
	file, anchor, _ := strings.Cut(target, "#")
	if file == "" {
		file = "?" // a link within the document: its anchor names the section
	}
	for _, key := range []string{file + "#" + anchor, file} {
		if t, ok := topics[key]; ok {
			return "selfplay help " + t
		}
	}
	if file == "?" {
		return "" // a section of the text being read: its title is the link's text
	}
	// Relative to docs/; shown relative to the repository.
	p := path.Clean(path.Join("docs", file))
	if anchor != "" {
		p += "#" + anchor
	}
	return p
}

// renderTable renders a Markdown table's rows (header, alignment row, data).
func renderTable(rows []string, topics map[string]string) []string {
	var cells [][]string
	for k, r := range rows {
		if k == 1 && strings.Trim(r, "|:- ") == "" {
			continue // the alignment row
		}
		cells = append(cells, tableCells(r, topics))
	}
	if len(cells) == 0 {
		return nil
	}
	n := 0
	for _, c := range cells {
		n = max(n, len(c))
	}
	widths := make([]int, n)
	for _, c := range cells {
		for j, v := range c {
			widths[j] = max(widths[j], utf8.RuneCountInString(v))
		}
	}
	total := 0
	for _, w := range widths {
		total += w + 2
	}
	var out []string
	if total <= wideTable {
		for k, c := range cells {
			var b strings.Builder
			for j, v := range c {
				b.WriteString(v)
				if j < len(c)-1 {
					b.WriteString(strings.Repeat(" ", widths[j]-utf8.RuneCountInString(v)+2))
				}
			}
			out = append(out, strings.TrimRight(b.String(), " "))
			if k == 0 {
				out = append(out, strings.Repeat("-", total-2))
			}
		}
		return out
	}
	// Too wide for columns: the last column wrapped beside the others when
	// they are narrow, else each row's first cell, then its other cells
	// under their column's name.
	if lead := total - widths[n-1] - 2; n > 1 && lead <= narrowLead {
		for k, c := range cells {
			var b strings.Builder
			for j := 0; j < n-1; j++ {
				v := ""
				if j < len(c) {
					v = c[j]
				}
				b.WriteString(v + strings.Repeat(" ", widths[j]-utf8.RuneCountInString(v)+2))
			}
			last := ""
			if len(c) == n {
				last = c[n-1]
			}
			wrapped := wrap(strings.Repeat(" ", lead), last, wrapWidth)
			wrapped[0] = b.String() + strings.TrimLeft(wrapped[0], " ")
			out = append(out, wrapped...)
			if k == 0 {
				out = append(out, strings.Repeat("-", wrapWidth))
			}
		}
		return out
	}
	header := cells[0]
	for k, c := range cells[1:] {
		if k > 0 {
			out = append(out, "")
		}
		out = append(out, c[0])
		for j := 1; j < len(c); j++ {
			if c[j] == "" {
				continue
			}
			label := ""
			if j < len(header) && header[j] != "" {
				label = header[j] + ": "
			}
			out = append(out, wrap("    ", label+c[j], wrapWidth)...)
		}
	}
	return out
}

// tableCells splits a table row at its unescaped pipes and renders each cell.
func tableCells(row string, topics map[string]string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	row = strings.TrimSuffix(row, "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteByte('|')
			i++
		case row[i] == '|':
			cells = append(cells, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(row[i])
		}
	}
	cells = append(cells, cur.String())
	for j, c := range cells {
		cells[j] = renderInline(strings.TrimSpace(c), topics)
	}
	return cells
}

// wrap breaks text into lines of at most width runes (a longer word stands
// alone), each starting with indent.
func wrap(indent, text string, width int) []string {
	var out []string
	line := indent
	for _, w := range strings.Fields(text) {
		if line != indent && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width {
			out = append(out, line)
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	return append(out, line)
}
