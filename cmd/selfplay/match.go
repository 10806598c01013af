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
	"selfplay/openings"
	"selfplay/runner"
	"selfplay/store/record"
)

// matchFlag is a flag of `selfplay match` that sets a key of the
// tournament's config.
type matchFlag struct {
	name, key string
	value     setting // its default is the config's
	usage     string
}

// matchFlags are match's flags with their config keys (see the config
// reference for each key's meaning), in the order their settings are
// checked and written.
func matchFlags() []matchFlag {
	return []matchFlag{
		{"format", "format", &textSetting{}, "match (2 engines), gauntlet (the first against each other one), round-robin or knockout (default: match for 2 engines, round-robin for more)"},
		{"nodes", "limits.nodes", intDefault(0), "per-move limit: nodes (exactly one of -nodes, -depth, -movetime, -tc)"},
		{"nodes-jitter", "limits.nodes_jitter", floatDefault(0), "vary each move's node budget within ±this fraction (0..0.5; seeded)"},
		{"depth", "limits.depth", intDefault(0), "per-move limit: search depth"},
		{"movetime", "limits.movetime", durationDefault(0), "per-move limit: time per move, such as 100ms"},
		{"tc", "limits.tc", &textSetting{}, "per-move limit: time control moves/seconds+increment, such as 40/60+0 or 10+0.1"},
		{"time-margin", "limits.time_margin", durationDefault(config.DefaultTimeMargin), "grace before a time forfeit under -movetime and -tc"},
		{"move-timeout", "limits.move_timeout", durationDefault(config.DefaultMoveTimeout), "an external engine's longest move under -nodes or -depth before it loses as hung"},
		{"openings", "openings", textDefault(openings.SetFHR25), "opening set fhr25, two-ply or startpos, or an .epd or .pgn file (gzipped or not: .epd.gz, .pgn.gz) or a .bin Polyglot book"},
		{"plies", "openings.plies", &pliesSetting{*intDefault(config.DefaultPGNPlies)}, "the most plies taken from each game of a .pgn openings file (all: every move), or the most book moves of a .bin book"},
		{"book-choice", "openings.choice", textDefault(openings.ChoiceWeighted), "a .bin book's move choice: weighted (at random by weight, from -seed) or best"},
		{"book-count", "openings.count", intDefault(config.DefaultBookCount), "openings drawn from a .bin book with -book-choice weighted"},
		{"order", "openings.order", textDefault(openings.OrderSequential), "opening order: sequential, random (reshuffled each round from -seed) or fastchess-random (fastchess's order=random: one shuffle from -seed)"},
		{"start", "openings.start", intDefault(1), "begin at the Nth opening of the ordered list, wrapping around (fastchess's start=)"},
		{"rounds", "rounds", intDefault(config.DefaultRounds), "passes over the openings; each opening is a game pair"},
		{"games-per-opening", "games_per_opening", intDefault(2), "2: each opening is a game pair, both colours; 1: each game takes the next opening (fastchess's -games 1)"},
		{"noswap", "noswap", &boolSetting{settingText{"false"}}, "true: the first engine of a pairing is White in every game"},
		{"reverse", "reverse", &boolSetting{settingText{"false"}}, "true: the second engine is White where the first would be"},
		{"schedule", "schedule", textDefault(config.ScheduleSelfplay), "selfplay (each round a pass over the openings, every pairing every opening) or fastchess (each round one game pair per pairing, each pair the next opening of the first -rounds; a fastchess command line of 3 or more engines sets it)"},
		{"gauntlet-seeds", "gauntlet_seeds", intDefault(1), "-format gauntlet: the first N engines each play every engine after them, one another too (fastchess's -seeds)"},
		{"knockout-games", "knockout.games", intDefault(config.DefaultKnockoutGames), "-format knockout: games of an encounter before tie-break pairs (even; cutechess-cli's -games)"},
		{"seeds", "knockout.seeds", intDefault(0), "-format knockout: the first N engines are seeded in their order, the others drawn from -seed"},
		{"seed", "seed", intDefault(config.DefaultSeed), "seed of the random opening order and the node jitter"},
		{"concurrency", "concurrency", intDefault(0), "games in parallel (default: the number of CPUs); the games do not depend on it"},
		{"move", "adjudication.move", intDefault(config.DefaultAdjudication), "adjudicate before White's move N+1, counted from the initial position, openings included (0: never; the default with an external engine)"},
		{"policy", "adjudication.policy", textDefault(config.PolicyReferee), "adjudication at -move: referee, agree or draw"},
		{"referee", "adjudication.referee", textDefault(config.DefaultReferee), "the referee's variant"},
		{"referee-nodes", "adjudication.referee_nodes", intDefault(config.DefaultRefereeNodes), "the referee's node budget"},
		{"margin", "adjudication.margin", intDefault(config.DefaultMargin), "centipawns the referee (or both engines) must see for a win"},
		{"resign-score", "adjudication.resign_score", intDefault(0), "resign adjudication: a side both engines score at or below -N centipawns ..."},
		{"resign-moves", "adjudication.resign_moves", intDefault(0), "... for N consecutive moves each loses (0: off)"},
		{"resign-two-sided", "adjudication.resign_two_sided", &boolSetting{settingText{"true"}}, "false: fastchess's one-sided resign, a side's own score alone for -resign-moves of its moves"},
		{"draw-score", "adjudication.draw_score", intDefault(0), "draw adjudication: both engines' scores within ±N centipawns ..."},
		{"draw-moves", "adjudication.draw_moves", intDefault(0), "... for N consecutive moves each ... (0: off)"},
		{"draw-from", "adjudication.draw_move_from", intDefault(0), "... from move N on is a draw"},
		{"adjudication-rules", "adjudication.rules", textDefault(config.RulesSelfplay), "whose rules -move, -resign-* and -draw-* follow: selfplay or fastchess (its -maxmoves, -resign and -draw exactly; they set it)"},
		{"event", "event", &textSetting{}, "the PGN's Event tag (default: the tournament's name)"},
		{"site", "site", &textSetting{}, "the PGN's Site tag (default: selfplay)"},
		{"wait", "wait", durationDefault(0), "pause after each game, such as 100ms (fastchess's -wait MS)"},
		{"sprt", "sprt", &textSetting{}, "stop the match when the SPRT of ELO0 against ELO1 decides, e.g. 0,5 (matches only)"},
		{"alpha", "sprt.alpha", floatDefault(config.DefaultSPRTAlpha), "the SPRT's false positive rate"},
		{"beta", "sprt.beta", floatDefault(config.DefaultSPRTBeta), "the SPRT's false negative rate"},
		{"sprt-model", "sprt.model", textDefault(config.DefaultSPRTModel), "the SPRT's Elo model: normalized, logistic or bayesian"},
	}
}

