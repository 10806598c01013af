package pipeio

import (
	"bufio"
	"io"
	"runtime"
	"strings"
	"testing"
)

func TestReadLine(t *testing.T) {
	type line struct {
		text string
		long bool
	}
	cases := []struct {
		in   string
		max  int
		want []line
	}{
		{"uciok\n", 10, []line{{"uciok", false}}},
		{"uciok\r\nreadyok", 10, []line{{"uciok", false}, {"readyok", false}}},
		{"\n\r\n", 10, []line{{"", false}, {"", false}}},
		{"0123456789\r\n", 10, []line{{"0123456789", false}}},
		{"0123456789a\n", 10, []line{{"0123456789", true}}},
		{"0123456789\r", 10, []line{{"0123456789", true}}}, // a \r that ends no line is text
		{strings.Repeat("x", 5000) + "\r\nok\n", 5000, []line{{strings.Repeat("x", 5000), false}, {"ok", false}}},
		{strings.Repeat("x", 5000) + "\nok\n", 4999, []line{{strings.Repeat("x", 4999), true}, {"ok", false}}},
	}
	for _, c := range cases {
		r := bufio.NewReaderSize(strings.NewReader(c.in), 16) // lines span many fragments
		var got []line
		var buf []byte
		for {
			text, long, err := ReadLine(r, c.max, buf)
			buf = text
			if len(text) > 0 || long || err == nil {
				got = append(got, line{string(text), long})
			}
			if err != nil {
				break
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%.20q: %d lines %v, want %d", c.in, len(got), got, len(c.want))
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%.20q: line %d = {%.20q, %v}, want {%.20q, %v}", c.in, i, got[i].text, got[i].long, c.want[i].text, c.want[i].long)
			}
		}
	}
}

// A 100 MB line costs its first max bytes.
func TestReadLineMemory(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := bufio.NewReader(io.MultiReader(io.LimitReader(xs{}, 100<<20), strings.NewReader("\nisready\n")))
	text, long, err := ReadLine(r, 64<<10, nil)
	if len(text) != 64<<10 || !long || err != nil {
		t.Fatalf("%d bytes, long %v, err %v", len(text), long, err)
	}
	text, long, err = ReadLine(r, 64<<10, text)
	runtime.ReadMemStats(&after)
	if string(text) != "isready" || long || err != nil {
		t.Fatalf("next line %q, %v, %v", text, long, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("reading a 100 MB line allocated %d bytes", n)
	}
}

type xs struct{}

func (xs) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}
