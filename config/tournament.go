package config

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"selfplay/engines/search"
	"selfplay/internal/fileid"
	"selfplay/openings"
	"selfplay/stats"
)

// Tournament defaults and bounds.
const (
	DefaultRounds       = 1
	DefaultSeed         = 1
	DefaultPGNPlies     = 8
	DefaultBookCount    = 100 // openings drawn from a Polyglot book
	DefaultTimeMargin   = 100 * time.Millisecond
	DefaultMoveTimeout  = 2 * time.Minute
	maxDepth            = 100
	MaxConcurrency      = 1024 // games in parallel
	maxNodesJitter      = 0.5
	DefaultAdjudication = 100 // move
	DefaultReferee      = "plain"
	DefaultRefereeNodes = 200000
	DefaultMargin       = 200 // centipawns
	DefaultSPRTAlpha    = 0.05
	DefaultSPRTBeta     = 0.05
	DefaultSPRTModel    = stats.NormalizedElo
)

// Names of the fixed sets of values.
var (
	formats   = []Format{FormatMatch, FormatGauntlet, FormatRoundRobin, FormatKnockout}
	policies  = []Policy{PolicyReferee, PolicyAgree, PolicyDraw}
	ruleSets  = []AdjudicationRules{RulesSelfplay, RulesFastchess}
	schedules = []Schedule{ScheduleSelfplay, ScheduleFastchess}
	sprtModel = []string{stats.NormalizedElo.String(), stats.LogisticElo.String(), stats.BayesianElo.String()}
	limitKeys = []string{"nodes", "depth", "movetime", "tc"}
)

var (
	tournamentKeys   = []string{"name", "engines", "format", "rounds", "games_per_opening", "noswap", "reverse", "schedule", "gauntlet_seeds", "concurrency", "seed", "openings", "limits", "adjudication", "sprt", "pgn_out", "epd_out", "log", "event", "site", "wait", "knockout"}
	openingsKeys     = []string{"set", "file", "plies", "order", "start", "format", "choice", "count"}
	knockoutKeys     = []string{"seeds", "games"}
	limitsKeys       = []string{"nodes", "nodes_jitter", "depth", "movetime", "tc", "time_margin", "move_timeout"}
	adjudicationKeys = []string{"move", "policy", "referee", "referee_nodes", "margin", "rules", "resign_score", "resign_moves", "resign_two_sided", "draw_score", "draw_moves", "draw_move_from"}
	sprtKeys         = []string{"elo0", "elo1", "alpha", "beta", "model"}
)

// oneOf checks a value against a fixed set and reports the valid values.
func oneOf[T ~string](t *table, k string, valid []T) (T, bool) {
	s, ok := t.str(k)
	if !ok {
		return "", false
	}
	names := make([]string, len(valid))
	for i, v := range valid {
		names[i] = string(v)
	}
	if !slices.Contains(names, s) {
		hint := ""
		if d := didYouMean(s, names); d != "" {
			hint = fmt.Sprintf("did you mean %q? ", d)
		}
		t.errf(k, "unknown value %q (%svalid: %s)", s, hint, strings.Join(names, ", "))
		return "", false
	}
	return T(s), true
}

