package stats

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// EloModel is the unit of the SPRT bounds elo0 and elo1. A model is a
// constant, a row of eloModels (its names) and a case of SPRT.llr.
type EloModel int

const (
	// LogisticElo bounds are ordinary (logistic) Elo differences.
	LogisticElo EloModel = iota
	// NormalizedElo bounds are normalized Elo (fishtest's "normalized"
	// model), which does not depend on the draw ratio.
	NormalizedElo
	// BayesianElo bounds are BayesElo differences (fastchess's "bayesian"
	// model): the draw Elo is estimated from the games, so the test needs
	// W/D/L counts and has no pentanomial form (see bayesianLLR).
	BayesianElo
)

// eloModels names the models: the first name is the model's text form
// (String, and the stored config snapshot), the others are also accepted.
var eloModels = []struct {
	model EloModel
	names []string
}{
	{LogisticElo, []string{"logistic"}},
	{NormalizedElo, []string{"normalized", "normalised"}},
	{BayesianElo, []string{"bayesian"}},
}

// String is the model's text form: "logistic", "normalized" or "bayesian"
// (fishtest's and fastchess's names).
func (m EloModel) String() string {
	for _, e := range eloModels {
		if e.model == m {
			return e.names[0]
		}
	}
	return "logistic"
}

// known reports whether m is one of the models.
func (m EloModel) known() bool {
	for _, e := range eloModels {
		if e.model == m {
			return true
		}
	}
	return false
}

// ParseEloModel accepts a model's name, in any case: "logistic",
// "normalized" (also "normalised") or "bayesian".
func ParseEloModel(s string) (EloModel, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for _, e := range eloModels {
		if slices.Contains(e.names, name) {
			return e.model, nil
		}
	}
	names := make([]string, len(eloModels))
	for i, e := range eloModels {
		names[i] = e.names[0]
	}
	last := len(names) - 1
	return 0, fmt.Errorf("unknown Elo model %q (want %s or %s)", s, strings.Join(names[:last], ", "), names[last])
}

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against
// H1: elo = Elo1, with type I error Alpha (accepting H1 when H0 holds) and
// type II error Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       EloModel
}

// sprtJSON is the text form of an SPRT (as the config snapshot stores
// it): its keys in sorted order, the model by name.
type sprtJSON struct {
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Model string  `json:"model"`
}

// MarshalJSON writes the test's text form, such as
// {"alpha":0.05,"beta":0.05,"elo0":0,"elo1":5,"model":"normalized"}.
func (t SPRT) MarshalJSON() ([]byte, error) {
	return json.Marshal(sprtJSON{Alpha: t.Alpha, Beta: t.Beta, Elo0: t.Elo0, Elo1: t.Elo1, Model: t.Model.String()})
}

// UnmarshalJSON reads the text form. Missing numbers are 0; the model
// must be one of ParseEloModel's (the bounds are not validated: Validate).
func (t *SPRT) UnmarshalJSON(b []byte) error {
	var v sprtJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	m, err := ParseEloModel(v.Model)
	if err != nil {
		return err
	}
	*t = SPRT{Elo0: v.Elo0, Elo1: v.Elo1, Alpha: v.Alpha, Beta: v.Beta, Model: m}
	return nil
}

// Validate applies fastchess's SPRT::isValid checks: elo0 < elo1, alpha and
// beta in (0, 1) with alpha+beta < 1, and finite bounds.
func (t SPRT) Validate() error {
	switch {
	case math.IsNaN(t.Elo0) || math.IsNaN(t.Elo1) || math.IsInf(t.Elo0, 0) || math.IsInf(t.Elo1, 0):
		return fmt.Errorf("SPRT bounds must be finite, got elo0=%v elo1=%v", t.Elo0, t.Elo1)
	case t.Elo0 >= t.Elo1:
		return fmt.Errorf("SPRT elo0 (%v) must be less than elo1 (%v)", t.Elo0, t.Elo1)
	case !(t.Alpha > 0 && t.Alpha < 1):
		return fmt.Errorf("SPRT alpha %v is not in (0, 1)", t.Alpha)
	case !(t.Beta > 0 && t.Beta < 1):
		return fmt.Errorf("SPRT beta %v is not in (0, 1)", t.Beta)
	case t.Alpha+t.Beta >= 1:
		return fmt.Errorf("SPRT alpha+beta (%v) must be less than 1", t.Alpha+t.Beta)
	case !t.Model.known():
		return fmt.Errorf("unknown SPRT Elo model %d", int(t.Model))
	}
	return nil
}

// Bounds are Wald's stopping thresholds for the LLR: log(beta/(1-alpha))
// and log((1-beta)/alpha) (fishtest stat_util.SPRT, fastchess SPRT::SPRT).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// SPRTState is the decision of an SPRT.
type SPRTState int

const (
	// SPRTContinue means the LLR is between the bounds: play on.
	SPRTContinue SPRTState = iota
	// SPRTAcceptH0 means the LLR fell below the lower bound.
	SPRTAcceptH0
	// SPRTAcceptH1 means the LLR rose above the upper bound.
	SPRTAcceptH1
)

// String gives "continue", "H0" or "H1": the state's text form, as the
// database stores it (ParseSPRTState reads it back).
func (s SPRTState) String() string {
	switch s {
	case SPRTAcceptH0:
		return "H0"
	case SPRTAcceptH1:
		return "H1"
	}
	return "continue"
}

// ParseSPRTState reads a state's text form (SPRTState.String); any other
// text, such as the "" stored without an SPRT, is not a state.
func ParseSPRTState(text string) (SPRTState, bool) {
	for _, s := range []SPRTState{SPRTContinue, SPRTAcceptH0, SPRTAcceptH1} {
		if text == s.String() {
			return s, true
		}
	}
	return 0, false
}

