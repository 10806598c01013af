package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"selfplay/config"
	"selfplay/stats"
)

// eloOptions are the parsed flags of `selfplay elo`.
type eloOptions struct {
	tri           stats.Trinomial
	penta         stats.Pentanomial
	paired        bool // -penta given: pentanomial model
	level         float64
	sprt          *stats.SPRT // nil without -sprt
	first, second string
}

// cmdElo prints Elo, its interval, LOS, normalized Elo and optionally the
// SPRT state of one W/L/D or pentanomial result, one `name value` figure per
// line followed by a plain-language verdict line.
func cmdElo(_ context.Context, e env, args []string) error {
	fs, options := eloFlags(e.stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	opts, err := options()
	if err != nil {
		return usageError(err)
	}
	if err := printElo(e.stdout, opts); err != nil {
		return usageError(err)
	}
	return nil
}

// eloFlags defines the flags of `selfplay elo`; once they are parsed,
// options checks them and returns what they ask for.
func eloFlags(stderr io.Writer) (fs *flag.FlagSet, options func() (eloOptions, error)) {
	fs = flag.NewFlagSet("elo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	w := fs.Int("w", 0, "games won by the first engine")
	l := fs.Int("l", 0, "games lost by the first engine")
	d := fs.Int("d", 0, "games drawn")
	penta := fs.String("penta", "", "game-pair counts `LL,LD,DD,WD,WW` (pair scores 0, 0.5, 1, 1.5, 2; DD includes WL)")
	level := fs.Float64("level", stats.DefaultLevel, "confidence level of the intervals, in (0, 1)")
	sprt := fs.String("sprt", "", "run an SPRT with bounds `elo0,elo1`")
	alpha := fs.Float64("alpha", 0.05, "SPRT type I error (needs -sprt)")
	beta := fs.Float64("beta", 0.05, "SPRT type II error (needs -sprt)")
	model := fs.String("model", config.DefaultSPRTModel.String(), "SPRT bounds unit: normalized, logistic or bayesian (W/D/L only; needs -sprt); the default is run's and match's")
	first := fs.String("first", "first", "name of the first engine in the verdict")
	second := fs.String("second", "second", "name of the second engine in the verdict")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: selfplay elo -w W -l L -d D [flags]")
		fmt.Fprintln(stderr, "       selfplay elo -penta LL,LD,DD,WD,WW [flags]")
		fmt.Fprintln(stderr, "\nPrints games, pairs (pentanomial only), score, elo, elo_low, elo_high, los,")
		fmt.Fprintln(stderr, "draw_ratio, nelo, nelo_low, nelo_high, with -sprt also llr, llr_lower, llr_upper,")
		fmt.Fprintln(stderr, "sprt (continue, H0 or H1), one per line, then a verdict line. Scores, LOS and")
		fmt.Fprintln(stderr, "draw ratio are fractions; infinite Elo prints as +inf or -inf. The verdict's")
		fmt.Fprintln(stderr, "± is half the width of the Elo interval, as fastchess and fishtest print it.")
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	return fs, func() (eloOptions, error) {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

		opts := eloOptions{level: *level, first: *first, second: *second}
		if !(opts.level > 0 && opts.level < 1) {
			return eloOptions{}, fmt.Errorf("-level %v is not in (0, 1); write 95%% as 0.95", *level)
		}
		wld := set["w"] || set["l"] || set["d"]
		switch {
		case wld && set["penta"]:
			return eloOptions{}, errors.New("give either -w/-l/-d or -penta, not both")
		case set["penta"]:
			p, err := parsePenta(*penta)
			if err != nil {
				return eloOptions{}, fmt.Errorf("-penta: %w", err)
			}
			opts.penta, opts.paired = p, true
		case wld:
			opts.tri = stats.Trinomial{Wins: *w, Losses: *l, Draws: *d}
			if err := opts.tri.Validate(); err != nil {
				return eloOptions{}, fmt.Errorf("-w/-l/-d: %w", err)
			}
		default:
			return eloOptions{}, errors.New("no result given: use -w W -l L -d D or -penta LL,LD,DD,WD,WW")
		}

		if !set["sprt"] {
			for _, name := range []string{"alpha", "beta", "model"} {
				if set[name] {
					return eloOptions{}, fmt.Errorf("-%s needs -sprt elo0,elo1", name)
				}
			}
			return opts, nil
		}
		test, err := parseSPRT(*sprt, *alpha, *beta, *model)
		if err != nil {
			return eloOptions{}, err
		}
		opts.sprt = &test
		return opts, nil
	}
}

// parsePenta reads five comma-separated non-negative counts.
func parsePenta(s string) (stats.Pentanomial, error) {
	fields := strings.Split(s, ",")
	if len(fields) != 5 {
		return stats.Pentanomial{}, fmt.Errorf("want 5 comma-separated counts LL,LD,DD,WD,WW, got %d in %q", len(fields), s)
	}
	var counts [5]int
	for i, f := range fields {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return stats.Pentanomial{}, fmt.Errorf("count %d (%q) is not an integer", i+1, f)
		}
		if n < 0 {
			return stats.Pentanomial{}, fmt.Errorf("count %d is negative (%d)", i+1, n)
		}
		counts[i] = n
	}
	return stats.PentanomialFromCounts(counts), nil
}

// parseSPRT reads "elo0,elo1" and validates the whole test.
func parseSPRT(bounds string, alpha, beta float64, model string) (stats.SPRT, error) {
	fields := strings.Split(bounds, ",")
	if len(fields) != 2 {
		return stats.SPRT{}, fmt.Errorf("-sprt: want elo0,elo1, got %q", bounds)
	}
	var elo [2]float64
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return stats.SPRT{}, fmt.Errorf("-sprt: %q is not a number", f)
		}
		elo[i] = v
	}
	m, err := stats.ParseEloModel(model)
	if err != nil {
		return stats.SPRT{}, fmt.Errorf("-model: %w", err)
	}
	test := stats.SPRT{Elo0: elo[0], Elo1: elo[1], Alpha: alpha, Beta: beta, Model: m}
	if err := test.Validate(); err != nil {
		return stats.SPRT{}, fmt.Errorf("-sprt: %w", err)
	}
	return test, nil
}

