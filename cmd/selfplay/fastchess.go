package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"selfplay/config"
	"selfplay/openings"
)

// fastchess's and cutechess-cli's options, as fastchess 1.x defines them
// (github.com/Disservin/fastchess: app/src/cli/cli.cpp, OptionsParser's
// addOption table and the parse* functions; man.md for the meanings), are
// rewritten into selfplay's own match arguments before the flags are
// parsed, so that both syntaxes mix freely and -print-config shows the
// config they stand for.

// fastchessArgs is a match command line with fastchess's options rewritten.
type fastchessArgs struct {
	args []string // selfplay's arguments: flags and engine words, in order
	each []string // -each's engine words, for every engine
	// pairs is fastchess's -rounds: game pairs (each round is one opening,
	// both colours), not selfplay's passes over the openings; 0: not given.
	pairs int
	// games is fastchess's -games (or -repeat N): games per round; 0: not
	// given (2).
	games int
	// book tells that -openings file= was given: without it fastchess
	// plays every game from the initial position.
	book  bool
	notes []string
	// origin names the fastchess option behind a flag it was rewritten
	// into ("-resign-score": "-resign score="), for errors.
	origin map[string]string
	// knockout: -tournament knockout (or -format knockout); gauntlet:
	// -tournament gauntlet (or -format gauntlet); seeds is -seeds as given,
	// read once the format is known.
	knockout, gauntlet bool
	seeds              string
	// mode: a command line written for fastchess (fastchessMode).
	mode bool
}

// defaultRounds gives a fastchess command line of 3 or more engines
// without -rounds fastchess's default, 2 rounds (types/tournament.hpp:56),
// each one game pair of every pairing. One of 2 engines keeps selfplay's
// one pass over the openings.
func (fc *fastchessArgs) defaultRounds(engines int) {
	if fc.mode && !fc.knockout && fc.pairs == 0 && engines >= 3 {
		fc.pairs = 2
	}
}

// gauntletSeeds rewrites -seeds of a gauntlet: its first N engines each
// play every engine after them (fastchess: cli.cpp:560, the pairings of
// schedule/base_scheduler.hpp:64-74 up to gauntlet/scheduler.hpp:26). A
// round robin has no seeds: fastchess ignores -seeds there, selfplay says
// so.
func (fc *fastchessArgs) gauntletSeeds() error {
	switch {
	case fc.seeds == "" || fc.seeds == "1": // the default: the config stays as it was
		return nil
	case !fc.gauntlet:
		return fmt.Errorf("-seeds %s: applies to -tournament gauntlet or knockout", fc.seeds)
	}
	if _, err := positive(fc.seeds); err != nil {
		return fmt.Errorf("-seeds %v", err)
	}
	fc.flag("-seeds", "-gauntlet-seeds", fc.seeds)
	return nil
}

// knockoutOptions rewrites -seeds and -games, which are a knockout's
// settings in cutechess-cli (main.cpp: -seeds, -games per encounter).
func (fc *fastchessArgs) knockoutOptions() error {
	if fc.pairs > 0 {
		return usageErrorf("-rounds: a knockout has no rounds (cutechess-cli refuses -rounds for it); -games sets an encounter's games")
	}
	if fc.seeds != "" {
		fc.flag("-seeds", "-seeds", fc.seeds)
	}
	if fc.games != 0 {
		if fc.games%2 != 0 {
			return usageErrorf("-games %d: a knockout encounter is game pairs, both colours (an even -games)", fc.games)
		}
		fc.flag("-games", "-knockout-games", strconv.Itoa(fc.games))
	}
	return nil
}

// flag adds selfplay's flag with its value, rewritten from fastchess's
// option.
func (fc *fastchessArgs) flag(option, flag, value string) {
	fc.args = append(fc.args, flag, value)
	if fc.origin == nil {
		fc.origin = map[string]string{}
	}
	fc.origin[flag] = option
}