func (p *parser) tournament(i int, m map[string]any, f *File) (Tournament, bool) {
	path := fmt.Sprintf("tournament[%d]", i)
	t := &table{p: p, path: path, m: m}
	errs := len(p.errs)
	t.unknown(tournamentKeys, nil)
	tr := Tournament{
		Rounds:      DefaultRounds,
		Concurrency: runtime.NumCPU(),
		Seed:        DefaultSeed,
	}

	tr.Name = p.tournamentName(t, i)

	p.tournamentEngines(t, &tr)
	tr.Log = p.logPath(t)

	if r, ok := t.integer("rounds", 1, math.MaxInt32); ok {
		tr.Rounds = int(r)
	}
	if c, ok := t.integer("concurrency", 1, MaxConcurrency); ok {
		tr.Concurrency = int(c)
	}
	tr.Knockout = p.knockout(t, tr)
	tr.GauntletSeeds = gauntletSeeds(t, tr)
	if s, ok := t.integer("seed", 0, math.MaxInt64); ok {
		tr.Seed = uint64(s)
	}
	p.colours(t, &tr)

	var ot *table
	if o, ok := t.sub("openings"); ok {
		ot = o
	} else {
		ot = &table{p: p, path: t.key("openings"), m: map[string]any{}}
	}
	tr.Openings = p.openingsSpec(ot)

	tr.Limits = p.tournamentLimits(t, tr, f)
	tr.own = ownLimits(tr, f)

	at, ok := t.sub("adjudication")
	if !ok {
		at = &table{p: p, path: t.key("adjudication"), m: map[string]any{}}
	}
	tr.Adjudication = p.adjudication(at)

	if st, ok := t.sub("sprt"); ok {
		tr.SPRT = p.sprt(st)
		if tr.Format != "" && tr.Format != FormatMatch {
			p.errf(st.path, "SPRT applies only to format = %q (this tournament is %q)", FormatMatch, tr.Format)
		}
	}

	tr.Live = p.liveOut(t)
	if tr.Openings.File != "" {
		for _, out := range [][2]string{{"pgn_out", tr.Live.PGN}, {"epd_out", tr.Live.EPD}} {
			if out[1] != "" && fileid.Same(out[1], tr.Openings.File) {
				t.errf(out[0], "%s is the openings file: the games would be appended to the book", out[1])
			}
		}
	}
	pgnTagsAndWait(t, &tr)

	if len(p.errs) > errs {
		return Tournament{}, false
	}
	// Load the openings, so that a bad file is a config error; the
	// tournament keeps them, with the hash of the bytes they came from.
	// With at least one opening, 2 engines and 1 round the tournament has
	// games.
	list, hash, key, err := p.loadOpenings(tr)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, openings.ErrNoOpenings) {
			msg += "; the tournament would have zero games"
		}
		p.add(&Error{File: p.file, Key: ot.key(key), Msg: msg, Err: err})
		return Tournament{}, false
	}
	tr.Openings.List, tr.Openings.Hash = list, hash
	if !p.checkGamesPerOpening(t, tr) || !p.checkSchedule(t, tr) {
		return Tournament{}, false
	}
	if _, err := ScheduledGames(pairingCount(tr.Format, len(tr.Engines), tr.GauntletSeeds), tr.ScheduledOpenings(len(list)), tr.Rounds); err != nil {
		key := "rounds"
		if !t.has("rounds") {
			key = "openings"
		}
		t.errf(key, "the tournament is too large: %v", err)
		return Tournament{}, false
	}
	if err := tr.CheckTables(f, tr.Concurrency); err != nil {
		t.errf("concurrency", "%v", err)
		return Tournament{}, false
	}
	return tr, true
}

// pgnTagsAndWait reads event, site (the PGN's tags) and wait.
func pgnTagsAndWait(t *table, tr *Tournament) {
	tr.Wait, _ = t.duration("wait")
	for _, kv := range []struct {
		k string
		v *string
	}{{"event", &tr.Event}, {"site", &tr.Site}} {
		k, v := kv.k, kv.v
		if s, ok := t.str(k); ok {
			if strings.TrimSpace(s) == "" {
				t.errf(k, "empty (leave the key out for the default)")
			}
			*v = s
		}
	}
}

// gauntletSeeds reads gauntlet_seeds, a gauntlet's first engines that
// each play every engine after them (default 1), as fastchess's -seeds
// (schedule/base_scheduler.hpp:64-74, gauntlet/scheduler.hpp:18 and :26);
// 0 when not given.
func gauntletSeeds(t *table, tr Tournament) int {
	if !t.has("gauntlet_seeds") {
		return 0
	}
	if tr.Format != FormatGauntlet {
		t.errf("gauntlet_seeds", "applies only to format = %q (this tournament is %q)", FormatGauntlet, tr.Format)
		return 0
	}
	n, _ := t.integer("gauntlet_seeds", 1, int64(max(len(tr.Engines)-1, 1)))
	return int(n)
}

