package suite

import (
	"slices"
	"strings"
	"testing"
)

func TestParseNodes(t *testing.T) {
	tests := []struct {
		in      string
		want    []int64
		wantErr string
	}{
		{in: "5400", want: []int64{5400}},
		{in: "5400,10800", want: []int64{5400, 10800}},
		{in: " 10800 , 5400 ", want: []int64{5400, 10800}},
		{in: "2700x2^3", want: []int64{21600}},
		{in: "2700*2^0", want: []int64{2700}},
		{in: "2700×2^1..2", want: []int64{5400, 10800}},
		{in: "2^4", want: []int64{16}},
		{in: "2700x2^1..10", want: []int64{5400, 10800, 21600, 43200, 86400, 172800, 345600, 691200, 1382400, 2764800}},
		{in: "2700x2^1..3,100", want: []int64{100, 5400, 10800, 21600}},
		{in: "", wantErr: "empty list"},
		{in: "5400,,10800", wantErr: "empty item"},
		{in: "0", wantErr: "out of range"},
		{in: "-5", wantErr: "out of range"},
		{in: "abc", wantErr: `"abc" is not a whole number`},
		{in: "1e6", wantErr: "not a whole number"},
		{in: "2700x2^", wantErr: "exponent: missing number"},
		{in: "2700x2^5..3", wantErr: "runs backwards"},
		{in: "2700x2^1..x", wantErr: "not a whole number"},
		{in: "2700y2^3", wantErr: "want BASEx2^E"},
		{in: "x2^3", wantErr: "base: missing number"},
		{in: "2700x2^60", wantErr: "out of range 0..50"},
		{in: "1000000000x2^40", wantErr: "more than the largest budget"},
		{in: "5400,2700x2^1", wantErr: "5400 is given twice"},
		{in: "1x2^0..40,1x2^41..50,3x2^0..20", wantErr: "at most 64"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			p, err := ParseNodes(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseNodes(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
				}
				if !strings.Contains(err.Error(), "-nodes") {
					t.Errorf("error %q does not name the flag", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseNodes(%q): %v", tc.in, err)
			}
			if p.Kind != Nodes || !slices.Equal(p.Values, tc.want) {
				t.Errorf("ParseNodes(%q) = %v %v, want nodes %v", tc.in, p.Kind, p.Values, tc.want)
			}
			if lim := p.Limits(p.Values[0]); lim.Nodes != p.Values[0] || lim.Depth != 0 || lim.MoveTime != 0 {
				t.Errorf("Limits = %+v", lim)
			}
		})
	}
}

func TestParseDepths(t *testing.T) {
	tests := []struct {
		in      string
		want    []int64
		wantErr string
	}{
		{in: "6", want: []int64{6}},
		{in: "4..8", want: []int64{4, 5, 6, 7, 8}},
		{in: "10,4..5", want: []int64{4, 5, 10}},
		{in: "0", wantErr: "out of range 1..120"},
		{in: "121", wantErr: "out of range"},
		{in: "8..4", wantErr: "runs backwards"},
		{in: "4..", wantErr: "missing number"},
		{in: "4-8", wantErr: "not a whole number"},
		{in: "4..6,5", wantErr: "5 is given twice"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			p, err := ParseDepths(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseDepths(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseDepths(%q): %v", tc.in, err)
			}
			if p.Kind != Depth || !slices.Equal(p.Values, tc.want) {
				t.Errorf("ParseDepths(%q) = %v %v, want %v", tc.in, p.Kind, p.Values, tc.want)
			}
		})
	}
}

func TestParseMoveTime(t *testing.T) {
	tests := []struct {
		in      string
		want    int64 // ms
		format  string
		wantErr string
	}{
		{in: "5s", want: 5000, format: "5s"},
		{in: "250ms", want: 250, format: "250ms"},
		{in: "1m30s", want: 90000, format: "1m30s"},
		{in: "5", wantErr: "want one duration"},
		{in: "5s,10s", wantErr: "want one duration"},
		{in: "100us", wantErr: "between 1ms"},
		{in: "-1s", wantErr: "between"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			p, err := ParseMoveTime(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseMoveTime(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != MoveTime || len(p.Values) != 1 || p.Values[0] != tc.want || p.Format(p.Values[0]) != tc.format {
				t.Errorf("ParseMoveTime(%q) = %+v", tc.in, p)
			}
			if lim := p.Limits(p.Values[0]); lim.MoveTime.Milliseconds() != tc.want {
				t.Errorf("Limits = %+v", lim)
			}
		})
	}
}

func TestParseVariants(t *testing.T) {
	vs, err := ParseVariants("plain, fhr,nmr-r3-4:dr=2")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 || vs[0].Name != "plain" || vs[1].Name != "fhr" || vs[2].Name != "nmr-r3-4:dr=2" {
		t.Errorf("ParseVariants = %+v", vs)
	}
	for _, bad := range []string{"", "plain,", "nosuch", "plain,plain"} {
		if _, err := ParseVariants(bad); err == nil {
			t.Errorf("ParseVariants(%q) accepted", bad)
		}
	}
}