// Decided reports whether the state is a decision (H0 or H1).
func (s SPRTState) Decided() bool { return s != SPRTContinue }

// SPRTResult is the state of an SPRT after some games.
type SPRTResult struct {
	LLR          float64
	Lower, Upper float64
	State        SPRTState
}

// Trinomial evaluates the test on W/L/D counts (per-game model).
func (t SPRT) Trinomial(r Trinomial) (SPRTResult, error) {
	if err := r.Validate(); err != nil {
		return SPRTResult{}, err
	}
	counts, values := r.bins()
	return t.evaluate(counts, values, 1)
}

// errBayesianPairs is Pentanomial's error under the bayesian model.
const errBayesianPairs = constError("the bayesian SPRT model needs W/D/L game counts: it has no pentanomial form (fastchess disables pentanomial statistics with it)")

// Pentanomial evaluates the test on game-pair counts (per-pair model). The
// bayesian model has no pentanomial form: it is an error; see Paired.
func (t SPRT) Pentanomial(r Pentanomial) (SPRTResult, error) {
	if err := r.Validate(); err != nil {
		return SPRTResult{}, err
	}
	if t.Model == BayesianElo {
		return SPRTResult{}, errBayesianPairs
	}
	counts, values := r.bins()
	return t.evaluate(counts, values, 2)
}

// Paired evaluates the test over a match's complete game pairs: pairs are
// their pentanomial counts and games the W/D/L counts of the same pairs'
// games. The bayesian model, which fastchess runs on W/D/L counts only,
// uses games; the others use pairs, as fishtest does for paired openings.
func (t SPRT) Paired(pairs Pentanomial, games Trinomial) (SPRTResult, error) {
	if t.Model == BayesianElo {
		return t.Trinomial(games)
	}
	return t.Pentanomial(pairs)
}

// evaluate computes the LLR and compares it with the bounds the way
// fishtest's update_SPRT does (strict inequalities), without fishtest's
// dynamic overshoot correction: like fastchess this is meant to be checked
// after every game or pair, where the overshoot is small.
func (t SPRT) evaluate(counts, values []float64, gamesPerSample float64) (SPRTResult, error) {
	if err := t.Validate(); err != nil {
		return SPRTResult{}, err
	}
	res := SPRTResult{}
	res.Lower, res.Upper = t.Bounds()
	llr, err := t.llr(counts, values, gamesPerSample)
	if err != nil {
		return SPRTResult{}, err
	}
	res.LLR = llr
	switch {
	case llr < res.Lower:
		res.State = SPRTAcceptH0
	case llr > res.Upper:
		res.State = SPRTAcceptH1
	}
	return res, nil
}

// llr is fishtest's generalized log-likelihood ratio (LLRcalc.LLR_logistic
// and LLR_normalized; fastchess getLLR_logistic/getLLR_normalized):
//
//	LLR = N · sum_i phat_i · log(p1_i / p0_i)
//
// where phat is the observed distribution with empty bins regularized to
// 1e-3 counts, N the regularized sample count, and p0, p1 the maximum
// likelihood distributions under H0 and H1. In the logistic model the
// hypotheses fix the mean score at ScoreFromElo(elo); in the normalized
// model they fix the t-value (mean-0.5)/sigma_sample at nelo/(800/ln10),
// times √2 for pairs since sigma_pair = sigma_game/√2 on the per-game scale.
// In the bayesian model (W/D/L only) they fix the mean score at
// scoreFromBayesElo(elo, drawElo), drawElo estimated from the regularized
// win and loss frequencies (drawEloFrom), and the LLR is 0 until there is a
// win and a loss, as in fastchess. With no samples at all the LLR is 0.
func (t SPRT) llr(counts, values []float64, gamesPerSample float64) (float64, error) {
	total := 0.0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0, nil
	}
	if t.Model == BayesianElo && (len(counts) != 3 || counts[0] == 0 || counts[2] == 0) {
		if len(counts) != 3 {
			return 0, errBayesianPairs
		}
		return 0, nil // no draw Elo without a win and a loss: fastchess's LLR is 0
	}
	reg := make([]float64, len(counts))
	n := 0.0
	for i, c := range counts {
		reg[i] = c
		if c == 0 {
			reg[i] = 1e-3
		}
		n += reg[i]
	}
	probs := distribution(reg)

	var p0, p1 []float64
	var err0, err1 error
	switch t.Model {
	case NormalizedElo:
		scale := math.Sqrt(gamesPerSample) / neloPerT
		p0, err0 = mleWithT(values, probs, 0.5, t.Elo0*scale)
		p1, err1 = mleWithT(values, probs, 0.5, t.Elo1*scale)
	case BayesianElo:
		drawElo := drawEloFrom(probs[0], probs[2])
		p0, err0 = mleWithMean(values, probs, scoreFromBayesElo(t.Elo0, drawElo))
		p1, err1 = mleWithMean(values, probs, scoreFromBayesElo(t.Elo1, drawElo))
	default:
		p0, err0 = mleWithMean(values, probs, ScoreFromElo(t.Elo0))
		p1, err1 = mleWithMean(values, probs, ScoreFromElo(t.Elo1))
	}
	if err0 != nil || err1 != nil {
		return 0, fmt.Errorf("SPRT bounds elo0=%v elo1=%v (%v) are too extreme for this result: %w",
			t.Elo0, t.Elo1, t.Model, errors.Join(err0, err1))
	}
	sum := 0.0
	for i := range probs {
		sum += probs[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return n * sum, nil
}
