package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"selfplay/engines/board"
	"selfplay/engines/uciserver"
)

// cmdPerft counts the move tree's leaves: a move-generator check against
// published counts and a speed measurement (see ../shared/tools/perft-ratio).
// An interruption is noticed within milliseconds (exit 130, no totals).
func cmdPerft(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "perft", "[-fen FEN] [-depth 5] [-divide]")
	fen := fs.String("fen", "startpos", `position in FEN, or "startpos"`)
	depth := fs.Int("depth", 5, fmt.Sprintf("depth in plies (1..%d)", maxPerftDepth))
	divide := fs.Bool("divide", false, "also print the count below each move")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *depth < 1 || *depth > maxPerftDepth {
		return usageErrorf("-depth %d is out of range: want 1..%d", *depth, maxPerftDepth)
	}
	b, err := positionFlag(*fen)
	if err != nil {
		return usageErrorf("-fen: %w", err)
	}
	start := time.Now()
	var nodes int64
	var root board.MoveList
	b.Generate(&root, board.All)
	lists := make([]board.MoveList, *depth)
	for _, m := range root.Slice() {
		b.MakeMove(m)
		n, err := perft(ctx, b, *depth-1, lists)
		b.UnmakeMove()
		if err == nil && n > math.MaxInt64-nodes {
			err = errPerftOverflow
		}
		switch {
		case ctx.Err() != nil:
			return interruptedErrorf("interrupted")
		case err != nil:
			return err
		}
		if *divide {
			fmt.Fprintf(e.stdout, "%s %d\n", m, n)
		}
		nodes += n
	}
	elapsed := time.Since(start)
	fmt.Fprintf(e.stdout, "nodes %d\n", nodes)
	fmt.Fprintf(e.stdout, "time %d\n", elapsed.Milliseconds())
	fmt.Fprintf(e.stdout, "nps %d\n", uciserver.NPS(nodes, elapsed))
	return nil
}

// maxPerftDepth bounds -depth: the start position's count overflows 64 bits
// at depth 14, and depth 13 takes years.
const maxPerftDepth = 15

// perftBulkDepth: subtrees this shallow are counted by Board.Perft without
// a look at the context; the largest (4 plies in a middlegame, a few
// million leaves) take milliseconds, and one look per such subtree costs
// nothing measurable.
const perftBulkDepth = 4

var errPerftOverflow = errors.New("the count overflows 64 bits")

// perft is Board.Perft that stops when ctx is done (returning its error)
// and reports a count that overflows.
func perft(ctx context.Context, b *board.Board, depth int, lists []board.MoveList) (int64, error) {
	if depth <= perftBulkDepth {
		return b.Perft(depth, lists), nil
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	l := &lists[0]
	b.Generate(l, board.All)
	var total int64
	for i := 0; i < l.N; i++ {
		b.MakeMove(l.Moves[i])
		n, err := perft(ctx, b, depth-1, lists[1:])
		b.UnmakeMove()
		if err != nil {
			return 0, err
		}
		if n > math.MaxInt64-total {
			return 0, errPerftOverflow
		}
		total += n
	}
	return total, nil
}

// positionFlag parses a -fen flag value ("startpos" is the initial
// position; an empty value is an error, not a silent default).
func positionFlag(fen string) (*board.Board, error) {
	switch strings.TrimSpace(fen) {
	case "":
		return nil, errors.New(`empty FEN (give a FEN, or "startpos" for the initial position)`)
	case "startpos":
		fen = board.StartFEN
	}
	return board.FromFEN(fen)
}
