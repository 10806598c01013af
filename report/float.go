package report

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Float is a report number. In JSON it is a number rounded to 10
// significant digits (enough for any figure shown, and free of the
// last-bit differences between platforms), or the string "+inf" or "-inf"
// for an unbounded value, which JSON numbers cannot express.
type Float float64

// jsonDigits is how many significant digits JSON numbers keep.
const jsonDigits = 10

// MarshalJSON writes the number as described on Float. NaN, which the
// report never holds, is written as null rather than failing the encoding.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	switch {
	case math.IsInf(x, 1):
		return []byte(`"+inf"`), nil
	case math.IsInf(x, -1):
		return []byte(`"-inf"`), nil
	case math.IsNaN(x):
		return []byte("null"), nil
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', jsonDigits, 64), 64)
	if err != nil {
		return nil, fmt.Errorf("report: number %v: %w", x, err)
	}
	if r == 0 {
		r = 0 // no "-0"
	}
	return json.Marshal(r)
}

// UnmarshalJSON reads what MarshalJSON writes: a number, "+inf", "-inf",
// or null (NaN), so that Go programs can read a JSON report back.
func (f *Float) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"+inf"`:
		*f = Float(math.Inf(1))
	case `"-inf"`:
		*f = Float(math.Inf(-1))
	case "null":
		*f = Float(math.NaN())
	default:
		var x float64
		if err := json.Unmarshal(b, &x); err != nil {
			return fmt.Errorf("report: number %s: %w", b, err)
		}
		*f = Float(x)
	}
	return nil
}

// finite reports whether x is neither infinite nor NaN.
func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
