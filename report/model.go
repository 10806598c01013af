package report

import (
	"time"

	"selfplay/outcome"
)

// Version is the "version" field of the JSON report; it changes only when
// a field changes meaning or disappears (new fields may be added).
const Version = 1

// Report is everything `selfplay report` shows: the selected tournaments
// and the stored test-suite runs.
type Report struct {
	Level       float64      `json:"level"`  // confidence level of every interval, e.g. 0.95
	Anchor      string       `json:"anchor"` // engine asked to be rated 0; "" for the average
	Tournaments []Tournament `json:"tournaments"`
	SuiteRuns   []SuiteRun   `json:"suite_runs"`
}

// Tournament is one stored tournament, or the games of PGN files rated as
// one pool (Input says which files; `selfplay ratings`).
type Tournament struct {
	Name           string     `json:"name"`
	Format         string     `json:"format"` // match, gauntlet, round-robin or knockout; pgn for PGN input
	Status         string     `json:"status"` // running, complete, or share complete (a shard's database); "" for PGN input
	GamesStored    int        `json:"games_stored"`
	GamesScheduled int        `json:"games_scheduled"` // of the whole tournament (a knockout's: its tie-breaks as far as planned)
	Engines        []string   `json:"engines"`
	Played         *TimeRange `json:"played"` // null before the first game and for PGN input
	// Input is what was read from PGN files; null for a stored tournament.
	Input *Input `json:"input"`

	// Share is the part of the schedule the database plays (selfplay run
	// -shard I/N -pairs K); omitted for a database of the whole tournament
	// (also a merge of shards).
	Share *Share `json:"share,omitempty"`

	// Knockout is a knockout's bracket; omitted for other formats.
	Knockout *Knockout `json:"knockout,omitempty"`

	// Limits say each engine's limit, in the order of Engines, when an
	// engine has limits of its own (time or node odds); omitted when all
	// play under the tournament's.
	Limits []EngineLimit `json:"limits,omitempty"`

	// RatingAnchor is the engine rated RatingOffset (normally 0) in
	// Ratings, "" for the average.
	RatingAnchor string `json:"rating_anchor"`
	// RatingOffset is the rating of the anchor, or of the average: 0
	// unless OffsetRatings set it (Ordo's -a, to read the ratings on a
	// known scale, e.g. 2000 for an engine of nominal strength 2000).
	RatingOffset Float     `json:"rating_offset"`
	Ratings      []Rating  `json:"ratings"`
	Pairings     []Pairing `json:"pairings"`
	// Terminations and Search are empty for PGN input without the
	// figures (no Termination tags; search figures are not read).
	Terminations Terminations   `json:"terminations"`
	Search       []EngineSearch `json:"search"`
}

// EngineLimit is an engine's per-move limit in words, e.g. "5000 nodes
// per move" or "time control 10+0.1".
type EngineLimit struct {
	Engine string `json:"engine"`
	Limit  string `json:"limit"`
}

// Input counts the games read from PGN files. Games = Rated + Unfinished +
// Malformed; Rated = 2·Pairs + Unpaired.
type Input struct {
	Files []string `json:"files"`
	Games int      `json:"games"` // games read
	Rated int      `json:"rated"`
	// Unfinished games (result "*") and malformed ones (each reported
	// with its file and line when read) are skipped.
	Unfinished int `json:"unfinished"`
	Malformed  int `json:"malformed"`
	// Pairs are the colour-swapped game pairs found (two games of the same
	// start position and opening, one with each colour); Unpaired the rated
	// games without a partner.
	Pairs    int `json:"pairs"`
	Unpaired int `json:"unpaired"`
}

// SPRT returns the tournament's SPRT (a match's only pairing), or nil.
func (t Tournament) SPRT() *SPRT {
	for _, p := range t.Pairings {
		if p.SPRT != nil {
			return p.SPRT
		}
	}
	return nil
}

// Share is the part of a tournament's schedule that a database plays: the
// game pairs whose index is Shard modulo Shards, at most the first Pairs of
// them.
type Share struct {
	Shard  int `json:"shard"`
	Shards int `json:"shards"` // 1: not sharded (only -pairs)
	Pairs  int `json:"pairs"`  // 0: no limit
	Games  int `json:"games"`  // scheduled games of the share
}

// TimeRange is when the stored games were played: the earliest start and
// the latest finish.
type TimeRange struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// OffsetRatings adds v to every tournament's ratings and their bounds, so
// that the anchor, or the average, is rated v instead of 0 (Ordo's -a).
// Differences, errors and LOS do not change.
func (r *Report) OffsetRatings(v float64) {
	for i := range r.Tournaments {
		r.Tournaments[i].OffsetRatings(v)
	}
}

// OffsetRatings adds v to the tournament's ratings and their bounds (see
// Report.OffsetRatings). An unconnected engine's rating means nothing and
// stays as it is.
func (t *Tournament) OffsetRatings(v float64) {
	d := Float(v) - t.RatingOffset
	t.RatingOffset = Float(v)
	for i := range t.Ratings {
		if x := &t.Ratings[i]; x.Status != "unconnected" {
			x.Rating, x.Low, x.High = x.Rating+d, x.Low+d, x.High+d
		}
	}
}

