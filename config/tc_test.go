package config

import (
	"strings"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	good := []struct {
		in   string
		want TimeControl
	}{
		{"40/7200+0", TimeControl{Moves: 40, Base: 2 * time.Hour, Text: "40/7200+0"}},
		{"40/120", TimeControl{Moves: 40, Base: 2 * time.Minute, Text: "40/120"}},
		{"60+0.6", TimeControl{Base: time.Minute, Increment: 600 * time.Millisecond, Text: "60+0.6"}},
		{"300", TimeControl{Base: 5 * time.Minute, Text: "300"}},
		{" 0/60 ", TimeControl{Base: time.Minute, Text: "0/60"}},
		{"10.5+0.1", TimeControl{Base: 10500 * time.Millisecond, Increment: 100 * time.Millisecond, Text: "10.5+0.1"}},
		{".5+.05", TimeControl{Base: 500 * time.Millisecond, Increment: 50 * time.Millisecond, Text: ".5+.05"}},
		{"2:30+1", TimeControl{Base: 150 * time.Second, Increment: time.Second, Text: "2:30+1"}},
		{"40/120:00", TimeControl{Moves: 40, Base: 2 * time.Hour, Text: "40/120:00"}},
		{"40/1:30.5+2", TimeControl{Moves: 40, Base: 90500 * time.Millisecond, Increment: 2 * time.Second, Text: "40/1:30.5+2"}},
	}
	for _, c := range good {
		tc, err := ParseTimeControl(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if *tc != c.want {
			t.Errorf("%q: got %+v, want %+v", c.in, *tc, c.want)
		}
	}
	bad := []struct{ in, want string }{
		{"", "empty"},
		{"inf", "infinite"},
		{"0", "time must be > 0"},
		{"40/0+1", "time must be > 0"},
		{"40/", "time"},
		{"/60", "moves"},
		{"-40/60", "moves"},
		{"x/60", "moves"},
		{"-5", "time"},
		{"60+-1", "increment"},
		{"60+", "increment"},
		{"60s", "not a number of seconds"},
		{"1e3", "not a number of seconds"},
		{"60+0.5+1", "increment"},
		{"40/60/2", "time"},
		{"60+1:00", "increment"},
		{"1:2:3", "not a number"},
		{"99999999999999999999", "too large"},
	}
	for _, c := range bad {
		tc, err := ParseTimeControl(c.in)
		if err == nil {
			t.Errorf("%q: no error, got %+v", c.in, tc)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %q does not mention %q", c.in, err, c.want)
		}
	}
}

func TestCanonicalTC(t *testing.T) {
	for in, want := range map[string]string{
		"40/7200":   "40/7200+0",
		"40/120:00": "40/7200+0",
		"0/60+0.6":  "60+0.6",
		"1:00+.60":  "60+0.6",
	} {
		tc, err := ParseTimeControl(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalTC(tc); got != want {
			t.Errorf("%q: canonical %q, want %q", in, got, want)
		}
	}
}
