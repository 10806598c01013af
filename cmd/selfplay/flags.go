package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// newFlagSet makes a command's flag set. Its errors go to standard error,
// and -h prints, also to standard error, every command's help in one form:
//
//	usage: selfplay NAME SYNOPSIS
//
//	ABOUT (if any)
//
//	flags:
//	  -flag ...
func newFlagSet(e env, name, synopsis string, about ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		w := fs.Output()
		line := "usage: selfplay " + name
		if synopsis != "" {
			line += " " + synopsis
		}
		fmt.Fprintln(w, line)
		for _, a := range about {
			fmt.Fprintf(w, "\n%s\n", a)
		}
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(w, "\nflags:")
			printDefaults(fs)
		}
	}
	return fs
}

// typedValue is a flag value of this package's: the flag package names
// the argument of any Value it does not know "value"; -h names this one's
// by its type.
type typedValue interface {
	flag.Value
	typeName() string
}

// printDefaults is fs.PrintDefaults, which it calls for each flag, but
// for a typedValue, whose argument it names by the type and whose default
// (its text when registered; none when empty) it prints unquoted.
func printDefaults(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		tv, ok := f.Value.(typedValue)
		if !ok {
			one := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
			one.SetOutput(fs.Output())
			one.Var(f.Value, f.Name, f.Usage)
			one.Lookup(f.Name).DefValue = f.DefValue // Var takes the current value
			one.PrintDefaults()
			return
		}
		_, usage := flag.UnquoteUsage(f)
		// The layout of flag.PrintDefaults for a flag with an argument.
		line := fmt.Sprintf("  -%s %s\n    \t%s", f.Name, tv.typeName(), strings.ReplaceAll(usage, "\n", "\n    \t"))
		if f.DefValue != "" {
			line += " (default " + f.DefValue + ")"
		}
		fmt.Fprintln(fs.Output(), line)
	})
}

// A setting is the value of a flag of match that sets a key of the
// tournament's config. It keeps the text as given: the config that
// -print-config prints holds it as written, and it is decoded only once
// the engines' words are read (value), so that a bad one is reported as
// the config's errors are ("-nodes "x": want an integer"), not by the
// flag package. Its text when registered is the default -h prints.
type setting interface {
	typedValue
	// value is the setting as the TOML decoder gives it: int64, float64
	// or string (durations and names, which the config decodes).
	value(flagName string) (any, error)
}

// settingText is the text of a setting flag.
type settingText struct{ text string }

func (s *settingText) Set(v string) error { s.text = v; return nil }

func (s *settingText) String() string {
	if s == nil {
		return ""
	}
	return s.text
}

// intSetting is an integer setting (base 10, spaces around it ignored).
type intSetting struct{ settingText }

// intDefault is an integer setting whose default is n; 0: none.
func intDefault[T ~int | ~int64](n T) *intSetting {
	if n == 0 {
		return &intSetting{}
	}
	return &intSetting{settingText{strconv.FormatInt(int64(n), 10)}}
}

func (*intSetting) typeName() string { return "int" }

// pliesSetting is -plies: an integer, or "all" (every move of each game of
// a .pgn file), which the config takes as text.
type pliesSetting struct{ intSetting }

func (*pliesSetting) typeName() string { return "int|all" }

func (s *pliesSetting) value(flagName string) (any, error) {
	if strings.TrimSpace(s.text) == "all" {
		return "all", nil
	}
	n, err := s.intSetting.value(flagName)
	if err != nil {
		return nil, fmt.Errorf("%s %q: want an integer or all", flagName, s.text)
	}
	return n, nil
}

func (s *intSetting) value(flagName string) (any, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s.text), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%s %q: want an integer", flagName, s.text)
	}
	return n, nil
}

// floatSetting is a number setting.
type floatSetting struct{ settingText }

// floatDefault is a number setting whose default is x; 0: none.
func floatDefault(x float64) *floatSetting {
	if x == 0 {
		return &floatSetting{}
	}
	return &floatSetting{settingText{strconv.FormatFloat(x, 'g', -1, 64)}}
}