// fastchessMode tells whether a command line is written for fastchess:
// then -rounds counts game pairs, as fastchess's does.
func fastchessMode(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, isFlag := strings.CutPrefix(a, "-")
		if !isFlag {
			continue // a value, such as -log's games
		}
		switch strings.TrimPrefix(name, "-") {
		case "engine", "each", "games", "repeat":
			return true
		}
	}
	return false
}

// fastchessKeys are the keys of fastchess's KEY=VALUE options whose names
// selfplay's flags share (-openings, -sprt, -output): a value with one of them
// is fastchess's form. (fastchess's -log is cut out before, by cutTrafficLog.)
var fastchessKeys = map[string][]string{
	"openings": {"file", "format", "order", "plies", "start", "policy"},
	"sprt":     {"elo0", "elo1", "alpha", "beta", "model"},
	"output":   {"format"},
}

// fastchessUnsupported are fastchess options with no equivalent yet.
var fastchessUnsupported = map[string]string{
	"tb":            "no tablebase adjudication",
	"tbpieces":      "no tablebase adjudication",
	"tbignore50":    "no tablebase adjudication",
	"tbadjudicate":  "no tablebase adjudication",
	"config":        "a match resumes from its database: run the same command again",
	"quick":         "give the engines with -engine",
	"crc32":         "no PGN checksum",
	"show-latency":  "no latency figures yet",
	"debug":         "no debug output",
	"strict":        "no strict mode",
	"ucinewgame-ms": "set init_timeout=D on an engine",
}

// translateFastchess rewrites fastchess's options among args; fs is
// match's flag set, whose flags and their values pass unchanged.
func translateFastchess(fs *flag.FlagSet, args []string) (fastchessArgs, error) {
	mode := fastchessMode(args)
	fc := fastchessArgs{mode: mode}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			fc.args = append(fc.args, args[i:]...)
			break
		}
		name, isFlag := strings.CutPrefix(a, "-")
		name = strings.TrimPrefix(name, "-")
		if isFlag && (name == "format" && i+1 < len(args) && args[i+1] == "knockout" || name == "format=knockout") {
			fc.knockout = true // selfplay's -format knockout: -seeds and -games are its settings
		}
		if isFlag && (name == "format" && i+1 < len(args) && args[i+1] == "gauntlet" || name == "format=gauntlet") {
			fc.gauntlet = true // selfplay's -format gauntlet: -seeds is its gauntlet_seeds
		}
		if !isFlag || name == "" || strings.Contains(name, "=") {
			fc.args = append(fc.args, a)
			continue
		}
		kvs := keyValues(args[i+1:])
		value := ""
		if i+1 < len(args) {
			value = args[i+1]
		}
		if keys, ok := fastchessKeys[name]; ok && !isFastchessForm(value, keys) {
			fc.args = append(fc.args, a) // selfplay's -openings SET, -sprt 0,5, -log games
			continue
		}
		used, err := fc.option(name, kvs, value, mode)
		if err == errNotFastchess {
			fc.args = append(fc.args, a)
			if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
				fc.args = append(fc.args, args[i+1])
				i++
			}
			continue
		}
		if err != nil {
			return fc, usageErrorf("%s: %v", a, err)
		}
		i += used
	}
	// Without -rounds a match of 2 engines keeps selfplay's default, one
	// pass over the openings, not fastchess's 2 rounds (types/tournament.hpp:56);
	// more engines get fastchess's (defaultRounds).
	if fc.knockout {
		if err := fc.knockoutOptions(); err != nil {
			return fc, err
		}
	} else {
		if err := fc.gauntletSeeds(); err != nil {
			return fc, usageErrorf("%v", err)
		}
		if err := fc.finishGames(); err != nil {
			return fc, usageErrorf("%v", err)
		}
	}
	if mode && !fc.book && !hasFlag(fc.args, "openings") {
		// fastchess without -openings: the initial position
		// (opening_book.cpp:28-30 and :55, chess::constants::STARTPOS).
		fc.flag("(no -openings)", "-openings", openings.SetStartpos)
	}
	if mode && !hasFlag(fc.args, "concurrency") {
		// fastchess's default is one game at a time (types/tournament.hpp:64),
		// where selfplay's is one per CPU: under a time control the games
		// depend on it.
		fc.flag("(no -concurrency)", "-concurrency", "1")
	}
	return fc, nil
}