// matchAbout is what match -h says of its engines and syntaxes.
const matchAbout = "An ENGINE is a variant spec (PRESET or PRESET:SWITCH=VALUE:..., then more SWITCH=VALUE, hash=MiB or\n" +
	"name=NAME words) or an external UCI engine: cmd=PATH, then option.NAME=VALUE, arg=ARG, args=\"A B\",\n" +
	"dir=DIR, init_timeout=10s, ping_timeout=10s or name=NAME words. Either may carry its own limit\n" +
	"(time or node odds): nodes=N, depth=N, movetime=D or tc=TC, and time_margin=D; with every engine\n" +
	"carrying one, no limit flag is needed. The tournament is stored under a\n" +
	"name made from what defines its games; run the same command again to resume it.\n" +
	"When an external engine plays, games are played out (no referee at move 100, as in\n" +
	"fastchess) unless -move, -policy, -referee, -referee-nodes or -margin is given;\n" +
	"tournaments.toml keeps the referee at move 100 as its default.\n" +
	"fastchess's and cutechess-cli's options are accepted too, mixed with these: -engine cmd=... -each ...\n" +
	"-openings file=F format=epd order=random start=N -srand -games 2 -rounds N (N game pairs) -repeat -noswap\n" +
	"-reverse -sprt elo0= elo1= -draw -resign ... [twosided=true] -maxmoves -tournament ... (the guide lists\n" +
	"them; -print-config shows the config).\n" +
	"-format knockout (cutechess-cli's -tournament knockout) plays a bracket: -seeds N places the first N\n" +
	"engines, -knockout-games (its -games) sets an encounter's games; a tie plays more game pairs."