func (*floatSetting) typeName() string { return "float" }

func (s *floatSetting) value(flagName string) (any, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s.text), 64)
	if err != nil {
		return nil, fmt.Errorf("%s %q: want a number", flagName, s.text)
	}
	return x, nil
}

// durationSetting is a duration setting, decoded by the config.
type durationSetting struct{ settingText }

// durationDefault is a duration setting whose default is d, written
// without trailing zero units (2m, not 2m0s); 0: none.
func durationDefault(d time.Duration) *durationSetting {
	if d == 0 {
		return &durationSetting{}
	}
	s := d.String()
	for _, zero := range []string{"m0s", "h0m"} {
		if strings.HasSuffix(s, zero) {
			s = strings.TrimSuffix(s, zero[1:])
		}
	}
	return &durationSetting{settingText{s}}
}

func (*durationSetting) typeName() string { return "duration" }

func (s *durationSetting) value(string) (any, error) { return s.text, nil }

// boolSetting is a true-or-false setting. It takes its value as a
// word (-resign-two-sided false), as every setting does.
type boolSetting struct{ settingText }

func (*boolSetting) typeName() string { return "bool" }

func (s *boolSetting) value(flagName string) (any, error) {
	switch strings.TrimSpace(s.text) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return nil, fmt.Errorf("%s %q: want true or false", flagName, s.text)
}

// textSetting is a setting of text (a name, a time control, ELO0,ELO1),
// decoded by the config.
type textSetting struct{ settingText }

// textDefault is a text setting whose default is v's text; "": none.
func textDefault(v any) *textSetting { return &textSetting{settingText{fmt.Sprint(v)}} }

func (*textSetting) typeName() string { return "string" }

func (s *textSetting) value(string) (any, error) { return s.text, nil }

// parseFlags parses a command's flags and refuses arguments after them.
// Its error ends the command: flag.ErrHelp after -h (exit 0), or a bad
// flag, which the flag package has reported with the usage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return errFlagsReported
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// parseFlagsAndFiles parses flags anywhere among the file arguments
// ("a.pgn -anchor x b.pgn"), as the tools that take file lists do; "--"
// ends the flags. Its error is parseFlags'.
func parseFlagsAndFiles(fs *flag.FlagSet, args []string) (files []string, err error) {
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, err
			}
			return nil, errFlagsReported
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(files, rest...), nil
		}
		if len(rest) == 0 {
			break
		}
		files = append(files, rest[0])
		args = rest[1:]
	}
	return files, nil
}

// anchorRatingFlag registers -anchor-rating, report's and ratings' Ordo -a.
func anchorRatingFlag(fs *flag.FlagSet) *float64 {
	return fs.Float64("anchor-rating", 0,
		"rating of the anchor, or of the average without -anchor (Ordo's -a): e.g. 2000 reads the table on a scale where the anchor is 2000")
}

// checkAnchorRating rejects an -anchor-rating that is not a plain rating.
func checkAnchorRating(v float64) error {
	if !(v >= -1e5 && v <= 1e5) { // also NaN
		return usageErrorf("-anchor-rating %v: want a rating between -100000 and 100000", v)
	}
	return nil
}

// durationFlag is a time.Duration flag whose error says what a duration
// looks like: the flag package says only "parse error" for "200".
type durationFlag struct{ d *time.Duration }

// durationVar defines a duration flag with its default.
func durationVar(fs *flag.FlagSet, name string, value time.Duration, usage string) *time.Duration {
	d := value
	fs.Var(durationFlag{&d}, name, usage)
	return &d
}

func (f durationFlag) String() string {
	if f.d == nil || *f.d == 0 {
		return "" // no default printed, as the flag package does for 0
	}
	return f.d.String()
}

func (f durationFlag) Set(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("want a duration with its unit, such as 500ms or 2s")
	}
	*f.d = d
	return nil
}

func (durationFlag) typeName() string { return "duration" }