// hasFlag tells that selfplay's flag -name is among args.
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		n, isFlag := strings.CutPrefix(a, "-")
		n, _, _ = strings.Cut(strings.TrimPrefix(n, "-"), "=") // -openings=two-ply too
		if isFlag && n == name {
			return true
		}
	}
	return false
}

// finishGames applies -games as fastchess's sanitize step does
// (app/src/cli/sanitize.cpp:19-26): over 2, -games and -rounds trade
// places (-rounds defaulting to 2 there); still over 2 is an error. One
// game per round is games_per_opening = 1.
func (fc *fastchessArgs) finishGames() error {
	if fc.games > 2 {
		rounds := fc.pairs
		if rounds == 0 {
			rounds = 2
		}
		fc.games, fc.pairs = rounds, fc.games
		if fc.games > 2 {
			return fmt.Errorf("-games %d -rounds %d: fastchess plays at most 2 games per round", fc.pairs, fc.games)
		}
	}
	if fc.games == 1 {
		fc.flag("-games 1", "-games-per-opening", "1")
	}
	return nil
}

var errNotFastchess = fmt.Errorf("not a fastchess option")

// isBoolFlag tells a flag that takes no value.
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// isFastchessForm tells KEY=VALUE with one of keys.
func isFastchessForm(value string, keys []string) bool {
	k, _, ok := strings.Cut(value, "=")
	for _, want := range keys {
		if ok && k == want {
			return true
		}
	}
	return false
}

// keyValues are the KEY=VALUE words at the start of args, as fastchess's
// KeyValue options take them.
func keyValues(args []string) [][2]string {
	var out [][2]string
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || strings.HasPrefix(a, "-") {
			break
		}
		out = append(out, [2]string{k, v})
	}
	return out
}

// option rewrites one fastchess option; used is how many arguments after
// the option's name it took.
func (fc *fastchessArgs) option(name string, kvs [][2]string, value string, mode bool) (used int, err error) {
	if why, ok := fastchessUnsupported[name]; ok {
		return 0, fmt.Errorf("fastchess's -%s is not supported yet (%s)", name, why)
	}
	switch name {
	case "engine":
		words, err := engineWords(kvs, true)
		if err != nil {
			return 0, err
		}
		fc.args = append(fc.args, words...)
		return len(kvs), nil
	case "each":
		words, err := engineWords(kvs, false)
		if err != nil {
			return 0, err
		}
		fc.each = append(fc.each, words...)
		return len(kvs), nil
	case "openings":
		return len(kvs), fc.openings(kvs)
	case "sprt":
		return len(kvs), fc.sprt(kvs)
	case "draw":
		return len(kvs), fc.draw(kvs)
	case "resign":
		return len(kvs), fc.resign(kvs)
	case "output":
		return len(kvs), fc.output(kvs)
	case "report":
		// fastchess's -report penta=true (common in the scripts that drive
		// fastchess, Stockfish's net tests among them): what
		// selfplay's report always has.
		for _, kv := range kvs {
			if kv != [2]string{"penta", "true"} {
				return 0, fmt.Errorf("%s=%s: only penta=true (the report always has pentanomial statistics beside the trinomial)", kv[0], kv[1])
			}
		}
		return len(kvs), nil
	case "rounds":
		if !mode {
			return 0, errNotFastchess // selfplay's -rounds: passes over the openings
		}
		n, err := positive(value)
		fc.pairs = n
		return 1, err
	}
	return fc.single(name, value)
}

