package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// PairResult is the outcome of the games between two engines, counted from
// First's point of view. Several PairResults for the same two engines (in
// either order) add up.
type PairResult struct {
	First, Second       string
	Wins, Losses, Draws int
}

// RatingOptions configures Ratings.
type RatingOptions struct {
	// Anchor is the player whose rating is fixed at 0. Empty means the
	// average rating of the rated players is 0.
	Anchor string
	// Level is the confidence level of the intervals; 0 means DefaultLevel.
	Level float64
}

// RatingStatus says whether a player's rating is a finite estimate.
type RatingStatus int

const (
	// Rated players have a finite maximum-likelihood rating and interval.
	Rated RatingStatus = iota
	// AboveAll players were never scored against, even indirectly, by the
	// rated group: their maximum-likelihood rating is +Inf (a 100% score
	// against it, for instance).
	AboveAll
	// BelowAll players never scored, even indirectly, against the rated
	// group: their rating is -Inf (a 0% score, for instance).
	BelowAll
	// Unconnected players have no games linking them to the rated group in
	// either direction (or no games at all); their rating is reported as 0
	// with an unbounded interval and means nothing.
	Unconnected
)

// String gives "rated", "+inf", "-inf" or "unconnected".
func (s RatingStatus) String() string {
	switch s {
	case AboveAll:
		return "+inf"
	case BelowAll:
		return "-inf"
	case Unconnected:
		return "unconnected"
	}
	return "rated"
}

// PlayerRating is one row of a RatingTable.
type PlayerRating struct {
	Player string
	Games  int
	Points float64
	// Score is Points/Games in [0, 1] (0 when Games is 0).
	Score float64
	// Rating is the Elo rating relative to the anchor; Low and High bound it
	// at the table's level. They are ±Inf as Status explains: AboveAll and
	// BelowAll players have Rating ±Inf, and they and Unconnected players
	// have the interval [-Inf, +Inf]. The anchor has Low = High = 0.
	Rating, Low, High float64
	Status            RatingStatus
}

// RatingTable holds the ratings of several engines, best first: finite
// ratings in decreasing order between the +Inf and -Inf players,
// unconnected players last.
type RatingTable struct {
	Anchor string // "" when the average rated player is at 0
	Level  float64
	Rows   []PlayerRating
	// cov is the covariance of the Rated rows' ratings, indexed by row
	// (nil rows for the others); LOS reads it.
	cov [][]float64
}

