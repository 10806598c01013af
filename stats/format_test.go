package stats

import (
	"math"
	"testing"
)

func TestFormatFloat(t *testing.T) {
	tests := []struct {
		x      float64
		prec   int
		plain  string
		signed string
	}{
		{32.0547, 1, "32.1", "+32.1"},
		{-4, 2, "-4.00", "-4.00"},
		{0, 1, "0.0", "0.0"},
		{-0.001, 2, "0.00", "0.00"},
		{0.001, 2, "0.00", "0.00"},
		{math.Copysign(0, -1), 1, "0.0", "0.0"},
		{math.Inf(1), 1, "+inf", "+inf"},
		{math.Inf(-1), 1, "-inf", "-inf"},
		{math.NaN(), 1, "nan", "nan"},
	}
	for _, tc := range tests {
		if got := FormatFloat(tc.x, tc.prec); got != tc.plain {
			t.Errorf("FormatFloat(%v, %d) = %q, want %q", tc.x, tc.prec, got, tc.plain)
		}
		if got := FormatSigned(tc.x, tc.prec); got != tc.signed {
			t.Errorf("FormatSigned(%v, %d) = %q, want %q", tc.x, tc.prec, got, tc.signed)
		}
	}
}

func TestFormatPercentAndLevel(t *testing.T) {
	percents := map[float64]string{
		0.5: "50.0%", 0.99997: ">99.9%", 1: ">99.9%", 0.00001: "<0.1%", 0: "<0.1%", 0.9994: "99.9%", 0.0005: "0.1%", 0.9995: ">99.9%",
	}
	for p, want := range percents {
		if got := FormatPercent(p); got != want {
			t.Errorf("FormatPercent(%v) = %q, want %q", p, got, want)
		}
	}
	levels := map[float64]string{0.95: "95%", 1 - 0.95: "5%", 0.999: "99.9%", 0.9: "90%", 1 - 0.999: "0.1%",
		0.999999999: "99.9999999%", 1 - 0.999999999: "0.0000001%", 0.5: "50%", 1 - 0.68: "32%"}
	for f, want := range levels {
		if got := FormatLevel(f); got != want {
			t.Errorf("FormatLevel(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestFormatEloInterval(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		e    Estimate
		want string
	}{
		{Estimate{Elo: 32.14, EloLow: 16.5, EloHigh: 47.7}, "+32.1 ± 15.6 Elo"},
		{Estimate{Elo: -4, EloLow: -10, EloHigh: 2}, "-4.0 ± 6.0 Elo"},
		{Estimate{Elo: inf, EloLow: 140.6, EloHigh: inf}, "+inf Elo [+140.6, +inf]"},
		{Estimate{Elo: 190.85, EloLow: -34.9, EloHigh: inf}, "+190.8 Elo [-34.9, +inf]"},
		{Estimate{Elo: -inf, EloLow: -inf, EloHigh: 919.5}, "-inf Elo [-inf, +919.5]"},
	}
	for _, tc := range tests {
		if got := FormatEloInterval(tc.e); got != tc.want {
			t.Errorf("FormatEloInterval(%+v) = %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestVerdict(t *testing.T) {
	tests := []struct {
		tri   *Trinomial
		penta *Pentanomial
		level float64
		want  string
	}{
		{tri: &Trinomial{309, 217, 474}, level: 0.95,
			want: "fhr vs plain: +32.1 ± 15.6 Elo (95%, trinomial), LOS >99.9% — fhr is stronger at the 5% level"},
		{tri: &Trinomial{217, 309, 474}, level: 0.95,
			want: "fhr vs plain: -32.1 ± 15.6 Elo (95%, trinomial), LOS <0.1% — fhr is weaker at the 5% level"},
		{penta: &Pentanomial{12, 85, 190, 100, 13}, level: 0.95,
			want: "fhr vs plain: +7.4 ± 14.4 Elo (95%, pentanomial), LOS 84.3% — no significant difference at the 5% level"},
		{penta: &Pentanomial{12, 85, 190, 100, 13}, level: 0.6,
			want: "fhr vs plain: +7.4 ± 6.2 Elo (60%, pentanomial), LOS 84.3% — fhr is stronger at the 40% level"},
		{tri: &Trinomial{Wins: 20}, level: 0.95,
			want: "fhr vs plain: +inf Elo [+277.4, +inf] (95%, trinomial), LOS >99.9% — fhr is stronger at the 5% level"},
		// one loss at 99%: score ≤ 1 - 0.005 = 0.995 → -400·log10(0.005/0.995) = +919.5
		{tri: &Trinomial{Losses: 1}, level: 0.99,
			want: "fhr vs plain: -inf Elo [-inf, +919.5] (99%, trinomial), LOS 50.0% — no significant difference at the 1% level"},
		{tri: &Trinomial{}, level: 0.95, want: "fhr vs plain: no games played"},
	}
	for _, tc := range tests {
		var e Estimate
		var err error
		if tc.tri != nil {
			e, err = AnalyzeTrinomial(*tc.tri, tc.level)
		} else {
			e, err = AnalyzePentanomial(*tc.penta, tc.level)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := Verdict("fhr", "plain", e); got != tc.want {
			t.Errorf("Verdict\n got %q\nwant %q", got, tc.want)
		}
	}
}

func TestSPRTVerdict(t *testing.T) {
	c := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		r    SPRTResult
		want string
	}{
		{SPRTResult{LLR: 2.32, Lower: -2.944, Upper: 2.944}, "SPRT [0.00, 5.00] logistic: continue (LLR 2.32 in [-2.94, 2.94])"},
		{SPRTResult{LLR: 3.1, Lower: -2.944, Upper: 2.944, State: SPRTAcceptH1}, "SPRT [0.00, 5.00] logistic: H1 accepted (LLR 3.10 > 2.94)"},
		{SPRTResult{LLR: -3, Lower: -2.944, Upper: 2.944, State: SPRTAcceptH0}, "SPRT [0.00, 5.00] logistic: H0 accepted (LLR -3.00 < -2.94)"},
	}
	for _, tc := range tests {
		if got := SPRTVerdict(c, tc.r); got != tc.want {
			t.Errorf("got %q want %q", got, tc.want)
		}
	}
}
