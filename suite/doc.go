// Package suite runs EPD test suites (WAC, Bratko-Kopec, ECM, zugzwang
// positions) against engine variants: the papers' tactical tables. It backs
// `selfplay suite`.
//
// A run searches every position once per variant and budget, each search on
// one thread with an empty transposition table (a pooled Searcher reset with
// NewGame, which is the same as a new one). Positions run in parallel over
// workers; results are collected by index, so with node or depth limits a
// run gives the same results at any concurrency.
//
// # Budgets
//
// A Plan is one kind of limit with one or more values:
//
//   - nodes: "5400,10800" or the FHR paper's "2700x2^1..10" (2700·2^i for
//     i = 1..10); "2700x2^3" and "2^4" (base 1) work too. A node budget is a
//     hard limit: the search stops the moment it has entered N nodes
//     (quiescence included), in the middle of an iteration if need be. The
//     FHR paper's "time units" of 2700 nodes drove a timing heuristic that
//     preferred to stop between iterations instead; the node budget is its
//     exact, repeatable equivalent, not a copy.
//   - depth: "4..8", "6,8,10": fixed iteration depth.
//   - movetime: one duration ("5s"), the NMR paper's ECM setting; kept in
//     milliseconds. Time results depend on the machine and its load.
//
// # Judging
//
// A position is solved when the move chosen at the end of the search is one
// of bm (if the record has bm) and none of am. first_depth is the first
// iteration whose best move was the final move (-1 if no iteration reported
// a move); later iterations may have chosen other moves before coming back
// to it, so it is not the depth from which the position stays solved.
// first_solved is the smallest budget of the run that solved the position
// for that variant (null if none). Positions without bm or am are
// skipped, except in depth runs, where they are searched for node counts
// only (judged false).
//
// # JSON
//
// WriteJSON writes one object:
//
//	{
//	  "suite": "wac.epd", "limit": "nodes", "budgets": [5400, 10800],
//	  "variants": ["plain", "fhr"], "position_count": 300,
//	  "skipped": [{"line": 7, "id": "", "reason": "malformed: ..."}],
//	  "hash_mib": 16, "concurrency": 2, "complete": true, "wall_ms": 81234.5,
//	  "note": "node budgets are hard limits ...",
//	  "rows": [
//	    {"variant": "plain", "nodes": 5400, "positions": 300, "judged": 300,
//	     "solved": 189, "nodes_searched": 1620000, "main_nodes": 400000,
//	     "q_nodes": 1220000, "mean_depth": 2.77, "time_ms": 900.1,
//	     "nps": 1799800, "complete": true}
//	  ],
//	  "positions": [
//	    {"variant": "plain", "nodes": 5400, "id": "WAC.001", "line": 1,
//	     "judged": true, "solved": true, "move": "g3g6", "bm": ["g3g6"],
//	     "am": [], "bm_san": ["Qg6"], "am_san": [], "first_depth": 3,
//	     "first_solved": 5400, "depth": 5, "score": 31995, "mate": 3,
//	     "nodes_searched": 5400, "main_nodes": 1200, "q_nodes": 4200,
//	     "time_ms": 3.2}
//	  ]
//	}
//
// The budget key of rows and positions is the limit kind: "nodes", "depth"
// or "movetime" (milliseconds). mean_depth is the average iteration depth
// of the final moves. Nodes searched are "nodes_searched" (not
// "nodes", which is the budget in node runs). In positions, "depth" is the
// iteration depth of the final move; in depth runs it is the budget key
// itself (the two are equal). Moves are UCI (bm/am resolved from the EPD's
// SAN, kept in bm_san/am_san); "score" is centipawns from the side to move,
// "mate" the moves to mate (negative: mated) or null. Rows come variant by
// variant, budgets ascending; positions variant, budget, then file order.
// An interrupted run has "complete": false, rows over the searches done, and
// only the finished positions.
//
// # CSV
//
// WriteCSV writes the rows with a header line of the JSON keys; with
// positions set (the -positions flag) it writes the per-position records
// instead, same keys, lists space-separated, null as an empty field.
package suite
