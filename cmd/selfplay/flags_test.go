package main

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/openings"
)

// For the flag package's own values, printDefaults prints what
// PrintDefaults prints, also after the flags were set.
func TestPrintDefaultsAsTheFlagPackage(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.String("db", "selfplay.db", "database file")
	fs.String("empty", "", "no default")
	fs.Int("n", 7, "a number")
	fs.Int("zero", 0, "no default")
	fs.Float64("level", 0.95, "a level")
	fs.Duration("d", 2*time.Minute, "a duration")
	fs.Bool("q", false, "one letter")
	fs.Bool("restart", false, "a bool")
	fs.String("serve", "", "serve on `addr`\nsecond line")
	if err := fs.Parse([]string{"-db", "other.db", "-n", "3", "-q"}); err != nil {
		t.Fatal(err)
	}
	var want, got bytes.Buffer
	fs.SetOutput(&want)
	fs.PrintDefaults()
	fs.SetOutput(&got)
	printDefaults(fs)
	if got.String() != want.String() {
		t.Errorf("printDefaults:\n%s\nflag.PrintDefaults:\n%s", got.String(), want.String())
	}
}

// match -h names each setting's type and prints the config's defaults.
func TestMatchHelpDefaults(t *testing.T) {
	code, _, stderr := run(t, "match", "-h")
	if code != exitOK {
		t.Fatalf("match -h: exit %d", code)
	}
	for _, want := range []string{
		"  -rounds int\n    \tpasses over the openings; each opening is a game pair (default " + fmt.Sprint(config.DefaultRounds) + ")\n",
		"  -seed int\n", "  -nodes int\n    \tper-move limit: nodes (exactly one of -nodes, -depth, -movetime, -tc)\n",
		"  -nodes-jitter float\n", "  -movetime duration\n", "  -tc string\n",
		"(default " + fmt.Sprint(config.DefaultRefereeNodes) + ")\n",
		"(default " + fmt.Sprint(config.DefaultMargin) + ")\n",
		"(default " + fmt.Sprint(config.DefaultSPRTAlpha) + ")\n",
		"  -time-margin duration\n    \tgrace before a time forfeit under -movetime and -tc (default " + config.DefaultTimeMargin.String() + ")\n",
		"  -move-timeout duration\n    \tan external engine's longest move under -nodes or -depth before it loses as hung (default 2m)\n",
		"(default " + openings.SetFHR25 + ")\n", "(default " + string(openings.OrderSequential) + ")\n",
		"(default " + string(config.PolicyReferee) + ")\n", "(default " + config.DefaultSPRTModel.String() + ")\n",
		"  -db string\n    \tdatabase file (default \"selfplay.db\")\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("match -h lacks %q", want)
		}
	}
}

func TestSettingValues(t *testing.T) {
	tests := []struct {
		value   setting
		text    string
		want    any
		wantErr string
	}{
		{intDefault(0), " 100 ", int64(100), ""},
		{intDefault(0), "0x10", nil, `-f "0x10": want an integer`},
		{intDefault(0), "1_000", nil, `-f "1_000": want an integer`},
		{floatDefault(0), "0.1", 0.1, ""},
		{floatDefault(0), "abc", nil, `-f "abc": want a number`},
		{durationDefault(0), "0.1s", "0.1s", ""}, // as given: the config decodes it
		{textDefault(""), "two-ply", "two-ply", ""},
	}
	for _, tt := range tests {
		if err := tt.value.Set(tt.text); err != nil {
			t.Fatalf("Set(%q): %v", tt.text, err)
		}
		got, err := tt.value.value("-f")
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%T %q: error %v, want %q", tt.value, tt.text, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%T %q: %#v, %v; want %#v", tt.value, tt.text, got, err, tt.want)
		}
	}
	for d, want := range map[time.Duration]string{0: "", 100 * time.Millisecond: "100ms", 2 * time.Minute: "2m", time.Hour: "1h", 90 * time.Second: "1m30s"} {
		if got := durationDefault(d).String(); got != want {
			t.Errorf("durationDefault(%v) = %q, want %q", d, got, want)
		}
	}
}
