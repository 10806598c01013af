package report

import (
	"fmt"
	"strings"
	"time"

	"selfplay/outcome"
	"selfplay/stats"
)

// layout arranges a report as a document: one section per tournament, then
// one per suite run.
func layout(r Report) document { return layoutWith(r, SectionOptions{}) }

// layoutWith is layout with a site's options (SectionOptions).
func layoutWith(r Report, opt SectionOptions) document {
	var d document
	for _, t := range r.Tournaments {
		d.sections = append(d.sections, tournamentSection(t, r.Level, opt))
	}
	for _, run := range r.SuiteRuns {
		d.sections = append(d.sections, suiteSection(run))
	}
	return d
}

func tournamentSection(t Tournament, lvl float64, opt SectionOptions) section {
	s := section{title: "Tournament " + t.Name}
	header := headerPart(t)
	if t.Input != nil {
		s.title = "Games of " + t.Name
		header = inputPart(t)
	}
	s.parts = append(s.parts, header)
	if t.Knockout != nil {
		s.parts = append(s.parts, knockoutParts(*t.Knockout)...)
	}
	s.parts = append(s.parts, ratingsPart(t, lvl))
	if len(t.Ratings) > 2 {
		s.parts = append(s.parts, crosstablePart(t))
	}
	for _, p := range t.Pairings {
		s.parts = append(s.parts, pairingParts(p, lvl)...)
	}
	for _, p := range t.Pairings {
		switch {
		case len(p.Openings.Rows) == 0:
		case opt.OpeningsURL != "":
			s.parts = append(s.parts, openingScoresPart(p, opt))
		default:
			s.parts = append(s.parts, openingsPart(p))
		}
	}
	if len(t.Terminations.Rows) > 0 {
		s.parts = append(s.parts, terminationsPart(t.Terminations))
	}
	if len(t.Search) > 0 {
		s.parts = append(s.parts, searchPart(t.Search))
	}
	return s
}

// shareText names a share: "shard 3 of 16", "shard 3 of 16 (its first 40
// pairs)", "the first 40 pairs".
func shareText(s Share) string {
	switch {
	case s.Shards > 1 && s.Pairs > 0:
		return fmt.Sprintf("shard %d of %d (its first %d pairs)", s.Shard, s.Shards, s.Pairs)
	case s.Shards > 1:
		return fmt.Sprintf("shard %d of %d", s.Shard, s.Shards)
	}
	return fmt.Sprintf("the first %d pairs", s.Pairs)
}

func headerPart(t Tournament) part {
	status := fmt.Sprintf("%s, %d/%d games stored", t.Status, t.GamesStored, t.GamesScheduled)
	if sh := t.Share; sh != nil {
		status = fmt.Sprintf("%s, %d/%d games of %s stored (%d games in the tournament)", t.Status, t.GamesStored,
			sh.Games, shareText(*sh), t.GamesScheduled)
	}
	sprt := t.SPRT()
	if sprt != nil && sprt.State != "continue" && t.GamesStored < t.GamesScheduled {
		status += ", stopped by the SPRT"
	}
	facts := []fact{
		{"status", status},
		{"format", t.Format},
		{"engines", strings.Join(t.Engines, ", ")},
	}
	if len(t.Limits) > 0 {
		limits := make([]string, len(t.Limits))
		for i, l := range t.Limits {
			limits[i] = l.Engine + ": " + l.Limit
		}
		facts = append(facts, fact{"limits", strings.Join(limits, "; ")})
	}
	if t.Played != nil {
		d := t.Played.End.Sub(t.Played.Start).Round(time.Second)
		facts = append(facts, fact{"played", fmt.Sprintf("%s .. %s (%s)", timestamp(t.Played.Start), timestamp(t.Played.End), d)})
	} else {
		facts = append(facts, fact{"played", "no games yet"})
	}
	if sprt != nil {
		facts = append(facts, fact{"SPRT", sprt.Verdict})
	}
	return part{facts: facts}
}

