// Package readmetest finds the shell command blocks of a Markdown file (the
// README, the docs) with the annotations that say how a test runs them. Its
// test runs every block of the repository's README.md and of every Markdown
// file under docs/ (DocFiles) in a fresh clone, and checks the links between
// them.
//
// A command block is a fenced block marked sh, bash, shell or console. An sh
// block is a script; a console block shows commands after "$ " and their
// output after them. An unmarked block that starts with a command (or with a
// "$ " prompt) is an error: mark it, so that it is run, or make it text.
//
// An HTML comment on the line before a block (blank lines may come between)
// says how to run it; without one a block must exit 0:
//
//	<!-- readme-test: ITEM, ITEM, ... -->
//
// with these items:
//
//	skip: REASON         not run (a cluster, hours of work); REASON says what covers it
//	needs TOOL...        run only where each TOOL is on PATH; where
//	                     SELFPLAY_REQUIRE_TOOLS names a missing TOOL, a failure
//	timeout DURATION     each command gets DURATION; then Ctrl-C (SIGINT to
//	                     its process group); without "interrupted ok" that is a failure
//	interrupted ok       a command stopped by the timeout may exit 0 or 130 (or
//	                     die of SIGINT), and must have printed something first
//	replace "OLD" "NEW"  run the block with OLD replaced by NEW (a smaller size
//	                     of the same command); OLD must occur in the block
//	expect "TEXT"        the block's output (stdout and stderr) contains TEXT
//	shown output         the output the README shows is the output: a console
//	                     block's lines after the command, or else the next
//	                     fenced block, with "..." for any lines
//
// An unknown item, or an annotation that is not followed by a command block,
// is an error.
package readmetest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// mdBlock is one command block of the Markdown file.
type mdBlock struct {
	Line     int      // line of the opening fence, from 1
	Lang     string   // sh, bash, shell or console
	Text     string   // the block's lines, without the fences
	Commands []string // the commands: lines joined at a trailing backslash, no blank or comment lines
	Shown    []string // the output the README shows for it (with "shown output")
	Ann      blockAnnotation
}

// blockAnnotation is what a block's readme-test comment says.
type blockAnnotation struct {
	Skip          string // reason; the block is not run
	Needs         []string
	Timeout       time.Duration // per command; 0: none
	InterruptedOK bool
	Replace       [][2]string
	Expect        []string
	ShownOutput   bool
}

var commandLangs = map[string]bool{"sh": true, "bash": true, "shell": true, "console": true}

// commandWords are the first words of commands in the README; an unmarked
// block starting with one of them (not followed by a colon, as an error
// message "selfplay run: ..." is) must be marked as a command block.
var commandWords = map[string]bool{
	"go": true, "selfplay": true, "./selfplay": true, "sbatch": true, "kubectl": true,
	"docker": true, "cutechess-cli": true, "fastchess": true, "/usr/bin/time": true,
	"bash": true, "sh": true, "cd": true, "git": true, "apt": true, "apt-get": true,
}

type fence struct {
	line  int // from 1
	lang  string
	lines []string
}

// fences returns the fenced blocks of a Markdown text.
func fences(text string) ([]fence, []string, error) {
	lines := strings.Split(text, "\n")
	var out []fence
	var cur *fence
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &fence{line: i + 1, lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))}
		case cur != nil && trimmed == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
	}
	if cur != nil {
		return nil, nil, fmt.Errorf("line %d: the fenced block is not closed", cur.line)
	}
	return out, lines, nil
}

// Fence is a fenced block of a Markdown text: the language after the
// opening fence, and the text between the fences, starting on Line.
type Fence struct {
	Line int // of the first line of Text, from 1
	Lang string
	Text string
}

// Fences returns the fenced blocks of a Markdown text, for tests of its
// other blocks (config loads its TOML ones).
func Fences(text string) ([]Fence, error) {
	fs, _, err := fences(text)
	if err != nil {
		return nil, err
	}
	out := make([]Fence, len(fs))
	for i, f := range fs {
		out[i] = Fence{Line: f.line + 1, Lang: f.lang, Text: strings.Join(f.lines, "\n") + "\n"}
	}
	return out, nil
}