// outputFiles are the settings of the files a match writes as it plays:
// -pgnout and -epdout (pgn_out, epd_out) and -log file= (log).
func outputFiles(fs *flag.FlagSet, pgnOut, epdOut *liveOutFlag, logWords []string) ([]config.MatchSetting, trafficLogSpec, error) {
	settings, err := liveOutSettings(fs, pgnOut, epdOut)
	if err != nil {
		return nil, trafficLogSpec{}, err
	}
	var traffic trafficLogSpec
	if logWords != nil {
		if traffic, err = parseTrafficLog(logWords); err != nil {
			return nil, trafficLogSpec{}, err
		}
		settings = append(settings, config.MatchSetting{Flag: "-log", Key: "log", Value: traffic.file})
	}
	return settings, traffic, nil
}

// cmdMatch plays a tournament given on the command line, without a config
// file, into the database under a name generated from what defines its
// games: the same command resumes it. Exit codes as run's.
func cmdMatch(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "match", "ENGINE ENGINE... (-nodes N | -depth N | -movetime D | -tc TC) [flags]", matchAbout)
	settings := matchFlags()
	for _, f := range settings {
		fs.Var(f.value, f.name, f.usage)
	}
	dbPath := fs.String("db", config.DefaultDatabase, "database file")
	name := fs.String("name", "", "the tournament's name (default: generated from the engines and settings, printed)")
	pairs := fs.Int("pairs", 0, "play at most the first K game pairs now (0: all); a later run with a larger K or none continues")
	restart := fs.Bool("restart", false, "delete the tournament's stored games first")
	logSpec := fs.String("log", "", `"games": print cutechess-cli's per-game lines (Started game, Finished game, Score of); always on when standard output is not a terminal; `+
		`or fastchess's "file=F engine=true [append=false]": append the external engines' UCI traffic to F (the config's log key)`)
	checkMatePVs := fs.Bool("check-mate-pvs", false, checkMatePVsUsage)
	affinity := fs.String("affinity", "", "pin each game slot's external engines to one `CPU` of this list (0-3,5) or of all (all), as fastchess's -use-affinity (Linux)")
	printConfig := fs.Bool("print-config", false, "print the equivalent tournaments.toml and exit without playing")
	block := resultBlockFlags(fs)
	serveAddr := fs.String("serve", "", "also serve the database's web site on `addr` while the match plays, as run -serve does")
	var pgnOut, epdOut liveOutFlag
	fs.Var(&pgnOut, "pgnout", "append each game to this PGN `file` as it ends, in schedule order (pgn_out); fastchess's file=F notation=san|lan|uci append=true|false min=true and the comment fields timeleft= latency= nodes= seldepth= nps= hashfull= tbhits= pv= (=true) too")
	fs.Var(&epdOut, "epdout", "append each game's final position to this EPD `file` (epd_out); fastchess's file=F append=true|false too")
	flagArgs, logWords := cutTrafficLog(gatherLiveOut(args))
	// -pgnout, -epdout and -log file= take fastchess's words themselves.
	fc, err := translateFastchess(fs, flagArgs, e.clock())
	if err != nil {
		return err
	}
	words, err := parseFlagsAndFiles(fs, fc.args)
	if err != nil {
		return err
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
	if m.Engines, err = matchEngines(words); err != nil {
		return err
	}
	for i, words := range m.Engines {
		m.Engines[i] = append(words, fc.eachWords(words)...)
	}
	fc.defaultRounds(len(m.Engines))
	for _, n := range fc.notes {
		fmt.Fprintf(e.stderr, "selfplay match: note: %s\n", n)
	}
	if m.Settings, err = matchSettings(fs, settings); err != nil {
		return err
	}
	files, traffic, err := outputFiles(fs, &pgnOut, &epdOut, logWords)
	if err != nil {
		return err
	}
	m.Settings = append(m.Settings, files...)
	for i, st := range m.Settings {
		if o, ok := fc.origin[st.Flag]; ok {
			m.Settings[i].Flag = o // errors name the option as written
		}
	}
	if *pairs < 0 {
		return usageErrorf("-pairs %d is negative (0: all pairs)", *pairs)
	}
	opts := runner.Options{Shard: record.Shard{Pairs: *pairs}}
	if err := setOutput(e, *logSpec, &opts); err != nil {
		return err
	}
	if err := block.set(&opts); err != nil {
		return err
	}
	cfg, text, err := parseMatch(ctx, fc.firstParse(m))
	if err == nil && fc.pairs > 0 {
		cfg, text, err = fastchessRounds(ctx, m, cfg, fc.pairs, &opts)
	}
	if err != nil {
		return err
	}
	if *printConfig {
		io.WriteString(e.stdout, text)
		return nil
	}
	for _, n := range traffic.notes {
		fmt.Fprintln(e.stderr, "selfplay match: note:", n)
	}
	t := cfg.Tournaments[0]
	if opts.Affinity, err = affinitySets(*affinity, t.Concurrency); err != nil {
		return err
	}
	if *restart {
		opts.Restart = []string{t.Name}
	}
	banner := fmt.Sprintf("match: tournament %s in %s (the same command resumes it)", t.Name, cfg.Database)
	debug := debugFlags{checkMatePVs: *checkMatePVs}
	if traffic.truncate {
		debug.emptyLog = t.Log // traffic.file as the config resolved it
	}
	return play(ctx, e, "match", cfg, opts, "", *serveAddr, banner, debug)
}

