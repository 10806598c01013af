package board

// Perft counts the leaf nodes of the legal move tree to the given depth. lists
// must hold at least depth buffers; it allocates nothing.
func (b *Board) Perft(depth int, lists []MoveList) int64 {
	if depth <= 0 {
		return 1
	}
	l := &lists[0]
	b.Generate(l, All)
	if depth == 1 {
		return int64(l.N)
	}
	var n int64
	for i := 0; i < l.N; i++ {
		b.MakeMove(l.Moves[i])
		n += b.Perft(depth-1, lists[1:])
		b.UnmakeMove()
	}
	return n
}
