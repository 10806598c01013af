package config

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"selfplay/config/snapshot"
	"selfplay/internal/inputfile"
	"selfplay/openings"
)

// DefaultDatabase is the database file used when the config names none,
// next to the config file.
const DefaultDatabase = "selfplay.db"

// Load reads and parses a config file; see Parse.
func Load(path string) (*File, error) { return LoadContext(context.Background(), path) }

// LoadContext is Load that stops waiting when ctx ends (opening a FIFO
// waits for a writer; reading one, or a slow file, for data), with ctx's
// error. It reads at most maxSize+1 bytes, so that a larger file (or an
// endless one) is refused without being read to its end; see Parse for
// the other bounds.
func LoadContext(ctx context.Context, path string) (*File, error) {
	data, err := inputfile.ReadAll(ctx, path, maxSize)
	if errors.Is(err, inputfile.ErrTooLarge) {
		return nil, Errors{tooLarge(path)}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("config: %w", err)
	}
	return parse(ctx, data, path)
}

// Parse parses and validates the TOML text of a config file. path names the
// file in errors, and its directory (File.Dir = filepath.Dir(path)) is the
// base of every relative path in the file: database, openings files,
// external engines' dir and command.
//
// Every key is checked: unknown keys, wrong types, bad values and
// inconsistent combinations are errors, and the opening sets and files are
// loaded: each tournament keeps its openings (Openings.List) and the hash
// of its opening file's content (Openings.Hash), and its referee resolved
// (Adjudication.RefereeOptions). The error is an Errors listing every problem found, each naming
// the file and the key path (e.g. "tournament[0].limits.nodes", tournaments
// counted from 0) or, for TOML syntax errors, the line and column.
//
// Defaults: database "selfplay.db"; engine hash 16 MiB, init_timeout and
// ping_timeout 10s; tournament format "match" for 2 engines and "round-robin" for more,
// rounds 1, concurrency runtime.NumCPU(), seed 1; openings set "fhr25",
// order "sequential", plies 8 for a PGN file; time_margin 100ms;
// adjudication move 100, policy "referee", referee "plain", referee_nodes
// 200000, margin 200, resign and draw adjudication off; SPRT alpha and beta
// 0.05, model "normalized".
//
// Paths: database, openings file and an external engine's dir are joined
// to File.Dir unless absolute. An external engine's command without a path
// separator is kept for a PATH lookup; a relative command path is resolved
// against the engine's dir if given, else File.Dir, and made absolute.
//
// Bounds: a text larger than maxSize, with a NUL byte, with arrays and
// inline tables nested deeper than maxNesting or a dotted key of more
// parts is refused before it is parsed; more than maxEngines engines are
// refused; the check stops after 100 problems.
func Parse(data []byte, path string) (*File, error) { return parse(context.Background(), data, path) }

// parse is Parse whose openings files are read on ctx.
func parse(ctx context.Context, data []byte, path string) (*File, error) {
	if e := prescan(data, path); e != nil {
		return nil, Errors{e}
	}
	p := &parser{ctx: ctx, file: path, dir: filepath.Dir(path), names: map[string]int{}, openingsCache: map[openings.Spec]openingsResult{}}
	var root map[string]any
	md, err := toml.Decode(string(data), &root)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := pe.Message
			if pe.LastKey != "" {
				msg += fmt.Sprintf(" (after key %q)", pe.LastKey)
			}
			return nil, Errors{{File: path, Line: pe.Position.Line, Col: pe.Position.Col, Msg: "TOML syntax error: " + msg, Err: err}}
		}
		return nil, Errors{{File: path, Msg: err.Error(), Err: err}}
	}
	f := p.parseFile(root, md)
	if ctx.Err() != nil { // an openings file was being read
		return nil, context.Cause(ctx)
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return f, nil
}