// printElo computes and prints the figures. Errors come only from inputs the
// statistics reject (for example SPRT bounds too extreme for the result).
func printElo(out io.Writer, opts eloOptions) error {
	var est stats.Estimate
	var err error
	if opts.paired {
		est, err = stats.AnalyzePentanomial(opts.penta, opts.level)
	} else {
		est, err = stats.AnalyzeTrinomial(opts.tri, opts.level)
	}
	if err != nil {
		return err
	}
	var sprt stats.SPRTResult
	if opts.sprt != nil {
		if opts.paired {
			sprt, err = opts.sprt.Pentanomial(opts.penta)
		} else {
			sprt, err = opts.sprt.Trinomial(opts.tri)
		}
		if err != nil {
			return err
		}
	}

	line := func(name, value string) { fmt.Fprintf(out, "%s %s\n", name, value) }
	line("games", strconv.Itoa(est.Games))
	if opts.paired {
		line("pairs", strconv.Itoa(est.Pairs))
	}
	line("score", stats.FormatFloat(est.Score, 5))
	line("elo", stats.FormatFloat(est.Elo, 2))
	line("elo_low", stats.FormatFloat(est.EloLow, 2))
	line("elo_high", stats.FormatFloat(est.EloHigh, 2))
	line("los", stats.FormatFloat(est.LOS, 5))
	line("draw_ratio", stats.FormatFloat(est.DrawRatio, 5))
	line("nelo", stats.FormatFloat(est.NElo, 2))
	line("nelo_low", stats.FormatFloat(est.NEloLow, 2))
	line("nelo_high", stats.FormatFloat(est.NEloHigh, 2))
	verdict := stats.Verdict(opts.first, opts.second, est)
	if opts.sprt != nil {
		line("llr", stats.FormatFloat(sprt.LLR, 4))
		line("llr_lower", stats.FormatFloat(sprt.Lower, 4))
		line("llr_upper", stats.FormatFloat(sprt.Upper, 4))
		line("sprt", sprt.State.String())
		verdict += "; " + stats.SPRTVerdict(*opts.sprt, sprt)
	}
	line("verdict", verdict)
	return nil
}
