package readmetest

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	const fence = "```"
	tests := []struct {
		name    string
		md      string
		want    []mdBlock
		wantErr string
	}{
		{
			name: "sh block, commands joined at backslashes, comments dropped",
			md:   "text\n" + fence + "sh\ngo run ./cmd/selfplay run   # comment\n\n# a comment line\nselfplay suite -epd bk \\\n  -depth 4\n" + fence + "\n",
			want: []mdBlock{{Line: 2, Lang: "sh",
				Text:     "go run ./cmd/selfplay run   # comment\n\n# a comment line\nselfplay suite -epd bk \\\n  -depth 4\n",
				Commands: []string{"go run ./cmd/selfplay run   # comment", "selfplay suite -epd bk \\\n  -depth 4"}}},
		},
		{
			name: "annotation with every item",
			md: "<!-- readme-test: timeout 20s, interrupted ok, needs stockfish jq, replace \"a, b\" \"c\", expect \"x, y\", shown output -->\n\n" +
				fence + "sh\nselfplay a, b\n" + fence + "\n\n" + fence + "\nx, y\n...\n" + fence + "\n",
			want: []mdBlock{{Line: 3, Lang: "sh", Text: "selfplay a, b\n", Commands: []string{"selfplay a, b"},
				Shown: []string{"x, y", "..."},
				Ann: blockAnnotation{Timeout: 20 * time.Second, InterruptedOK: true, Needs: []string{"stockfish", "jq"},
					Replace: [][2]string{{"a, b", "c"}}, Expect: []string{"x, y"}, ShownOutput: true}}},
		},
		{
			name: "skip takes the rest of the line as its reason",
			md:   "<!-- readme-test: skip: needs a Slurm cluster, which CI, er, has elsewhere -->\n" + fence + "sh\nsbatch x\n" + fence + "\n",
			want: []mdBlock{{Line: 2, Lang: "sh", Text: "sbatch x\n", Commands: []string{"sbatch x"},
				Ann: blockAnnotation{Skip: "needs a Slurm cluster, which CI, er, has elsewhere"}}},
		},
		{
			name: "console block: commands and the output shown",
			md:   fence + "console\n$ selfplay elo -w 1 \\\n  -l 2\nelo -1\n...\n" + fence + "\n",
			want: []mdBlock{{Line: 1, Lang: "console", Text: "$ selfplay elo -w 1 \\\n  -l 2\nelo -1\n...\n",
				Commands: []string{"selfplay elo -w 1 \\\n  -l 2"}, Shown: []string{"elo -1", "..."}}},
		},
		{
			name: "output blocks and other languages are not commands",
			md:   fence + "\nselfplay run: games.db is in use\n" + fence + "\n" + fence + "toml\n[engines.a]\n" + fence + "\n" + fence + "\n25/800, fhr\n" + fence + "\n",
		},
		{name: "unknown item", md: "<!-- readme-test: timeout 20s, interupted ok -->\n" + fence + "sh\ngo x\n" + fence + "\n", wantErr: `unknown annotation item "interupted ok"`},
		{name: "bad duration", md: "<!-- readme-test: timeout soon -->\n" + fence + "sh\ngo x\n" + fence + "\n", wantErr: "not a positive duration"},
		{name: "interrupted ok needs a timeout", md: "<!-- readme-test: interrupted ok -->\n" + fence + "sh\ngo x\n" + fence + "\n", wantErr: "without a timeout"},
		{name: "skip stands alone", md: "<!-- readme-test: timeout 2s, skip: why -->\n" + fence + "sh\ngo x\n" + fence + "\n", wantErr: "skip must stand alone"},
		{name: "skip without a reason", md: "<!-- readme-test: skip: -->\n" + fence + "sh\ngo x\n" + fence + "\n", wantErr: "give the reason"},
		{name: "annotation before prose", md: "<!-- readme-test: timeout 2s -->\ntext\n" + fence + "sh\ngo x\n" + fence + "\n", wantErr: "not followed by a command block"},
		{name: "annotation before an output block", md: "<!-- readme-test: timeout 2s -->\n" + fence + "\ngo x\n" + fence + "\n", wantErr: "not followed by a command block"},
		{name: "annotation misspelt", md: "<!-- readme-test timeout 2s -->\n" + fence + "sh\ngo x\n" + fence + "\n", wantErr: "a readme-test annotation is one line"},
		{name: "replace of text not in the block", md: "<!-- readme-test: replace \"-depth 9\" \"-depth 5\" -->\n" + fence + "sh\nselfplay bench -depth 8\n" + fence + "\n", wantErr: "not in the block"},
		{name: "shown output without an output block", md: "<!-- readme-test: shown output -->\n" + fence + "sh\ngo x\n" + fence + "\ntext\n" + fence + "\nout\n" + fence + "\n", wantErr: "no output block follows"},
		{name: "shown output of only ... lines", md: "<!-- readme-test: shown output -->\n" + fence + "sh\ngo x\n" + fence + "\n" + fence + "\n...\n" + fence + "\n", wantErr: "shows no output to check"},
		{name: "unmarked command block", md: fence + "\nCGO_ENABLED=0 go build -o selfplay ./cmd/selfplay\n" + fence + "\n", wantErr: "not marked"},
		{name: "unmarked console block", md: fence + "\n$ selfplay elo -w 1 -l 0 -d 0\nelo +inf\n" + fence + "\n", wantErr: "not marked"},
		{name: "console block without a command", md: fence + "console\nelo +inf\n" + fence + "\n", wantErr: "no \"$ \" command"},
		{name: "unclosed fence", md: fence + "sh\ngo x\n", wantErr: "not closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseBlocks(tt.md)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse: error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse:\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestMatchShown(t *testing.T) {
	out := "games 1000\nscore 0.546\nelo 32.05\nlos 0.99997\nverdict +32.1\n"
	tests := []struct {
		shown string
		ok    bool
	}{
		{"games 1000\nscore 0.546\nelo 32.05\nlos 0.99997\nverdict +32.1", true},
		{"games 1000\n...\nverdict +32.1", true},
		{"...\nelo 32.05\nlos 0.99997\n...", true},
		{"games 1000\nscore 0.546   \n...", true}, // trailing spaces
		{"elo 32.05\n...", false},                 // not at the start
		{"games 1000\nscore 0.546", false},        // the output goes on
		{"games 1000\nelo 32.05\n...", false},     // not consecutive
		{"...\nlos 0.99997\nelo 32.05\n...", false},
		{"...\nverdict +32.2", false},
	}
	for _, tt := range tests {
		err := matchShown(strings.Split(tt.shown, "\n"), out)
		if (err == nil) != tt.ok {
			t.Errorf("MatchShown(%q): %v, want ok=%v", tt.shown, err, tt.ok)
		}
	}
}

func TestMatchShownSaysWhere(t *testing.T) {
	out := "a\nb\nc\nd\n"
	tests := []struct{ shown, want string }{
		{"a\nb\nx\n...", `output line 3 is "c" where the README shows "x"`},
		{"...\nc\ny\n...", `output line 4 is "d" where the README shows "y"`},
		{"...\nz\n...", `the README shows the line "z", which is not in the output after its line 0`},
		{"a\nb\nc\nd\ne", `the output ends where the README shows "e"`},
	}
	for _, tt := range tests {
		err := matchShown(strings.Split(tt.shown, "\n"), out)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("MatchShown(%q): %v, want %q", tt.shown, err, tt.want)
		}
	}
}