// parser collects the problems of one file.
type parser struct {
	ctx  context.Context
	file string
	dir  string
	errs Errors
	// stopped: maxErrors problems were collected, and a last one saying
	// that the rest of the file is not checked; no more are added.
	stopped bool

	log           string          // the top-level log key, resolved: each tournament's default
	defined       map[string]bool // engine tables present, valid or not
	names         map[string]int  // tournament names seen, valid tournament or not -> index
	openingsCache map[openings.Spec]openingsResult
}

type openingsResult struct {
	list []openings.Opening
	hash string
	err  error
}

func (p *parser) errf(key, format string, args ...any) {
	e := &Error{File: p.file, Key: key, Msg: fmt.Sprintf(format, args...)}
	for _, a := range args {
		if err, ok := a.(error); ok {
			e.Err = err
		}
	}
	p.add(e)
}

// add collects a problem, up to maxErrors of them.
func (p *parser) add(e *Error) {
	if p.stopped {
		return
	}
	if len(p.errs) == maxErrors {
		p.stopped = true
		e = &Error{File: p.file, Msg: fmt.Sprintf("more than %d problems: the rest of the file is not checked", maxErrors)}
	}
	p.errs = append(p.errs, e)
}

// resolve makes a path from the file relative to the config directory.
func (p *parser) resolve(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(p.dir, path)
}

var topKeys = []string{"database", "log", "engines", "tournament"}

func (p *parser) parseFile(root map[string]any, md toml.MetaData) *File {
	f := &File{Path: p.file, Dir: p.dir, Database: p.resolve(DefaultDatabase)}
	top := &table{p: p, m: root}
	top.unknown(topKeys, nil)

	if db, ok := top.str("database"); ok {
		if strings.TrimSpace(db) == "" {
			top.errf("database", "empty path (leave the key out for the default %q next to the config)", DefaultDatabase)
		} else {
			f.Database = p.resolve(db)
		}
	}

	p.log = p.logPath(top)

	p.defined = map[string]bool{}
	if engs, ok := top.sub("engines"); ok {
		if n := len(engs.m); n > maxEngines {
			// Each would be checked, and each tournament's names against
			// them: refuse at once.
			top.errf("engines", "%d engines defined, more than %d", n, maxEngines)
			return f
		}
		for _, name := range engineOrder(engs.m, md) {
			if p.stopped {
				return f
			}
			p.defined[name] = true
			if e, ok := p.engine(name, engs.m[name]); ok {
				f.Engines = append(f.Engines, e)
			}
		}
	}

	for i, m := range p.tournamentTables(top) {
		if p.stopped || p.ctx.Err() != nil {
			break
		}
		if m == nil {
			continue // not a table: reported
		}
		if t, ok := p.tournament(i, m, f); ok {
			f.Tournaments = append(f.Tournaments, t)
		}
	}
	return f
}

// logPath reads a log key (the UCI traffic log's file) of t, resolved;
// absent: the file's.
func (p *parser) logPath(t *table) string {
	path, ok := t.str("log")
	if !ok {
		return p.log
	}
	if strings.TrimSpace(path) == "" {
		t.errf("log", "empty path (leave the key out for no traffic log)")
		return p.log
	}
	return p.resolve(path)
}

// engineOrder returns the engine names in the order of the file (the TOML
// decoder's map has none; MetaData.Keys has).
func engineOrder(m map[string]any, md toml.MetaData) []string {
	var names []string
	seen := map[string]bool{}
	for _, k := range md.Keys() {
		if len(k) >= 2 && k[0] == "engines" && !seen[k[1]] {
			if _, ok := m[k[1]]; ok {
				seen[k[1]] = true
				names = append(names, k[1])
			}
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}

// tournamentTables returns the [[tournament]] tables; entries that are not
// tables are reported and nil, so that indices match the file.
func (p *parser) tournamentTables(top *table) []map[string]any {
	v, ok := top.m["tournament"]
	if !ok {
		p.errf("tournament", "no tournaments: add at least one [[tournament]] table")
		return nil
	}
	switch x := v.(type) {
	case []map[string]any:
		return x
	case map[string]any:
		p.errf("tournament", "want an array of tables: write [[tournament]] (two brackets), not [tournament]")
		return nil
	case []any:
		var out []map[string]any
		for i, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				p.errf(fmt.Sprintf("tournament[%d]", i), "want a table, got %s", describe(e))
			}
			out = append(out, m)
		}
		return out
	}
	top.wrongType("tournament", "an array of tables ([[tournament]])")
	return nil
}