// single rewrites the options that take one value or none.
func (fc *fastchessArgs) single(name, value string) (used int, err error) {
	switch name {
	case "srand":
		fc.flag("-srand", "-seed", value)
		return 1, nil
	case "games":
		n, err := positive(value)
		fc.games = n
		return 1, err
	case "repeat": // fastchess: -repeat [N] sets -games N, 2 by default
		if _, err := strconv.Atoi(value); err == nil {
			n, err := positive(value)
			fc.games = n
			return 1, err
		}
		fc.games = 2
		return 0, nil
	case "noswap", "reverse":
		// fastchess's take no value; selfplay's own take true or false.
		if value == "true" || value == "false" {
			fc.flag("-"+name, "-"+name, value)
			return 1, nil
		}
		fc.flag("-"+name, "-"+name, "true")
		return 0, nil
	case "maxmoves": // the engines' moves only, a draw (match.hpp:133-146, match.cpp:798)
		if _, err := positive(value); err != nil {
			return 1, err // fastchess's -maxmoves 0 would draw every game before its first move
		}
		fc.flag("-maxmoves", "-move", value)
		fc.flag("-maxmoves", "-policy", "draw")
		fc.fastchessRules("-maxmoves")
		return 1, nil
	case "tournament":
		return 1, fc.tournament(value)
	case "seeds":
		// cutechess-cli's -seeds: a knockout's seeded players; fastchess's
		// gauntlet seeds (cli.cpp:560).
		fc.seeds = value
		return 1, nil
	case "variant":
		if value != "standard" {
			return 1, fmt.Errorf("%q: only standard chess", value)
		}
		return 1, nil
	case "wait": // fastchess: milliseconds (app/src/cli/cli.cpp:541, types/tournament.hpp:65)
		if _, err := strconv.ParseUint(value, 10, 32); err != nil {
			return 0, errNotFastchess // selfplay's -wait DURATION
		}
		fc.flag("-wait", "-wait", value+"ms")
		return 1, nil
	case "recover":
		return 0, nil // selfplay always does: a crashed engine loses the game and is restarted
	case "startup-ms", "ping-ms":
		// fastchess's waits for uciok and for every other answer but
		// ucinewgame's: each external engine's init_timeout and
		// ping_timeout.
		if _, err := strconv.ParseUint(value, 10, 32); err != nil {
			return 0, fmt.Errorf("%q: want milliseconds", value)
		}
		key := map[string]string{"startup-ms": "init_timeout", "ping-ms": "ping_timeout"}[name]
		fc.each = append(fc.each, key+"="+value+"ms")
		return 1, nil
	case "autosaveinterval":
		if _, err := strconv.ParseUint(value, 10, 32); err != nil {
			return 0, fmt.Errorf("%q: want a number of games", value)
		}
		return 1, nil // every game is stored as it ends
	case "force-concurrency":
		return 0, nil // -concurrency is never capped
	case "testEnv":
		fc.note("-testEnv: accepted, no effect")
		return 0, nil
	case "use-affinity":
		n, cpus := 0, "all"
		if value != "" && strings.Trim(value, "0123456789,-") == "" && !strings.HasPrefix(value, "-") {
			n, cpus = 1, value // the optional CPU list
		}
		if !affinitySupported {
			fc.note("-use-affinity: accepted, no effect (engines are not bound to CPUs)")
			return n, nil
		}
		fc.flag("-use-affinity", "-affinity", cpus)
		return n, nil
	}
	return 0, errNotFastchess
}

func (fc *fastchessArgs) note(format string, a ...any) {
	fc.notes = append(fc.notes, fmt.Sprintf(format, a...))
}

// positive reads a positive integer.
func positive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q: want a positive integer", s)
	}
	return n, nil
}

