package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"selfplay/config"
	"selfplay/internal/termtext"
	"selfplay/openings"
	"selfplay/runner"
	"selfplay/store/record"
)

// matchFlag is a flag of `selfplay match` that sets a key of the
// tournament's config.
type matchFlag struct {
	name, key string
	kind      byte // 'i' integer, 'f' number, 's' string
	usage     string
}

// matchFlags are match's flags with their config keys (see the README's
// tournaments.toml reference for each key's meaning and default).
var matchFlags = []matchFlag{
	{"format", "format", 's', "match (2 engines), gauntlet (the first against each other one) or round-robin (default: match for 2 engines, round-robin for more)"},
	{"nodes", "limits.nodes", 'i', "per-move limit: nodes (exactly one of -nodes, -depth, -movetime, -tc)"},
	{"nodes-jitter", "limits.nodes_jitter", 'f', "vary each move's node budget within ±this fraction (0..0.5; seeded)"},
	{"depth", "limits.depth", 'i', "per-move limit: search depth"},
	{"movetime", "limits.movetime", 's', "per-move limit: time per move, such as 100ms"},
	{"tc", "limits.tc", 's', "per-move limit: time control moves/seconds+increment, such as 40/60+0 or 10+0.1"},
	{"time-margin", "limits.time_margin", 's', "grace before a time forfeit under -movetime and -tc (default 100ms)"},
	{"move-timeout", "limits.move_timeout", 's', "an external engine's longest move under -nodes or -depth before it loses as hung (default 2m)"},
	{"openings", "openings", 's', "opening set fhr25 or two-ply, or an .epd or .pgn file or a .bin Polyglot book (default fhr25)"},
	{"plies", "openings.plies", 'i', "plies taken from each game of a .pgn openings file, or the most book moves of a .bin book (default 8)"},
	{"book-choice", "openings.choice", 's', "a .bin book's move choice: weighted (at random by weight, from -seed) or best (default weighted)"},
	{"book-count", "openings.count", 'i', "openings drawn from a .bin book with -book-choice weighted (default 100)"},
	{"order", "openings.order", 's', "opening order: sequential or random (reshuffled each round from -seed) (default sequential)"},
	{"rounds", "rounds", 'i', "passes over the openings; each opening is a game pair (default 1)"},
	{"seed", "seed", 'i', "seed of the random opening order and the node jitter (default 1)"},
	{"concurrency", "concurrency", 'i', "games in parallel (default: the number of CPUs); the games do not depend on it"},
	{"move", "adjudication.move", 'i', "adjudicate before White's move N+1, counted from the initial position, openings included (0: never) (default 100)"},
	{"policy", "adjudication.policy", 's', "adjudication at -move: referee, agree or draw (default referee)"},
	{"referee", "adjudication.referee", 's', "the referee's variant (default plain)"},
	{"referee-nodes", "adjudication.referee_nodes", 'i', "the referee's node budget (default 200000)"},
	{"margin", "adjudication.margin", 'i', "centipawns the referee (or both engines) must see for a win (default 200)"},
	{"resign-score", "adjudication.resign_score", 'i', "resign adjudication: a side both engines score at or below -N centipawns ..."},
	{"resign-moves", "adjudication.resign_moves", 'i', "... for N consecutive moves each loses (0: off)"},
	{"draw-score", "adjudication.draw_score", 'i', "draw adjudication: both engines' scores within ±N centipawns ..."},
	{"draw-moves", "adjudication.draw_moves", 'i', "... for N consecutive moves each ... (0: off)"},
	{"draw-from", "adjudication.draw_move_from", 'i', "... from move N on is a draw"},
	{"sprt", "sprt", 's', "stop the match when the SPRT of ELO0 against ELO1 decides, e.g. 0,5 (matches only)"},
	{"alpha", "sprt.alpha", 'f', "the SPRT's false positive rate (default 0.05)"},
	{"beta", "sprt.beta", 'f', "the SPRT's false negative rate (default 0.05)"},
	{"sprt-model", "sprt.model", 's', "the SPRT's Elo model: normalized, logistic or bayesian (default normalized)"},
}

