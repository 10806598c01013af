package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func ratingOf(t *testing.T, table RatingTable, player string) PlayerRating {
	t.Helper()
	for _, r := range table.Rows {
		if r.Player == player {
			return r
		}
	}
	t.Fatalf("player %q missing from table", player)
	return PlayerRating{}
}

func checkTableNoNaN(t *testing.T, table RatingTable) {
	t.Helper()
	for _, r := range table.Rows {
		for _, v := range []float64{r.Rating, r.Low, r.High, r.Points, r.Score} {
			if math.IsNaN(v) {
				t.Errorf("NaN in row %+v", r)
			}
		}
	}
}

// Kai Laskos's hand-checkable example (talkchess, "EloStat, Bayeselo and
// Ordo"): 75%, 75% and 90% scores. A 75% score is 400·log10(3) = 190.85 Elo
// and 90% is 400·log10(9) = 2·190.85, so the ratings fit every pairing
// exactly and are the maximum-likelihood ones: +190.85, 0, -190.85. Ordo
// prints these; EloStat compresses them to ±180.
func TestRatingsLaskosExample(t *testing.T) {
	results := []PairResult{
		{First: "Houdini", Second: "Komodo", Wins: 24, Draws: 6},
		{First: "Houdini", Second: "Strelka", Wins: 18, Draws: 9, Losses: 3},
		{First: "Strelka", Second: "Komodo", Wins: 18, Draws: 9, Losses: 3},
	}
	table, err := Ratings(nil, results, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	step := 400 * math.Log10(3)
	checkNear(t, "Houdini", ratingOf(t, table, "Houdini").Rating, step, 1e-6)
	checkNear(t, "Strelka", ratingOf(t, table, "Strelka").Rating, 0, 1e-6)
	checkNear(t, "Komodo", ratingOf(t, table, "Komodo").Rating, -step, 1e-6)
	if table.Rows[0].Player != "Houdini" || table.Rows[2].Player != "Komodo" {
		t.Errorf("not sorted by rating: %+v", table.Rows)
	}
	h := ratingOf(t, table, "Houdini")
	if h.Games != 60 || h.Points != 49.5 || math.Abs(h.Score-0.825) > 1e-12 {
		t.Errorf("Houdini totals wrong: %+v", h)
	}
	// Anchored on Strelka: same ratings, Strelka's interval collapses.
	anchored, err := Ratings(nil, results, RatingOptions{Anchor: "Strelka"})
	if err != nil {
		t.Fatal(err)
	}
	s := ratingOf(t, anchored, "Strelka")
	if s.Rating != 0 || s.Low != 0 || s.High != 0 {
		t.Errorf("anchor row %+v", s)
	}
	checkNear(t, "anchored Houdini", ratingOf(t, anchored, "Houdini").Rating, step, 1e-6)
	checkTableNoNaN(t, table)
}

// With two players the rating difference is the two-player Elo and its
// interval the delta-method version of the trinomial one (up to the
// draws/(games+1) smoothing, 0.05% here).
func TestRatingsTwoPlayersMatchTrinomial(t *testing.T) {
	r := PairResult{First: "new", Second: "old", Wins: 309, Losses: 217, Draws: 474}
	est, err := AnalyzeTrinomial(Trinomial{Wins: 309, Losses: 217, Draws: 474}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	table, err := Ratings(nil, []PairResult{r}, RatingOptions{Anchor: "old"})
	if err != nil {
		t.Fatal(err)
	}
	n := ratingOf(t, table, "new")
	checkNear(t, "rating", n.Rating, est.Elo, 1e-6)
	// delta method: z·se·dElo/dscore = 1.959964·0.0113747·400/(ln10·0.546·0.454) = 15.62
	checkNear(t, "half-width", (n.High-n.Low)/2, 1.959963984540054*0.011374708787481112*400/(math.Ln10*0.546*0.454), 0.02)
	checkNear(t, "vs mapped interval", (n.High-n.Low)/2, est.HalfWidth(), 0.1)

	// Average anchor: ±Elo/2 each, half the error.
	avg, err := Ratings(nil, []PairResult{r}, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := ratingOf(t, avg, "new")
	checkNear(t, "average rating", a.Rating, est.Elo/2, 1e-6)
	checkNear(t, "average half-width", (a.High-a.Low)/2, (n.High-n.Low)/4, 1e-6)
}

// playRoundRobin simulates games between every pair of players with the
// given true ratings and draw probability.
func playRoundRobin(rng *rand.Rand, names []string, truth []float64, gamesPerPair int, drawRatio float64) []PairResult {
	var results []PairResult
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			s := ScoreFromElo(truth[i] - truth[j])
			d := math.Min(drawRatio, 2*math.Min(s, 1-s))
			r := PairResult{First: names[i], Second: names[j]}
			for range gamesPerPair {
				switch u := rng.Float64(); {
				case u < s-d/2:
					r.Wins++
				case u < s+d/2:
					r.Draws++
				default:
					r.Losses++
				}
			}
			results = append(results, r)
		}
	}
	return results
}

// A simulated three-engine round robin recovers the true ratings within
// their intervals, and over many seeded tournaments the 95% intervals cover
// the truth about 95% of the time (the draw correction is what keeps them
// from being too wide).
func TestRatingsRecoverSimulatedRoundRobin(t *testing.T) {
	names := []string{"fhr", "plain", "nmr"}
	truth := []float64{50, 0, -60}
	// Any one tournament misses a true rating with 5% probability per
	// player; this seeded one is checked exactly, the coverage loop below
	// checks the rate.
	table, err := Ratings(names, playRoundRobin(rand.New(rand.NewPCG(1, 2)), names, truth, 600, 0.4), RatingOptions{Anchor: "plain"})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range names {
		r := ratingOf(t, table, name)
		if r.Status != Rated || !(r.Low <= truth[i] && truth[i] <= r.High) {
			t.Errorf("%s: true %v outside [%.1f, %.1f] (rating %.1f)", name, truth[i], r.Low, r.High, r.Rating)
		}
	}
	checkTableNoNaN(t, table)

	tournaments := 200
	if testing.Short() {
		tournaments = 60
	}
	rng := rand.New(rand.NewPCG(11, 13))
	mean := (truth[0] + truth[1] + truth[2]) / 3
	covered, total := 0, 0
	for k := range tournaments {
		anchor, shift := "", mean // alternate average and named anchors
		if k%2 == 1 {
			anchor, shift = "plain", 0
		}
		table, err := Ratings(names, playRoundRobin(rng, names, truth, 200, 0.5), RatingOptions{Anchor: anchor})
		if err != nil {
			t.Fatal(err)
		}
		for i, name := range names {
			if name == anchor {
				continue // exact by definition
			}
			r := ratingOf(t, table, name)
			if r.Low <= truth[i]-shift && truth[i]-shift <= r.High {
				covered++
			}
			total++
		}
	}
	coverage := float64(covered) / float64(total)
	if coverage < 0.90 || coverage > 0.99 {
		t.Errorf("95%% intervals covered the truth %.3f of the time", coverage)
	}
}

func TestRatingsPerfectScoresAndDisconnected(t *testing.T) {
	results := []PairResult{
		{First: "a", Second: "b", Wins: 10, Losses: 8, Draws: 12},
		{First: "b", Second: "c", Wins: 9, Losses: 9, Draws: 10},
		{First: "c", Second: "a", Wins: 5, Losses: 12, Draws: 11},
		{First: "top", Second: "a", Wins: 6},                                // 100% score
		{First: "top", Second: "b", Wins: 4},                                //
		{First: "bottom", Second: "c", Losses: 5},                           // 0% score
		{First: "lower", Second: "bottom", Losses: 3},                       // even below "bottom": still -inf
		{First: "island1", Second: "island2", Wins: 2, Losses: 1, Draws: 1}, // no link
	}
	table, err := Ratings([]string{"idle"}, results, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkTableNoNaN(t, table)
	want := map[string]RatingStatus{
		"a": Rated, "b": Rated, "c": Rated, "top": AboveAll, "bottom": BelowAll, "lower": BelowAll,
		"island1": Unconnected, "island2": Unconnected, "idle": Unconnected,
	}
	for name, status := range want {
		r := ratingOf(t, table, name)
		if r.Status != status {
			t.Errorf("%s: status %v, want %v", name, r.Status, status)
		}
		if status != Rated && !(math.IsInf(r.Low, -1) && math.IsInf(r.High, 1)) {
			t.Errorf("%s: interval [%v, %v] should be unbounded", name, r.Low, r.High)
		}
	}
	if r := ratingOf(t, table, "top"); !math.IsInf(r.Rating, 1) || r.Score != 1 {
		t.Errorf("top: %+v", r)
	}
	if r := ratingOf(t, table, "bottom"); !math.IsInf(r.Rating, -1) {
		t.Errorf("bottom: %+v", r)
	}
	if table.Rows[0].Player != "top" || table.Rows[len(table.Rows)-1].Status != Unconnected {
		t.Errorf("order wrong: %+v", table.Rows)
	}
	// The rated three average 0.
	sum := 0.0
	for _, p := range []string{"a", "b", "c"} {
		sum += ratingOf(t, table, p).Rating
	}
	checkNear(t, "average", sum, 0, 1e-9)

	// Anchoring on the perfect player rates only it; everyone it reaches is below.
	top, err := Ratings(nil, results, RatingOptions{Anchor: "top"})
	if err != nil {
		t.Fatal(err)
	}
	checkTableNoNaN(t, top)
	if r := ratingOf(t, top, "top"); r.Status != Rated || r.Rating != 0 {
		t.Errorf("anchored top: %+v", r)
	}
	if r := ratingOf(t, top, "a"); r.Status != BelowAll {
		t.Errorf("a under anchored top: %+v", r)
	}
}

func TestRatingsSinglePlayerWinsAll(t *testing.T) {
	table, err := Ratings(nil, []PairResult{{First: "x", Second: "y", Wins: 3}}, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkTableNoNaN(t, table)
	x, y := ratingOf(t, table, "x"), ratingOf(t, table, "y")
	// Neither can be rated against the other: the larger group (ties go to
	// the first player) is {x} alone at 0 and y is -inf.
	if x.Rating != 0 || x.Status != Rated || !math.IsInf(y.Rating, -1) {
		t.Errorf("x %+v, y %+v", x, y)
	}
}

// A player without games is never the rated group, even one listed
// first; when nobody has played, nobody is rated (not one player at 0 and
// the others n/a).
func TestRatingsWithoutGames(t *testing.T) {
	for _, c := range []struct {
		name    string
		players []string
		results []PairResult
		rated   []string
	}{
		{"nobody played", []string{"a", "b"}, []PairResult{{First: "a", Second: "b"}}, nil},
		{"no results", []string{"a", "b", "c"}, nil, nil},
		{"the first has no games", []string{"c", "x", "y"}, []PairResult{{First: "x", Second: "y", Wins: 3}}, []string{"x"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			table, err := Ratings(c.players, c.results, RatingOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkTableNoNaN(t, table)
			var rated []string
			for _, r := range table.Rows {
				if r.Status == Rated {
					rated = append(rated, r.Player)
				}
				if r.Games == 0 && r.Status != Unconnected {
					t.Errorf("%s without games: %v", r.Player, r.Status)
				}
			}
			if !slices.Equal(rated, c.rated) {
				t.Errorf("rated %v, want %v", rated, c.rated)
			}
		})
	}
}

func TestRatingsOrderIndependent(t *testing.T) {
	results := []PairResult{
		{First: "a", Second: "b", Wins: 10, Losses: 8, Draws: 12},
		{First: "b", Second: "c", Wins: 9, Losses: 5, Draws: 10},
		{First: "a", Second: "c", Wins: 7, Losses: 4, Draws: 11},
	}
	swapped := []PairResult{
		{First: "c", Second: "a", Wins: 4, Losses: 7, Draws: 11},
		{First: "b", Second: "a", Wins: 8, Losses: 10, Draws: 12},
		{First: "c", Second: "b", Wins: 5, Losses: 9, Draws: 10},
	}
	one, err1 := Ratings(nil, results, RatingOptions{})
	two, err2 := Ratings(nil, swapped, RatingOptions{})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for _, p := range []string{"a", "b", "c"} {
		x, y := ratingOf(t, one, p), ratingOf(t, two, p)
		checkNear(t, p+" rating", x.Rating, y.Rating, 1e-6)
		checkNear(t, p+" low", x.Low, y.Low, 1e-6)
	}
	// Results split over several entries add up.
	split := append([]PairResult{}, results[1:]...)
	split = append(split, PairResult{First: "a", Second: "b", Wins: 4, Losses: 3, Draws: 5},
		PairResult{First: "b", Second: "a", Wins: 5, Losses: 6, Draws: 7})
	three, err := Ratings(nil, split, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "split a", ratingOf(t, three, "a").Rating, ratingOf(t, one, "a").Rating, 1e-6)
}

func TestRatingsRejectsBadInput(t *testing.T) {
	ok := []PairResult{{First: "a", Second: "b", Wins: 1, Losses: 1}}
	tests := []struct {
		name    string
		players []string
		results []PairResult
		opt     RatingOptions
	}{
		{"unknown anchor", nil, ok, RatingOptions{Anchor: "zz"}},
		{"self play", nil, []PairResult{{First: "a", Second: "a", Wins: 1}}, RatingOptions{}},
		{"negative", nil, []PairResult{{First: "a", Second: "b", Draws: -1}}, RatingOptions{}},
		{"empty name", nil, []PairResult{{First: "", Second: "b", Wins: 1}}, RatingOptions{}},
		{"listed twice", []string{"a", "a"}, ok, RatingOptions{}},
		{"bad level", nil, ok, RatingOptions{Level: 1.5}},
	}
	for _, tc := range tests {
		if _, err := Ratings(tc.players, tc.results, tc.opt); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	empty, err := Ratings(nil, nil, RatingOptions{})
	if err != nil || len(empty.Rows) != 0 {
		t.Errorf("empty input: %+v, %v", empty, err)
	}
}

// Lopsided but finite results still converge to the exact answer: a score
// of 20000.5/20001 is 400·log10(s/(1-s)) = 400·log10(40001) = 1840.8 Elo.
func TestRatingsLopsidedConverges(t *testing.T) {
	results := []PairResult{
		{First: "strong", Second: "mid", Wins: 20000, Draws: 1},
		{First: "mid", Second: "weak", Wins: 20000, Draws: 1},
	}
	table, err := Ratings(nil, results, RatingOptions{Anchor: "mid"})
	if err != nil {
		t.Fatal(err)
	}
	checkTableNoNaN(t, table)
	gap := 400 * math.Log10(40001)
	checkNear(t, "strong", ratingOf(t, table, "strong").Rating, gap, 1e-6)
	checkNear(t, "weak", ratingOf(t, table, "weak").Rating, -gap, 1e-6)
}
