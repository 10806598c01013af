package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

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
	// engines are the -engine options, their words inserted into args
	// once -each is applied to them (applyEach).
	engines []fastchessEngine
	// eachKeys are -each's keys, all its options' in order; each is the
	// engine words they leave, with -startup-ms's and -ping-ms's
	// (timeouts), for every engine (eachWords).
	eachKeys []engineKey
	timeouts []string
	each     []string
	// pairs is fastchess's -rounds: game pairs (each round is one opening,
	// both colours), not selfplay's passes over the openings; 0: not given.
	// roundsZero: -rounds 0, which only a later -sprt makes a match.
	pairs      int
	roundsZero bool
	// games is fastchess's -games (or -repeat N): games per round; 0: not
	// given (2).
	games int
	// book tells that -openings file= was given: without it fastchess
	// plays every game from the initial position.
	book bool
	// orderRandom: -openings order=random (fastchess's shuffle, whose
	// seed fastchess draws at random without -srand).
	orderRandom bool
	notes       []string
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

// defaultRounds gives a fastchess command line without -rounds
// fastchess's default, 2 rounds (types/tournament.hpp:56), each one game
// pair of every pairing (one game with -games 1), whatever the number of
// engines (the argument): a match of 2 engines plays 4 games, as
// fastchess does, not every opening of the book. -sprt keeps it too:
// fastchess's -sprt raises only a -rounds 0 given before it (cli.cpp:349-351).
func (fc *fastchessArgs) defaultRounds(int) {
	if fc.mode && !fc.knockout && fc.pairs == 0 {
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
// match's flag set, whose flags and their values pass unchanged; now names
// the output files that fastchess names after the time.
func translateFastchess(fs *flag.FlagSet, args []string, now time.Time) (fastchessArgs, error) {
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
		if name == "pgnout" || name == "epdout" {
			// gatherLiveOut joined the words after it into one value.
			var words []string
			if i+1 < len(args) {
				words = strings.Split(args[i+1], wordSep)
			}
			if len(words) > 0 && !isFastchessOption(words[0]) {
				fc.args = append(fc.args, a, args[i+1])
				i++
				continue
			}
			// No file: fastchess's KeyValueOptional option with no
			// keys (cli.cpp:777-778) writes to a file named after the
			// time (cli.cpp:243-245, 288-290). The words taken after
			// it are options of their own: back into args.
			file := fastchessOutFile(name, now)
			fc.args = append(fc.args, a, "file="+file)
			fc.note("-%s without file=: writing %s, fastchess's name for it", name, file)
			if len(words) > 0 {
				args = slices.Concat(args[:i+1], words, args[i+2:])
			}
			continue
		}
		if mode && (name == "event" || name == "site") {
			// fastchess's -event and -site join all their words, without
			// spaces (cli.cpp:577-583, concat at :117-125): -event My
			// Event is "MyEvent".
			words := fastchessParams(args[i+1:])
			if len(words) == 0 {
				return fc, usageErrorf("%s: want a name", a)
			}
			fc.flag("-"+name, "-"+name, strings.Join(words, ""))
			i += len(words)
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
	err := fc.finish(mode) // before fc is copied out
	return fc, err
}

// finish completes the translation once every option is read: -each's
// keys, the rounds, games and seeds, and fastchess's defaults for what the
// line does not give.
func (fc *fastchessArgs) finish(mode bool) error {
	if err := fc.applyEach(); err != nil {
		return err
	}
	if fc.roundsZero {
		return usageErrorf("-rounds 0: no games (fastchess refuses it too, unless -sprt follows it)")
	}
	// Without -rounds, fastchess's default, 2 rounds (defaultRounds).
	if fc.knockout {
		if err := fc.knockoutOptions(); err != nil {
			return err
		}
	} else {
		if err := fc.gauntletSeeds(); err != nil {
			return usageErrorf("%v", err)
		}
		if err := fc.finishGames(); err != nil {
			return usageErrorf("%v", err)
		}
	}
	if mode && !fc.book && !hasFlag(fc.args, "openings") {
		// fastchess without -openings: the initial position
		// (opening_book.cpp:28-30 and :55, chess::constants::STARTPOS).
		fc.flag("(no -openings)", "-openings", openings.SetStartpos)
	}
	if fc.orderRandom && !hasFlag(fc.args, "seed") {
		// selfplay draws nothing at random without a seed in the config:
		// the run is repeatable, where fastchess's is not.
		fc.note("-openings order=random without -srand: the openings are shuffled from seed %d, the same in every run; "+
			"fastchess draws a random seed each run (types/tournament.hpp:60): give -srand N for another order", config.DefaultSeed)
	}
	if mode && !hasFlag(fc.args, "concurrency") {
		// fastchess's default is one game at a time (types/tournament.hpp:64),
		// where selfplay's is one per CPU: under a time control the games
		// depend on it.
		fc.flag("(no -concurrency)", "-concurrency", "1")
	}
	if mode && !hasFlag(fc.args, "output") {
		// fastchess prints its own result block by default, every 10
		// game pairs (types/tournament.hpp:51-53).
		fc.flag("(no -output)", "-output", "fastchess")
	}
	if mode && !hasFlag(fc.args, "ratinginterval") {
		fc.flag("(no -ratinginterval)", "-ratinginterval", "10")
	}
	return nil
}

// fastchessOutFile is the file fastchess's -pgnout or -epdout without
// file= writes: fastchess_YYYYmmdd_HHMMSS.pgn (or .epd) in local time
// (cli.cpp:243-245 and :288-290, core/time/time.cpp:22-48).
func fastchessOutFile(option string, now time.Time) string {
	return "fastchess_" + now.Format("20060102_150405") + "." + strings.TrimSuffix(option, "out")
}

// isFastchessOption tells a word that ends an option's values in
// fastchess: one that starts with "-", unless a digit follows it (a
// negative number), as OptionsParser::parse reads them (cli.hpp:230-242).
func isFastchessOption(word string) bool {
	return strings.HasPrefix(word, "-") && !(len(word) > 1 && word[1] >= '0' && word[1] <= '9')
}

// fastchessParams are the words at the start of args that fastchess takes
// as an option's values.
func fastchessParams(args []string) []string {
	n := 0
	for n < len(args) && !isFastchessOption(args[n]) {
		n++
	}
	return args[:n]
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
		keys, err := engineKeys(kvs)
		if err != nil {
			return 0, err
		}
		// Its words go here once -each is applied (applyEach).
		fc.engines = append(fc.engines, fastchessEngine{at: len(fc.args), keys: keys})
		return len(kvs), nil
	case "each":
		for _, kv := range kvs {
			// Each key as given, tc=inf's clearing too: applyEach
			// applies them in order.
			k, err := engineKeyOf(kv[0], kv[1], false)
			if err != nil {
				return 0, err
			}
			k.each = true
			fc.eachKeys = append(fc.eachKeys, k)
		}
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
		if value == "0" {
			// No game, unless -sprt follows (fastchess: cli.cpp:349-351);
			// alone an error (finish).
			fc.pairs, fc.roundsZero = 0, true
			return 1, nil
		}
		n, err := positive(value)
		fc.pairs, fc.roundsZero = n, false
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
		fc.timeouts = append(fc.timeouts, key+"="+value+"ms")
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

// engineKey is one KEY=VALUE of -engine or -each, rewritten.
type engineKey struct {
	key   string // the engine key it sets: movetime for st=, depth for plies=
	word  string // the engine word; "" for a key that only clears (tc=inf, restart=off)
	given string // KEY=VALUE as written, for errors
	each  bool   // from -each
}

// clears are the keys that k replaces: its own, and under tc= the time
// per move too, as fastchess's tc= replaces the whole time limit, st='s
// included (cli.cpp:190-191; TimeControl::Limits, timecontrol.hpp:17-27).
// (It resets timemargin= too; time_margin stays, as selfplay's default
// margin is not fastchess's 0 anyway.)
func (k engineKey) clears(key string) bool {
	return key == k.key || k.key == "tc" && key == "movetime"
}

// setKey applies k to an engine's keys: the last value of a key wins, as
// in fastchess, whose later KEY=VALUE overwrites the engine's setting and
// whose later option.X=V is the later setoption (cli.cpp:185-223).
func setKey(keys []engineKey, k engineKey) []engineKey {
	keys = slices.DeleteFunc(keys, func(old engineKey) bool { return k.clears(old.key) })
	if k.word == "" {
		return keys
	}
	return append(keys, k)
}

// engineKeys are an -engine's keys from its KEY=VALUE words.
func engineKeys(kvs [][2]string) ([]engineKey, error) {
	var keys []engineKey
	for _, kv := range kvs {
		k, err := engineKeyOf(kv[0], kv[1], true)
		if err != nil {
			return nil, err
		}
		keys = setKey(keys, k)
	}
	if !slices.ContainsFunc(keys, func(k engineKey) bool { return k.key == "cmd" }) {
		return nil, fmt.Errorf("no cmd=COMMAND")
	}
	return keys, nil
}

// engineKeyOf rewrites one KEY=VALUE of -engine (withCmd) or -each into
// match's engine word.
func engineKeyOf(k, v string, withCmd bool) (engineKey, error) {
	key, word := k, k+"="+v
	switch {
	case k == "cmd" && withCmd:
	case k == "tc" && (v == "inf" || v == "infinite"):
		// no time control (cli.cpp:143): another limit, such as nodes=,
		// or none
		word = ""
	case k == "tc" && (strings.HasPrefix(v, "inf/") || strings.HasPrefix(v, "infinite/")):
		// no moves-to-go (cli.cpp:152-153): the rest is sudden death
		word = "tc=" + v[strings.IndexByte(v, '/')+1:]
	case k == "name" || k == "args" || k == "dir" || k == "tc" || k == "nodes" || strings.HasPrefix(k, "option."):
	case k == "st": // seconds, as a decimal (fastchess's parseDuration)
		key, word = "movetime", "movetime="+strings.TrimSuffix(v, "s")+"s"
	case k == "timemargin": // milliseconds
		key, word = "time_margin", "time_margin="+v+"ms"
	case k == "plies" || k == "depth":
		key, word = "depth", "depth="+v
	case k == "proto":
		if v != "uci" {
			return engineKey{}, fmt.Errorf("proto=%s: only uci", v)
		}
		word = ""
	case k == "restart":
		if v != "on" && v != "off" {
			return engineKey{}, fmt.Errorf("restart=%s: want on or off", v)
		}
		// on: a process per game (tournament.cpp:219-220, 282-284); off
		// (no word): a process plays game after game.
		word = ""
		if v == "on" {
			word = "restart=true"
		}
	default:
		return engineKey{}, fmt.Errorf("unknown key %q", k)
	}
	return engineKey{key: key, word: word, given: k + "=" + v}, nil
}

// engineWords are keys' engine words, cmd= first.
func engineWords(keys []engineKey) []string {
	var words []string
	for _, k := range keys {
		if k.key == "cmd" {
			words = append([]string{k.word}, words...)
		} else {
			words = append(words, k.word)
		}
	}
	return words
}

// fastchessEngine is one -engine: its keys, and where its words go in
// args.
type fastchessEngine struct {
	at   int
	keys []engineKey
}

// applyEach applies -each's keys to every -engine, after the engine's
// own, wherever -each stands: fastchess defers -each until every other
// option is read (cli.cpp:776, cli.hpp:245-248 and :262-265), so -each's
// value of a key wins over -engine's. The words of each -engine go into
// args where it stood; fc.each keeps what -each leaves for the other
// engines (eachWords).
func (fc *fastchessArgs) applyEach() error {
	var folded []engineKey
	for _, k := range fc.eachKeys {
		folded = setKey(folded, k)
	}
	if err := oneLimit(folded, false); err != nil {
		return usageErrorf("-each: %v", err)
	}
	for i := len(fc.engines) - 1; i >= 0; i-- {
		e := fc.engines[i]
		keys := slices.Clone(e.keys) // setKey deletes in place; e.keys names it below
		for _, k := range fc.eachKeys {
			keys = setKey(keys, k)
		}
		if err := oneLimit(keys, true); err != nil {
			return usageErrorf("-engine %s: %v", engineLabel(e.keys), err)
		}
		fc.args = slices.Insert(fc.args, e.at, engineWords(keys)...)
	}
	fc.each = append(engineWords(folded), fc.timeouts...)
	return nil
}

// engineLabel names an -engine in errors: its name=, or its cmd=.
func engineLabel(keys []engineKey) string {
	label := ""
	for _, k := range keys {
		if k.key == "name" || k.key == "cmd" && label == "" {
			label = k.given
		}
	}
	return label
}

// oneLimit refuses an engine with more than one limit. fastchess gives an
// engine all of its nodes=, plies= and tc= (or st=) at once, as "go nodes
// N depth D wtime ..." (engine/uci_engine.cpp:122-165); selfplay's engine
// has one limit, so such an engine cannot be played as fastchess plays it.
// markEach names -each's keys as such.
func oneLimit(keys []engineKey, markEach bool) error {
	var given []string
	var tc, st bool
	for _, k := range keys {
		if !slices.Contains([]string{"tc", "movetime", "nodes", "depth"}, k.key) {
			continue
		}
		tc, st = tc || k.key == "tc", st || k.key == "movetime"
		g := k.given
		if k.each && markEach {
			g = "-each " + g
		}
		given = append(given, g)
	}
	switch {
	case len(given) < 2:
		return nil
	case tc && st:
		return fmt.Errorf("%s: fastchess refuses tc= and st= together too (\"cannot use tc and st together\", sanitize.cpp:125-127)", strings.Join(given, " and "))
	}
	return fmt.Errorf("%s: fastchess gives the engine these limits together (go nodes N ... wtime ..., uci_engine.cpp:122-165), "+
		"which selfplay cannot: its engine plays under one limit (give one of tc=, st=, nodes=, plies=)", strings.Join(given, " and "))
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
				// fastchess 1.8.2 has no other format (cli.cpp:316-323);
				// selfplay's Polyglot books go by their extension.
				return fmt.Errorf("format=%s: want epd or pgn, fastchess's only formats (a .bin Polyglot book, which selfplay reads and fastchess does not, needs no format=)", v)
			}
			format = v
		case "order":
			// fastchess's random order is its own shuffle, done once.
			if v == string(openings.OrderRandom) {
				v = string(openings.OrderFastchessRandom)
				fc.orderRandom = true
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
	// A gzipped book (fastchess reads .gz with zlib) has its format's
	// extension before the .gz.
	ext := strings.TrimPrefix(filepath.Ext(strings.TrimSuffix(strings.ToLower(file), ".gz")), ".")
	if format != "" && ext != format {
		return fmt.Errorf("format=%s: selfplay reads the format from the file's extension, and %q is not .%s or .%s.gz", format, file, format, format)
	}
	switch {
	case ext == "bin":
		// selfplay's own: fastchess 1.8.2 reads no Polyglot book and plays
		// such a file's games from the initial position (sanitize.cpp:99-103).
		// plies= is the book's most moves, as -plies is.
		fc.note("-openings file=%s: a Polyglot book, which selfplay reads (fastchess 1.8.2 plays every game from the initial position with it)", file)
		if plies != "" {
			fc.flag("-openings plies=", "-plies", pliesWord(plies))
		}
	case ext != "pgn":
	case plies != "":
		fc.flag("-openings plies=", "-plies", pliesWord(plies))
	default:
		// fastchess's default: every move of each game.
		fc.flag("-openings plies=", "-plies", "all")
	}
	return nil
}

// pliesWord is -plies for fastchess's plies=: its -1, the default, is
// every move of a PGN game (types/opening.hpp:14, game/book/pgn_reader.cpp:47),
// -plies all.
func pliesWord(plies string) string {
	if plies == "-1" {
		return "all"
	}
	return plies
}

// sprt rewrites -sprt elo0= elo1= alpha= beta= model=. fastchess's
// defaults are 0 for all four (types/sprt.hpp:11-15) and it requires
// 0 < alpha, beta < 1 (matchmaking/sprt/sprt.cpp:52-58): alpha= and beta=
// must be given, where selfplay's own -sprt defaults them to 0.05.
func (fc *fastchessArgs) sprt(kvs [][2]string) error {
	elo0, elo1 := "0", "0"
	var alpha, beta, given0, given1 bool
	for _, kv := range kvs {
		switch kv[0] {
		case "elo0":
			elo0, given0 = kv[1], true
		case "elo1":
			elo1, given1 = kv[1], true
		case "alpha", "beta":
			alpha, beta = alpha || kv[0] == "alpha", beta || kv[0] == "beta"
			fc.flag("-sprt "+kv[0]+"=", "-"+kv[0], kv[1])
		case "model":
			fc.flag("-sprt model=", "-sprt-model", kv[1])
		default:
			return fmt.Errorf("unknown key %q", kv[0])
		}
	}
	e0, err0 := strconv.ParseFloat(elo0, 64)
	e1, err1 := strconv.ParseFloat(elo1, 64)
	if err0 == nil && err1 == nil && e0 >= e1 {
		// fastchess's first check (sprt.cpp:53-54), before alpha's.
		missing := ""
		if !given0 || !given1 {
			missing = " (a missing one is 0, fastchess's default)"
		}
		return fmt.Errorf("elo0=%s elo1=%s: elo0 must be less than elo1%s", elo0, elo1, missing)
	}
	for _, p := range []struct {
		name  string
		given bool
	}{{"alpha", alpha}, {"beta", beta}} {
		if !p.given {
			return fmt.Errorf("no %s=: fastchess has no default for it and refuses the SPRT without one "+
				"(\"SPRT: %s must be a decimal number between 0 and 1!\", matchmaking/sprt/sprt.cpp:55-58); give one, such as %s=0.05", p.name, p.name, p.name)
		}
	}
	fc.flag("-sprt elo0= elo1=", "-sprt", elo0+","+elo1)
	if fc.roundsZero {
		// fastchess's -sprt raises a -rounds 0 given before it to 500000
		// (cli.cpp:349-351): the SPRT ends the match.
		fc.pairs, fc.roundsZero = 500000, false
	}
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
		v := kv[1]
		if v == "cutechess" {
			v = "fastchess-cutechess" // fastchess's own figures in cutechess-cli's layout (output_cutechess.hpp)
		}
		fc.flag("-output", "-output", v)
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

// eachWords are -each's words to add to an engine's. A word of a key the
// engine has already replaces it in engine itself (the caller's slice),
// as -each's value wins (applyEach), and is not returned: an -engine's
// words have -each's already, and selfplay's own engine words get them
// here. An in-process variant has no UCI options: option.Hash=N is its
// hash=N, other options are left out with a note.
func (fc *fastchessArgs) eachWords(engine []string) []string {
	external := len(engine) > 0 && strings.HasPrefix(engine[0], "cmd=")
	var words []string
	for _, w := range fc.each {
		k, v, _ := strings.Cut(w, "=")
		switch {
		case external:
		case k == "option.Hash":
			k, w = "hash", "hash="+v
		case strings.HasPrefix(k, "option."):
			fc.note("-each %s: not applied to the in-process engine %s", w, engine[0])
			continue
		case k == "init_timeout" || k == "ping_timeout":
			// -startup-ms, -ping-ms: an in-process engine has no process
			// to wait for.
			continue
		}
		// engine[0] is the engine's cmd= or variant spec, no key.
		if j := slices.IndexFunc(engine[min(1, len(engine)):], func(old string) bool { return strings.HasPrefix(old, k+"=") }); j >= 0 {
			engine[1+j] = w
			continue
		}
		words = append(words, w)
	}
	return words
}