func ratingsPart(t Tournament, lvl float64) part {
	anchor := anchorText(t, "average rating")
	tb := &table{
		head:    []string{"#", "engine", "rating", "error", "low", "high", "points", "games", "score", "LOS"},
		numeric: []bool{true, false, true, true, true, true, true, true, true, true},
	}
	unconnected := false
	for _, r := range t.Ratings {
		rating, low, high := ratingText(t, r.Rating), ratingText(t, r.Low), ratingText(t, r.High)
		if r.Status == "unconnected" {
			rating, low, high = "n/a", "n/a", "n/a"
			unconnected = true
		}
		score := "----"
		if r.Games > 0 {
			score = percent(r.Score)
		}
		los := ""
		if r.LOSNext != nil {
			los = probability(*r.LOSNext)
		}
		tb.rows = append(tb.rows, []string{itoa(r.Rank), r.Engine, rating, errorText(r.Error), low, high,
			points(r.Points), itoa(r.Games), score, los})
	}
	heading := fmt.Sprintf("Ratings (Bradley-Terry, %s, %s intervals; LOS: over the next engine", anchor, stats.FormatLevel(lvl))
	if unconnected {
		heading += "; n/a: not rated, no games connect the engine to the rated ones"
	}
	p := part{heading: heading + ")", table: tb}
	if len(t.Ratings) > 2 { // two engines: the pairing's Elo chart says it all
		p.charts = []chart{ratingChart(t, lvl)}
	}
	return p
}

// pairingParts are a pairing's counts, estimates, verdict, SPRT and charts.
func pairingParts(p Pairing, lvl float64) []part {
	head := part{
		heading: fmt.Sprintf("Pairing %s vs %s (%s's view)", p.First, p.Second, p.First),
		facts: []fact{
			{"games", fmt.Sprintf("%d (%d pairs, %d unpaired)", p.Games, p.Pairs, p.UnpairedGames)},
			{"W/L/D", fmt.Sprintf("%d/%d/%d", p.Wins, p.Losses, p.Draws)},
			{"score", score(p)},
			{"draw ratio", drawRatios(p)},
			{"ptnml", fmt.Sprintf("LL %d, LD %d, DD %d, WD %d, WW %d", p.Ptnml[0], p.Ptnml[1], p.Ptnml[2], p.Ptnml[3], p.Ptnml[4])},
		},
	}
	est := &table{
		head: []string{"model", "games", "pairs", "score", "Elo", "error", stats.FormatLevel(lvl) + " interval", "LOS", "nElo",
			"nElo interval"},
		numeric: []bool{false, true, true, true, true, true, false, true, true, false},
	}
	for _, e := range p.Estimates {
		score := percent(e.Score)
		if e.Games == 0 {
			score = "-" // not the neutral 0.5 the estimate assumes
		}
		est.rows = append(est.rows, []string{e.Model, itoa(e.Games), itoa(e.Pairs), score, elo(e.Elo),
			errorText(e.EloError), interval(e.EloLow, e.EloHigh), probability(e.LOS), elo(e.NElo),
			interval(e.NEloLow, e.NEloHigh)})
	}
	verdict := part{facts: []fact{{"verdict", p.Verdict}}}
	if s := p.SPRT; s != nil {
		verdict.facts = append(verdict.facts,
			fact{"SPRT", s.Verdict},
			fact{"SPRT test", fmt.Sprintf("elo0 %s, elo1 %s, alpha %s, beta %s, %s", fixed(s.Elo0, 2), fixed(s.Elo1, 2),
				fixed(s.Alpha, 3), fixed(s.Beta, 3), s.Model)},
			fact{"SPRT LLR", fmt.Sprintf("%s in [%s, %s], state %s", fixed(s.LLR, 2), fixed(s.Lower, 2), fixed(s.Upper, 2), s.State)})
	}
	if len(p.Progress) > 0 || p.Games == 0 { // PGN input has no running estimate
		verdict.charts = []chart{eloChart(p, lvl)}
	}
	if p.SPRT != nil {
		verdict.charts = append(verdict.charts, llrChart(p))
	}
	return []part{head, {table: est}, verdict}
}