// OpeningSpec is the openings.Spec of the tournament's openings, for
// openings.Load.
func (t Tournament) OpeningSpec() openings.Spec {
	if o := t.Openings; o.Choice != "" { // a Polyglot book: its walks depend on the seed
		return openings.Spec{File: o.File, Format: o.Format, Plies: o.Plies, Choice: o.Choice, Count: o.Count, Seed: t.Seed}
	}
	if t.Openings.File != "" {
		return openings.Spec{File: t.Openings.File, Format: t.Openings.Format, Plies: t.Openings.Plies}
	}
	return openings.Spec{Set: t.Openings.Set}
}

// Pairings lists the pairings a format plays, in schedule order, each as
// (first engine, second engine): for a match the two engines, for a
// gauntlet each of its first seeds engines (at least 1) against every
// engine after it, for a round robin every two engines (n(n-1)/2
// pairings). The first engine of a pairing has White in the first game of
// each game pair.
func Pairings(format Format, engines []string, seeds int) [][2]string {
	return snapshot.Pairings(string(format), engines, seeds)
}

// Pairings lists the tournament's pairings in schedule order; see the
// function Pairings.
func (t Tournament) Pairings() [][2]string { return Pairings(t.Format, t.Engines, t.GauntletSeeds) }

// Games is the number of games of the tournament with numOpenings openings:
// every pairing plays every opening once with each color, Rounds times. A
// config from Parse keeps it within maxGames.
func (t Tournament) Games(numOpenings int) int {
	n, _ := ScheduledGames(pairingCount(t.Format, len(t.Engines), t.GauntletSeeds), t.ScheduledOpenings(numOpenings), t.Rounds)
	return int(n)
}

// ScheduledOpenings is the openings factor of the tournament's games:
// numOpenings, or 1 under ScheduleFastchess, whose rounds take one
// opening per pairing whatever the book's size.
func (t Tournament) ScheduledOpenings(numOpenings int) int {
	if t.Schedule == ScheduleFastchess {
		return 1
	}
	return numOpenings
}

// pairingCount is len(Pairings(format, engines, seeds)) for n engines,
// without making the list (a round robin of maxEngines has half a
// million).
func pairingCount(format Format, n, seeds int) int {
	switch {
	case format == FormatMatch && n == 2:
		return 1
	case format == FormatGauntlet && n > 1:
		s := min(max(seeds, 1), n-1) // gauntlet/scheduler.hpp:21
		return s*n - s*(s+1)/2
	case n < 2:
		return 0
	}
	return n * (n - 1) / 2
}

// maxGames bounds a tournament's schedule (pairings x openings x 2 x
// rounds). The schedule is computed game by game, so the bound is not
// about memory: it keeps game and pair numbers, and the sums over them,
// far from overflowing 64 bits.
const maxGames = 1 << 40

// ScheduledGames is pairings x openings x 2 x rounds, or an error when that
// is more than maxGames.
func ScheduledGames(pairings, openings, rounds int) (int64, error) {
	if pairings < 0 || openings < 0 || rounds < 0 {
		return 0, fmt.Errorf("negative count in %d pairings x %d openings x %d rounds", pairings, openings, rounds)
	}
	n := int64(2)
	for _, f := range []int{pairings, openings, rounds} {
		if f != 0 && n > maxGames/int64(f) {
			return 0, fmt.Errorf("%d pairings x %d openings x 2 colors x %d rounds is more than %d games", pairings, openings, rounds, int64(maxGames))
		}
		n *= int64(f)
	}
	return n, nil
}