// parseMatch is config.ParseMatchContext with its errors as match's.
func parseMatch(ctx context.Context, m config.MatchArgs) (*config.File, string, error) {
	cfg, text, err := config.ParseMatchContext(ctx, m)
	if err != nil {
		if ctx.Err() != nil { // waiting for a FIFO or a slow openings file
			return nil, "", interruptedErrorf("interrupted while reading the openings")
		}
		return nil, "", usageErrorf("%s", indentLines(err.Error()))
	}
	return cfg, text, nil
}

// firstParse is the match to parse first: with fastchess's -rounds, the
// parse that counts the openings, before fastchessRounds. With -games 1 it
// has two passes: one over an odd number of openings would be an odd
// number of games.
func (fc fastchessArgs) firstParse(m config.MatchArgs) config.MatchArgs {
	if fc.pairs > 0 && fc.games == 1 {
		m.Settings = append(slices.Clip(m.Settings), config.MatchSetting{Flag: "-rounds", Key: "rounds", Value: int64(2)})
	}
	return m
}

// fastchessRounds plays fastchess's -rounds N: N rounds, each one game
// pair of every pairing with the next opening, starting over at the end.
// The config gets schedule = "fastchess" and N rounds, so that it is the
// whole match. Two cases keep selfplay's schedule, with enough passes over
// the openings and the run stopped after the N pairs (as -pairs N would,
// unless -pairs asks fewer): -games 1 (a round is one game, each game takes
// an opening) and selfplay's own -order random (reshuffled each pass).
func fastchessRounds(ctx context.Context, m config.MatchArgs, cfg *config.File, rounds int, opts *runner.Options) (*config.File, string, error) {
	t := cfg.Tournaments[0]
	if !t.OneGamePerOpening && t.Openings.Order != openings.OrderRandom {
		// fastchess's own schedule: each pairing's pair the next opening,
		// so the config is the whole match (-print-config shows it).
		m.Settings = append(m.Settings,
			config.MatchSetting{Flag: "-tournament", Key: "schedule", Value: string(config.ScheduleFastchess)},
			config.MatchSetting{Flag: "-rounds", Key: "rounds", Value: int64(rounds)})
		return parseMatch(ctx, m)
	}
	pairs := rounds * len(t.Pairings())
	perPass := len(t.Openings.List) * len(t.Pairings())
	passes := (pairs + perPass - 1) / perPass
	if t.OneGamePerOpening {
		if rounds%2 == 1 {
			return nil, "", usageErrorf("-games 1 -rounds %d: an odd number of games; selfplay plays games in pairs (give an even -rounds)", rounds)
		}
		passes, pairs = (rounds+perPass-1)/perPass, rounds/2
		passes += passes * perPass % 2 // whole pairs in the schedule
	}
	m.Settings = append(m.Settings, config.MatchSetting{Flag: "-rounds", Key: "rounds", Value: int64(passes)})
	cfg, text, err := parseMatch(ctx, m)
	if err != nil {
		return nil, "", err
	}
	if opts.Shard.Pairs == 0 || opts.Shard.Pairs > pairs {
		opts.Shard.Pairs = pairs
	}
	return cfg, text, nil
}

