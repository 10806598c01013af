package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// FormatName is the JSON report's "format" field.
const FormatName = "selfplay-report"

// jsonReport adds the format name and version to the report's fields.
type jsonReport struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Report
}

// WriteJSON writes the report as one indented JSON object, structured as
// the package documentation describes.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(jsonReport{Format: FormatName, Version: Version, Report: withEmptyLists(r)}); err != nil {
		return fmt.Errorf("writing JSON report: %w", err)
	}
	return nil
}

// withEmptyLists replaces nil lists and maps by empty ones, so that every
// array and object of the documented structure is present (never null).
// It is the one place that does so: builders of a Report (standings.Load)
// leave empty lists nil.
func withEmptyLists(r Report) Report {
	r.Tournaments = nonNil(r.Tournaments)
	r.SuiteRuns = nonNil(r.SuiteRuns)
	ts := make([]Tournament, len(r.Tournaments))
	for i, t := range r.Tournaments {
		t.Engines = nonNil(t.Engines)
		if t.Input != nil {
			in := *t.Input
			in.Files = nonNil(in.Files)
			t.Input = &in
		}
		if t.Knockout != nil {
			t.Knockout = knockoutWithEmptyLists(*t.Knockout)
		}
		t.Ratings = nonNil(t.Ratings)
		t.Search = nonNil(t.Search)
		t.Terminations.Engines = nonNil(t.Terminations.Engines)
		rows := make([]TerminationRow, len(t.Terminations.Rows))
		for j, row := range t.Terminations.Rows {
			if row.Against == nil {
				row.Against = map[string]int{}
			}
			rows[j] = row
		}
		t.Terminations.Rows = rows
		ps := make([]Pairing, len(t.Pairings))
		for j, p := range t.Pairings {
			p.Estimates = nonNil(p.Estimates)
			p.Progress = nonNil(p.Progress)
			if p.SPRT != nil {
				s := *p.SPRT
				s.Path = nonNil(s.Path)
				p.SPRT = &s
			}
			os := make([]OpeningRow, len(p.Openings.Rows))
			for k, o := range p.Openings.Rows {
				o.FirstWhite, o.FirstBlack = nonNil(o.FirstWhite), nonNil(o.FirstBlack)
				os[k] = o
			}
			p.Openings.Rows = os
			ps[j] = p
		}
		t.Pairings = ps
		ts[i] = t
	}
	r.Tournaments = ts
	runs := make([]SuiteRun, len(r.SuiteRuns))
	for i, run := range r.SuiteRuns {
		run.Rows = nonNil(run.Rows)
		runs[i] = run
	}
	r.SuiteRuns = runs
	return r
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// knockoutWithEmptyLists is withEmptyLists for a knockout's bracket.
func knockoutWithEmptyLists(k Knockout) *Knockout {
	k.Seeds = nonNil(k.Seeds)
	rounds := make([]KnockoutRound, len(k.Rounds))
	for i, r := range k.Rounds {
		es := make([]KnockoutEncounter, len(r.Encounters))
		for j, e := range r.Encounters {
			e.Pairs = nonNil(e.Pairs)
			es[j] = e
		}
		rounds[i] = KnockoutRound{Encounters: es}
	}
	k.Rounds = rounds
	return &k
}
