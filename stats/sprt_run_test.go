package stats

import (
	"encoding/json"
	"errors"
	"testing"
)

// SPRTRun decides once: an undefined LLR keeps the last result, a result
// outside the bounds is final, and a restored result is final whatever its
// state.
func TestSPRTRunSteps(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	lower, upper := test.Bounds()
	at := func(llr float64, s SPRTState) SPRTResult {
		return SPRTResult{LLR: llr, Lower: lower, Upper: upper, State: s}
	}
	undefined := errors.New("undefined")
	type step struct {
		res     SPRTResult
		err     error
		restore bool // Restore(res.State, res.LLR) instead of Step
	}
	tests := []struct {
		name    string
		steps   []step
		want    SPRTResult
		decided bool
		err     error
	}{
		{"no pairs", nil, at(0, SPRTContinue), false, nil},
		{"continue", []step{{res: at(1, SPRTContinue)}, {res: at(-1, SPRTContinue)}}, at(-1, SPRTContinue), false, nil},
		{"undefined keeps the last", []step{{res: at(1, SPRTContinue)}, {err: undefined}}, at(1, SPRTContinue), false, undefined},
		{"undefined from the start", []step{{err: undefined}}, at(0, SPRTContinue), false, undefined},
		{"defined again", []step{{err: undefined}, {res: at(2, SPRTContinue)}}, at(2, SPRTContinue), false, nil},
		{"H1 is final", []step{{res: at(3, SPRTAcceptH1)}, {res: at(1, SPRTContinue)}, {err: undefined}},
			at(3, SPRTAcceptH1), true, nil},
		{"H0 is final", []step{{res: at(-3, SPRTAcceptH0)}, {res: at(3, SPRTAcceptH1)}}, at(-3, SPRTAcceptH0), true, nil},
		{"restored decision", []step{{res: at(-3, SPRTAcceptH0), restore: true}, {res: at(3, SPRTAcceptH1)}},
			at(-3, SPRTAcceptH0), true, nil},
		{"restored continue is final too", []step{{res: at(0.5, SPRTContinue), restore: true}, {res: at(3, SPRTAcceptH1)}, {err: undefined}},
			at(0.5, SPRTContinue), false, nil},
	}
	for _, tc := range tests {
		r := NewSPRTRun(test)
		for _, s := range tc.steps {
			if s.restore {
				r.Restore(s.res.State, s.res.LLR)
			} else {
				r.Step(s.res, s.err)
			}
		}
		if got := r.Result(); got != tc.want || r.Decided() != tc.decided || r.Err() != tc.err {
			t.Errorf("%s: result %+v decided %v err %v; want %+v, %v, %v", tc.name, got, r.Decided(), r.Err(),
				tc.want, tc.decided, tc.err)
		}
	}
}

// Add evaluates pair counts until the test decides; pairs counted after the
// decision, enough to undo it, leave it as it is.
func TestSPRTRunAddDecidesOnce(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: LogisticElo}
	r := NewSPRTRun(test)
	var pairs Pentanomial
	for i := 0; !r.Decided(); i++ {
		if i == 500 {
			t.Fatalf("no decision after 500 pairs: %+v", r.Result())
		}
		pairs.LD++ // a loses a game of every pair, draws the other
		if i%3 == 0 {
			pairs.DD++
		}
		r.Add(pairs, Trinomial{})
	}
	decision := r.Result()
	if decision.State != SPRTAcceptH0 {
		t.Fatalf("decision %+v, want H0", decision)
	}
	pairs.WW += 3 * pairs.Pairs()
	r.Add(pairs, Trinomial{})
	if r.Result() != decision {
		t.Errorf("the decision changed: %+v -> %+v", decision, r.Result())
	}
	if now, err := test.Pentanomial(pairs); err != nil || now.State == SPRTAcceptH0 {
		t.Fatalf("the later pairs would not undo the decision (%+v, %v): the test proves nothing", now, err)
	}
}

// The stored text of a state reads back; "" (no SPRT) and other text is no state.
func TestParseSPRTState(t *testing.T) {
	for _, s := range []SPRTState{SPRTContinue, SPRTAcceptH0, SPRTAcceptH1} {
		if got, ok := ParseSPRTState(s.String()); !ok || got != s {
			t.Errorf("ParseSPRTState(%q) = %v, %v", s.String(), got, ok)
		}
	}
	for _, text := range []string{"", "h1", "Continue", "H2"} {
		if got, ok := ParseSPRTState(text); ok {
			t.Errorf("ParseSPRTState(%q) = %v, ok", text, got)
		}
	}
	if SPRTContinue.Decided() || !SPRTAcceptH0.Decided() || !SPRTAcceptH1.Decided() {
		t.Error("Decided: only H0 and H1 are decisions")
	}
}

// The SPRT's text form is the config snapshot's: keys sorted, the model by
// name, as databases store it; it reads back, and a missing or unknown
// model is an error rather than a silent default.
func TestSPRTJSON(t *testing.T) {
	tests := []struct {
		test SPRT
		text string
	}{
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1, Model: LogisticElo},
			`{"alpha":0.05,"beta":0.1,"elo0":0,"elo1":5,"model":"logistic"}`},
		{SPRT{Elo0: -1.5, Elo1: 3, Alpha: 0.05, Beta: 0.05, Model: NormalizedElo},
			`{"alpha":0.05,"beta":0.05,"elo0":-1.5,"elo1":3,"model":"normalized"}`},
	}
	for _, tc := range tests {
		b, err := json.Marshal(tc.test)
		if err != nil || string(b) != tc.text {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tc.test, b, err, tc.text)
		}
		var back SPRT
		if err := json.Unmarshal([]byte(tc.text), &back); err != nil || back != tc.test {
			t.Errorf("Unmarshal(%s) = %+v, %v", tc.text, back, err)
		}
	}
	var s SPRT
	if err := json.Unmarshal([]byte(`{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"model":"normalised"}`), &s); err != nil ||
		s.Model != NormalizedElo {
		t.Errorf("normalised: %+v, %v", s, err)
	}
	for _, bad := range []string{`{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05}`, `{"model":"bayes"}`, `[1]`} {
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("Unmarshal(%s) succeeded: %+v", bad, s)
		}
	}
}

// Every model has a name that reads back, and Validate knows it.
func TestEloModelNames(t *testing.T) {
	for _, e := range eloModels {
		for _, name := range e.names {
			if m, err := ParseEloModel(name); err != nil || m != e.model {
				t.Errorf("ParseEloModel(%q) = %v, %v; want %v", name, m, err, e.model)
			}
		}
		if m, err := ParseEloModel(e.model.String()); err != nil || m != e.model {
			t.Errorf("%v does not read back: %v, %v", e.model, m, err)
		}
		if err := (SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: e.model}).Validate(); err != nil {
			t.Errorf("%v: %v", e.model, err)
		}
	}
	_, err := ParseEloModel("x")
	if want := `unknown Elo model "x" (want logistic, normalized or bayesian)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