// Rating is one row of a tournament's Bradley-Terry rating table, best
// first.
type Rating struct {
	Rank   int    `json:"rank"`
	Engine string `json:"engine"`
	// Rating is relative to the anchor (rated the tournament's
	// RatingOffset; NaN, null in JSON, when unconnected); Low and High bound it at the
	// report's level and Error is half their distance (Ordo's "error").
	Rating Float `json:"rating"`
	Error  Float `json:"error"`
	Low    Float `json:"low"`
	High   Float `json:"high"`
	// Status is "rated", "+inf" or "-inf" (never scored against, or never
	// scored, so no finite rating exists) or "unconnected".
	Status string `json:"status"`
	Games  int    `json:"games"`
	Points Float  `json:"points"`
	Score  Float  `json:"score"` // points per game, 0..1; NaN (null) without games
	// LOSNext is the likelihood of superiority over the engine of the
	// next row (the probability that this engine is the stronger, from
	// the fit's covariance); null for the last row and where either row
	// is not rated.
	LOSNext *Float `json:"los_next"`
}

// Pairing is the games between two engines, counted from the first
// engine's point of view (the one with White in the first game of each
// pair).
type Pairing struct {
	First  string `json:"first"`
	Second string `json:"second"`

	Games  int   `json:"games"`
	Wins   int   `json:"wins"`
	Losses int   `json:"losses"`
	Draws  int   `json:"draws"`
	Points Float `json:"points"`
	// Score is points per game (0..1) and DrawRatio drawn games per game;
	// both are 0 when there are no games (the estimates then hold stats'
	// neutral score of 0.5 and every interval is unbounded; the text shows
	// "-" for all of them).
	Score     Float `json:"score"`
	DrawRatio Float `json:"draw_ratio"`

	// Pairs counts complete game pairs; Ptnml their pair scores 0, 0.5, 1,
	// 1.5, 2 (LL, LD, DD, WD, WW; DD includes a win and a loss). Unpaired
	// games (whose partner is not stored) are left out of the pentanomial.
	Pairs         int    `json:"pairs"`
	Ptnml         [5]int `json:"ptnml"`
	UnpairedGames int    `json:"unpaired_games"`

	// Estimates holds the trinomial estimate (every game) and, when there
	// is a complete pair, the pentanomial one (complete pairs).
	Estimates []Estimate `json:"estimates"`
	// VerdictModel names the estimate the verdict and the chart use:
	// pentanomial when there is a complete pair, else trinomial.
	VerdictModel string `json:"verdict_model"`
	Verdict      string `json:"verdict"`

	SPRT     *SPRT      `json:"sprt"` // null without an SPRT
	Openings Openings   `json:"openings"`
	Progress []Progress `json:"progress"`
}

// Estimate returns the estimate of the named model, or false.
func (p Pairing) Estimate(model string) (Estimate, bool) {
	for _, e := range p.Estimates {
		if e.Model == model {
			return e, true
		}
	}
	return Estimate{}, false
}

// Estimate is stats.Estimate for the report: Elo with its interval, LOS and
// normalized Elo under one variance model.
type Estimate struct {
	Model     string `json:"model"` // trinomial or pentanomial
	Games     int    `json:"games"`
	Pairs     int    `json:"pairs"` // 0 for trinomial
	Points    Float  `json:"points"`
	Score     Float  `json:"score"`
	ScoreLow  Float  `json:"score_low"`
	ScoreHigh Float  `json:"score_high"`
	// DrawRatio is drawn games per game (trinomial) or pairs scoring 1 per
	// pair (pentanomial).
	DrawRatio Float `json:"draw_ratio"`
	Elo       Float `json:"elo"`
	EloLow    Float `json:"elo_low"`
	EloHigh   Float `json:"elo_high"`
	EloError  Float `json:"elo_error"` // half the interval's width, the "±" figure
	LOS       Float `json:"los"`       // 0..1
	NElo      Float `json:"nelo"`
	NEloLow   Float `json:"nelo_low"`
	NEloHigh  Float `json:"nelo_high"`
	// Exact: every sample had the same result; the interval is an exact
	// worst-case bound and the nElo interval is unbounded.
	Exact bool `json:"exact"`
}