// DefaultKnockoutGames is a knockout encounter's games before tie-breaks:
// one game pair.
const DefaultKnockoutGames = 2

// knockout parses [tournament.knockout] of a knockout (its settings are
// an error with another format), and refuses rounds other than 1, as
// cutechess-cli refuses -rounds for a knockout (main.cpp: "does not
// support user-defined round multipliers").
func (p *parser) knockout(t *table, tr Tournament) Knockout {
	kt, has := t.sub("knockout")
	if tr.Format != FormatKnockout {
		if has {
			t.errf("knockout", "applies only to format = %q (this tournament is %q)", FormatKnockout, tr.Format)
		}
		return Knockout{}
	}
	if t.has("rounds") && tr.Rounds != 1 {
		t.errf("rounds", "a knockout has no rounds to repeat (got %d): set knockout.games, the games of each encounter", tr.Rounds)
	}
	k := Knockout{Games: DefaultKnockoutGames}
	if !has {
		return k
	}
	kt.unknown(knockoutKeys, nil)
	if g, ok := kt.integer("games", 2, 1<<20); ok {
		if g%2 != 0 {
			kt.errf("games", "%d is odd: every opening is played as a game pair, both colours (want 2, 4, ...)", g)
		}
		k.Games = int(g)
	}
	if n, ok := kt.integer("seeds", 0, int64(len(tr.Engines))); ok {
		k.Seeds = int(n)
	}
	return k
}

// tournamentName is the table's name, checked and unique among the
// file's tournaments ("" after an error).
func (p *parser) tournamentName(t *table, i int) string {
	if !t.has("name") {
		p.errf(t.path, "missing name (name = \"...\")")
		return ""
	}
	name, ok := t.str("name")
	if !ok {
		return ""
	}
	if err := checkName(name); err != nil {
		t.errf("name", "%v", err)
		return ""
	}
	if j, dup := p.names[name]; dup {
		t.errf("name", "duplicate tournament name %q (also tournament[%d])", name, j)
	} else {
		p.names[name] = i
	}
	return name
}

// tournamentLimits is the tournament's [tournament.limits], which may be
// left out only when every engine has a limit of its own.
func (p *parser) tournamentLimits(t *table, tr Tournament, f *File) Limits {
	without := enginesWithoutLimit(tr, f)
	lt, _ := t.sub("limits")
	l := p.limits(lt, len(without) > 0 || len(tr.Engines) == 0)
	if !t.has("limits") {
		switch {
		case len(without) == len(tr.Engines):
			p.errf(t.key("limits"), "missing: a tournament needs [tournament.limits] with exactly one of %s", strings.Join(limitKeys, ", "))
		case len(without) > 0:
			p.errf(t.key("limits"), "missing: engine %s has no limit of its own, so the tournament needs [tournament.limits] with exactly one of %s",
				strings.Join(without, ", "), strings.Join(limitKeys, ", "))
		}
	}
	return l
}

// tournamentEngines checks engines and format.
func (p *parser) tournamentEngines(t *table, tr *Tournament) {
	if !t.has("engines") {
		p.errf(t.path, "missing engines (engines = [\"a\", \"b\"], names of [engines.NAME] tables)")
	}
	names, ok := t.stringList("engines")
	if ok && len(names) > maxEngines {
		t.errf("engines", "%d engines listed, more than %d", len(names), maxEngines)
		ok = false
	} else if ok {
		seen := map[string]bool{}
		var defined []string // sorted, made for the first undefined name
		for _, n := range names {
			if p.stopped {
				ok = false
				break
			}
			switch {
			case seen[n]:
				t.errf("engines", "engine %q is listed twice", n)
				ok = false
			case !p.defined[n]:
				if defined == nil {
					defined = sortedKeys(p.defined)
				}
				hint := ""
				if s := didYouMean(n, defined); s != "" {
					hint = fmt.Sprintf("did you mean %q? ", s)
				}
				list := strings.Join(defined, ", ")
				if list == "" {
					list = "none; define engines with [engines.NAME] tables"
				}
				t.errf("engines", "engine %q is not defined (%sdefined engines: %s)", n, hint, list)
				ok = false
			}
			seen[n] = true
		}
		if len(names) < 2 {
			t.errf("engines", "want at least 2 engines, got %d", len(names))
			ok = false
		}
	}
	format, hasFormat := oneOf(t, "format", formats)
	if !hasFormat && !t.has("format") {
		// Default: a match between two engines, a round robin among more.
		format = FormatRoundRobin
		if len(names) == 2 {
			format = FormatMatch
		}
	}
	// Fewer than 2 engines is reported above; the format adds nothing then.
	if format == FormatMatch && len(names) > 2 {
		t.errf("engines", "format %q needs exactly 2 engines, got %d (use %q or %q for more)", FormatMatch, len(names), FormatRoundRobin, FormatGauntlet)
		ok = false
	}
	if ok {
		tr.Engines = names
	}
	tr.Format = format
}