// Ratings computes maximum-likelihood logistic (Bradley–Terry) ratings for
// the players from pairwise results, draws counting as half a point, which
// is the model Ordo fits: P(i scores against j) = 1/(1+10^(-(r_i-r_j)/400)).
// Players may be nil; every name in results is rated either way, and names
// listed in players but absent from results appear as Unconnected.
//
// A finite maximum exists only among players who are strongly connected by
// "scored at least a draw against" (Zermelo's condition). Ratings fits the
// largest such group (the anchor's, when one is named) from the games inside
// it, and classifies everyone else as AboveAll, BelowAll or Unconnected
// rather than returning the meaningless huge numbers an unconstrained fit
// drifts to. Ordo instead reports such players with a huge or capped rating.
//
// Intervals come from the curvature of the likelihood, not from simulation
// as in Ordo: the covariance is the inverse Fisher information of the fit,
// corrected for draws by the sandwich form A⁻¹·B·A⁻¹ where A uses the model
// variance p(1-p) per game and B the variance of a game's score given the
// draw rate of that pairing, p(1-p) - d/4. Without draws B = A and this is
// the plain inverse Fisher information; for two players it is the delta-method
// version of the trinomial interval of AnalyzeTrinomial. The draw rate d is
// estimated as draws/(games+1) so that an all-draws pairing cannot claim a
// zero variance. Covariances respect the anchor: the anchor's own rating is
// exact, and with an average anchor they are those of the centred ratings.
func Ratings(players []string, results []PairResult, opt RatingOptions) (RatingTable, error) {
	level := opt.Level
	if level == 0 {
		level = DefaultLevel
	}
	if err := validLevel(level); err != nil {
		return RatingTable{}, err
	}
	names, index, err := indexPlayers(players, results)
	if err != nil {
		return RatingTable{}, err
	}
	anchor := -1
	if opt.Anchor != "" {
		i, ok := index[opt.Anchor]
		if !ok {
			return RatingTable{}, fmt.Errorf("anchor %q is not among the players", opt.Anchor)
		}
		anchor = i
	}
	if len(names) == 0 {
		return RatingTable{Anchor: opt.Anchor, Level: level}, nil
	}
	g := tally(len(names), index, results)

	status, group := classify(g, anchor)
	var ratings []float64
	var cov [][]float64
	if len(group) > 0 {
		if ratings, cov, err = fitGroup(group, g); err != nil {
			return RatingTable{}, fmt.Errorf("rating fit: %w", err)
		}
		ratings, cov = applyAnchor(ratings, cov, slices.Index(group, anchor))
	}

	z := twoSidedZ(level)
	rows := make([]PlayerRating, len(names))
	for i, name := range names {
		row := PlayerRating{Player: name, Games: g.playerGames(i), Points: g.playerPoints(i), Status: status[i]}
		if row.Games > 0 {
			row.Score = row.Points / float64(row.Games)
		}
		row.Low, row.High = math.Inf(-1), math.Inf(1)
		switch status[i] {
		case AboveAll:
			row.Rating = math.Inf(1)
		case BelowAll:
			row.Rating = math.Inf(-1)
		case Rated:
			k := slices.Index(group, i)
			half := z * math.Sqrt(math.Max(cov[k][k], 0))
			row.Rating, row.Low, row.High = ratings[k], ratings[k]-half, ratings[k]+half
		}
		rows[i] = row
	}
	slices.SortStableFunc(rows, compareRows)
	return RatingTable{Anchor: opt.Anchor, Level: level, Rows: rows, cov: rowCovariance(rows, index, group, cov)}, nil
}

// compareRows orders +Inf players first, then finite ratings downwards,
// then -Inf players, then unconnected ones; ties by name.
func compareRows(a, b PlayerRating) int {
	rank := func(s RatingStatus) int {
		return [...]int{Rated: 1, AboveAll: 0, BelowAll: 2, Unconnected: 3}[s]
	}
	if c := cmp.Compare(rank(a.Status), rank(b.Status)); c != 0 {
		return c
	}
	if a.Status == Rated {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
	}
	return strings.Compare(a.Player, b.Player)
}

// indexPlayers numbers the players: the listed ones first, then new names
// from results in order of appearance. It also validates the results.
func indexPlayers(players []string, results []PairResult) ([]string, map[string]int, error) {
	var names []string
	index := map[string]int{}
	add := func(name string, listed bool) error {
		if name == "" {
			return fmt.Errorf("empty player name")
		}
		if _, dup := index[name]; dup {
			if listed {
				return fmt.Errorf("player %q listed twice", name)
			}
			return nil
		}
		index[name] = len(names)
		names = append(names, name)
		return nil
	}
	for _, p := range players {
		if err := add(p, true); err != nil {
			return nil, nil, err
		}
	}
	for i, r := range results {
		if r.First == r.Second {
			return nil, nil, fmt.Errorf("result %d: %q plays itself", i, r.First)
		}
		if r.Wins < 0 || r.Losses < 0 || r.Draws < 0 {
			return nil, nil, fmt.Errorf("result %d (%s vs %s): negative count in W/L/D %d/%d/%d",
				i, r.First, r.Second, r.Wins, r.Losses, r.Draws)
		}
		if err := add(r.First, false); err != nil {
			return nil, nil, fmt.Errorf("result %d: %w", i, err)
		}
		if err := add(r.Second, false); err != nil {
			return nil, nil, fmt.Errorf("result %d: %w", i, err)
		}
	}
	return names, index, nil
}