// cmdMatch plays a tournament given on the command line, without a config
// file, into the database under a name generated from what defines its
// games: the same command resumes it. Exit codes as run's.
func cmdMatch(ctx context.Context, e env, args []string) int {
	fs := newFlagSet(e, "match", "ENGINE ENGINE... (-nodes N | -depth N | -movetime D | -tc TC) [flags]",
		"An ENGINE is a variant spec (PRESET or PRESET:SWITCH=VALUE:..., then more SWITCH=VALUE, hash=MiB or\n"+
			"name=NAME words) or an external UCI engine: cmd=PATH, then option.NAME=VALUE, arg=ARG, args=\"A B\",\n"+
			"dir=DIR, init_timeout=10s, ping_timeout=10s or name=NAME words. The tournament is stored under a\n"+
			"name made from what defines its games; run the same command again to resume it.")
	values := map[string]*string{}
	for _, f := range matchFlags {
		values[f.name] = fs.String(f.name, "", f.usage)
	}
	dbPath := fs.String("db", config.DefaultDatabase, "database file")
	name := fs.String("name", "", "the tournament's name (default: generated from the engines and settings, printed)")
	pairs := fs.Int("pairs", 0, "play at most the first K game pairs now (0: all); a later run with a larger K or none continues")
	restart := fs.Bool("restart", false, "delete the tournament's stored games first")
	logSpec := fs.String("log", "", `"games": print cutechess-cli's per-game lines (Started game, Finished game, Score of); always on when standard output is not a terminal`)
	printConfig := fs.Bool("print-config", false, "print the equivalent tournaments.toml and exit without playing")
	serveAddr := fs.String("serve", "", "also serve the database's web site on `addr` while the match plays, as run -serve does")
	words, code, done := parseFlagsAndFiles(fs, args)
	if done {
		return code
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "selfplay match: %s\n", termtext.EscapeLines(fmt.Sprintf(format, args...)))
		return exitUsage
	}
	m := config.MatchArgs{Name: *name, CommandLine: []string{"selfplay", "match"}}
	for _, a := range args {
		if a != "-print-config" && a != "--print-config" {
			m.CommandLine = append(m.CommandLine, a)
		}
	}
	if *dbPath != config.DefaultDatabase {
		m.Database = *dbPath
	}
	for _, w := range words {
		// An engine starts at a variant spec (a word without "=", or
		// with a ":" before it: fhr:dr=2) or at cmd=; KEY=VALUE words
		// belong to the engine before them.
		if k, _, isKV := strings.Cut(w, "="); !isKV || strings.Contains(k, ":") || k == "cmd" {
			m.Engines = append(m.Engines, []string{w})
			continue
		}
		if len(m.Engines) == 0 {
			return fail("%q comes before any engine (an engine starts with its variant spec or cmd=PATH)", w)
		}
		last := &m.Engines[len(m.Engines)-1]
		*last = append(*last, w)
	}
	var err error
	if m.Settings, err = matchSettings(fs, values); err != nil {
		return fail("%v", err)
	}
	if *pairs < 0 {
		return fail("-pairs %d is negative (0: all pairs)", *pairs)
	}
	opts := runner.Options{Shard: record.Shard{Pairs: *pairs}}
	if !setOutput(e, "match", *logSpec, &opts) {
		return exitUsage
	}
	cfg, text, err := config.ParseMatchContext(ctx, m)
	if err != nil {
		if ctx.Err() != nil { // waiting for a FIFO or a slow openings file
			fmt.Fprintln(e.stderr, "selfplay match: interrupted while reading the openings")
			return exitInterrupted
		}
		return fail("%v", indentLines(err.Error()))
	}
	if *printConfig {
		io.WriteString(e.stdout, text)
		return exitOK
	}
	t := cfg.Tournaments[0]
	if *restart {
		opts.Restart = []string{t.Name}
	}
	banner := fmt.Sprintf("match: tournament %s in %s (the same command resumes it)", t.Name, cfg.Database)
	return play(ctx, e, "match", cfg, opts, "", *serveAddr, banner)
}

// indentLines puts every line after the first of a multi-line message on
// its own indented line, so that each problem reads as one.
func indentLines(s string) string {
	return strings.ReplaceAll(s, "\n", "\n  ")
}

// matchSettings converts the config flags that were given, in the order
// of matchFlags, to the values the TOML decoder would give.
func matchSettings(fs *flag.FlagSet, values map[string]*string) ([]config.MatchSetting, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var out []config.MatchSetting
	for _, f := range matchFlags {
		if !given[f.name] {
			continue
		}
		flagName, text := "-"+f.name, *values[f.name]
		switch f.name {
		case "openings":
			out = append(out, config.MatchSetting{Flag: flagName, Key: openingsKey(text), Value: text})
			continue
		case "sprt":
			lo, hi, ok := strings.Cut(text, ",")
			elo0, err0 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
			elo1, err1 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
			if !ok || err0 != nil || err1 != nil {
				return nil, fmt.Errorf("-sprt %q: want ELO0,ELO1 such as 0,5", text)
			}
			out = append(out, config.MatchSetting{Flag: flagName, Key: "sprt.elo0", Value: elo0},
				config.MatchSetting{Flag: flagName, Key: "sprt.elo1", Value: elo1})
			continue
		case "alpha", "beta", "sprt-model":
			if !given["sprt"] {
				return nil, fmt.Errorf("-%s applies only with -sprt ELO0,ELO1", f.name)
			}
		}
		var v any
		switch f.kind {
		case 'i':
			n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("-%s %q: want an integer", f.name, text)
			}
			v = n
		case 'f':
			x, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
			if err != nil {
				return nil, fmt.Errorf("-%s %q: want a number", f.name, text)
			}
			v = x
		default:
			v = text
		}
		out = append(out, config.MatchSetting{Flag: flagName, Key: f.key, Value: v})
	}
	return out, nil
}

// openingsKey tells a built-in set from a file: a set's name, else a file
// when the value looks like one (an .epd or .pgn name, or a path), else a
// set (so a misspelt set gets the config's "did you mean").
func openingsKey(v string) string {
	switch {
	case slices.Contains(openings.SetNames(), v):
		return "openings.set"
	case filepath.Ext(v) != "" || strings.ContainsAny(v, `/\`):
		return "openings.file"
	}
	return "openings.set"
}
