// Package report holds the statistics report of stored tournaments (what
// `selfplay report` prints) and of games read from PGN files (what
// `selfplay ratings` prints), and renders it as text, JSON or HTML. The
// data is built from the stored records by package standings, or from PGN
// files by package pgnrate; this package does no I/O beyond writing to the
// io.Writer it is given.
//
// # Formats
//
// WriteText prints aligned tables with stable wording, one section per
// tournament ("== Tournament NAME ==") and per stored suite run
// ("== Suite run ID: FILE =="), each made of "key  value" facts and tables
// under "-- Heading --" lines. A tournament section holds: its status,
// format, engines, time range and SPRT state; a knockout's bracket round
// by round; the Bradley-Terry rating table with the LOS of each engine
// over the next; with more than two engines a crosstable; per pairing the
// counts, both models' estimates, the verdict and the SPRT; per pairing the results by opening (the FHR paper's
// Table 2); the terminations; and the search figures per engine. Games read
// from PGN files ("== Games of FILES ==") have a header of what was read,
// skipped and paired instead of the status, and no openings or search
// figures; their terminations come from the Termination tags.
//
// WriteHTML shows the same sections and words as one self-contained page
// (inline CSS and SVG, no scripts, no external references), plus charts:
// with more than two engines, the ratings as points with interval bars;
// per pairing, the running Elo estimate with its interval band against
// games, and, with an SPRT, the log-likelihood ratio path with its bounds.
// Each chart's scale is chosen from its data; a value beyond it (an
// unbounded early interval, an infinite Elo) is drawn on the edge with an
// orange mark that the chart's legend explains. Charts scale to the page
// (SVG viewBox, width 100%): two side by side on a wide screen, one per
// row on a phone; tables wider than the screen scroll in their own box, so
// the page itself never does (tested in Chromium at 1280 and 640 px).
//
// WriteJSON writes every figure of the text report as numbers.
//
// # JSON structure
//
// Numbers are JSON numbers rounded to 10 significant digits. A figure that
// can be unbounded (Elo and its interval ends, normalized Elo, ratings) is
// the string "+inf" or "-inf" when it is; every other number is always a
// number. Lists are arrays, never null; "played" and "sprt" are null when
// absent. Times are RFC 3339 in UTC. Field names are stable within a
// "version"; new fields may be added.
//
//	{
//	  "format": "selfplay-report", "version": 1,
//	  "level": 0.95,                 confidence level of every interval
//	  "anchor": "",                  the -anchor asked for ("" = average)
//	  "tournaments": [{
//	    "name", "format" (match | gauntlet | round-robin | knockout | pgn), "status" (running | complete | "" for pgn),
//	    "games_stored", "games_scheduled", "engines": [names],
//	    "knockout": {"games", "max_tie_break_pairs", "seeds": [names], "round_count", "winner",
//	                 "rounds": [{"encounters": [{"first", "first_seed", "second", "second_seed", "bye",
//	                                             "first_points", "second_points", "games", "pairs": [numbers],
//	                                             "tie_break_pairs", "winner"}]}]}
//	                (format knockout only),
//	    "limits": [{"engine", "limit"}] (only when an engine has limits of its own),
//	    "played": {"start", "end"} | null,
//	    "input": null | {"files": [paths], "games", "rated", "unfinished", "malformed",
//	                     "pairs", "unpaired"},
//	    "rating_anchor": "" | engine rated rating_offset in this table,
//	    "rating_offset": 0 | the anchor's (or the average's) rating, -anchor-rating (Ordo's -a),
//	    "ratings": [{"rank", "engine", "rating" (null when unconnected), "error" (half the interval), "low", "high",
//	                 "status" (rated | +inf | -inf | unconnected), "games", "points", "score" (0..1; null without games),
//	                 "los_next" (0..1 | null)}],
//	    "pairings": [{
//	      "first", "second",          counts are from the first engine's view
//	      "games", "wins", "losses", "draws", "points", "score", "draw_ratio",
//	      "pairs", "ptnml": [LL, LD, DD, WD, WW], "unpaired_games",
//	      "estimates": [{"model" (trinomial | pentanomial), "games", "pairs", "points",
//	                     "score", "score_low", "score_high", "draw_ratio",
//	                     "elo", "elo_low", "elo_high", "elo_error", "los" (0..1),
//	                     "nelo", "nelo_low", "nelo_high", "exact"}],
//	      "verdict_model", "verdict",  the estimate used and stats.Verdict's line
//	      "sprt": null | {"elo0", "elo1", "alpha", "beta", "model" (logistic | normalized),
//	                      "llr", "lower", "upper", "state" (continue | H0 | H1), "verdict",
//	                      "path": [{"pairs", "games", "llr"}]},
//	      "openings": {"rows": [{"id", "name", "first_white": [results], "first_black": [results],
//	                             "games", "first_points"}],
//	                   "first_white_points", "first_white_games",
//	                   "first_black_points", "first_black_games"},
//	      "progress": [{"games", "elo", "elo_low", "elo_high"}]
//	    }],
//	    "terminations": {"engines": [names],
//	                     "rows": [{"termination", "games", "white_wins", "black_wins", "draws",
//	                               "against": {engine: count}}]},
//	    "search": [{"engine", "moves", "depth", "seldepth", "nodes", "time_ms", "nps"}]
//	  }],
//	  "suite_runs": [{"id", "suite", "limit_kind" (nodes | depth | movetime), "settings", "created",
//	                  "rows": [{"variant", "limit", "positions", "solved", "nodes",
//	                            "main_nodes", "q_nodes", "time_ms"}]}]
//	}
//
// Meanings: "los_next" is the probability that the engine is stronger than
// the one of the next row, from the covariance of the rating fit (null on
// the last row and where either is not rated). "input" (PGN files only):
// games read = rated + unfinished ("*") + malformed; rated = 2·pairs +
// unpaired, pairs being the colour-swapped pairs found. The pentanomial estimate covers the complete pairs only, and
// the verdict, progress and SPRT use it whenever there is one (fishtest's
// rule); "unpaired_games" are games whose partner is not stored. Opening
// results are PGN results (White first) in schedule order, one per round;
// "games" and "first_points" are the opening's games and the first
// engine's points in them summed over every round (one pair's score only
// when the opening was played once each way). A pairing without games has
// "score" and "draw_ratio" 0, while its trinomial estimate holds the
// neutral score 0.5 with unbounded intervals.
// "knockout" (format knockout only; the field is absent otherwise) is the
// bracket as far as the stored games go: the rounds planned so far, each
// encounter's players (a seed counts from 1, 0 for a drawn player; a bye
// has "second" "" and advances unplayed), its points and games stored, its
// game pairs numbered from 1 as the games' PGN Round tags, the tie-break
// pairs after "games" games, and "winner" ("" while undecided);
// "games_scheduled" counts the tie-break pairs planned so far.
// "progress" is the running estimate after each complete pair (or each game
// when no pair is complete) in schedule order; "path" is the SPRT's LLR
// after each complete pair. A decision is final (fishtest): the SPRT's
// "state" and "llr" are the decision the runner stored and the LLR at which
// it took it, or else the first point of "path" outside the bounds, whatever
// games were stored after it; undecided, the LLR after the last pair.
// "against" counts, per engine, the games that ended that way against it:
// lost, or, for illegal move, time forfeit, engine timeout, engine crash
// and engine error, forfeited by its own fault
// (even when drawn). "search"
// averages are per engine move, book moves excluded; "depth" is the
// iteration depth reported with the move (the last completed iteration, or
// the interrupted one when the move played comes from it); "depth" and
// "seldepth" leave out moves reporting a depth or seldepth outside 0..127
// (sentinels such as Stockfish's depth 245 when mated, not searches) and
// are 0 when no move is left; "nodes" and "time_ms" are means over every
// move, "nps" total nodes over total time.
package report
