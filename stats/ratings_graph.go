package stats

// games is the aggregated head-to-head record of every pair of players.
type games struct {
	n      [][]float64 // n[i][j]: games between i and j
	points [][]float64 // points[i][j]: points i scored against j
	draws  [][]float64 // draws[i][j]: drawn games between i and j
}

// tally aggregates results into a games record, draws as half points as in
// Ordo; names were validated by indexPlayers.
func tally(players int, index map[string]int, results []PairResult) games {
	g := games{n: newMatrix(players), points: newMatrix(players), draws: newMatrix(players)}
	for _, r := range results {
		i, j := index[r.First], index[r.Second]
		total := float64(r.Wins + r.Losses + r.Draws)
		g.n[i][j] += total
		g.n[j][i] += total
		g.points[i][j] += float64(r.Wins) + float64(r.Draws)/2
		g.points[j][i] += float64(r.Losses) + float64(r.Draws)/2
		g.draws[i][j] += float64(r.Draws)
		g.draws[j][i] += float64(r.Draws)
	}
	return g
}

func (g games) playerGames(i int) int {
	total := 0.0
	for _, n := range g.n[i] {
		total += n
	}
	return int(total)
}

func (g games) playerPoints(i int) float64 {
	total := 0.0
	for _, p := range g.points[i] {
		total += p
	}
	return total
}

// classify picks the group of players to rate and the status of everyone. It
// applies Zermelo's (1929) and Ford's (1957) existence condition for
// Bradley–Terry maximum-likelihood estimates; Ordo handles the same cases by
// capping ratings instead.
//
// Draw an arrow i→j when i scored against j. Finite maximum-likelihood
// ratings exist exactly within strongly connected components of this graph
// (Zermelo's condition). The rated group is the anchor's component, or
// without an anchor the largest one (ties: more games inside it, then more
// games of its players, then the earlier player). Players the group reaches
// but who do not reach back lost every point to it, directly or through
// others, so their rating is -Inf; players who reach the group but are not
// reached are +Inf; the rest are unconnected. Without an anchor, a group
// whose players have no games is none: everyone is unconnected.
func classify(g games, anchor int) (status []RatingStatus, group []int) {
	players := len(g.n)
	scored := func(i, j int) bool { return g.points[i][j] > 0 }
	comp := strongComponents(players, scored)

	chosen := -1
	played := map[int]float64{} // games of the component's players
	if anchor >= 0 {
		chosen = comp[anchor]
	} else {
		size, inside := map[int]int{}, map[int]float64{}
		for i := range players {
			size[comp[i]]++
			for j := range players {
				played[comp[i]] += g.n[i][j]
				if comp[j] == comp[i] {
					inside[comp[i]] += g.n[i][j]
				}
			}
		}
		// Then more games played by its players (a player without any is
		// a group of one, never rated); the earliest player breaks ties.
		better := func(c int) bool {
			if size[c] != size[chosen] {
				return size[c] > size[chosen]
			}
			if inside[c] != inside[chosen] {
				return inside[c] > inside[chosen]
			}
			return played[c] > played[chosen]
		}
		for i := range players {
			if c := comp[i]; chosen < 0 || better(c) {
				chosen = comp[i]
			}
		}
	}

	for i := range players {
		if comp[i] == chosen {
			group = append(group, i)
		}
	}
	below := reachable(players, group, scored)                                      // group scored against them
	above := reachable(players, group, func(i, j int) bool { return scored(j, i) }) // they scored against group

	status = make([]RatingStatus, players)
	for i := range players {
		switch {
		case comp[i] == chosen:
			status[i] = Rated
		case below[i]:
			status[i] = BelowAll
		case above[i]:
			status[i] = AboveAll
		default:
			status[i] = Unconnected
		}
	}
	if anchor < 0 && played[chosen] == 0 {
		// Without games there is nothing to rate against: no group of
		// one rated 0 (the only kind of group when nobody has played).
		for i := range status {
			status[i] = Unconnected
		}
		group = nil
	}
	return status, group
}

// reachable marks every node reachable from the start nodes along edges.
func reachable(n int, start []int, edge func(i, j int) bool) []bool {
	seen := make([]bool, n)
	queue := append([]int(nil), start...)
	for _, s := range start {
		seen[s] = true
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for j := range n {
			if !seen[j] && edge(i, j) {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	return seen
}

// strongComponents labels the strongly connected components of a directed
// graph on n nodes (Tarjan's algorithm).
func strongComponents(n int, edge func(i, j int) bool) []int {
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	comp := make([]int, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next, components := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range n {
			if w == v || !edge(v, w) {
				continue
			}
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = components
				if w == v {
					break
				}
			}
			components++
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp
}