// engineWords rewrites -engine's (withCmd) or -each's keys into match's
// engine words, cmd= first.
func engineWords(kvs [][2]string, withCmd bool) ([]string, error) {
	var cmd string
	var words []string
	for _, kv := range kvs {
		k, v := kv[0], kv[1]
		switch {
		case k == "cmd" && withCmd:
			cmd = "cmd=" + v
		case k == "tc" && (v == "inf" || v == "infinite"):
			// no time control (cli.cpp:98): another limit, such as
			// nodes=, or none
		case k == "tc" && (strings.HasPrefix(v, "inf/") || strings.HasPrefix(v, "infinite/")):
			// no moves-to-go (cli.cpp:109-110): the rest is sudden death
			words = append(words, "tc="+v[strings.IndexByte(v, '/')+1:])
		case k == "name" || k == "args" || k == "dir" || k == "tc" || k == "nodes" || strings.HasPrefix(k, "option."):
			words = append(words, k+"="+v)
		case k == "st": // seconds, as a decimal (fastchess's parseDuration)
			words = append(words, "movetime="+strings.TrimSuffix(v, "s")+"s")
		case k == "timemargin": // milliseconds
			words = append(words, "time_margin="+v+"ms")
		case k == "plies" || k == "depth":
			words = append(words, "depth="+v)
		case k == "proto":
			if v != "uci" {
				return nil, fmt.Errorf("proto=%s: only uci", v)
			}
		case k == "restart":
			if v != "on" && v != "off" {
				return nil, fmt.Errorf("restart=%s: want on or off", v)
			}
			if v == "on" { // a process per game (tournament.cpp:219-220, 282-284)
				words = append(words, "restart=true")
			}
		default:
			return nil, fmt.Errorf("unknown key %q", k)
		}
	}
	if withCmd && cmd == "" {
		return nil, fmt.Errorf("no cmd=COMMAND")
	}
	if withCmd {
		words = append([]string{cmd}, words...)
	}
	return words, nil
}

// openings rewrites -openings file= format= order= plies= start= policy=.
// plies= applies to PGN files only, as in fastchess.
func (fc *fastchessArgs) openings(kvs [][2]string) error {
	var file, format, plies string
	for _, kv := range kvs {
		k, v := kv[0], kv[1]
		switch k {
		case "file":
			file = v
			fc.book = true
			fc.flag("-openings file=", "-openings", v)
		case "format":
			if v != "epd" && v != "pgn" {
				return fmt.Errorf("format=%s: want epd or pgn", v)
			}
			format = v
		case "order":
			// fastchess's random order is its own shuffle, done once.
			if v == string(openings.OrderRandom) {
				v = string(openings.OrderFastchessRandom)
			}
			fc.flag("-openings order=", "-order", v)
		case "plies":
			plies = v
		case "start":
			fc.flag("-openings start=", "-start", v)
		case "policy":
			if v != "round" {
				return fmt.Errorf("policy=%s: only round (fastchess's only policy)", v)
			}
		default:
			return fmt.Errorf("unknown key %q", k)
		}
	}
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(file), "."))
	if format != "" && ext != format {
		return fmt.Errorf("format=%s: selfplay reads the format from the file's extension, and %q is not .%s", format, file, format)
	}
	switch {
	case ext != "pgn":
	case plies != "" && plies != "-1":
		fc.flag("-openings plies=", "-plies", plies)
	default:
		// fastchess's default (and its -1): every move of each game.
		fc.flag("-openings plies=", "-plies", "all")
	}
	return nil
}

// sprt rewrites -sprt elo0= elo1= alpha= beta= model=.
func (fc *fastchessArgs) sprt(kvs [][2]string) error {
	var elo0, elo1 string
	for _, kv := range kvs {
		switch kv[0] {
		case "elo0":
			elo0 = kv[1]
		case "elo1":
			elo1 = kv[1]
		case "alpha", "beta":
			fc.flag("-sprt "+kv[0]+"=", "-"+kv[0], kv[1])
		case "model":
			fc.flag("-sprt model=", "-sprt-model", kv[1])
		default:
			return fmt.Errorf("unknown key %q", kv[0])
		}
	}
	if elo0 == "" || elo1 == "" {
		return fmt.Errorf("want elo0= and elo1=")
	}
	fc.flag("-sprt elo0= elo1=", "-sprt", elo0+","+elo1)
	return nil
}

// fastchessRules has -draw, -resign and -maxmoves follow fastchess's rules
// (adjudication.rules = "fastchess").
func (fc *fastchessArgs) fastchessRules(option string) {
	if fc.origin["-adjudication-rules"] != "" {
		return
	}
	fc.flag(option, "-adjudication-rules", string(config.RulesFastchess))
}

