package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"selfplay/config"
)

// The -pgnout keys of fastchess (and cutechess-cli's file) that match
// takes: those with data here set pgn_out's fields; the others are noted
// and left out (notAvailable) or refused (append=false, notation=lan).
var (
	pgnOutFields = []string{"nodes", "seldepth", "nps"}
	notAvailable = []string{"hashfull", "tbhits", "pv", "timeleft", "latency"}
	pgnOutWords  = append(append([]string{"file", "append", "notation"}, pgnOutFields...), notAvailable...)
)

// wordSep joins a flag's words into one flag value (no file name holds it).
const wordSep = "\x00"

// liveOutFlag is -pgnout or -epdout: a file, or fastchess's KEY=VALUE
// words (gathered into one value by gatherLiveOut).
type liveOutFlag struct{ words []string }

func (f *liveOutFlag) String() string { return strings.Join(f.words, " ") }
func (f *liveOutFlag) Set(v string) error {
	f.words = strings.Split(v, wordSep)
	return nil
}

// gatherLiveOut joins the words after -pgnout and -epdout into their flag's
// value: the first word, and after it every KEY=VALUE word whose key is
// one of -pgnout's (fastchess: -pgnout file=out.pgn nodes=true). The other
// words stay where they were.
func gatherLiveOut(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		name := strings.TrimLeft(a, "-")
		if (name != "pgnout" && name != "epdout") || a == name || i+1 >= len(args) {
			continue
		}
		words := []string{args[i+1]}
		i++
		for i+1 < len(args) {
			k, _, ok := strings.Cut(args[i+1], "=")
			if !ok || !slices.Contains(pgnOutWords, k) {
				break
			}
			words = append(words, args[i+1])
			i++
		}
		out = append(out, strings.Join(words, wordSep))
	}
	return out
}

// liveOutSettings converts -pgnout and -epdout to pgn_out and epd_out;
// a field that selfplay does not record yet gets a one-line note on w.
func liveOutSettings(fs *flag.FlagSet, pgn, epd *liveOutFlag, w io.Writer) ([]config.MatchSetting, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var out []config.MatchSetting
	if given["pgnout"] {
		s, err := pgnOutSettings(pgn.words, w)
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
	}
	if given["epdout"] {
		file, err := liveOutFile("-epdout", epd.words, func(k, v string) error {
			return usageErrorf("-epdout %s=%s: unknown key (valid: file)", k, v)
		})
		if err != nil {
			return nil, err
		}
		out = append(out, config.MatchSetting{Flag: "-epdout", Key: "epd_out", Value: file})
	}
	return out, nil
}

// liveOutFile reads a flag's file (the first word, or file=) and hands the
// other KEY=VALUE words to key.
func liveOutFile(flagName string, words []string, key func(k, v string) error) (string, error) {
	file := ""
	for i, word := range words {
		k, v, ok := strings.Cut(word, "=")
		switch {
		case i == 0 && !ok:
			file = word
		case ok && k == "file":
			file = v
		case ok:
			if err := key(k, v); err != nil {
				return "", err
			}
		default:
			return "", usageErrorf("%s %q: want FILE or file=FILE", flagName, word)
		}
	}
	if file == "" {
		return "", usageErrorf("%s: no file (%s FILE or %s file=FILE)", flagName, flagName, flagName)
	}
	return file, nil
}

// pgnOutSettings reads -pgnout's words: pgn_out = "FILE", or a pgn_out
// table when a comment field is asked for.
func pgnOutSettings(words []string, w io.Writer) ([]config.MatchSetting, error) {
	var fields []config.MatchSetting
	file, err := liveOutFile("-pgnout", words, func(k, v string) error {
		on, isBool := map[string]bool{"true": true, "false": false}[v]
		switch {
		case k == "notation":
			if v != "san" {
				return usageErrorf("-pgnout notation=%s: only san is written", v)
			}
		case !isBool:
			return usageErrorf("-pgnout %s=%s: want true or false", k, v)
		case k == "append":
			if !on {
				return usageErrorf("-pgnout append=false: the file is always appended to (the same command resumes the match and continues it); remove the file to start it afresh")
			}
		case slices.Contains(notAvailable, k):
			if on {
				fmt.Fprintf(w, "selfplay match: -pgnout %s=true: not recorded yet; the comments leave it out\n", k)
			}
		default:
			fields = append(fields, config.MatchSetting{Flag: "-pgnout " + k, Key: "pgn_out." + k, Value: on})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return []config.MatchSetting{{Flag: "-pgnout", Key: "pgn_out", Value: file}}, nil
	}
	return append([]config.MatchSetting{{Flag: "-pgnout", Key: "pgn_out.file", Value: file}}, fields...), nil
}