// parseBlocks returns the command blocks of a Markdown text in order.
func parseBlocks(text string) ([]mdBlock, error) {
	fs, lines, err := fences(text)
	if err != nil {
		return nil, err
	}
	// Annotations by the line of the fence they stand before.
	anns := map[int]blockAnnotation{}
	inFence := make([]bool, len(lines)+2)
	for _, f := range fs {
		for l := f.line; l <= f.line+len(f.lines)+1; l++ {
			inFence[l] = true
		}
	}
	for i, l := range lines {
		if inFence[i+1] || !strings.Contains(l, "readme-test") {
			continue
		}
		ann, err := parseComment(strings.TrimSpace(l))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		next := i + 1
		for next < len(lines) && strings.TrimSpace(lines[next]) == "" {
			next++
		}
		if next >= len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[next]), "```") ||
			!commandLangs[strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[next]), "```"))] {
			return nil, fmt.Errorf("line %d: the readme-test annotation is not followed by a command block (```sh or ```console)", i+1)
		}
		anns[next+1] = ann
	}

	var blocks []mdBlock
	for k, f := range fs {
		if !commandLangs[f.lang] {
			if f.lang == "" || f.lang == "text" {
				if l, ok := firstLine(f.lines); ok && looksLikeCommand(l) {
					return nil, fmt.Errorf("line %d: the block starts with a command (%q) but is not marked ```sh or ```console", f.line, l)
				}
			}
			continue
		}
		b := mdBlock{Line: f.line, Lang: f.lang, Text: strings.Join(f.lines, "\n") + "\n", Ann: anns[f.line]}
		if f.lang == "console" {
			b.Commands, b.Shown = consoleCommands(f.lines)
			if len(b.Commands) == 0 {
				return nil, fmt.Errorf("line %d: the console block has no \"$ \" command", f.line)
			}
		} else {
			b.Commands = scriptCommands(f.lines)
			if len(b.Commands) == 0 {
				return nil, fmt.Errorf("line %d: the %s block has no command", f.line, f.lang)
			}
			if b.Ann.ShownOutput {
				// The output block must follow with only blank lines between.
				end := f.line + len(f.lines) + 1
				if k+1 >= len(fs) || fs[k+1].lang != "" && fs[k+1].lang != "text" ||
					strings.TrimSpace(strings.Join(lines[end:fs[k+1].line-1], "")) != "" {
					return nil, fmt.Errorf("line %d: \"shown output\", but no output block follows the block", f.line)
				}
				b.Shown = fs[k+1].lines
			}
		}
		if b.Ann.ShownOutput && !slices.ContainsFunc(b.Shown, func(l string) bool { return strings.TrimSpace(l) != "..." }) {
			// Nothing, or only "..." lines, which any output matches.
			return nil, fmt.Errorf("line %d: \"shown output\", but the block shows no output to check", f.line)
		}
		for _, r := range b.Ann.Replace {
			if !strings.Contains(b.Text, r[0]) {
				return nil, fmt.Errorf("line %d: replace %q: not in the block", f.line, r[0])
			}
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

func firstLine(lines []string) (string, bool) {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return strings.TrimSpace(l), true
		}
	}
	return "", false
}

func looksLikeCommand(line string) bool {
	if strings.HasPrefix(line, "$ ") {
		return true
	}
	words := strings.Fields(line)
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "=") {
		words = words[1:] // VAR=value before the command
	}
	if len(words) == 0 || !commandWords[words[0]] {
		return false
	}
	return len(words) == 1 || !strings.HasSuffix(words[1], ":")
}

// scriptCommands returns the commands of a script: lines joined at a
// trailing backslash, without blank and comment lines.
func scriptCommands(lines []string) []string {
	var cmds []string
	cur := ""
	for _, l := range lines {
		if cur == "" && (strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#")) {
			continue
		}
		if strings.HasSuffix(l, "\\") {
			cur += l + "\n"
			continue
		}
		cmds = append(cmds, cur+l)
		cur = ""
	}
	if cur != "" {
		cmds = append(cmds, strings.TrimSuffix(cur, "\\\n"))
	}
	return cmds
}

// consoleCommands returns the "$ " commands of a console block and the
// output lines shown after them.
func consoleCommands(lines []string) (cmds, shown []string) {
	cont := false
	for _, l := range lines {
		switch {
		case cont:
			cmds[len(cmds)-1] += "\n" + l
		case strings.HasPrefix(l, "$ "):
			cmds = append(cmds, strings.TrimPrefix(l, "$ "))
		default:
			shown = append(shown, l)
			continue
		}
		cont = strings.HasSuffix(l, "\\")
	}
	return cmds, shown
}