// draw rewrites -draw movenumber= movecount= score= (fastchess's defaults
// 0, 1, 0: app/src/types/draw_adjudication.hpp) to -draw-from,
// -draw-moves, -draw-score under fastchess's rules.
func (fc *fastchessArgs) draw(kvs [][2]string) error {
	flags := map[string]string{"movenumber": "-draw-from", "movecount": "-draw-moves", "score": "-draw-score"}
	count := "1"
	for _, kv := range kvs {
		f, ok := flags[kv[0]]
		if !ok {
			return fmt.Errorf("unknown key %q", kv[0])
		}
		if kv[0] == "movecount" {
			count = kv[1]
			continue
		}
		fc.flag("-draw "+kv[0]+"=", f, kv[1])
	}
	if _, err := positive(count); err != nil {
		// fastchess's movecount=0 would draw every game from movenumber on.
		return fmt.Errorf("movecount=%s: want a positive integer", count)
	}
	fc.flag("-draw movecount=", "-draw-moves", count)
	fc.fastchessRules("-draw")
	return nil
}

// resign rewrites -resign movecount= score= twosided= (fastchess's
// defaults 1, 0, false: app/src/types/resign_adjudication.hpp) to
// -resign-moves, -resign-score and, for the one-sided rule,
// -resign-two-sided false, under fastchess's rules.
func (fc *fastchessArgs) resign(kvs [][2]string) error {
	count, twoSided := "1", false
	for _, kv := range kvs {
		switch kv[0] {
		case "movecount":
			count = kv[1]
		case "score":
			fc.flag("-resign score=", "-resign-score", kv[1])
		case "twosided":
			if kv[1] != "true" && kv[1] != "false" {
				return fmt.Errorf("twosided=%s: want true or false", kv[1])
			}
			twoSided = kv[1] == "true"
		default:
			return fmt.Errorf("unknown key %q", kv[0])
		}
	}
	if _, err := positive(count); err != nil {
		// fastchess's movecount=0 would have the first negative score resign.
		return fmt.Errorf("movecount=%s: want a positive integer", count)
	}
	fc.flag("-resign movecount=", "-resign-moves", count)
	if !twoSided {
		fc.flag("-resign twosided=", "-resign-two-sided", "false")
	}
	fc.fastchessRules("-resign")
	return nil
}

// output reads -output format=cutechess|fastchess.
func (fc *fastchessArgs) output(kvs [][2]string) error {
	for _, kv := range kvs {
		if kv[0] != "format" || (kv[1] != "cutechess" && kv[1] != "fastchess") {
			return fmt.Errorf("%s=%s: want format=cutechess or format=fastchess", kv[0], kv[1])
		}
		fc.flag("-output", "-output", kv[1])
	}
	return nil
}

// tournament rewrites -tournament gauntlet|roundrobin.
func (fc *fastchessArgs) tournament(v string) error {
	switch v {
	case "gauntlet":
		fc.flag("-tournament", "-format", "gauntlet")
		fc.gauntlet = true
	case "roundrobin", "round-robin": // fastchess's, cutechess-cli's
		fc.flag("-tournament", "-format", "round-robin")
	case "knockout": // cutechess-cli's (fastchess has none)
		fc.flag("-tournament", "-format", "knockout")
		fc.knockout = true
	default:
		return fmt.Errorf("%q: want gauntlet, roundrobin (round-robin) or knockout", v)
	}
	return nil
}

// eachWords are -each's words for an engine. An in-process variant has no
// UCI options: option.Hash=N is its hash=N, other options are left out
// with a note.
func (fc *fastchessArgs) eachWords(engine []string) []string {
	if len(engine) > 0 && strings.HasPrefix(engine[0], "cmd=") {
		return fc.each
	}
	var words []string
	for _, w := range fc.each {
		k, v, _ := strings.Cut(w, "=")
		switch {
		case k == "option.Hash":
			words = append(words, "hash="+v)
		case strings.HasPrefix(k, "option."):
			fc.note("-each %s: not applied to the in-process engine %s", w, engine[0])
		case k == "init_timeout" || k == "ping_timeout":
			// -startup-ms, -ping-ms: an in-process engine has no process
			// to wait for.
		default:
			words = append(words, w)
		}
	}
	return words
}
