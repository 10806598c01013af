package main

import (
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"selfplay/docs"
	"selfplay/internal/readmetest"
)

// Every topic prints its document or section, rendered: the title, a line
// that only that text holds, and no Markdown fences or test annotations.
func TestHelpTopics(t *testing.T) {
	tests := []struct {
		topic, title, holds string
	}{
		{"guide", "The selfplay guide", "Every command in depth"},
		{"commands", "Commands", "Exit codes of the built binary"},
		{"run", "run", "Per-game lines."},
		{"match", "match", "The tournament's name is generated"},
		{"search", "search, perft, bench", "bench searches each position to a fixed depth"},
		{"perft", "search, perft, bench", "bench searches each position to a fixed depth"},
		{"bench", "search, perft, bench", "bench searches each position to a fixed depth"},
		{"suite", "suite", "A position is solved when"},
		{"variants", "The variants", "How each rule is implemented"},
		{"database", "The database", "SQLite in WAL mode"},
		{"pgn", "PGN", "Round is pair.game."},
		{"report", "report", "A verdict line reads:"},
		{"serve", "serve: watching a run in the browser", "serve only reads"},
		{"ratings", "Ratings of any PGN", "selfplay ratings FILE.pgn... reads the games"},
		{"compare", "compare: the difference between matches", "The matches must be independent"},
		{"uci", "UCI: external engines and selfplay as an engine", "Every variant as a UCI engine"},
		{"debugging", "Debugging an engine: the UCI traffic log, compliance, PV checks", "selfplay compliance ENGINE"},
		{"config", "tournaments.toml", "[tournament.sprt]"},
		{"statistics", "Statistics", "Ratings compared with Ordo and BayesElo"},
		{"cluster", "Running on a cluster", "SPRT in waves."},
		{"papers", "The papers' tables and our results", "FHR Table 1: WAC positions solved"},
		{"architecture", "Architecture", "The arbiter is github.com/notnil/chess"},
	}
	for _, tt := range tests {
		code, stdout, stderr := run(t, "help", tt.topic)
		if code != exitOK || stderr != "" {
			t.Errorf("help %s: exit %d, stderr %q", tt.topic, code, stderr)
			continue
		}
		if !strings.HasPrefix(stdout, tt.title+"\n") {
			t.Errorf("help %s: starts %q, want the title %q", tt.topic, firstLine(stdout), tt.title)
		}
		if !strings.Contains(stdout, tt.holds) {
			t.Errorf("help %s: the output lacks %q", tt.topic, tt.holds)
		}
		for _, markup := range []string{"```", "<!--", "readme-test", "](", "**"} {
			if strings.Contains(stdout, markup) {
				t.Errorf("help %s: the output holds Markdown %q", tt.topic, markup)
			}
		}
	}
	// Each guide section is its own topic, and prints nothing of the next.
	_, run, _ := run(t, "help", "run")
	if strings.Contains(run, "The tournament's name is generated") {
		t.Errorf("help run goes on into match")
	}
}

// Every topic of the documents is in the table above, and every document
// of docs/ (the ones the README test runs) is embedded as a topic.
func TestHelpCoversEveryDoc(t *testing.T) {
	topics, err := helpTopics(docs.Files())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tp := range topics {
		names = append(names, tp.name)
	}
	files, err := readmetest.DocFiles("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f == "README.md" {
			continue
		}
		if path.Dir(f) != "docs" {
			t.Errorf("%s: a document below docs/ is not embedded for selfplay help; keep the documents in docs/", f)
			continue
		}
		if name := strings.TrimSuffix(path.Base(f), ".md"); !slices.Contains(names, name) {
			t.Errorf("%s is not the help topic %q", f, name)
		}
	}
	for _, want := range []string{"guide", "config", "statistics", "cluster", "papers", "architecture", "run", "match", "serve"} {
		if !slices.Contains(names, want) {
			t.Errorf("no help topic %q among %v", want, names)
		}
	}
}

func TestHelpListsTopics(t *testing.T) {
	code, stdout, stderr := run(t, "help")
	if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "usage: selfplay <command>") {
		t.Fatalf("help: exit %d, stderr %q, stdout %q", code, stderr, firstLine(stdout))
	}
	for _, want := range []string{"\n  guide ", "\n    run ", "\n    serve ", "\n  config ", "\n  papers "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help: the list lacks %q:\n%s", want, stdout)
		}
	}
}