// score is the pairing's points per game, "-" without games.
func score(p Pairing) string {
	if p.Games == 0 {
		return "-"
	}
	return fmt.Sprintf("%s/%d = %s", points(p.Points), p.Games, percent(p.Score))
}

// drawRatios gives the drawn share of games and, with pairs, the share of
// pairs scoring 1 (two draws, or a win and a loss), which is what the
// pentanomial draw ratio of fishtest and fastchess counts; "-" without
// games.
func drawRatios(p Pairing) string {
	if p.Games == 0 {
		return "-"
	}
	s := percent(p.DrawRatio) + " of games"
	if e, ok := p.Estimate("pentanomial"); ok {
		s += ", " + percent(e.DrawRatio) + " of pairs scoring 1"
	}
	return s
}

// openingsPart is the FHR paper's Table 2 for one pairing.
func openingsPart(p Pairing) part {
	return openingsPartOf(p, "all rounds", "over all rounds of the opening")
}

// openingsPartOf is openingsPart over some of the games (a site's page of
// them), which the score column and the heading name.
func openingsPartOf(p Pairing, column, heading string) part {
	o := p.Openings
	tb := &table{
		head:    []string{"opening", "name", p.First + " = white", p.First + " = black", "score (" + column + ")"},
		numeric: []bool{false, false, false, false, true},
	}
	results := func(rs []outcome.Result) string {
		if len(rs) == 0 {
			return "-"
		}
		texts := make([]string, len(rs))
		for i, r := range rs {
			texts[i] = r.String()
		}
		return strings.Join(texts, " ")
	}
	for _, r := range o.Rows {
		tb.rows = append(tb.rows, []string{r.ID, openingName(r), results(r.FirstWhite), results(r.FirstBlack),
			points(r.FirstPoints) + "-" + points(Float(r.Games)-r.FirstPoints)})
	}
	// Totals as the paper prints them: White's points first in each color
	// column, the first engine's first in the score.
	white := points(o.FirstWhitePoints) + "-" + points(Float(o.FirstWhiteGames)-o.FirstWhitePoints)
	black := points(Float(o.FirstBlackGames)-o.FirstBlackPoints) + "-" + points(o.FirstBlackPoints)
	all := o.FirstWhitePoints + o.FirstBlackPoints
	games := Float(o.FirstWhiteGames + o.FirstBlackGames)
	tb.total = []string{"total", "", white, black, points(all) + "-" + points(games-all)}
	return part{heading: fmt.Sprintf("Openings %s vs %s (results White-Black; score %s-%s %s)",
		p.First, p.Second, p.First, p.Second, heading), table: tb}
}

// openingName is an opening's name column: empty where the name only
// repeats the id (an EPD line's id is both its opening's id and name).
func openingName(r OpeningRow) string {
	if r.Name == r.ID {
		return ""
	}
	return r.Name
}

// openingScoresPart is the openings table of a site's tournament page:
// per opening the first engine's score with each colour (as the totals of
// the FHR layout write them: White's points first) and over all its games,
// for the first opt.MaxOpenings openings in order of first play, with a
// link to every game's result (openingsPart, page by page).
func openingScoresPart(p Pairing, opt SectionOptions) part {
	o := p.Openings
	tb := &table{
		head:    []string{"opening", "name", "games", p.First + " = white", p.First + " = black", "score"},
		numeric: []bool{false, false, true, true, true, true},
	}
	// Points of White in results written White-Black.
	whitePoints := func(rs []outcome.Result) (pts Float) {
		for _, r := range rs {
			p, _ := r.Points(outcome.White)
			pts += Float(p)
		}
		return pts
	}
	rows := o.Rows
	if opt.MaxOpenings > 0 && len(rows) > opt.MaxOpenings {
		rows = rows[:opt.MaxOpenings]
	}
	for _, r := range rows {
		w, b := whitePoints(r.FirstWhite), whitePoints(r.FirstBlack)
		white, black := "-", "-"
		if n := Float(len(r.FirstWhite)); n > 0 {
			white = points(w) + "-" + points(n-w)
		}
		if n := Float(len(r.FirstBlack)); n > 0 {
			black = points(b) + "-" + points(n-b)
		}
		tb.rows = append(tb.rows, []string{r.ID, openingName(r), itoa(r.Games), white, black,
			points(r.FirstPoints) + "-" + points(Float(r.Games)-r.FirstPoints)})
	}
	white := points(o.FirstWhitePoints) + "-" + points(Float(o.FirstWhiteGames)-o.FirstWhitePoints)
	black := points(Float(o.FirstBlackGames)-o.FirstBlackPoints) + "-" + points(o.FirstBlackPoints)
	all := o.FirstWhitePoints + o.FirstBlackPoints
	games := o.FirstWhiteGames + o.FirstBlackGames
	tb.total = []string{"total", "", itoa(games), white, black, points(all) + "-" + points(Float(games)-all)}
	heading := fmt.Sprintf("Openings %s vs %s (points White-Black with %s as White and as Black; score %s-%s)",
		p.First, p.Second, p.First, p.First, p.Second)
	if len(rows) < len(o.Rows) {
		heading += fmt.Sprintf(", the first %d of %d openings", len(rows), len(o.Rows))
	}
	return part{heading: heading, table: tb,
		link: &link{text: "every game's result by opening (the FHR paper's Table 2 layout)", url: opt.OpeningsURL}}
}

