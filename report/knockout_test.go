package report_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"selfplay/knockout"
	"selfplay/report"
	"selfplay/standings"
	"selfplay/store/record"
)

// knockoutPlayers are the fixture knockout's players: fhr and plain are
// seeds 1 and 2, the others drawn from seed 1.
var knockoutPlayers = []string{"fhr", "plain", "null-r3", "nmr", "null-r2"}

const knockoutSnapshot = `{"format":"knockout","players":["fhr","plain","null-r3","nmr","null-r2"],` +
	`"knockout":{"games":2,"seeds":2},"seed":1}`

// knockoutGames plays the fixture knockout as the runner would (the
// pairs knockout.Plan asks for, wave by wave): the player earlier in
// knockoutPlayers wins every game, except the two games of pair tied,
// which White wins (a 1-1 pair, so the encounter needs a tie-break
// pair). keep says which games are stored. It returns the games and each
// pair's first and second player.
func knockoutGames(tied int, keep func(pair, index int) bool) ([]fixtureGame, map[int][2]string) {
	s := knockout.Settings{Players: knockoutPlayers, Seeds: 2, Games: 2, Seed: 1}
	rank := func(p string) int { return slices.Index(knockoutPlayers, p) }
	white := map[[2]int]float64{}
	players := map[int][2]string{}
	for {
		b := knockout.Plan(s, func(pair, index int) (float64, bool) {
			w, ok := white[[2]int{pair, index}]
			return w, ok
		})
		if len(b.Pending) == 0 {
			break
		}
		for _, sl := range b.Pending {
			players[sl.Pair] = [2]string{sl.First, sl.Second}
			firstWins := rank(sl.First) < rank(sl.Second)
			white[[2]int{sl.Pair, 0}] = map[bool]float64{true: 1, false: 0}[firstWins || sl.Pair == tied]
			white[[2]int{sl.Pair, 1}] = map[bool]float64{true: 0, false: 1}[firstWins && sl.Pair != tied]
		}
	}
	var games []fixtureGame
	for pair := 0; pair < len(players); pair++ {
		for index := 0; index < 2; index++ {
			if !keep(pair, index) {
				continue
			}
			result := map[float64]string{1: "1-0", 0: "0-1"}[white[[2]int{pair, index}]]
			games = append(games, fixtureGame{pair, index, "e4e5", result, "checkmate", "mate", ""})
		}
	}
	return games, players
}

