package main

import (
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
)

// runElo runs selfplay elo with buffers and returns exit code, stdout, stderr.
func runElo(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := dispatch(context.Background(), env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}, append([]string{"elo"}, args...))
	return code, out.String(), errOut.String()
}

// figures parses `name value` lines; the verdict keeps the rest of its line.
func figures(t *testing.T, out string) ([]string, map[string]string) {
	t.Helper()
	var names []string
	values := map[string]string{}
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("line %q is not `name value`", line)
		}
		names = append(names, name)
		values[name] = value
	}
	return names, values
}

func number(t *testing.T, values map[string]string, name string) float64 {
	t.Helper()
	v, ok := values[name]
	if !ok {
		t.Fatalf("no %s line", name)
	}
	switch v {
	case "+inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("%s %q: %v", name, v, err)
	}
	return f
}

func TestEloTrinomialNMRTable6(t *testing.T) {
	code, out, errOut := runElo(t, "-w", "309", "-l", "217", "-d", "474", "-first", "nmr", "-second", "plain")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	names, v := figures(t, out)
	wantNames := []string{"games", "score", "elo", "elo_low", "elo_high", "los", "draw_ratio", "nelo", "nelo_low", "nelo_high", "verdict"}
	if strings.Join(names, " ") != strings.Join(wantNames, " ") {
		t.Errorf("lines %v, want %v", names, wantNames)
	}
	// score 546/1000, Elo -400·log10(1/0.546-1) = 32.05, 95% [16.48, 47.75],
	// LOS Phi(4.044) = 0.99997 (worked in stats/estimate_test.go)
	exact := map[string]string{
		"games": "1000", "score": "0.54600", "elo": "32.05", "elo_low": "16.48", "elo_high": "47.75",
		"los": "0.99997", "draw_ratio": "0.47400", "nelo": "44.43", "nelo_low": "22.67", "nelo_high": "66.20",
	}
	for name, want := range exact {
		if v[name] != want {
			t.Errorf("%s = %q, want %q", name, v[name], want)
		}
	}
	wantVerdict := "nmr vs plain: +32.1 ± 15.6 Elo (95%, trinomial), LOS >99.9% — nmr is stronger at the 5% level"
	if v["verdict"] != wantVerdict {
		t.Errorf("verdict %q\nwant    %q", v["verdict"], wantVerdict)
	}
}

func TestEloPentanomial(t *testing.T) {
	code, out, errOut := runElo(t, "-penta", "12, 85,190,100,13", "-level", "0.9")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	names, v := figures(t, out)
	if names[0] != "games" || names[1] != "pairs" || v["games"] != "800" || v["pairs"] != "400" {
		t.Errorf("games/pairs wrong:\n%s", out)
	}
	// mean 204.25/400 = 0.510625 → Elo 7.38, pair draw ratio 190/400
	if s := number(t, v, "score"); math.Abs(s-0.510625) > 1e-5 {
		t.Errorf("score %v", s)
	}
	if v["elo"] != "7.38" || v["draw_ratio"] != "0.47500" {
		t.Errorf("elo %q draw_ratio %q", v["elo"], v["draw_ratio"])
	}
	// 90% interval is narrower than the 95% one [-6.97, 21.76]
	if lo, hi := number(t, v, "elo_low"), number(t, v, "elo_high"); !(lo > -6.97 && hi < 21.76 && lo < 7.38 && hi > 7.38) {
		t.Errorf("90%% interval [%v, %v]", lo, hi)
	}
	if !strings.Contains(v["verdict"], "(90%, pentanomial)") || !strings.Contains(v["verdict"], "at the 10% level") {
		t.Errorf("verdict %q", v["verdict"])
	}
}

func TestEloSPRT(t *testing.T) {
	tests := []struct {
		args  []string
		llr   string
		state string
	}{
		// LLR values re-derived independently in stats/sprt_test.go
		{[]string{"-w", "309", "-l", "217", "-d", "474", "-sprt", "0,5", "-model", "logistic"}, "2.3227", "continue"},
		{[]string{"-w", "309", "-l", "217", "-d", "474", "-sprt", "0,10", "-model", "logistic"}, "4.2550", "H1"},
		// normalized is the default, as in run and match
		{[]string{"-w", "309", "-l", "217", "-d", "474", "-sprt", "0,10", "-model", "normalized"}, "3.2382", "H1"},
		{[]string{"-w", "309", "-l", "217", "-d", "474", "-sprt", "0,10"}, "3.2382", "H1"},
		{[]string{"-w", "217", "-l", "309", "-d", "474", "-sprt", "0,10", "-model", "logistic"}, "", "H0"},
		{[]string{"-penta", "10789,19328,33806,19402,10543", "-sprt", "-3,1", "-model", "logistic"}, "2.1311", "continue"},
		{[]string{"-w", "0", "-l", "0", "-d", "0", "-sprt", "0,5", "-alpha", "0.1", "-beta", "0.2"}, "0.0000", "continue"},
	}
	for _, tc := range tests {
		code, out, errOut := runElo(t, tc.args...)
		if code != exitOK {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
			continue
		}
		names, v := figures(t, out)
		tail := strings.Join(names[len(names)-5:], " ")
		if tail != "llr llr_lower llr_upper sprt verdict" {
			t.Errorf("%v: last lines %q", tc.args, tail)
		}
		if tc.llr != "" && v["llr"] != tc.llr {
			t.Errorf("%v: llr %q, want %q", tc.args, v["llr"], tc.llr)
		}
		if v["sprt"] != tc.state {
			t.Errorf("%v: sprt %q, want %q", tc.args, v["sprt"], tc.state)
		}
		if !strings.Contains(v["verdict"], "; SPRT [") {
			t.Errorf("%v: verdict lacks SPRT clause: %q", tc.args, v["verdict"])
		}
	}
	// log(0.05/0.95) = -2.9444, log(0.95/0.05) = 2.9444
	_, out, _ := runElo(t, "-w", "1", "-sprt", "0,5")
	_, v := figures(t, out)
	if v["llr_lower"] != "-2.9444" || v["llr_upper"] != "2.9444" {
		t.Errorf("bounds %q %q", v["llr_lower"], v["llr_upper"])
	}
}