// openingsSpec parses [tournament.openings] (t may be an empty table).
func (p *parser) openingsSpec(t *table) Openings {
	t.unknown(openingsKeys, nil)
	o := Openings{Order: openings.OrderSequential}
	if order, ok := oneOf(t, "order", openings.Orderings()); ok {
		o.Order = order
	}
	if s, ok := t.integer("start", 1, math.MaxInt32); ok {
		o.Offset = int(s) - 1
	}
	if t.has("set") && t.has("file") {
		p.errf(t.path, "both set and file given: want one of them")
	}
	isPGN, isBook := false, false
	format, _ := oneOf(t, "format", openings.FormatNames())
	if file, ok := t.str("file"); ok {
		ff, err := openings.FileFormat(file, format)
		switch {
		case strings.TrimSpace(file) == "":
			t.errf("file", "empty path")
		case err != nil:
			t.errf("file", "%s: %v", file, err)
		default:
			o.File, o.Format = p.resolve(file), format
			isPGN, isBook = ff == openings.FormatPGN, ff == openings.FormatPolyglot
		}
	} else if !t.has("file") {
		o.Set = openings.SetFHR25
		if set, ok := oneOf(t, "set", openings.SetNames()); ok {
			o.Set = set
		}
	}
	if isPGN || isBook {
		o.Plies = DefaultPGNPlies
	}
	p.bookSettings(t, &o, isBook)
	if t.has("plies") {
		if pl, ok := pliesValue(t, isBook); ok {
			switch {
			case isPGN || isBook:
				o.Plies = pl
			case o.File != "":
				t.errf("plies", "plies applies only to a .pgn file, not to an EPD file")
			case !t.has("file"):
				t.errf("plies", "plies applies only to a .pgn file, not to the built-in set %q", o.Set)
			}
		}
	}
	return o
}

// pliesValue reads openings.plies: 1..1000, or "all" (every move of each
// game of a PGN file; a book's plies is a number).
func pliesValue(t *table, isBook bool) (int, bool) {
	s, isText := t.m["plies"].(string)
	switch {
	case !isText:
		pl, ok := t.integer("plies", 1, 1000)
		return int(pl), ok
	case s != "all":
		t.errf("plies", `want an integer 1..1000 or "all", got string %q`, s)
	case isBook:
		t.errf("plies", `"all" applies only to a .pgn file: a book's plies is its most book moves, 1..1000`)
	default:
		return openings.AllPlies, true
	}
	return 0, false
}

// loadOpenings loads the openings of a tournament (cached per spec) and
// returns them with the hash of the file's content ("" for a built-in set),
// or the key to blame and the error.
func (p *parser) loadOpenings(tr Tournament) ([]openings.Opening, string, string, error) {
	spec := tr.OpeningSpec()
	key := "set"
	if spec.File != "" {
		key = "file"
	}
	r, ok := p.openingsCache[spec]
	if !ok {
		list, hash, err := openings.LoadHashedContext(p.ctx, spec)
		r = openingsResult{list: list, hash: hash, err: err}
		if err == nil && len(list) == 0 {
			r.err = fmt.Errorf("openings: %w", openings.ErrNoOpenings)
		}
		p.openingsCache[spec] = r
	}
	return r.list, r.hash, key, r.err
}

