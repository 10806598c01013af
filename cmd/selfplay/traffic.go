package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/engines/uci"
	"selfplay/players"
)

// trafficLogs are the UCI traffic logs of a run's tournaments (their log
// keys), one open file per path, shared by the tournaments that name it.
type trafficLogs struct {
	byTournament map[string]*uci.TrafficLog
	files        map[string]*uci.TrafficLog // by path
}

// openTrafficLogs opens the logs of the tournaments that the run plays
// (only: their names; empty: all).
func openTrafficLogs(cfg *config.File, only []string) (*trafficLogs, error) {
	l := &trafficLogs{byTournament: map[string]*uci.TrafficLog{}, files: map[string]*uci.TrafficLog{}}
	for _, t := range cfg.Tournaments {
		if t.Log == "" || len(only) > 0 && !slices.Contains(only, t.Name) {
			continue
		}
		f, ok := l.files[t.Log]
		if !ok {
			var err error
			if f, err = uci.OpenTrafficLog(t.Log); err != nil {
				l.close(io.Discard)
				return nil, fmt.Errorf("tournament %s: traffic log: %w", t.Name, err)
			}
			l.files[t.Log] = f
		}
		l.byTournament[t.Name] = f
	}
	return l, nil
}

// newEngine starts a player that logs its traffic to its tournament's log
// (the tournament that ctx names, engines.GameOf) and, if pvWarnings is
// set, writes warnings on unsound PVs there (-check-mate-pvs).
func (l *trafficLogs) newEngine(logDir string, pvWarnings io.Writer) func(ctx context.Context, e config.Engine) (engines.Engine, error) {
	if pvWarnings != nil {
		pvWarnings = &syncWriter{w: pvWarnings}
	}
	return func(ctx context.Context, e config.Engine) (engines.Engine, error) {
		return players.NewDebugged(ctx, e, logDir, players.Debug{
			Traffic:    l.byTournament[engines.GameOf(ctx).Tournament],
			PVWarnings: pvWarnings,
		})
	}
}

// syncWriter serialises the writes of the engines, which search at once.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// close flushes and closes the logs; a log that could not be written is
// reported on w (the games are not worse for it).
func (l *trafficLogs) close(w io.Writer) {
	for path, f := range l.files {
		if err := f.Close(); err != nil {
			fmt.Fprintf(w, "selfplay: traffic log %s: %v\n", path, err)
		}
	}
}

// checkMatePVsUsage is -check-mate-pvs' usage line (run, match).
const checkMatePVsUsage = "warn on standard error of each external engine's PV that has an illegal move or a mate score it does not mate in (fastchess's -check-mate-pvs)"

// trafficLogSpec is match's -log in fastchess's form: file=F and the keys
// fastchess gives it (engine=, append=, level=, compress=, realtime=).
type trafficLogSpec struct {
	file     string
	truncate bool // append=false
	notes    []string
}

// trafficLogKeys are the keys of fastchess's -log; a word of match's
// arguments that starts with one of them after -log file=F belongs to it.
var trafficLogKeys = []string{"file", "engine", "append", "level", "compress", "realtime"}

// parseTrafficLog reads fastchess's -log words, e.g. "file=uci.log
// engine=true". selfplay's log holds the engines' traffic only, so
// engine=false is refused; level= and realtime= have no meaning here
// and get a note; compress=true is refused.
func parseTrafficLog(words []string) (trafficLogSpec, error) {
	var s trafficLogSpec
	for _, w := range words {
		k, v, _ := strings.Cut(w, "=")
		switch k {
		case "file":
			if strings.TrimSpace(v) == "" {
				return s, usageErrorf("-log file=: empty path")
			}
			s.file = v
		case "engine", "append", "compress", "realtime":
			b, ok := map[string]bool{"true": true, "false": false}[v]
			if !ok {
				return s, usageErrorf("-log %s=%q: want true or false", k, v)
			}
			switch {
			case k == "engine" && !b:
				return s, usageErrorf("-log engine=false: selfplay's log holds only the engines' UCI traffic; leave -log out for none")
			case k == "append":
				s.truncate = !b
			case k == "compress" && b:
				return s, usageErrorf("-log compress=true: not supported; compress the log afterwards")
			case k == "realtime":
				s.notes = append(s.notes, "-log realtime= has no effect: the log is written by whole lines, at most a second behind")
			}
		case "level":
			s.notes = append(s.notes, "-log level= has no effect: the log holds the engines' UCI traffic only")
		default:
			return s, usageErrorf("-log: unknown key %q (want file=, engine=, append=, level=, compress=, realtime=)", w)
		}
	}
	if s.file == "" {
		return s, usageErrorf("-log %s: missing file=PATH", strings.Join(words, " "))
	}
	return s, nil
}

// cutTrafficLog takes match's -log in fastchess's form out of args: -log
// file=F (or -log=file=F) and the words after it that are keys of
// fastchess's -log (trafficLogKeys). It returns the other arguments and
// the log's words (nil: no such -log; the last one counts, as for flags).
// -log games stays for the flag package.
func cutTrafficLog(args []string) (rest, words []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i:]...), words
		}
		var first string
		switch {
		case (a == "-log" || a == "--log") && i+1 < len(args) && isTrafficLogWord(args[i+1]):
			first = args[i+1] // fastchess's keys come in any order
			i++
		case (strings.HasPrefix(a, "-log=") || strings.HasPrefix(a, "--log=")) && isTrafficLogWord(a[strings.IndexByte(a, '=')+1:]):
			_, first, _ = strings.Cut(a, "=")
		default:
			rest = append(rest, a)
			continue
		}
		words = []string{first}
		for i+1 < len(args) && isTrafficLogWord(args[i+1]) {
			words = append(words, args[i+1])
			i++
		}
	}
	return rest, words
}

func isTrafficLogWord(w string) bool {
	k, _, ok := strings.Cut(w, "=")
	return ok && slices.Contains(trafficLogKeys, k)
}