func TestEloEdgeCasesNeverNaN(t *testing.T) {
	tests := []struct {
		args []string
		want map[string]string
	}{
		{[]string{"-w", "0", "-l", "0", "-d", "0"}, map[string]string{"games": "0", "elo": "0.00", "elo_low": "-inf", "elo_high": "+inf", "los": "0.50000"}},
		{[]string{"-penta", "0,0,0,0,0"}, map[string]string{"pairs": "0", "elo_low": "-inf"}},
		{[]string{"-w", "10"}, map[string]string{"elo": "+inf", "elo_high": "+inf", "nelo": "+inf", "score": "1.00000"}},
		{[]string{"-l", "10"}, map[string]string{"elo": "-inf", "elo_low": "-inf", "nelo": "-inf", "score": "0.00000"}},
		{[]string{"-d", "25"}, map[string]string{"elo": "0.00", "los": "0.50000", "nelo_low": "-inf", "draw_ratio": "1.00000"}},
		{[]string{"-d", "1"}, map[string]string{"games": "1"}},
		{[]string{"-penta", "0,0,1,0,0"}, map[string]string{"pairs": "1", "elo": "0.00"}},
		{[]string{"-penta", "0,0,0,0,1", "-sprt", "0,5"}, map[string]string{"elo": "+inf", "sprt": "continue"}},
	}
	for _, tc := range tests {
		code, out, errOut := runElo(t, tc.args...)
		if code != exitOK {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
			continue
		}
		if strings.Contains(strings.ToLower(out), "nan") {
			t.Errorf("%v: NaN in output:\n%s", tc.args, out)
		}
		_, v := figures(t, out)
		for name, want := range tc.want {
			if v[name] != want {
				t.Errorf("%v: %s = %q, want %q", tc.args, name, v[name], want)
			}
		}
	}
}

func TestEloBadInput(t *testing.T) {
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"-w", "-1", "-l", "2"}, "negative"},
		// Counts whose sum overflows (printed as negative games before).
		{[]string{"-w", "9223372036854775807", "-l", "1", "-d", "1"}, "add up to more than 9007199254740992 games"},
		{[]string{"-w", "4611686018427387904", "-l", "4611686018427387904"}, "add up to more than"},
		{[]string{"-penta", "4611686018427387904,4611686018427387904,0,0,1"}, "more than 4503599627370496 pairs"},
		{[]string{"-penta", "0,0,4503599627370497,0,0"}, "more than 4503599627370496 pairs"},
		{[]string{"-penta", "1,2,3"}, "5 comma-separated"},
		{[]string{"-penta", "1,2,3,4,5,6"}, "5 comma-separated"},
		{[]string{"-penta", "1,2,-3,4,5"}, "negative"},
		{[]string{"-penta", "1,2,x,4,5"}, "not an integer"},
		{[]string{"-w", "5", "-sprt", "5,0"}, "elo0"},
		{[]string{"-w", "5", "-sprt", "5,5"}, "elo0"},
		{[]string{"-w", "5", "-sprt", "5"}, "elo0,elo1"},
		{[]string{"-w", "5", "-sprt", "a,5"}, "not a number"},
		{[]string{"-w", "5", "-sprt", "0,5", "-alpha", "1.5"}, "alpha"},
		{[]string{"-w", "5", "-sprt", "0,5", "-alpha", "0"}, "alpha"},
		{[]string{"-w", "5", "-sprt", "0,5", "-beta", "1"}, "beta"},
		{[]string{"-w", "5", "-sprt", "0,5", "-model", "bayes"}, "unknown Elo model"},
		{[]string{"-w", "5", "-alpha", "0.1"}, "needs -sprt"},
		{[]string{"-w", "5", "-model", "normalized"}, "needs -sprt"},
		{[]string{"-w", "5", "-penta", "1,1,1,1,1"}, "not both"},
		{[]string{}, "no result given"},
		{[]string{"-w", "5", "-level", "95"}, "-level"},
		{[]string{"-w", "5", "-level", "0"}, "-level"},
		{[]string{"-w", "5", "extra"}, "unexpected argument"},
		{[]string{"-x"}, "flag provided but not defined"},
	}
	for _, tc := range tests {
		code, out, errOut := runElo(t, tc.args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d", tc.args, code, exitUsage)
		}
		if out != "" {
			t.Errorf("%v: wrote to stdout: %q", tc.args, out)
		}
		if !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: stderr %q lacks %q", tc.args, errOut, tc.msg)
		}
	}
}

func TestEloHelpAndDispatch(t *testing.T) {
	code, out, errOut := runElo(t, "-h")
	if code != exitOK || out != "" || !strings.Contains(errOut, "usage: selfplay elo") || !strings.Contains(errOut, "-penta") {
		t.Errorf("help: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	var stdout, stderr bytes.Buffer
	code = dispatch(context.Background(), env{stdout: &stdout, stderr: &stderr}, []string{"elo", "-w", "3", "-l", "1", "-d", "2"})
	if code != exitOK || !strings.Contains(stdout.String(), "\nverdict first vs second: ") {
		t.Errorf("dispatch: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