// limits parses [tournament.limits] (t nil: the table is left out). The
// tournament needs a limit kind when some engine has none of its own
// (needKind).
func (p *parser) limits(t *table, needKind bool) Limits {
	l := Limits{TimeMargin: DefaultTimeMargin, MoveTimeout: DefaultMoveTimeout}
	if t == nil {
		return l
	}
	t.unknown(limitsKeys, nil)
	switch given := givenLimits(t); len(given) {
	case 0:
		if needKind {
			p.errf(t.path, "no limit: set exactly one of %s", strings.Join(limitKeys, ", "))
		}
	case 1:
	default:
		p.errf(t.path, "%s: set exactly one limit, not several (one of %s)", strings.Join(given, " and "), strings.Join(limitKeys, ", "))
	}
	limitValues(t, &l)
	if j, ok := t.number("nodes_jitter"); ok {
		switch {
		case !t.has("nodes"):
			t.errf("nodes_jitter", "applies only with a nodes limit")
		case j < 0 || j > maxNodesJitter:
			t.errf("nodes_jitter", "%v is out of range: want 0 <= nodes_jitter <= %v", j, maxNodesJitter)
		default:
			l.NodesJitter = j
		}
	}
	if d, ok := t.duration("time_margin"); ok {
		l.TimeMargin = d
	}
	if d, ok := t.duration("move_timeout"); ok {
		if d <= 0 {
			t.errf("move_timeout", "must be > 0")
		} else {
			l.MoveTimeout = d
		}
	}
	return l
}

// enginesWithoutLimit lists the tournament's engines that have no limit
// of their own: the tournament's limits must give theirs.
func enginesWithoutLimit(tr Tournament, f *File) []string {
	var without []string
	for _, name := range tr.Engines {
		if e, ok := f.Engine(name); ok && e.Limit == nil {
			without = append(without, name)
		}
	}
	return without
}

// ownLimits resolves the limits of the tournament's engines that carry
// their own (Tournament.LimitsOf): the tournament's, overridden by the
// engine's kind and time margin. Any mix of kinds is allowed, as
// fastchess allows it (nodes against tc, say): each side has its own
// clock, the referee its own node budget, and resign and draw
// adjudication read only the scores.
func ownLimits(tr Tournament, f *File) map[string]Limits {
	var own map[string]Limits
	for _, name := range tr.Engines {
		e, ok := f.Engine(name)
		if !ok || e.Limit == nil && e.TimeMargin == nil {
			continue
		}
		l := tr.Limits
		if e.Limit != nil {
			l.Nodes, l.Depth, l.MoveTime, l.TC = e.Limit.Nodes, e.Limit.Depth, e.Limit.MoveTime, e.Limit.TC
		}
		if e.TimeMargin != nil {
			l.TimeMargin = *e.TimeMargin
		}
		if own == nil {
			own = map[string]Limits{}
		}
		own[name] = l
	}
	return own
}

// givenLimits lists the limit keys (nodes, depth, movetime, tc) of a
// tournament's or an engine's table.
func givenLimits(t *table) []string {
	var given []string
	for _, k := range limitKeys {
		if t.has(k) {
			given = append(given, k)
		}
	}
	return given
}

// limitValues reads the limit keys of a tournament's or an engine's table
// into l.
func limitValues(t *table, l *Limits) {
	if n, ok := t.integer("nodes", 1, math.MaxInt64); ok {
		l.Nodes = n
	}
	if d, ok := t.integer("depth", 1, maxDepth); ok {
		l.Depth = int(d)
	}
	if d, ok := t.duration("movetime"); ok {
		if d <= 0 {
			t.errf("movetime", "must be > 0")
		} else {
			l.MoveTime = d
		}
	}
	if v, ok := t.m["tc"]; ok {
		if s, isString := v.(string); !isString {
			t.wrongType("tc", `a time control string such as "40/7200+0" or "60+0.6"`)
		} else if tc, err := ParseTimeControl(s); err != nil {
			t.errf("tc", "%v", err)
		} else {
			l.TC = tc
		}
	}
}