// matchEngines groups match's words by engine: an engine starts at a
// variant spec (a word without "=", or with a ":" before it: fhr:dr=2)
// or at cmd=; KEY=VALUE words belong to the engine before them.
func matchEngines(words []string) ([][]string, error) {
	var engines [][]string
	for _, w := range words {
		if k, _, isKV := strings.Cut(w, "="); !isKV || strings.Contains(k, ":") || k == "cmd" {
			engines = append(engines, []string{w})
			continue
		}
		if len(engines) == 0 {
			return nil, usageErrorf("%q comes before any engine (an engine starts with its variant spec or cmd=PATH)", w)
		}
		last := &engines[len(engines)-1]
		*last = append(*last, w)
	}
	return engines, nil
}

// indentLines puts every line after the first of a multi-line message on
// its own indented line, so that each problem reads as one.
func indentLines(s string) string {
	return strings.ReplaceAll(s, "\n", "\n  ")
}

// matchSettings converts the config flags that were given, in the order
// of matchFlags, to the values the TOML decoder would give.
func matchSettings(fs *flag.FlagSet, flags []matchFlag) ([]config.MatchSetting, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var out []config.MatchSetting
	for _, f := range flags {
		if !given[f.name] {
			continue
		}
		flagName, text := "-"+f.name, f.value.String()
		switch f.name {
		case "openings":
			out = append(out, config.MatchSetting{Flag: flagName, Key: openingsKey(text), Value: text})
			continue
		case "sprt":
			lo, hi, ok := strings.Cut(text, ",")
			elo0, err0 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
			elo1, err1 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
			if !ok || err0 != nil || err1 != nil {
				return nil, usageErrorf("-sprt %q: want ELO0,ELO1 such as 0,5", text)
			}
			out = append(out, config.MatchSetting{Flag: flagName, Key: "sprt.elo0", Value: elo0},
				config.MatchSetting{Flag: flagName, Key: "sprt.elo1", Value: elo1})
			continue
		case "alpha", "beta", "sprt-model":
			if !given["sprt"] {
				return nil, usageErrorf("-%s applies only with -sprt ELO0,ELO1", f.name)
			}
		}
		v, err := f.value.value(flagName)
		if err != nil {
			return nil, usageError(err)
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
