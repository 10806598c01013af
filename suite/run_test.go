package suite

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"selfplay/engines"
	"selfplay/engines/board"
	"selfplay/engines/search"
	"selfplay/epd"
	"selfplay/epd/builtin"
)

// testEPD: mates in 1 and 2, a hanging queen, an am case, a deliberately
// wrong answer, a malformed line, a position without bm, and a mated side.
const testEPD = `6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "mate1";
k7/8/2K5/8/8/8/8/7R w - - bm Kb6 Kc7; id "mate2";
4k3/8/8/3q4/8/4N3/8/4K3 w - - bm Nxd5; id "queen";
this line is not an EPD record
4k3/8/2p5/3p4/8/8/8/3QK3 w - - am Qxd5; id "poisoned";
4k3/8/8/3q4/8/4N3/8/4K3 w - - bm Kf2; id "wrong";
4k3/8/8/8/8/8/8/4K2R w K - id "nobm";
R5k1/5ppp/8/8/8/8/8/6K1 b - - id "mated";
`

func loadTest(t *testing.T) ([]epd.Record, []epd.LineError) {
	t.Helper()
	recs, bad, err := epd.Parse(strings.NewReader(testEPD))
	if err != nil {
		t.Fatal(err)
	}
	return recs, bad
}

func variants(t *testing.T, spec string) []Variant {
	t.Helper()
	vs, err := ParseVariants(spec)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func ids(recs []epd.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

func TestSelect(t *testing.T) {
	recs, bad := loadTest(t)
	if len(bad) != 1 || bad[0].Line != 4 {
		t.Fatalf("malformed lines = %v, want line 4", bad)
	}
	m := Malformed(bad)
	if len(m) != 1 || m[0].Line != 4 || !strings.HasPrefix(m[0].Reason, "malformed: ") {
		t.Errorf("Malformed = %+v", m)
	}
	tests := []struct {
		judge    bool
		use      []string
		skipped  map[string]string
		unjudged int
	}{
		{true, []string{"mate1", "mate2", "queen", "poisoned", "wrong"},
			map[string]string{"nobm": reasonNoAnswer, "mated": reasonNoMove}, 0},
		{false, []string{"mate1", "mate2", "queen", "poisoned", "wrong", "nobm"},
			map[string]string{"mated": reasonNoMove}, 1},
	}
	for _, tc := range tests {
		use, skip := Select(recs, tc.judge)
		if !slices.Equal(ids(use), tc.use) {
			t.Errorf("judge=%v: use %v, want %v", tc.judge, ids(use), tc.use)
		}
		got := map[string]string{}
		for _, s := range skip {
			got[s.ID] = s.Reason
		}
		if len(got) != len(tc.skipped) {
			t.Errorf("judge=%v: skipped %v, want %v", tc.judge, got, tc.skipped)
		}
		for id, reason := range tc.skipped {
			if got[id] != reason {
				t.Errorf("judge=%v: %s skipped for %q, want %q", tc.judge, id, got[id], reason)
			}
		}
		n := 0
		for _, r := range use {
			if !Judged(r) {
				n++
			}
		}
		if n != tc.unjudged {
			t.Errorf("judge=%v: %d unjudged, want %d", tc.judge, n, tc.unjudged)
		}
	}
}

func TestSolves(t *testing.T) {
	tests := []struct {
		best, avoid []string
		move        string
		want        bool
	}{
		{[]string{"a1a8"}, nil, "a1a8", true},
		{[]string{"a1a8"}, nil, "a1a7", false},
		{[]string{"c6b6", "c6c7"}, nil, "c6c7", true},
		{nil, []string{"d1d5"}, "d1b3", true},
		{nil, []string{"d1d5"}, "d1d5", false},
		{[]string{"d1d5"}, []string{"d1d5"}, "d1d5", false},
		{nil, nil, "e2e4", false},
	}
	for _, tc := range tests {
		r := epd.Record{Best: tc.best, Avoid: tc.avoid}
		if got := solves(r, tc.move); got != tc.want {
			t.Errorf("solves(bm %v am %v, %s) = %v, want %v", tc.best, tc.avoid, tc.move, got, tc.want)
		}
	}
}

// TestRunSolves: every variant solves the four sound positions and not the
// wrong answer, at every budget.
func TestRunSolves(t *testing.T) {
	recs, bad := loadTest(t)
	use, skipped := Select(recs, true)
	plans := []Plan{
		must(ParseNodes("3000,30000")),
		must(ParseDepths("4..5")),
	}
	for _, plan := range plans {
		t.Run(string(plan.Kind), func(t *testing.T) {
			res, err := Run(context.Background(), Config{
				Suite: "test.epd", Positions: use, Variants: variants(t, "plain,fhr"), Plan: plan,
				Concurrency: 2, HashMiB: 1, Skipped: append(Malformed(bad), skipped...),
			})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Complete || res.Done() != len(res.Outcomes) {
				t.Fatalf("run not complete: %d of %d", res.Done(), len(res.Outcomes))
			}
			for _, row := range res.Rows() {
				if row.Positions != 5 || row.Judged != 5 || row.Solved != 4 || !row.Complete {
					t.Errorf("row %+v: want 5 positions, 5 judged, 4 solved", row)
				}
				if row.Nodes != row.MainNodes+row.QNodes || row.Nodes <= 0 {
					t.Errorf("row %+v: nodes do not add up", row)
				}
				if plan.Kind == Nodes && row.Nodes > int64(len(use))*row.Budget {
					t.Errorf("row %+v: more nodes than the budgets allow", row)
				}
			}
			for v := range res.Variants {
				for b := range plan.Values {
					for p, rec := range use {
						o := res.At(b, v, p)
						if o.Solved != (rec.ID != "wrong") {
							t.Errorf("%s %s at %d: solved=%v with %s", res.Variants[v], rec.ID, plan.Values[b], o.Solved, o.Move)
						}
						if o.FirstDepth < 1 || o.FirstDepth > o.Depth {
							t.Errorf("%s %s: first depth %d, depth %d", res.Variants[v], rec.ID, o.FirstDepth, o.Depth)
						}
						if plan.Kind == Depth && o.Depth != int(plan.Values[b]) {
							t.Errorf("%s %s: depth %d at depth limit %d", res.Variants[v], rec.ID, o.Depth, plan.Values[b])
						}
						if rec.ID == "mate1" && (o.FirstDepth != 1 || o.Score != engines.MateIn(1)) {
							t.Errorf("mate1: first depth %d score %v", o.FirstDepth, o.Score)
						}
					}
					if fs, ok := res.FirstSolved(v, 0); !ok || fs != plan.Values[0] {
						t.Errorf("FirstSolved(mate1) = %d %v", fs, ok)
					}
					if _, ok := res.FirstSolved(v, 4); ok {
						t.Errorf("FirstSolved(wrong) found")
					}
				}
			}
			var text bytes.Buffer
			if err := res.WriteText(&text, TextOptions{Diffs: DiffAll, Positions: true}); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"suite test.epd: 5 positions (3 lines skipped)", "solved / " + string(plan.Kind),
				"plain solved and fhr did not (0): -", "mate2", "c6b6@"} {
				if !strings.Contains(text.String(), want) {
					t.Errorf("text output lacks %q:\n%s", want, text.String())
				}
			}
		})
	}
}

func must(p Plan, err error) Plan {
	if err != nil {
		panic(err)
	}
	return p
}

// TestDepthRunKeepsUnjudged: a depth run searches positions without bm for
// their node counts, and a plain FEN file works.
func TestDepthRunKeepsUnjudged(t *testing.T) {
	recs, _, err := epd.Parse(strings.NewReader(board.StartFEN + "\n" + "4k3/8/8/8/8/8/8/4K2R w K - 0 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	use, skipped := Select(recs, false)
	if len(use) != 2 || len(skipped) != 0 {
		t.Fatalf("use %d skipped %v", len(use), skipped)
	}
	res, err := Run(context.Background(), Config{Suite: "fen", Positions: use, Variants: variants(t, "plain"),
		Plan: must(ParseDepths("2..3")), HashMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range res.Rows() {
		if row.Positions != 2 || row.Judged != 0 || row.Solved != 0 || row.Nodes == 0 {
			t.Errorf("row %+v", row)
		}
	}
	var text bytes.Buffer
	if err := res.WriteText(&text, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "judged") || !strings.Contains(text.String(), "total nodes / depth") {
		t.Errorf("text output:\n%s", text.String())
	}
}

// normalized writes the JSON of a run with its times and concurrency
// zeroed: what must not depend on the machine.
func normalized(t *testing.T, res *Results) string {
	t.Helper()
	res.Wall, res.Concurrency = 0, 0
	for i := range res.Outcomes {
		res.Outcomes[i].Time = 0
	}
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestDeterministicAcrossConcurrency: node and depth runs give the same
// results with 1 and 4 workers, and the same as a new Searcher per search.
func TestDeterministicAcrossConcurrency(t *testing.T) {
	recs, _ := loadTest(t)
	use, _ := Select(recs, true)
	vs := variants(t, "plain,fhr,nmr-r3-4")
	for _, plan := range []Plan{must(ParseNodes("1000,2700x2^1..2")), must(ParseDepths("2..4"))} {
		var outs []string
		var first *Results
		for _, c := range []int{1, 4} {
			res, err := Run(context.Background(), Config{Suite: "t", Positions: use, Variants: vs, Plan: plan, Concurrency: c, HashMiB: 1})
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = res
			}
			outs = append(outs, normalized(t, res))
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: results differ between -concurrency 1 and 4:\n%s\n---\n%s", plan.Kind, outs[0], outs[1])
		}
		// A fresh Searcher per search gives the same as the pooled ones.
		for b, budget := range plan.Values {
			for v, variant := range vs {
				for p, rec := range use {
					s, err := search.New(variant.Options, 1)
					if err != nil {
						t.Fatal(err)
					}
					bd, err := board.FromFEN(rec.FEN)
					if err != nil {
						t.Fatal(err)
					}
					r, err := s.Search(context.Background(), bd, plan.Limits(budget))
					if err != nil {
						t.Fatal(err)
					}
					o := first.At(b, v, p)
					if r.Move.UCI() != o.Move || r.Info.Nodes != o.Nodes || r.Info.Score != o.Score || r.Info.Depth != o.Depth {
						t.Errorf("%s %s %d: fresh searcher %s %d nodes, pooled %s %d nodes",
							variant.Name, rec.ID, budget, r.Move.UCI(), r.Info.Nodes, o.Move, o.Nodes)
					}
				}
			}
		}
	}
}

func TestRunCancelled(t *testing.T) {
	recs, _ := loadTest(t)
	use, _ := Select(recs, true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	res, err := Run(ctx, Config{Suite: "t", Positions: use, Variants: variants(t, "plain"), Plan: must(ParseNodes("2000,1000000")),
		Concurrency: 1, HashMiB: 1, Progress: func(done, total int) {
			calls++
			if done == 3 {
				cancel()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.Done() != 3 || calls != 3 {
		t.Fatalf("complete=%v done=%d of %d", res.Complete, res.Done(), len(res.Outcomes))
	}
	rows := res.Rows()
	if rows[0].Complete || rows[1].Positions != 0 {
		t.Errorf("rows after cancel: %+v", rows)
	}
	var text, js bytes.Buffer
	if err := res.WriteText(&text, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "INTERRUPTED") {
		t.Errorf("text output does not say the run was interrupted:\n%s", text.String())
	}
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Complete  bool             `json:"complete"`
		Positions []map[string]any `json:"positions"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Complete || len(doc.Positions) != res.Done() {
		t.Errorf("json: complete %v, %d positions, want %d", doc.Complete, len(doc.Positions), res.Done())
	}
}

func TestRunRejects(t *testing.T) {
	recs, _ := loadTest(t)
	use, _ := Select(recs, true)
	bad := Variant{Name: "bad", Options: search.Options{NullRMin: -1, Null: search.NullStandard}}
	tests := []Config{
		{Positions: use, Plan: must(ParseDepths("2"))},
		{Variants: variants(t, "plain"), Plan: must(ParseDepths("2"))},
		{Positions: use, Variants: variants(t, "plain")},
		{Positions: use, Variants: []Variant{bad}, Plan: must(ParseDepths("2"))},
	}
	for i, cfg := range tests {
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("config %d accepted", i)
		}
	}
}

// TestJSONAndCSVShape checks the keys of the machine-readable outputs.
func TestJSONAndCSVShape(t *testing.T) {
	recs, bad := loadTest(t)
	use, skipped := Select(recs, true)
	for _, plan := range []Plan{must(ParseNodes("2000")), must(ParseDepths("2")), must(ParseMoveTime("5ms"))} {
		res, err := Run(context.Background(), Config{Suite: "t", Positions: use, Variants: variants(t, "plain,fhr"),
			Plan: plan, HashMiB: 1, Skipped: append(Malformed(bad), skipped...)})
		if err != nil {
			t.Fatal(err)
		}
		var js bytes.Buffer
		if err := res.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Limit     string           `json:"limit"`
			Budgets   []int64          `json:"budgets"`
			Skipped   []map[string]any `json:"skipped"`
			Rows      []map[string]any `json:"rows"`
			Positions []map[string]any `json:"positions"`
		}
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", plan.Kind, err, js.String())
		}
		if doc.Limit != string(plan.Kind) || len(doc.Rows) != 2 || len(doc.Positions) != 10 || len(doc.Skipped) != 3 {
			t.Fatalf("%s: limit %s, %d rows, %d positions, %d skipped", plan.Kind, doc.Limit, len(doc.Rows), len(doc.Positions), len(doc.Skipped))
		}
		rowKeys := []string{"variant", string(plan.Kind), "positions", "judged", "solved", "nodes_searched", "main_nodes", "q_nodes", "mean_depth", "time_ms", "nps", "complete"}
		posKeys := []string{"variant", string(plan.Kind), "id", "line", "judged", "solved", "move", "bm", "am", "bm_san", "am_san",
			"first_depth", "first_solved", "depth", "score", "mate", "nodes_searched", "main_nodes", "q_nodes", "time_ms"}
		for _, k := range rowKeys {
			if _, ok := doc.Rows[0][k]; !ok {
				t.Errorf("%s: row lacks %q: %v", plan.Kind, k, doc.Rows[0])
			}
		}
		for _, k := range posKeys {
			if _, ok := doc.Positions[0][k]; !ok {
				t.Errorf("%s: position lacks %q: %v", plan.Kind, k, doc.Positions[0])
			}
		}
		if p := doc.Positions[0]; p["id"] != "mate1" || p["move"] != "a1a8" || p["mate"] != 1.0 || p["solved"] != true {
			t.Errorf("%s: first position %v", plan.Kind, p)
		}
		for _, positions := range []bool{false, true} {
			var buf bytes.Buffer
			if err := res.WriteCSV(&buf, positions); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			want, keys := 3, rowKeys
			if positions {
				want, keys = 11, posKeys
				if plan.Kind == Depth {
					keys = slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return k == "depth" })
					keys = slices.Insert(keys, 1, "depth")
				}
			}
			if len(recs) != want || !slices.Equal(recs[0], keys) {
				t.Errorf("%s csv positions=%v: %d records, header %v, want %v", plan.Kind, positions, len(recs), recs[0], keys)
			}
		}
	}
}

// loadData reads the first n usable positions of a built-in suite.
func loadData(t *testing.T, name string, n int) []epd.Record {
	t.Helper()
	recs, bad, err := builtin.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("%s: malformed lines %v", name, bad)
	}
	use, skipped := Select(recs, true)
	if len(skipped) > 0 {
		t.Errorf("%s: skipped %v", name, skipped)
	}
	return use[:min(n, len(use))]
}

func TestWACSubset(t *testing.T) {
	use := loadData(t, "wac", 20)
	res, err := Run(context.Background(), Config{Suite: "wac.epd", Positions: use, Variants: variants(t, "plain,fhr"),
		Plan: must(ParseNodes("2700x2^1..3")), HashMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range res.Rows() {
		if row.Positions != 20 || row.Solved < 1 || row.Solved > 20 || row.Nodes > 20*row.Budget || row.Nodes < 19*row.Budget {
			t.Errorf("row %+v", row)
		}
	}
	var js bytes.Buffer
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(js.Bytes()) {
		t.Error("invalid JSON")
	}
}

func TestBKFixedDepth(t *testing.T) {
	use := loadData(t, "bk", 24)
	res, err := Run(context.Background(), Config{Suite: "bk.epd", Positions: use, Variants: variants(t, "plain,fhr"),
		Plan: must(ParseDepths("4..5")), HashMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	rows := res.Rows()
	// Fixed-depth searches are deterministic, so the solved counts are
	// exact: they change only when the search itself changes (then check
	// the new counts and update them here).
	// From: selfplay suite -epd ../shared/data/bk.epd -variant plain,fhr -depth 4..5 -hash 4
	solved := map[int64][2]int{4: {8, 8}, 5: {12, 9}} // depth: plain, fhr
	for b, d := range res.Plan.Values {
		plain, fhr := rows[b], rows[len(res.Plan.Values)+b]
		if plain.Positions != 24 || fhr.Positions != 24 || !plain.Complete || !fhr.Complete {
			t.Errorf("depth %d: rows %+v %+v", d, plain, fhr)
		}
		if got := [2]int{plain.Solved, fhr.Solved}; got != solved[d] {
			t.Errorf("depth %d: plain solved %d, fhr %d; want %d, %d", d, got[0], got[1], solved[d][0], solved[d][1])
		}
		if fhr.Nodes >= plain.Nodes {
			t.Errorf("depth %d: fhr searched %d nodes, plain %d; want fewer", d, fhr.Nodes, plain.Nodes)
		}
	}
}