// knockoutReport is the report of the fixture knockout with the games
// keep keeps; complete says its row is complete.
func knockoutReport(t *testing.T, keep func(pair, index int) bool, complete bool) report.Report {
	t.Helper()
	games, players := knockoutGames(2, keep)
	f := &fixtureSource{}
	f.addTournament("ko", knockoutSnapshot, knockoutPlayers, knockout.BaseGames(len(knockoutPlayers), 2), games,
		func(pair int) (string, string) { return players[pair][0], players[pair][1] })
	f.tournaments[0].Status = record.StatusRunning
	if complete {
		f.tournaments[0].Status = record.StatusComplete
	}
	r, err := standings.Load(context.Background(), f, standings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// encounters writes a round's encounters as "first-second score winner".
func encounters(r report.KnockoutRound) []string {
	var out []string
	for _, e := range r.Encounters {
		s := e.First + "-" + e.Second
		if !e.Bye {
			s += " " + strings.TrimSpace(fmt.Sprintf("%v:%v %s", float64(e.FirstPoints), float64(e.SecondPoints), e.Winner))
		}
		out = append(out, s)
	}
	return out
}

// A finished knockout's report shows the bracket round by round: byes for
// the top three places of five players, the tie-break pair of the
// encounter whose first pair was 1-1, the winner; the pairings are its
// encounters only, and the games scheduled count the tie-break.
func TestKnockoutBracketReport(t *testing.T) {
	r := knockoutReport(t, func(int, int) bool { return true }, true)
	rt := r.Tournaments[0]
	k := rt.Knockout
	if k == nil {
		t.Fatal("no knockout in the report")
	}
	// Seed 1 draws nmr third: byes for fhr, plain and nmr; null-r2 meets
	// null-r3 (pair 0). Round 2: fhr-nmr (pair 1), plain-null-r3 (pair 2,
	// tied 1-1, and the tie-break pair 3); the final is pair 4.
	want := [][]string{
		{"fhr-", "nmr-", "plain-", "null-r2-null-r3 0:2 null-r3"},
		{"fhr-nmr 2:0 fhr", "plain-null-r3 3:1 plain"},
		{"fhr-plain 2:0 fhr"},
	}
	if len(k.Rounds) != len(want) || k.RoundCount != 3 || k.Winner != "fhr" {
		t.Fatalf("%d of %d rounds, winner %q: %+v", len(k.Rounds), k.RoundCount, k.Winner, k)
	}
	for i, round := range k.Rounds {
		if got := encounters(round); !slices.Equal(got, want[i]) {
			t.Errorf("round %d: %q, want %q", i+1, got, want[i])
		}
	}
	if e := k.Rounds[1].Encounters[1]; !slices.Equal(e.Pairs, []int{3, 4}) || e.TieBreakPairs != 1 || e.FirstSeed != 2 || e.SecondSeed != 0 {
		t.Errorf("plain-null-r3: pairs %v, tie-break pairs %d, seeds %d and %d; want [3 4], 1, 2 and 0",
			e.Pairs, e.TieBreakPairs, e.FirstSeed, e.SecondSeed)
	}
	var pairings []string
	for _, p := range rt.Pairings {
		pairings = append(pairings, p.First+"-"+p.Second)
	}
	if !slices.Equal(pairings, []string{"null-r2-null-r3", "fhr-nmr", "plain-null-r3", "fhr-plain"}) {
		t.Errorf("pairings %q, want the four encounters", pairings)
	}
	if rt.GamesScheduled != 10 || rt.GamesStored != 10 {
		t.Errorf("%d/%d games stored, want 10/10 (8 and a tie-break pair)", rt.GamesStored, rt.GamesScheduled)
	}
	checkGolden(t, "knockout.txt.golden", render(t, r, writeText))
	checkGolden(t, "knockout.json.golden", render(t, r, writeJSON))
	html := string(render(t, r, writeHTML))
	for _, s := range []string{"Knockout round 1 of 3", "Knockout round 3 of 3", "fhr [1]"} {
		if !strings.Contains(html, s) {
			t.Errorf("HTML report lacks %q", s)
		}
	}
}

// A knockout being played: the round in progress shows the points of its
// stored games and no winner; the rounds after it are not planned yet.
func TestKnockoutBracketInProgress(t *testing.T) {
	// Round 2's tie-break pair 3 has only its first game stored.
	r := knockoutReport(t, func(pair, index int) bool { return pair < 3 || pair == 3 && index == 0 }, false)
	k := r.Tournaments[0].Knockout
	if k == nil || k.Winner != "" || len(k.Rounds) != 2 {
		t.Fatalf("bracket %+v, want 2 rounds planned and no winner", k)
	}
	if got, want := encounters(k.Rounds[1]), []string{"fhr-nmr 2:0 fhr", "plain-null-r3 2:1"}; !slices.Equal(got, want) {
		t.Errorf("round 2: %q, want %q", got, want)
	}
	checkGolden(t, "knockout-running.txt.golden", render(t, r, writeText))
	var doc struct {
		Tournaments []struct {
			Knockout struct {
				Winner string `json:"winner"`
				Rounds []struct {
					Encounters []map[string]any `json:"encounters"`
				} `json:"rounds"`
			} `json:"knockout"`
		} `json:"tournaments"`
	}
	if err := json.Unmarshal(render(t, r, writeJSON), &doc); err != nil {
		t.Fatal(err)
	}
	e := doc.Tournaments[0].Knockout.Rounds[1].Encounters[1]
	if e["first_points"] != 2.0 || e["second_points"] != 1.0 || e["games"] != 3.0 || e["winner"] != "" {
		t.Errorf("JSON encounter %v, want 2-1 after 3 games, no winner", e)
	}
}

// Other formats have no "knockout" field: their JSON is as before.
func TestNoKnockoutElsewhere(t *testing.T) {
	r := fixtureReport(t, standings.Options{})
	for _, rt := range r.Tournaments {
		if rt.Knockout != nil {
			t.Errorf("%s: a knockout bracket in a %s", rt.Name, rt.Format)
		}
	}
	if strings.Contains(string(render(t, r, writeJSON)), `"knockout"`) {
		t.Error(`the fixture's JSON has a "knockout" field`)
	}
}