func TestHelpUnknownTopic(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"help", "nosuch"}, `selfplay help: unknown topic "nosuch"`},
		{[]string{"help", "run", "match"}, "selfplay help: one topic at a time"},
		{[]string{"help", "\x1b[31mred"}, `unknown topic "\x1b[31mred"`},
	}
	for _, tt := range tests {
		code, stdout, stderr := run(t, tt.args...)
		if code != exitUsage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want exit %d and nothing on stdout", tt.args, code, stdout, exitUsage)
		}
		if !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "\n    run ") || !strings.Contains(stderr, "\n  config ") {
			t.Errorf("%q: stderr %q; want %q and the list of topics", tt.args, stderr, tt.want)
		}
		if strings.Contains(stderr, "\x1b") {
			t.Errorf("%q: stderr holds an escape character", tt.args)
		}
	}
}

// help is a command like the others: help help prints its usage, as
// help -h does, on standard output.
func TestHelpHelp(t *testing.T) {
	code, stdout, stderr := run(t, "help", "help")
	if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "usage: selfplay help [TOPIC]\n") {
		t.Fatalf("help help: exit %d, stderr %q, stdout %q", code, stderr, firstLine(stdout))
	}
	if !strings.Contains(stdout, "\n    run ") || !strings.Contains(stdout, "\n  config ") {
		t.Errorf("help help: the usage lacks the list of topics:\n%s", stdout)
	}
}

// Two topics of one name are an error, not one hiding the other.
func TestHelpTopicsCollide(t *testing.T) {
	fsys := fstest.MapFS{
		"guide.md": {Data: []byte("# Guide\n\n## run\n\ntext\n")},
		"run.md":   {Data: []byte("# Run\n")},
	}
	if _, err := helpTopics(fsys); err == nil || !strings.Contains(err.Error(), `"run"`) {
		t.Errorf("helpTopics: %v, want an error naming the topic run", err)
	}
}

func TestRenderMarkdown(t *testing.T) {
	topics := map[string]string{"guide.md#match": "match", "config.md": "config"}
	tests := []struct {
		name, md, want string
	}{
		{"headings", "# Title\n\n## Sub\n\n### Deeper\n", "Title\n=====\n\nSub\n---\n\nDeeper\n"},
		{"fenced block without fences or annotation",
			"Run:\n\n<!-- readme-test: timeout 5s -->\n```sh\ngo run ./cmd/selfplay run\n```\n\nDone.\n",
			"Run:\n\n    go run ./cmd/selfplay run\n\nDone.\n"},
		{"code and emphasis marks", "**Bold** and *shard* and `a *b*` code\n", "Bold and shard and a *b* code\n"},
		{"links", "see [match](guide.md#match), [config](config.md), [fastchess](https://x.org/f), [`epd/x.md`](../epd/x.md), [up](#top)\n",
			"see match (selfplay help match), config (selfplay help config), fastchess (https://x.org/f), epd/x.md, up\n"},
		{"image link", "[![a board](screenshots/b.png)](screenshots/b.png)\n", "a board (docs/screenshots/b.png)\n"},
		{"narrow table", "| a | b |\n|---|---:|\n| `x\\|y` | 2 |\n", "a    b\n------\nx|y  2\n"},
		{"wide table, narrow first column",
			"| code | meaning |\n|---|---|\n| 0 | " + strings.Repeat("word ", 30) + "|\n",
			"code  meaning\n" + strings.Repeat("-", 80) + "\n0     " + strings.TrimSpace(strings.Repeat("word ", 15)) + "\n      " + strings.TrimSpace(strings.Repeat("word ", 15)) + "\n"},
		{"wide table, wide columns",
			"| page | shows |\n|---|---|\n| " + strings.Repeat("p", 50) + " | " + strings.Repeat("s", 60) + " |\n",
			strings.Repeat("p", 50) + "\n    shows: " + strings.Repeat("s", 60) + "\n"},
	}
	for _, tt := range tests {
		if got := renderMarkdown(tt.md, topics); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// A command without a topic of its own shows its flags, as its -h does,
// on standard output: help lists every command.
func TestHelpCommandWithoutTopic(t *testing.T) {
	for _, c := range commands() {
		if c.name == "help" {
			continue
		}
		code, stdout, stderr := run(t, "help", c.name)
		if code != exitOK || stderr != "" || stdout == "" {
			t.Errorf("help %s: exit %d, stdout %.60q, stderr %.200q", c.name, code, stdout, stderr)
		}
	}
}
