package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"selfplay/internal/fileid"
	"selfplay/internal/termtext"
	"selfplay/pgnrate"
	"selfplay/stats"
)

// comparedMatch is one file of compare: its one pairing's estimate, from
// the view -first names, else that of the first file with the same two
// engines, else its own.
type comparedMatch struct {
	label, file   string
	first, second string
	est           stats.Estimate
	openings      map[uint64]pgnrate.OpeningScore // complete pairs by start, first's view; nil past pgnrate's bound on starts
}

// cmdCompare compares independent matches, one per PGN file: with two files
// the difference of their Elo (A − B), with four the interaction of a 2×2
// design ((A − B) − (C − D)), each with its interval and p-value. Exit
// codes as ratings': 2 for bad flags, a file that cannot be read or is
// given twice, a file without exactly one pairing, or a match without a
// standard error.
func cmdCompare(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "compare", "[flags] A.pgn B.pgn [C.pgn D.pgn] (- for standard input, once)",
		"A − B, or with four files (A − B) − (C − D): the Elo of independent matches combined, with its interval.")
	out := fs.String("o", "", "output file (default: standard output)")
	level := fs.Float64("level", stats.DefaultLevel, "confidence level of the intervals, in (0, 1)")
	first := fs.String("first", "", "comma-separated engines whose view a match is read from where they play (default: the first file's orientation, else each file's own)")
	window := fs.Int("pair-window", pgnrate.DefaultWindow, "unpaired games searched back for a game's colour-swapped partner")
	quiet := fs.Bool("q", false, "do not list malformed games on standard error (they are still counted)")
	files, err := parseFlagsAndFiles(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 2 && len(files) != 4 {
		return withUsage(fs, usageErrorf("want 2 files (A − B) or 4 ((A − B) − (C − D)), got %d", len(files)))
	}
	if !(*level > 0 && *level < 1) {
		return usageErrorf("-level %v is not in (0, 1)", *level)
	}
	if *window < 1 {
		return usageErrorf("-pair-window %d: want at least 1", *window)
	}
	if err := checkOutputNotInput(*out, files...); err != nil {
		return err // before reading: the inputs may hold no match at all
	}
	if err := checkDistinctFiles(files, "the matches must be independent"); err != nil {
		return err
	}
	matches, err := readMatches(ctx, e, files, *first, *window, *level, *quiet)
	if err != nil {
		return err
	}
	lines, err := contrasts(matches, *level)
	if err != nil {
		return err
	}
	return writeOutput(e, *out, func(w io.Writer) error { return writeComparison(w, matches, lines, *level) }, files...)
}

// readMatches reads compare's files and turns each match to its view: that
// of the engine -first names (first, comma-separated), else that of the
// first earlier file with the same two engines, else its own.
func readMatches(ctx context.Context, e env, files []string, first string, window int, level float64, quiet bool) ([]comparedMatch, error) {
	views := map[string]bool{}
	var named []string // views' names, in -first's order
	for _, name := range strings.Split(first, ",") {
		if name = strings.TrimSpace(name); name != "" && !views[name] {
			views[name] = true
			named = append(named, name)
		}
	}
	matches := make([]comparedMatch, len(files))
	for i, path := range files {
		m, err := readMatch(ctx, e, path, window, level, quiet)
		if err != nil {
			return nil, err
		}
		m.label = string(rune('A' + i))
		if len(views) > 0 {
			if views[m.first] && views[m.second] {
				return nil, inputErrorf("%s: -first names both %s and %s", termtext.Escape(path), termtext.Escape(m.first), termtext.Escape(m.second))
			}
			if views[m.second] {
				m = m.reversed()
			}
		} else {
			for _, prev := range matches[:i] {
				if prev.first == m.second && prev.second == m.first {
					m = m.reversed()
					break
				}
			}
		}
		if _, err := m.est.EloSE(); err != nil {
			return nil, inputErrorf("%s (%s): %w", m.label, termtext.Escape(path), err)
		}
		matches[i] = m
	}
	// A name that plays nowhere is a typo: the orientation it asked for
	// would silently not apply.
	var engines []string
	for _, m := range matches {
		for _, name := range []string{m.first, m.second} {
			if !slices.Contains(engines, name) {
				engines = append(engines, name)
			}
		}
	}
	for _, name := range named {
		if !slices.Contains(engines, name) {
			return nil, inputErrorf("-first %s: plays in none of the files (engines: %s)", termtext.Escape(name), termtext.Escape(strings.Join(engines, ", ")))
		}
	}
	return matches, nil
}

// namedContrast is one line of compare's result.
type namedContrast struct {
	name string
	c    stats.Contrast
}

// contrasts are A − B, and with four matches C − D and (A − B) − (C − D).
func contrasts(matches []comparedMatch, level float64) ([]namedContrast, error) {
	defs := []struct {
		name string
		coef []float64
	}{
		{"A − B", []float64{1, -1, 0, 0}},
		{"C − D", []float64{0, 0, 1, -1}},
		{"(A − B) − (C − D)", []float64{1, -1, -1, 1}},
	}
	if len(matches) == 2 {
		defs = defs[:1]
	}
	var out []namedContrast
	for _, c := range defs {
		var es []stats.Estimate
		var coef []float64
		for i, k := range c.coef[:len(matches)] {
			if k != 0 {
				es = append(es, matches[i].est)
				coef = append(coef, k)
			}
		}
		con, err := stats.NewContrast(es, coef, level)
		if err != nil {
			return nil, inputErrorf("%s: %w", c.name, err)
		}
		out = append(out, namedContrast{c.name, con})
	}
	return out, nil
}

