package stats

import (
	"math"
	"testing"
)

// rowOf is the row index of a player in the table.
func rowOf(t *testing.T, table RatingTable, player string) int {
	t.Helper()
	for i, r := range table.Rows {
		if r.Player == player {
			return i
		}
	}
	t.Fatalf("player %q missing from table", player)
	return -1
}

// LOS between two rows is the normal probability of the sign of their
// difference, whose standard deviation is what the interval of one player
// shows when the other is the anchor: so LOS from an average-anchored table
// equals Φ(rating/(half-width/z)) read off a table anchored at the other
// player, for every pair, with the covariance of the two ratings included.
func TestRatingsLOSMatchesAnchoredIntervals(t *testing.T) {
	results := []PairResult{
		{First: "a", Second: "b", Wins: 30, Losses: 22, Draws: 48},
		{First: "b", Second: "c", Wins: 25, Losses: 20, Draws: 55},
		{First: "a", Second: "c", Wins: 35, Losses: 18, Draws: 47},
		{First: "c", Second: "d", Wins: 12, Losses: 10, Draws: 20},
	}
	const level = 0.9
	table, err := Ratings(nil, results, RatingOptions{Level: level})
	if err != nil {
		t.Fatal(err)
	}
	z := twoSidedZ(level)
	for _, i := range []string{"a", "b", "c", "d"} {
		anchored, err := Ratings(nil, results, RatingOptions{Anchor: i, Level: level})
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range []string{"a", "b", "c", "d"} {
			los, ok := table.LOS(rowOf(t, table, j), rowOf(t, table, i))
			if i == j {
				if ok {
					t.Errorf("LOS(%s, %s) defined", i, j)
				}
				continue
			}
			r := ratingOf(t, anchored, j)
			want := normalCDF(r.Rating / ((r.High - r.Low) / 2 / z))
			if !ok {
				t.Fatalf("LOS(%s, %s) undefined", j, i)
			}
			checkNear(t, "LOS("+j+", "+i+")", los, want, 1e-9)
			back, _ := table.LOS(rowOf(t, table, i), rowOf(t, table, j))
			checkNear(t, "LOS sum", los+back, 1, 1e-12)
		}
	}
}

// For two players the LOS of the rating difference is the delta-method
// version of the trinomial LOS: the NMR paper's Table 6 result, where the
// trinomial LOS is 0.99997 (z = 4.02).
func TestRatingsLOSTwoPlayers(t *testing.T) {
	table, err := Ratings(nil, []PairResult{{First: "nmr", Second: "adaptive", Wins: 309, Losses: 217, Draws: 474}},
		RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	est, err := AnalyzeTrinomial(Trinomial{Wins: 309, Losses: 217, Draws: 474}, DefaultLevel)
	if err != nil {
		t.Fatal(err)
	}
	los, ok := table.LOS(0, 1)
	if !ok || table.Rows[0].Player != "nmr" {
		t.Fatalf("LOS undefined or order wrong: %+v", table.Rows)
	}
	// z-scores agree to about 1%: 4.02 against the score's 4.02.
	zRating, zScore := normalQuantile(los), normalQuantile(est.LOS)
	checkNear(t, "z of LOS", zRating, zScore, 0.05*zScore)
}

// Players outside the rated group have no LOS.
func TestRatingsLOSUndefinedOutsideGroup(t *testing.T) {
	table, err := Ratings([]string{"idle"}, []PairResult{
		{First: "a", Second: "b", Wins: 3, Losses: 2, Draws: 1},
		{First: "top", Second: "a", Wins: 2},
	}, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	top, a, b, idle := rowOf(t, table, "top"), rowOf(t, table, "a"), rowOf(t, table, "b"), rowOf(t, table, "idle")
	for _, pair := range [][2]int{{top, a}, {b, idle}, {a, idle}, {-1, a}, {a, len(table.Rows)}} {
		if _, ok := table.LOS(pair[0], pair[1]); ok {
			t.Errorf("LOS(%d, %d) defined", pair[0], pair[1])
		}
	}
	if los, ok := table.LOS(a, b); !ok || !(los > 0.5 && los < 1) || math.IsNaN(los) {
		t.Errorf("LOS(a, b) = %v, %v", los, ok)
	}
	var zero RatingTable
	if _, ok := zero.LOS(0, 1); ok {
		t.Error("LOS of an empty table defined")
	}
}