// adjudication parses [tournament.adjudication] (t may be an empty table).
func (p *parser) adjudication(t *table) Adjudication {
	t.unknown(adjudicationKeys, nil)
	a := Adjudication{
		Move:         DefaultAdjudication,
		Policy:       PolicyReferee,
		Referee:      DefaultReferee,
		RefereeNodes: DefaultRefereeNodes,
		Margin:       DefaultMargin,
		Rules:        RulesSelfplay,
	}
	const maxMoves, maxScore = 100000, 100000
	intKey := func(k string, lo, hi int64, dst *int) {
		if v, ok := t.integer(k, lo, hi); ok {
			*dst = int(v)
		}
	}
	intKey("move", 0, maxMoves, &a.Move)
	if s, ok := oneOf(t, "policy", policies); ok {
		a.Policy = s
	}
	if s, ok := t.str("referee"); ok {
		a.Referee = s
	}
	opts, err := search.ParseVariant(a.Referee)
	if err == nil {
		err = opts.Validate()
	}
	if err != nil {
		t.errf("referee", "bad referee variant: %v", err)
	} else {
		a.RefereeOptions = opts
	}
	if n, ok := t.integer("referee_nodes", 1, math.MaxInt64); ok {
		a.RefereeNodes = n
	}
	intKey("margin", 0, maxScore, &a.Margin)
	if s, ok := oneOf(t, "rules", ruleSets); ok {
		a.Rules = s
	}
	intKey("resign_score", 0, maxScore, &a.ResignScore)
	intKey("resign_moves", 0, maxMoves, &a.ResignMoves)
	if twoSided, ok := t.boolean("resign_two_sided"); ok {
		a.ResignOneSided = !twoSided
	}
	intKey("draw_score", 0, maxScore, &a.DrawScore)
	intKey("draw_moves", 0, maxMoves, &a.DrawMoves)
	intKey("draw_move_from", 0, maxMoves, &a.DrawMoveFrom)
	switch {
	case a.Rules == RulesFastchess && a.ResignScore > 0 && a.ResignMoves == 0:
		// fastchess's score defaults to 0 (resign_adjudication.hpp:12),
		// a meaningful threshold there; its movecount must be given.
		p.errf(t.path, "resign_score = %d needs resign_moves > 0 (resign adjudication is off while resign_moves = 0)", a.ResignScore)
	case a.Rules != RulesFastchess && (a.ResignScore > 0) != (a.ResignMoves > 0):
		p.errf(t.path, "resign_score = %d and resign_moves = %d: set both > 0 to enable resign adjudication, or neither", a.ResignScore, a.ResignMoves)
	}
	if a.DrawMoves == 0 && (a.DrawScore > 0 || a.DrawMoveFrom > 0) {
		p.errf(t.path, "draw_score and draw_move_from need draw_moves > 0 (draw adjudication is off while draw_moves = 0)")
	}
	return a
}

// sprt parses [tournament.sprt].
func (p *parser) sprt(t *table) *stats.SPRT {
	t.unknown(sprtKeys, nil)
	s := &stats.SPRT{Alpha: DefaultSPRTAlpha, Beta: DefaultSPRTBeta, Model: DefaultSPRTModel}
	for _, k := range []string{"elo0", "elo1"} {
		if !t.has(k) {
			p.errf(t.path, "missing %s (the SPRT tests elo0 against elo1)", k)
		}
	}
	e0, ok0 := t.number("elo0")
	e1, ok1 := t.number("elo1")
	s.Elo0, s.Elo1 = e0, e1
	if ok0 && ok1 && !(e0 < e1) {
		p.errf(t.path, "elo0 (%v) must be less than elo1 (%v)", e0, e1)
	}
	prob := func(k string, dst *float64) {
		if v, ok := t.number(k); ok {
			if v <= 0 || v >= 1 {
				t.errf(k, "%v is out of range: want 0 < %s < 1", v, k)
				return
			}
			*dst = v
		}
	}
	prob("alpha", &s.Alpha)
	prob("beta", &s.Beta)
	if s.Alpha+s.Beta >= 1 {
		p.errf(t.path, "alpha + beta must be < 1 (got %v + %v)", s.Alpha, s.Beta)
	}
	if m, ok := oneOf(t, "model", sprtModel); ok {
		s.Model, _ = stats.ParseEloModel(m) // one of sprtModel's names
	}
	return s
}