// SPRT is the state of a match's sequential probability ratio test over
// its complete pairs (pentanomial), as the runner evaluates it. A decision
// is final, as in fishtest: State and LLR are the runner's stored decision
// and the LLR at which it took it, or else the first point of Path outside
// the bounds, even when games stored after it (in flight when the test
// decided) pull the LLR back inside; without a decision, the LLR after the
// last pair. A tournament whose row records the test's state without a
// decision (complete, or merged from shards up to a missing game) keeps
// that state and its LLR. In a shard's database State is always
// "continue": a shard's games alone do not decide the test.
type SPRT struct {
	Elo0  Float  `json:"elo0"`
	Elo1  Float  `json:"elo1"`
	Alpha Float  `json:"alpha"`
	Beta  Float  `json:"beta"`
	Model string `json:"model"` // logistic or normalized
	LLR   Float  `json:"llr"`
	Lower Float  `json:"lower"`
	Upper Float  `json:"upper"`
	State string `json:"state"` // continue, H0 or H1
	// Verdict is stats.SPRTVerdict's line.
	Verdict string `json:"verdict"`
	// Path is the LLR after each complete pair in schedule order, the
	// pairs after a decision included.
	Path []LLRPoint `json:"path"`
}

// LLRPoint is the SPRT's log-likelihood ratio after some pairs.
type LLRPoint struct {
	Pairs int   `json:"pairs"`
	Games int   `json:"games"`
	LLR   Float `json:"llr"`
}

// Progress is the running Elo estimate (model VerdictModel) after some
// games in schedule order: after each complete pair (pentanomial) or each
// game (trinomial).
type Progress struct {
	Games   int   `json:"games"`
	Elo     Float `json:"elo"`
	EloLow  Float `json:"elo_low"`
	EloHigh Float `json:"elo_high"`
}

// Openings is a pairing's results per opening, as in Table 2 of the FHR
// paper: each game's result in PGN notation (White-Black) with the first
// engine as White and as Black.
type Openings struct {
	Rows []OpeningRow `json:"rows"`
	// Totals over all openings of the first engine's points and games as
	// White and as Black.
	FirstWhitePoints Float `json:"first_white_points"`
	FirstWhiteGames  int   `json:"first_white_games"`
	FirstBlackPoints Float `json:"first_black_points"`
	FirstBlackGames  int   `json:"first_black_games"`
}

// OpeningRow is one opening of a pairing, in order of first play.
type OpeningRow struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// FirstWhite and FirstBlack are the results (1-0, 0-1, 1/2-1/2; White
	// first, as PGN writes them) of the games in which the first engine had
	// White, and Black, in schedule order: one each per round.
	FirstWhite []outcome.Result `json:"first_white"`
	FirstBlack []outcome.Result `json:"first_black"`
	// Games and FirstPoints are the opening's games over every round and
	// the first engine's points in them (a single pair's score only when
	// the opening was played once each way).
	Games       int   `json:"games"`
	FirstPoints Float `json:"first_points"`
}

// Terminations counts how the games ended.
type Terminations struct {
	// Engines orders the per-engine columns (the tournament's engines).
	Engines []string         `json:"engines"`
	Rows    []TerminationRow `json:"rows"`
}

// TerminationRow is one way a game can end. Every standard termination
// has a row, played or not, so scripts find the same lines every time.
type TerminationRow struct {
	Termination string `json:"termination"`
	Games       int    `json:"games"`
	WhiteWins   int    `json:"white_wins"`
	BlackWins   int    `json:"black_wins"`
	Draws       int    `json:"draws"`
	// Against counts, per engine, the games that ended this way against
	// it: lost, or, for the faults (illegal move, time forfeit, engine
	// timeout, crash or error), forfeited by its own fault (a time forfeit against a lone king is a
	// draw but still the engine's fault).
	Against map[string]int `json:"against"`
}

// EngineSearch is an engine's average search figures over its own moves
// (book moves excluded): the FHR paper's Observation 1 (FHR completes
// deeper iterations) in numbers.
type EngineSearch struct {
	Engine string `json:"engine"`
	Moves  int    `json:"moves"`
	// Depth is the mean iteration depth reported with each move: the
	// last completed iteration, or the interrupted one when the move
	// played comes from it (a best move it had changed and confirmed, or
	// its first move when no iteration completed), so not strictly a
	// completed depth.
	Depth    Float `json:"depth"`
	SelDepth Float `json:"seldepth"` // mean selective depth
	Nodes    Float `json:"nodes"`    // mean nodes per move
	TimeMS   Float `json:"time_ms"`  // mean milliseconds per move
	NPS      Float `json:"nps"`      // total nodes / total time (0 without time)
}

// SuiteRun is a stored test-suite run (selfplay suite -db).
type SuiteRun struct {
	ID        int64      `json:"id"`
	Suite     string     `json:"suite"`
	LimitKind string     `json:"limit_kind"` // nodes, depth or movetime (ms)
	Settings  string     `json:"settings"`
	Created   time.Time  `json:"created"`
	Rows      []SuiteRow `json:"rows"`
}

// SuiteRow is one variant at one budget.
type SuiteRow struct {
	Variant   string `json:"variant"`
	Limit     int64  `json:"limit"`
	Positions int    `json:"positions"`
	Solved    int    `json:"solved"`
	Nodes     int64  `json:"nodes"`
	MainNodes int64  `json:"main_nodes"`
	QNodes    int64  `json:"q_nodes"`
	TimeMS    Float  `json:"time_ms"`
}