func terminationsPart(t Terminations) part {
	tb := &table{head: []string{"termination", "games", outcome.WhiteWins.String(), outcome.BlackWins.String(), "draws"}, numeric: []bool{false, true, true, true, true}}
	for _, e := range t.Engines {
		tb.head = append(tb.head, "against "+e)
		tb.numeric = append(tb.numeric, true)
	}
	total := make([]int, len(tb.head)-1)
	for _, r := range t.Rows {
		counts := []int{r.Games, r.WhiteWins, r.BlackWins, r.Draws}
		for _, e := range t.Engines {
			counts = append(counts, r.Against[e])
		}
		row := []string{r.Termination}
		for i, c := range counts {
			row = append(row, itoa(c))
			total[i] += c
		}
		tb.rows = append(tb.rows, row)
	}
	tb.total = []string{"total"}
	for _, c := range total {
		tb.total = append(tb.total, itoa(c))
	}
	return part{heading: "Terminations (against: games lost, or forfeited by the engine's own fault)", table: tb}
}

func searchPart(rows []EngineSearch) part {
	tb := &table{
		head:    []string{"engine", "moves", "depth", "seldepth", "nodes/move", "ms/move", "nps"},
		numeric: []bool{false, true, true, true, true, true, true},
	}
	for _, r := range rows {
		tb.rows = append(tb.rows, []string{r.Engine, itoa(r.Moves), fixed(r.Depth, 2), fixed(r.SelDepth, 2),
			fixed(r.Nodes, 0), fixed(r.TimeMS, 2), fixed(r.NPS, 0)})
	}
	return part{heading: "Search per engine (averages per move, book moves excluded)", table: tb}
}

func suiteSection(run SuiteRun) section {
	limit := run.LimitKind
	switch limit {
	case "nodes":
		limit = "node budget"
	case "movetime":
		limit = "movetime ms"
	}
	tb := &table{
		head:    []string{"variant", limit, "positions", "solved", "solved %", "total nodes", "main nodes", "q nodes", "time s"},
		numeric: []bool{false, true, true, true, true, true, true, true, true},
	}
	for _, r := range run.Rows {
		solved := "----"
		if r.Positions > 0 {
			solved = percent(Float(r.Solved) / Float(r.Positions))
		}
		tb.rows = append(tb.rows, []string{r.Variant, fmt.Sprint(r.Limit), itoa(r.Positions), itoa(r.Solved), solved,
			fmt.Sprint(r.Nodes), fmt.Sprint(r.MainNodes), fmt.Sprint(r.QNodes), fixed(r.TimeMS/1000, 2)})
	}
	return section{
		title: fmt.Sprintf("Suite run %d: %s", run.ID, run.Suite),
		parts: []part{
			{facts: []fact{{"limit", run.LimitKind}, {"settings", run.Settings}, {"created", timestamp(run.Created)}}},
			{table: tb},
		},
	}
}