// parseComment parses a whole "<!-- readme-test: ... -->" line.
func parseComment(line string) (blockAnnotation, error) {
	var a blockAnnotation
	body, ok := strings.CutPrefix(line, "<!-- readme-test:")
	if !ok {
		return a, fmt.Errorf("%q: a readme-test annotation is one line <!-- readme-test: ITEM, ... -->", line)
	}
	body, ok = strings.CutSuffix(body, "-->")
	if !ok {
		return a, fmt.Errorf("%q: the annotation does not end with --> on its line", line)
	}
	rest := strings.TrimSpace(body)
	if rest == "" {
		return a, fmt.Errorf("%q: an empty annotation", line)
	}
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		var item string
		if r, ok := strings.CutPrefix(rest, "skip:"); ok {
			a.Skip = strings.TrimSpace(r)
			if a.Skip == "" {
				return a, fmt.Errorf("skip: give the reason")
			}
			break
		}
		switch {
		case strings.HasPrefix(rest, "replace "):
			q1, after, err := quoted(strings.TrimSpace(strings.TrimPrefix(rest, "replace ")))
			if err != nil {
				return a, fmt.Errorf("replace: %w", err)
			}
			q2, after2, err := quoted(strings.TrimSpace(after))
			if err != nil {
				return a, fmt.Errorf("replace %q: %w", q1, err)
			}
			a.Replace = append(a.Replace, [2]string{q1, q2})
			rest = after2
		case strings.HasPrefix(rest, "expect "):
			q, after, err := quoted(strings.TrimSpace(strings.TrimPrefix(rest, "expect ")))
			if err != nil {
				return a, fmt.Errorf("expect: %w", err)
			}
			a.Expect = append(a.Expect, q)
			rest = after
		default:
			item, rest, _ = strings.Cut(rest, ",")
			item = strings.TrimSpace(item)
			words := strings.Fields(item)
			switch {
			case item == "interrupted ok":
				a.InterruptedOK = true
			case item == "shown output":
				a.ShownOutput = true
			case len(words) == 2 && words[0] == "timeout":
				d, err := time.ParseDuration(words[1])
				if err != nil || d <= 0 {
					return a, fmt.Errorf("timeout %q: not a positive duration such as 20s", words[1])
				}
				a.Timeout = d
			case len(words) >= 2 && words[0] == "needs":
				a.Needs = append(a.Needs, words[1:]...)
			default:
				return a, fmt.Errorf("unknown annotation item %q (known: skip: REASON, needs TOOL, timeout D, interrupted ok, replace \"OLD\" \"NEW\", expect \"TEXT\", shown output)", item)
			}
			continue
		}
		rest = strings.TrimSpace(rest)
		if rest != "" {
			r, ok := strings.CutPrefix(rest, ",")
			if !ok {
				return a, fmt.Errorf("%q: items are separated by commas", rest)
			}
			rest = strings.TrimSpace(r)
		}
	}
	if a.Skip != "" && (a.Timeout != 0 || a.InterruptedOK || len(a.Needs)+len(a.Replace)+len(a.Expect) > 0 || a.ShownOutput) {
		return a, fmt.Errorf("skip: the other items of a skipped block mean nothing; skip must stand alone")
	}
	if a.InterruptedOK && a.Timeout == 0 {
		return a, fmt.Errorf("interrupted ok without a timeout")
	}
	return a, nil
}

// quoted reads a Go-quoted string at the start of s.
func quoted(s string) (string, string, error) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", fmt.Errorf("%q: want a quoted string", s)
	}
	v, err := strconv.Unquote(q)
	if err != nil {
		return "", "", err
	}
	return v, s[len(q):], nil
}

// matchShown reports whether out is the output shown: the shown lines in
// order, each segment between "..." lines consecutive in out, the first at
// the start and the last at the end unless "..." stands before or after
// them. Trailing spaces are ignored.
func matchShown(shown []string, out string) error {
	got := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i := range got {
		got[i] = strings.TrimRight(got[i], " \t")
	}
	var segs [][]string
	var seg []string
	open := []bool{false} // open[i]: "..." before segment i
	for _, l := range shown {
		l = strings.TrimRight(l, " \t")
		if strings.TrimSpace(l) == "..." {
			if len(seg) > 0 {
				segs = append(segs, seg)
				seg = nil
				open = append(open, true)
			} else {
				open[len(open)-1] = true
			}
			continue
		}
		seg = append(seg, l)
	}
	openEnd := seg == nil
	if seg != nil {
		segs = append(segs, seg)
	}
	pos := 0
	for i, s := range segs {
		found := -1
		for at := pos; at+len(s) <= len(got); at++ {
			if equalAt(got, at, s) {
				found = at
				break
			}
			if !open[i] {
				break
			}
		}
		if found < 0 {
			return fmt.Errorf("the output is not what the README shows: %s", describe(s, open[i], pos, got))
		}
		pos = found + len(s)
	}
	if !openEnd && pos != len(got) {
		return fmt.Errorf("the output goes on after the shown lines (%d more lines, first %q); end the shown output with ... if that is meant", len(got)-pos, got[pos])
	}
	return nil
}

func equalAt(got []string, at int, want []string) bool {
	for j, w := range want {
		if got[at+j] != w {
			return false
		}
	}
	return true
}

// describe says where the segment seg, looked for from output line pos (at
// it, or anywhere after it when open), first differs from the output.
func describe(seg []string, open bool, pos int, got []string) string {
	starts := []int{pos}
	if open {
		starts = nil
		for at := pos; at < len(got); at++ {
			if got[at] == seg[0] {
				starts = append(starts, at)
			}
		}
		if len(starts) == 0 {
			return fmt.Sprintf("the README shows the line %q, which is not in the output after its line %d", seg[0], pos)
		}
	}
	// Report the start that matches longest.
	best, bestAt := -1, 0
	for _, at := range starts {
		n := 0
		for n < len(seg) && at+n < len(got) && got[at+n] == seg[n] {
			n++
		}
		if n > best {
			best, bestAt = n, at
		}
	}
	if bestAt+best >= len(got) {
		return fmt.Sprintf("the output ends where the README shows %q", seg[best])
	}
	return fmt.Sprintf("output line %d is %q where the README shows %q", bestAt+best+1, got[bestAt+best], seg[best])
}
