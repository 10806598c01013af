package main

import (
	"errors"
	"flag"
	"path/filepath"
	"slices"
	"strings"

	"selfplay/config"
	"selfplay/internal/fileid"
	"selfplay/store"
)

// The -pgnout keys of fastchess (and cutechess-cli's file) that match
// takes: the comment fields (pgnOutFields, in fastchess's order),
// notation, append and min; all set pgn_out's keys of the same names.
// fastchess's match_line is read too, to be refused by name
// (pgnOutSettings).
var (
	pgnOutFields = []string{"timeleft", "latency", "nodes", "seldepth", "nps", "hashfull", "tbhits", "pv"}
	pgnOutWords  = append([]string{"file", "append", "notation", "min", "match_line"}, pgnOutFields...)
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

// liveOutSettings converts -pgnout and -epdout to pgn_out and epd_out.
func liveOutSettings(fs *flag.FlagSet, pgn, epd *liveOutFlag) ([]config.MatchSetting, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var out []config.MatchSetting
	if given["pgnout"] {
		s, err := pgnOutSettings(pgn.words)
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
	}
	if given["epdout"] {
		afresh := false
		file, err := liveOutFile("-epdout", epd.words, func(k, v string) error {
			if k != "append" {
				return usageErrorf("-epdout %s=%s: unknown key (valid: file, append)", k, v)
			}
			on, isBool := map[string]bool{"true": true, "false": false}[v]
			if !isBool {
				return usageErrorf("-epdout append=%s: want true or false", v)
			}
			afresh = !on
			return nil
		})
		if err != nil {
			return nil, err
		}
		if !afresh {
			out = append(out, config.MatchSetting{Flag: "-epdout", Key: "epd_out", Value: file})
		} else {
			out = append(out, config.MatchSetting{Flag: "-epdout", Key: "epd_out.file", Value: file},
				config.MatchSetting{Flag: "-epdout", Key: "epd_out.append", Value: false})
		}
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
// table when a comment field, a notation, append or min is given or the
// file as file=FILE (fastchess's dialect). A key given twice takes its
// last value, as in fastchess.
func pgnOutSettings(words []string) ([]config.MatchSetting, error) {
	last := map[string]string{}
	var order []string
	file, err := liveOutFile("-pgnout", words, func(k, v string) error {
		switch {
		case k == "match_line":
			return usageErrorf("-pgnout match_line=%s: not supported (engine output is not copied into the PGN; -log file=F engine=true keeps all of it)", v)
		case k == "notation" && !slices.Contains([]string{"san", "lan", "uci"}, v):
			return usageErrorf("-pgnout notation=%s: want san, lan or uci", v)
		case k != "notation" && v != "true" && v != "false":
			return usageErrorf("-pgnout %s=%s: want true or false", k, v)
		}
		if _, seen := last[k]; !seen {
			order = append(order, k)
		}
		last[k] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	var keys []config.MatchSetting
	for _, k := range order {
		switch v := last[k]; {
		case k == "notation" && v != "san":
			keys = append(keys, config.MatchSetting{Flag: "-pgnout notation", Key: "pgn_out.notation", Value: v})
		case k == "notation", k == "append" && v == "true", k == "min" && v == "false":
			// the default
		default:
			keys = append(keys, config.MatchSetting{Flag: "-pgnout " + k, Key: "pgn_out." + k, Value: v == "true"})
		}
	}
	// fastchess's own form (file=F) writes fastchess's PGN, for the
	// scripts that read its files, and so does its min=true, which only
	// it has; -pgnout F writes selfplay's.
	if last["min"] == "true" || slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "file=") }) {
		keys = append(keys, config.MatchSetting{Flag: "-pgnout file=", Key: "pgn_out.dialect", Value: string(config.DialectFastchess)})
	}
	if len(keys) == 0 {
		return []config.MatchSetting{{Flag: "-pgnout", Key: "pgn_out", Value: file}}, nil
	}
	return append([]config.MatchSetting{{Flag: "-pgnout", Key: "pgn_out.file", Value: file}}, keys...), nil
}

// lockLiveOutputs takes the lock of each live game file (pgn_out, epd_out)
// and traffic log (log) that the run's tournaments (only: those named;
// empty: all) append to, each file once however many tournaments name it,
// and returns the function that releases them, to be called when the run
// ends. A file that another process appends to (another run, with another
// database) is an input error that names the file and the holder: two
// runs would interleave their games in a live file, and tear one another's,
// and mix their blocks of lines in a log. The lock is
// store's (store.LockOutput): the kernel releases it when the process
// exits, also when it is killed. A file that does not exist is created,
// empty (as pgnout.Open would).
func lockLiveOutputs(cfg *config.File, only []string, command string) (release func(), err error) {
	var held []*store.OutputLock
	release = func() {
		for _, l := range held {
			l.Release()
		}
		held = nil
	}
	var locked []string // absolute paths
	for _, o := range runOutputs(cfg, only) {
		abs, err := filepath.Abs(o.path)
		if err != nil {
			abs = o.path
		}
		if slices.ContainsFunc(locked, func(p string) bool { return p == abs || fileid.Same(p, abs) }) {
			continue
		}
		l, err := store.LockOutput(o.path, command)
		if err != nil {
			release()
			if errors.As(err, new(*store.InUseError)) {
				what := "mix their games"
				if o.key == "log" {
					what = "interleave their engines' lines"
				}
				return nil, inputErrorf("tournament %s: %s %w: two runs would %s in it; "+
					"name another file, or let that run end", o.tournament, o.key, err, what)
			}
			return nil, inputErrorf("tournament %s: %s %s: %w", o.tournament, o.key, o.path, err)
		}
		held = append(held, l)
		locked = append(locked, abs)
	}
	return release, nil
}