// writeComparison prints the matches, the contrasts and the matches'
// correlations through shared openings.
func writeComparison(w io.Writer, matches []comparedMatch, lines []namedContrast, level float64) error {
	fmt.Fprintf(w, "== Comparison of %d matches ==\n\n", len(matches))
	// Numbers right-aligned; the text after the last tab is no column.
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "match\tgames\tpairs\tElo\t±\tSE\t  pairing (model), file")
	for _, m := range matches {
		se, _ := m.est.EloSE() // checked as the file was read
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t  %s vs %s (%s), %s\n", m.label, m.est.Games, m.est.Pairs,
			stats.FormatSigned(m.est.Elo, 1), stats.FormatFloat(m.est.HalfWidth(), 1), stats.FormatFloat(se, 1),
			termtext.Escape(m.first), termtext.Escape(m.second), m.est.Model, termtext.Escape(m.file))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		fmt.Fprintf(w, "%s: %s\n", l.name, l.c)
	}
	// The intervals assume independent matches; matches on the same
	// openings may not be: how their pair scores per opening correlate.
	fmt.Fprintf(w, "\nPair scores per opening both matches played, correlated (%s):\n", stats.FormatLevel(level))
	for i := range matches {
		for j := i + 1; j < len(matches); j++ {
			if _, err := fmt.Fprintf(w, "%s, %s: %s\n", matches[i].label, matches[j].label, openingCorrelation(matches[i], matches[j], level)); err != nil {
				return err
			}
		}
	}
	return nil
}

// reversed is the match from its second engine's view.
func (m comparedMatch) reversed() comparedMatch {
	m.first, m.second, m.est = m.second, m.first, m.est.Reversed()
	if m.openings == nil {
		return m
	}
	turned := make(map[uint64]pgnrate.OpeningScore, len(m.openings))
	for k, o := range m.openings {
		turned[k] = pgnrate.OpeningScore{Sum: 2*float64(o.Pairs) - o.Sum, Pairs: o.Pairs}
	}
	m.openings = turned
	return m
}

// openingCorrelation is r of two matches' mean pair scores over the starts
// both played; a sentence instead when there is none to give.
func openingCorrelation(a, b comparedMatch, level float64) string {
	if a.openings == nil || b.openings == nil {
		return fmt.Sprintf("not compared: more than %d openings", pgnrate.DefaultMaxOpenings)
	}
	var starts []uint64
	for k := range a.openings {
		if _, ok := b.openings[k]; ok {
			starts = append(starts, k)
		}
	}
	if len(starts) < 4 {
		return fmt.Sprintf("%d openings in common, too few", len(starts))
	}
	slices.Sort(starts) // a fixed order: the same sums, to the last bit
	x, y := make([]float64, len(starts)), make([]float64, len(starts))
	for i, k := range starts {
		oa, ob := a.openings[k], b.openings[k]
		x[i], y[i] = oa.Sum/float64(oa.Pairs), ob.Sum/float64(ob.Pairs)
	}
	c, err := stats.NewCorrelation(x, y, level)
	if err != nil {
		return fmt.Sprintf("%d openings in common: %v", len(starts), err)
	}
	if len(a.openings) == len(b.openings) && len(starts) == len(a.openings) && slices.Equal(x, y) && a.est.Games == b.est.Games {
		// A copy of one file (under another name) would pass as a second,
		// independent match.
		return c.String() + " openings, every one scored alike: the same games twice? (the matches must be independent)"
	}
	return c.String() + " openings"
}

// checkDistinctFiles refuses a file given twice (by any name), saying why
// that matters (why), and standard input more than once: it can be read
// only once.
func checkDistinctFiles(files []string, why string) error {
	for i, a := range files {
		for _, b := range files[:i] {
			if a == "-" && b == "-" {
				return usageErrorf("standard input (-) given twice")
			}
			if a == "-" || b == "-" {
				continue
			}
			if fileid.Same(a, b) {
				return inputErrorf("%s and %s are the same file: %s", termtext.Escape(b), termtext.Escape(a), why)
			}
		}
	}
	return nil
}

// readMatch reads one file of compare: its games must be those of one
// pairing; the estimate is the verdict's (pentanomial when the games come
// in colour-swapped pairs, else trinomial), from the view of the pairing's
// first engine.
func readMatch(ctx context.Context, e env, path string, window int, level float64, quiet bool) (comparedMatch, error) {
	pool := pgnrate.NewPool(window)
	pool.KeepOpenings(0)
	if err := readPGNFile(ctx, e, pool, "compare", path, quiet); err != nil {
		return comparedMatch{}, err
	}
	if in := pool.Input(); in.Malformed > 0 {
		fmt.Fprintf(e.stderr, "selfplay compare: %s: %d malformed games skipped\n", termtext.Escape(path), in.Malformed)
	}
	pairings, err := pool.Pairings()
	if err != nil {
		return comparedMatch{}, err
	}
	var names []string
	match := -1
	for i, pt := range pairings {
		if pt.Games.Games() > 0 {
			names = append(names, pt.First+" vs "+pt.Second)
			match = i
		}
	}
	if len(names) == 0 {
		return comparedMatch{}, inputErrorf("%s: no rated games", termtext.Escape(path))
	}
	if len(names) != 1 {
		return comparedMatch{}, inputErrorf("%s: %d pairings with rated games (%s): compare needs one match per file",
			termtext.Escape(path), len(names), termtext.Escape(strings.Join(names, ", ")))
	}
	pt := pairings[match]
	est, err := pt.Estimate(level)
	if err != nil {
		return comparedMatch{}, err
	}
	openings, _ := pool.Openings(match) // nil when not ok
	return comparedMatch{file: path, first: pt.First, second: pt.Second, est: est, openings: openings}, nil
}