// bookSettings parses choice and count, which only a Polyglot book has.
func (p *parser) bookSettings(t *table, o *Openings, isBook bool) {
	if !isBook {
		for _, k := range []string{"choice", "count"} {
			if t.has(k) {
				t.errf(k, "%s applies only to a Polyglot book (a .bin file or format = %q)", k, openings.FormatPolyglot)
			}
		}
		return
	}
	o.Choice = openings.ChoiceWeighted
	if c, ok := oneOf(t, "choice", openings.ChoiceNames()); ok {
		o.Choice = c
	}
	if o.Choice == openings.ChoiceWeighted {
		o.Count = DefaultBookCount
		if n, ok := t.integer("count", 1, openings.MaxOpenings); ok {
			o.Count = int(n)
		}
	} else if t.has("count") {
		t.errf("count", "count applies only to choice = %q (choice %q gives one opening)", openings.ChoiceWeighted, o.Choice)
	}
}

// colours reads games_per_opening, noswap and reverse: how openings and
// colours go to the games (fastchess's and cutechess-cli's -games 1,
// -noswap, -reverse).
func (p *parser) colours(t *table, tr *Tournament) {
	if g, ok := t.integer("games_per_opening", 1, 2); ok {
		tr.OneGamePerOpening = g == 1
	}
	if b, ok := t.boolean("noswap"); ok {
		tr.NoSwap = b
	}
	if b, ok := t.boolean("reverse"); ok {
		tr.Reverse = b
	}
	tr.Schedule = ScheduleSelfplay
	if s, ok := oneOf(t, "schedule", schedules); ok {
		tr.Schedule = s
	}
	if tr.Format == FormatKnockout {
		for _, k := range []string{"games_per_opening", "noswap", "reverse"} {
			if t.has(k) {
				t.errf(k, "a knockout's encounters are game pairs with both colours (knockout.games sets how many games)")
			}
		}
	}
}

// checkSchedule checks that schedule = "fastchess" has what fastchess's
// schedule has: a gauntlet, round robin or match of game pairs, and an
// order that is the same every round.
func (p *parser) checkSchedule(t *table, tr Tournament) bool {
	if tr.Schedule != ScheduleFastchess {
		return true
	}
	switch {
	case tr.Format == FormatKnockout:
		t.errf("schedule", "a knockout has its own schedule (schedule = %q applies to matches, gauntlets and round robins)", ScheduleFastchess)
	case tr.OneGamePerOpening:
		t.errf("schedule", "schedule = %q plays game pairs (games_per_opening = 2)", ScheduleFastchess)
	case tr.Openings.Order == openings.OrderRandom:
		t.errf("schedule", "schedule = %q shuffles the openings once: order %q or %q, not %q", ScheduleFastchess, openings.OrderSequential, openings.OrderFastchessRandom, openings.OrderRandom)
	default:
		return true
	}
	return false
}

// checkGamesPerOpening checks that games_per_opening = 1 still makes
// whole game pairs of one pairing: a pair is two consecutive games.
func (p *parser) checkGamesPerOpening(t *table, tr Tournament) bool {
	if !tr.OneGamePerOpening {
		return true
	}
	pairings := pairingCount(tr.Format, len(tr.Engines), tr.GauntletSeeds)
	switch {
	case pairings != 1:
		t.errf("games_per_opening", "one game per opening applies to a tournament of one pairing (this one has %d)", pairings)
		return false
	case len(tr.Openings.List)%2 == 1 && tr.Rounds%2 == 1:
		t.errf("games_per_opening", "one game per opening with %d openings and %d rounds is an odd number of games: the games are played in pairs (make rounds even)", len(tr.Openings.List), tr.Rounds)
		return false
	}
	return true
}
