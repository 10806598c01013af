package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"selfplay/store"
)

const suiteTestEPD = `6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "mate1";
k7/8/2K5/8/8/8/8/7R w - - bm Kb6 Kc7; id "mate2";
not an epd line
4k3/8/8/3q4/8/4N3/8/4K3 w - - bm Nxd5; id "queen";
4k3/8/2p5/3p4/8/8/8/3QK3 w - - am Qxd5; id "poisoned";
4k3/8/8/8/8/8/8/4K2R w K - id "nobm";
`

func suiteCmd(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(ctx, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, append([]string{"suite"}, args...))
	return code, out.String(), errb.String()
}

func suiteFile(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "t.epd")
	if err := os.WriteFile(path, []byte(suiteTestEPD), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func TestSuiteUsageErrors(t *testing.T) {
	_, epdPath := suiteFile(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no budget", []string{"-epd", epdPath}, "exactly one of -nodes, -depth or -movetime"},
		{"two budgets", []string{"-epd", epdPath, "-nodes", "100", "-depth", "3"}, "exactly one of"},
		{"bad nodes", []string{"-epd", epdPath, "-nodes", "2700x2^a"}, `-nodes "2700x2^a"`},
		{"bad depth", []string{"-epd", epdPath, "-depth", "0..3"}, "out of range"},
		{"bad movetime", []string{"-epd", epdPath, "-movetime", "5"}, "want one duration"},
		{"no epd", []string{"-nodes", "100"}, "-epd FILE is required"},
		{"missing epd", []string{"-epd", epdPath + ".nope", "-nodes", "100"}, "no such file"},
		{"bad variant", []string{"-epd", epdPath, "-nodes", "100", "-variant", "plain,nosuch"}, `unknown variant preset "nosuch"`},
		{"bad format", []string{"-epd", epdPath, "-nodes", "100", "-format", "xml"}, "-format"},
		{"bad diff", []string{"-epd", epdPath, "-nodes", "100", "-diff", "some"}, "-diff"},
		{"bad hash", []string{"-epd", epdPath, "-nodes", "100", "-hash", "0"}, "-hash"},
		{"extra arg", []string{"-epd", epdPath, "-nodes", "100", "more"}, "unexpected argument"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := suiteCmd(t, context.Background(), tc.args...)
			if code != exitUsage || !strings.Contains(errs, tc.want) || out != "" {
				t.Errorf("code %d, stderr %q, stdout %q; want exit %d and %q", code, errs, out, exitUsage, tc.want)
			}
		})
	}
}

func TestSuiteText(t *testing.T) {
	_, epdPath := suiteFile(t)
	code, out, errs := suiteCmd(t, context.Background(), "-epd", epdPath, "-variant", "plain,fhr", "-nodes", "2000,2000x2^2", "-concurrency", "2", "-hash", "1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{epdPath + ":3: skipped malformed line", "1 malformed lines skipped",
		epdPath + `:6: nobm skipped: no bm or am`, "1 positions skipped"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "[") {
		t.Errorf("progress bar written to a non-terminal:\n%s", errs)
	}
	for _, want := range []string{"4 positions (2 lines skipped)", "node budgets are hard limits", "solved / nodes",
		"at 8000 nodes, plain solved and fhr did not (0): -"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// -depth keeps the position without bm for its node counts.
	code, out, errs = suiteCmd(t, context.Background(), "-epd", epdPath, "-depth", "2..3", "-hash", "1", "-diff", "none")
	if code != exitOK || !strings.Contains(errs, "1 positions without bm or am: searched for node counts only") ||
		!strings.Contains(out, "5 positions") || strings.Contains(out, "did not") {
		t.Errorf("depth run: exit %d\nstderr %s\nstdout %s", code, errs, out)
	}
}

func TestSuiteJSONFileAndDB(t *testing.T) {
	dir, epdPath := suiteFile(t)
	outPath, dbPath := filepath.Join(dir, "out.json"), filepath.Join(dir, "s.db")
	code, out, errs := suiteCmd(t, context.Background(), "-epd", epdPath, "-variant", "plain,fhr", "-depth", "3..4",
		"-format", "json", "-o", outPath, "-db", dbPath, "-hash", "1")
	if code != exitOK || out != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, out, errs)
	}
	data, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Limit     string           `json:"limit"`
		Rows      []map[string]any `json:"rows"`
		Positions []map[string]any `json:"positions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Limit != "depth" || len(doc.Rows) != 4 || len(doc.Positions) != 4*5 {
		t.Errorf("json: limit %s, %d rows, %d positions", doc.Limit, len(doc.Rows), len(doc.Positions))
	}
	st, err := store.OpenReader(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.SuiteRuns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].LimitKind != "depth" || len(runs[0].Rows) != 4 || len(runs[0].Positions) != 20 {
		t.Fatalf("stored runs: %+v", runs)
	}
	r := runs[0].Rows[0]
	if r.Variant != "plain" || r.Limit != 3 || r.Positions != 5 || r.Solved != 4 || r.Nodes != r.MainNodes+r.QNodes {
		t.Errorf("stored row %+v", r)
	}
	if !strings.Contains(errs, "stored as suite run 1") {
		t.Errorf("stderr: %s", errs)
	}
}

func TestSuiteCSV(t *testing.T) {
	_, epdPath := suiteFile(t)
	for _, positions := range []bool{false, true} {
		args := []string{"-epd", epdPath, "-variant", "plain", "-nodes", "1000,2000", "-format", "csv", "-hash", "1"}
		if positions {
			args = append(args, "-positions")
		}
		code, out, errs := suiteCmd(t, context.Background(), args...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		want, head := 3, "variant,nodes,positions,judged,solved,nodes_searched"
		if positions {
			want, head = 9, "variant,nodes,id,line,judged,solved,move,bm,am"
		}
		if len(recs) != want || !strings.HasPrefix(strings.Join(recs[0], ","), head) {
			t.Errorf("positions=%v: %d records, header %v", positions, len(recs), recs[0])
		}
	}
}

func TestSuiteInterrupted(t *testing.T) {
	dir, epdPath := suiteFile(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dbPath := filepath.Join(dir, "s.db")
	// Interrupted once the four searches at 1,000 nodes are done: those at
	// 1,000,000,000 nodes never finish before it.
	var stdout, errb bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &errb, searchDone: func(done, _ int) {
		if done == 4 {
			cancel()
		}
	}}
	code := dispatch(ctx, e, []string{"suite", "-epd", epdPath, "-nodes", "1000,1000000000", "-hash", "1", "-db", dbPath, "-concurrency", "2"})
	out, errs := stdout.String(), errb.String()
	if code != exitInterrupted || !strings.Contains(out, "INTERRUPTED") || !strings.Contains(errs, "not stored") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	// The rows of the finished budget are printed; the run is not stored.
	if !regexp.MustCompile(`plain\s+1000\s+4\s+4\s`).MatchString(out) {
		t.Errorf("finished row missing:\n%s", out)
	}
	st, err := store.OpenReader(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if runs, err := st.SuiteRuns(context.Background()); err != nil || len(runs) != 0 {
		t.Errorf("stored runs %v, %v", runs, err)
	}
}
